"""Mutant engines for play: one misreading of turns, continuations, settlement or match end."""
from __future__ import annotations

from typing import Any, Callable, Iterable

from fives.match import DRAW, Match, Outcome
from fives.conformance.mutants.layout import Mutant
from fives.settlement import GONE_OUT, HandEnd, Settlement
from fives.tiles import Tile


class RemainderTwoRoundsUp(Settlement):
    def round_remaining(self, pips: int) -> int:
        q, rem = divmod(pips, 5)
        return (q + (1 if rem >= 2 else 0)) * 5


class RemainderThreeRoundsDown(Settlement):
    def round_remaining(self, pips: int) -> int:
        q, rem = divmod(pips, 5)
        return (q + (1 if rem >= 4 else 0)) * 5


class PartnersMerged(Settlement):
    def side_deduction(self, seat_pips: list[int]) -> int:
        return self.round_remaining(sum(seat_pips))


class TiedWinnersSplit(Settlement):
    def award_points(self, rounded: int, tied: int) -> int:
        return rounded // self.params["award_divisor"] // max(1, tied)


class WinnerPartnerCounted(Settlement):
    def award_seats(self, side: int, end: HandEnd) -> list[int]:
        own = end.seat if end.seat is not None else self.config.sides[side][0]
        return [s for s in range(self.config.players) if s != own]


class WinnerOwnSubtracted(Settlement):
    def award_total(self, counted_pips: int, winner_pips: int) -> int:
        return max(0, counted_pips - winner_pips)


class LowestSingleHandWins(Settlement):
    def hand_winners(self, end: HandEnd, totals: list[int]) -> list[int]:
        if end.reason == GONE_OUT or not self.config.partnerships:
            return super().hand_winners(end, totals)
        # reads "lowest hand" as the lowest single seat, not the team total
        pips = getattr(self, "_pips", None)
        if pips is None:
            return super().hand_winners(end, totals)
        low = min(pips)
        return sorted({self.config.side_of[s] for s, p in enumerate(pips) if p == low})

    def settle(self, scores: list[int], end: HandEnd, pips: list[int]) -> Any:
        self._pips = list(pips)
        return super().settle(scores, end, pips)


class DrawnTileContinues(Match):
    def _hook_continuations_earned(self, tile: Tile, from_drawn: bool, raw: int) -> int:
        return super()._hook_continuations_earned(tile, False, raw)


class ScoringDoubleTwice(Match):
    def _hook_continuations_earned(self, tile: Tile, from_drawn: bool, raw: int) -> int:
        n = super()._hook_continuations_earned(tile, from_drawn, raw)
        return 2 if n and tile.is_double and raw > 0 else n


class ZeroSumScores(Match):
    def _hook_continuations_earned(self, tile: Tile, from_drawn: bool, raw: int) -> int:
        n = super()._hook_continuations_earned(tile, from_drawn, raw)
        if not n and not from_drawn and self.rules.has_continuation and self.layout.sum == 0:
            return 1  # reads a zero sum as a score, so it "scored"
        return n


class SniffContinues(Match):
    def _hook_continuations_earned(self, tile: Tile, from_drawn: bool, raw: int) -> int:
        if self.rules.has_continuation:
            return super()._hook_continuations_earned(tile, from_drawn, raw)
        return 1 if not from_drawn and (tile.is_double or raw > 0) else 0


class ContinuationCannotDraw(Match):
    def _hook_continuation_may_draw(self) -> bool:
        return False


class MatchEndsAtHandEnd(Match):
    def _hook_placement_ends_match(self, side: int) -> bool:
        return False


class SettleAfterMatchEnd(Match):
    def _hook_settle_after_match_end(self) -> bool:
        return True


class BlockedDrawKeepsTurn(Match):
    """Reads "the turn ends" as needing a placement or a pass: a draw that blocks the hand
    ends the hand but not the turn (an engine written from the documents had this)."""

    def _check_blocked(self, out: Outcome) -> None:
        super()._check_blocked(out)
        if out.action == DRAW and out.hand_end is not None:
            out.turn_end = False


