"""Mutant engines: the reference engine with exactly one classic misreading each.

`fives conformance mutants` runs the whole suite against every mutant through the protocol
(`fives serve --mutant NAME`) and proves each one is caught by at least one fixture. Each
mutant overrides one hook of the layout (`fives.layout.Layout`), the match
(`fives.match.Match`) or the settlement (`fives.settlement.Settlement`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .engine import ReferenceEngine
from .errors import UserError
from .layout import BRANCHES, Contribution, Layout, PlacedTile
from .tiles import Side, Tile


@dataclass(frozen=True)
class Mutant:
    name: str
    misreading: str
    clause: str  # the clause it breaks
    hooks: Callable[[], dict[str, Any]]


# -- layout misreadings ---------------------------------------------------------------
class SniffBranchHalvesNotCounted(Layout):
    def _hook_double_contributions(self, pt: PlacedTile) -> list[Contribution]:
        if pt.spinner and pt.lines_occupied():
            return []
        return super()._hook_double_contributions(pt)


class UnusedBranchesCounted(Layout):
    def _hook_double_contributions(self, pt: PlacedTile) -> list[Contribution]:
        if pt.spinner and pt.lines_occupied():
            return [Contribution(pt.tile, pt.tile.low, b) for b in BRANCHES if b not in pt.occupied]
        return super()._hook_double_contributions(pt)


class BranchesBeforeLines(Layout):
    def _hook_branches_open(self, pt: PlacedTile) -> bool:
        return pt.spinner


class EveryDoubleSpins(Layout):
    def _hook_is_spinner(self, tile: Tile) -> bool:
        return tile.is_double


class OnlyFirstDoubleSpins(Layout):
    def _hook_is_spinner(self, tile: Tile) -> bool:
        return tile.is_double and not self._spinners


class OpeningDoubleCountedTwice(Layout):
    def _hook_double_contributions(self, pt: PlacedTile) -> list[Contribution]:
        if pt.parent is None and Side.LINE_A not in pt.occupied and Side.LINE_B not in pt.occupied:
            return [Contribution(pt.tile, 4 * pt.tile.low)]  # each free line counted as 2v
        return super()._hook_double_contributions(pt)


class InternalDoubleKeepsCounting(Layout):
    def _hook_double_contributions(self, pt: PlacedTile) -> list[Contribution]:
        if not pt.spinner and pt.lines_occupied():
            return [Contribution(pt.tile, 2 * pt.tile.low)]
        return super()._hook_double_contributions(pt)


class CoveredBranchStillCounts(Layout):
    def _hook_double_contributions(self, pt: PlacedTile) -> list[Contribution]:
        if pt.spinner and pt.lines_occupied() and self.rules.open_branch_side == "one-half":
            return [Contribution(pt.tile, pt.tile.low, b) for b in BRANCHES]
        return super()._hook_double_contributions(pt)


def _layout(cls: type[Layout]) -> Callable[[], dict[str, Any]]:
    return lambda: {"layout": cls}


LAYOUT_MUTANTS = [
    Mutant("sniff-branch-halves-not-counted", "Sniff: the open branch sides of the Sniff count nothing", "SN-COUNT-3",
           _layout(SniffBranchHalvesNotCounted)),
    Mutant("unused-branches-counted", "Horse Race: unused branch sides of an internal double count one half each",
           "HR-COUNT-2", _layout(UnusedBranchesCounted)),
    Mutant("branches-before-lines", "branch sides open before both line sides are occupied", "SN-SPIN-2",
           _layout(BranchesBeforeLines)),
    Mutant("later-doubles-spin", "Sniff: every double is a spinner", "SN-SPIN-1", _layout(EveryDoubleSpins)),
    Mutant("only-first-double-spins", "Horse Race: only the first double is a spinner", "HR-SPIN-1",
           _layout(OnlyFirstDoubleSpins)),
    Mutant("opening-double-counted-twice", "a lone opening double counts 4v (each line end 2v)", "SN-COUNT-2",
           _layout(OpeningDoubleCountedTwice)),
    Mutant("internal-double-counts", "a non-spinner double keeps counting 2v once internal", "SN-COUNT-2",
           _layout(InternalDoubleKeepsCounting)),
    Mutant("covered-branch-still-counts", "Sniff: a branch side keeps its half after a branch covers it",
           "SN-COUNT-4", _layout(CoveredBranchStillCounts)),
]


def all_mutants() -> list[Mutant]:
    from .play_mutants import PLAY_MUTANTS
    return LAYOUT_MUTANTS + PLAY_MUTANTS


def mutant_engine(name: str) -> ReferenceEngine:
    for m in all_mutants():
        if m.name == name:
            return ReferenceEngine(m.hooks(), name=f"fives-mutant-{name}")
    raise UserError(f"unknown mutant {name!r}: one of {', '.join(m.name for m in all_mutants())}")


#: Perft cases up to this many sequences run against mutants (their push/pop walk is slow).
MUTANT_PERFT_NODES = 5_000


@dataclass
class MutantResult:
    mutant: Mutant
    killers: list[Any]  # CaseResult of every case the mutant fails or errors
    ran: int

    @property
    def killed(self) -> bool:
        return bool(self.killers)


def run_mutant(m: Mutant, cases: list[Any], via_protocol: bool, timeout: float) -> MutantResult:
    """Run every case against one mutant; the cases it fails or errors are its killers."""
    import sys

    from .engine import ProcessEngine
    from .kinds import load_kinds
    from .runner import run_cases

    kinds = load_kinds()
    # deep perft rows add nothing the shallow rows and divides do not already catch
    cases = [c for c in cases if c.kind != "perft" or c.expect["nodes"] <= MUTANT_PERFT_NODES]
    engine = (ProcessEngine(f"{sys.executable} -m fives.cli serve --mutant {m.name}", timeout=timeout)
              if via_protocol else ReferenceEngine(m.hooks(), name=m.name, timeout=timeout))
    engine.start()
    try:
        results = run_cases(engine, cases, kinds)
    finally:
        engine.close()
    return MutantResult(m, [r for r in results if r.status in ("failed", "errored")], len(results))
