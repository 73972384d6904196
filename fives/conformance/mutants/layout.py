"""The layout misreadings among the mutant engines (`fives.conformance.mutants.registry`), and `Mutant`.

Each overrides one counting hook of `fives.layout.Layout`; the match and settlement
misreadings are in `fives.conformance.mutants.play`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from fives.layout import BRANCHES, Contribution, Layout, PlacedTile
from fives.tiles import Side, Tile


@dataclass(frozen=True)
class Mutant:
    name: str
    misreading: str
    clause: str  # the clause it breaks
    hooks: Callable[[], dict[str, Any]]
    #: where the misreading is really a rule variant: game -> the profile overrides it plays
    #: exactly ({}: it changes nothing in that game); tests/test_variants_mutants.py proves it
    #: case by case, and `conformance diagnose` names it by these parameters
    variant: dict[str, dict[str, Any]] = field(default_factory=dict, hash=False, compare=False)
    #: other clauses it breaks by its very reading, where a situation falls under one of them
    #: (a split award breaks the team tie of HR-SETTLE-7 as well as the solo one of HR-SETTLE-6)
    also: tuple[str, ...] = ()

    def clauses_in(self, game: str) -> set[str]:
        """The clauses a finding of this misreading in `game` may rightly be filed under: its
        own and `also`, each as the same rule of `game` (spec/rules.md's counterpart)."""
        prefix = "SN" if game == SN else "HR"
        return {c if c.startswith(prefix) else COUNTERPART.get(c, c) for c in (self.clause, *self.also)}


HR, SN = "horse-race", "american-sniff"
#: The same rule in the other game (spec/rules.md), both ways: the clause a misreading of one
#: game's rule breaks when it shows in the other.
_PAIRS = (("SN-PLACE-1", "HR-PLACE-1"), ("SN-LEAD-2", "HR-LEAD-2"), ("SN-SPIN-1", "HR-SPIN-1"),
          ("SN-SPIN-2", "HR-SPIN-2"), ("SN-COUNT-2", "HR-COUNT-1"), ("SN-SCORE-2", "HR-SCORE-2"),
          ("SN-SETTLE-2", "HR-SETTLE-4"), ("SN-MATCH-1", "HR-MATCH-1"), ("SN-END-2", "HR-END-1"),
          ("SN-RECORD-1", "HR-RECORD-1"), ("SN-DRAW-1", "HR-DRAW-1"))
COUNTERPART = {**dict(_PAIRS), **{b: a for a, b in _PAIRS}}


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
           _layout(SniffBranchHalvesNotCounted), {HR: {}, SN: {"counting.open_branch_side": "zero"}}),
    Mutant("unused-branches-counted", "Horse Race: unused branch sides of an internal double count one half each",
           "HR-COUNT-2", _layout(UnusedBranchesCounted), {HR: {"counting.open_branch_side": "one-half"}, SN: {}}),
    Mutant("branches-before-lines", "branch sides open before both line sides are occupied", "SN-SPIN-2",
           _layout(BranchesBeforeLines)),
    Mutant("later-doubles-spin", "Sniff: every double is a spinner", "SN-SPIN-1", _layout(EveryDoubleSpins),
           {SN: {"spinners.policy": "every-double"}}),
    Mutant("only-first-double-spins", "Horse Race: only the first double is a spinner", "HR-SPIN-1",
           _layout(OnlyFirstDoubleSpins), {HR: {"spinners.policy": "first-double"}}),
    Mutant("opening-double-counted-twice", "a lone opening double counts 4v (each line end 2v)", "SN-COUNT-2",
           _layout(OpeningDoubleCountedTwice)),
    Mutant("internal-double-counts", "a non-spinner double keeps counting 2v once internal", "SN-COUNT-2",
           _layout(InternalDoubleKeepsCounting)),
    Mutant("covered-branch-still-counts", "Sniff: a branch side keeps its half after a branch covers it",
           "SN-COUNT-4", _layout(CoveredBranchStillCounts)),
]
