"""Every golden case category: name -> (weight, builder), layout builders and play builders.

`golden_builders()` (suite_version 2) makes every play state, and the random-play layouts, by
whole seeded self-play matches (fives/conformance/golden/reached.py); `builders()` is the v1
table the fuzzer draws from (it brings each state into reach itself, spec/fuzz.md)."""
from __future__ import annotations

from fives.conformance.golden.cases import CaseBuilder, illegal_placement, layout_builder
from fives.conformance.golden.play import PLAY_BUILDERS
from fives.conformance.golden.reached import REACHED_BUILDERS


def _layouts() -> dict[str, tuple[int, CaseBuilder]]:
    return {
        "random-play": (4, layout_builder("random-play")),
        "four-arms": (2, layout_builder("four-arms")),
        "double-at-arm-end": (2, layout_builder("double-at-arm-end")),
        "largest-sums": (1, layout_builder("largest-sums")),
        "zero-sums": (1, layout_builder("zero-sums")),
        "spinner-chains": (2, layout_builder("spinner-chains")),
        "illegal": (2, illegal_placement),
    }


def builders() -> dict[str, tuple[int, CaseBuilder]]:
    out = _layouts()
    out.update(PLAY_BUILDERS)
    return out


def golden_builders() -> dict[str, tuple[int, CaseBuilder]]:
    out = _layouts()
    out.update(REACHED_BUILDERS)
    return out
