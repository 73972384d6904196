"""Every golden case category: name -> (weight, builder), layout builders and play builders."""
from __future__ import annotations

from fives.conformance.golden.cases import CaseBuilder, illegal_placement, layout_builder
from fives.conformance.golden.play import PLAY_BUILDERS


def builders() -> dict[str, tuple[int, CaseBuilder]]:
    out: dict[str, tuple[int, CaseBuilder]] = {
        "random-play": (4, layout_builder("random-play")),
        "four-arms": (2, layout_builder("four-arms")),
        "double-at-arm-end": (2, layout_builder("double-at-arm-end")),
        "largest-sums": (1, layout_builder("largest-sums")),
        "zero-sums": (1, layout_builder("zero-sums")),
        "spinner-chains": (2, layout_builder("spinner-chains")),
        "illegal": (2, illegal_placement),
    }
    out.update(PLAY_BUILDERS)
    return out