class DrawsBeforeOpening(Match):
    """Lets the leader draw (or pass) instead of opening: no tile counts as placeable on an
    empty layout."""

    def _can_place_any(self, hand: Iterable[Tile]) -> bool:
        return bool(len(self.layout)) and super()._can_place_any(hand)


def _hooks(**kw: type) -> Callable[[], dict[str, Any]]:
    return lambda: dict(kw)


HR, SN = "horse-race", "american-sniff"
PLAY_MUTANTS = [
    Mutant("remainder-2-rounds-up", "remaining pips with remainder 2 round up", "SN-SETTLE-2",
           _hooks(settlement=RemainderTwoRoundsUp), {g: {"settlement.rounding.round_up_from_remainder": 2} for g in (HR, SN)}),
    Mutant("remainder-3-rounds-down", "remaining pips with remainder 3 round down", "HR-SETTLE-4",
           _hooks(settlement=RemainderThreeRoundsDown),
           {g: {"settlement.rounding.round_up_from_remainder": 4} for g in (HR, SN)}),
    Mutant("partners-merged", "Sniff: partners' hands merged before rounding", "SN-SETTLE-3",
           _hooks(settlement=PartnersMerged), {HR: {}, SN: {"settlement.merge_partners": True}}),
    Mutant("tied-winners-split", "Horse Race: tied winners split the award", "HR-SETTLE-6",
           _hooks(settlement=TiedWinnersSplit), {HR: {"settlement.ties": "split"}, SN: {}}, also=("HR-SETTLE-7",)),
    Mutant("winner-partner-counted", "Horse Race: the winner's partner's tiles count in the award", "HR-SETTLE-5",
           _hooks(settlement=WinnerPartnerCounted),
           {HR: {"settlement.exclude_winner_partner": False}, SN: {}}),
    Mutant("winner-own-subtracted", "Horse Race: the winner's own remainder is subtracted from the award",
           "HR-SETTLE-3", _hooks(settlement=WinnerOwnSubtracted), {HR: {"settlement.subtract_winner_own": True}, SN: {}}),
    Mutant("lowest-single-hand-wins", "Horse Race partnerships: a blocked hand goes to the lowest single hand",
           "HR-SETTLE-2", _hooks(settlement=LowestSingleHandWins), also=("HR-SETTLE-7",)),
    Mutant("drawn-tile-continues", "Horse Race: a drawn double or scoring tile earns a continuation", "HR-CONT-5",
           _hooks(match=DrawnTileContinues), {HR: {"continuation.drawn_tile_ends_turn": False}, SN: {}}),
    Mutant("scoring-double-twice", "Horse Race: a scoring double earns two continuations", "HR-CONT-2",
           _hooks(match=ScoringDoubleTwice)),
    Mutant("zero-sum-scores", "a zero sum counts as scoring (and so continues in Horse Race)", "HR-SCORE-2",
           _hooks(match=ZeroSumScores)),
    Mutant("sniff-continues", "Sniff: a double or scoring tile lets the player go again", "SN-TURN-1",
           _hooks(match=SniffContinues)),
    Mutant("continuation-cannot-draw", "Horse Race: a continuation with no legal placement ends the turn",
           "HR-CONT-6", _hooks(match=ContinuationCannotDraw)),
    Mutant("match-ends-at-hand-end", "reaching the target by a placement does not end the match at once",
           "HR-MATCH-1", _hooks(match=MatchEndsAtHandEnd), {g: {"match_end.on_placement": "hand-end"} for g in (HR, SN)}),
    Mutant("settle-after-match-end", "a hand whose placement ended the match is still settled", "SN-MATCH-1",
           _hooks(match=SettleAfterMatchEnd), {g: {"match_end.settle_after_match_end": True} for g in (HR, SN)}),
    Mutant("blocked-draw-keeps-turn", "a draw that leaves the hand blocked does not end the turn", "SN-END-2",
           _hooks(match=BlockedDrawKeepsTurn)),
    Mutant("draws-before-opening", "the leader may draw instead of opening the hand", "SN-LEAD-2",
           _hooks(match=DrawsBeforeOpening)),
]
