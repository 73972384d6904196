"""Hand settlement and the target check: who gains or loses what when a hand ends.

American Sniff deducts each seat's rounded remaining pips from its own side (SN-SETTLE-1..4);
Horse Race awards the opponents' rounded remaining pips / 5 to the hand's winner(s)
(HR-SETTLE-1..7). Both then check the target once for the whole settlement (HR-MATCH-2).
Every choice a misreading could change is one small overridable method (spec/play.md, "Hooks").
Scores are kept in the game's score unit: raw points for Sniff, displayed points for Horse Race.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from fives.rules import GameRules
from fives.support.wording import one_of, side_name

GONE_OUT = "gone-out"
BLOCKED = "blocked"


@dataclass(frozen=True)
class MatchConfig:
    """Who plays: the number of seats, whether they form partnerships, and the sides.

    A side is what owns a score: seat i in solo play, team i (seats `sides[i]`) in partnerships.
    """

    players: int
    partnerships: bool
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]  # the side index of every seat
    hand_size: int
    target: int  # in the game's score unit (raw for Sniff, displayed for Horse Race)

    def describe_side(self, side: int) -> str:
        """"seat 1", or "team 0+2" in partnerships (messages and pictures)."""
        return side_name(self.sides[side])


class ConfigError(ValueError):
    """A configuration the game's document does not allow."""


def configure(rules: GameRules, players: int, partnerships: bool = False) -> MatchConfig:
    """The MatchConfig for `players` seats, or ConfigError naming what the game allows."""
    ok = players in (rules.partnership_players if partnerships else rules.solo_players)
    if not isinstance(players, int) or isinstance(players, bool) or not ok:
        allowed = f"{one_of(rules.solo_players)} players each for themselves"
        if rules.partnership_players:
            allowed += f", or {one_of(rules.partnership_players)} in two partnerships"
        what = f"{players} players" + (" in partnerships" if partnerships else " each for themselves")
        hint = ""
        if not partnerships and players in rules.partnership_players:
            hint = f" ({players} players always form two partnerships: add --partnerships)"
        raise ConfigError(f"{rules.id} has no game for {what}{hint}; it allows {allowed}")
    sides = rules.teams if partnerships else tuple((s,) for s in range(players))
    side_of = [0] * players
    for i, seats in enumerate(sides):
        for s in seats:
            side_of[s] = i
    return MatchConfig(players, partnerships, tuple(tuple(s) for s in sides), tuple(side_of),
                       rules.hand_size[players], rules.target_raw[players] // rules.display_divisor)


@dataclass(frozen=True)
class HandEnd:
    reason: str  # GONE_OUT or BLOCKED
    seat: int | None = None  # who went out

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "seat": self.seat}


@dataclass
class SettlementResult:
    """The arithmetic of one settlement, in the shape records and the `settle` kind use."""

    kind: str
    end: HandEnd
    pips: list[int]  # remaining pips per seat
    rounded: list[int] | None  # per seat (Sniff only: seats are rounded separately)
    totals: list[int]  # remaining pips per side
    hand_winners: list[int]  # sides that won the hand (Horse Race)
    awards: list[dict[str, Any]]
    deductions: list[dict[str, Any]]
    changes: list[int]  # per side, added to the scores
    scores_before: list[int]
    scores: list[int]
    winners: list[int] = field(default_factory=list)  # sides that won the match here

    def to_dict(self) -> dict[str, Any]:
        seats: list[dict[str, Any]] = []
        for s, p in enumerate(self.pips):
            entry: dict[str, Any] = {"seat": s, "pips": p}
            if self.rounded is not None:
                entry["rounded"] = self.rounded[s]
            seats.append(entry)
        return {"kind": self.kind, "end": self.end.to_dict(), "seats": seats, "totals": self.totals,
                "hand_winners": self.hand_winners, "awards": self.awards, "deductions": self.deductions,
                "changes": self.changes, "scores": self.scores, "winners": self.winners}


class Settlement:
    """The settlement rules of one game and configuration."""

    def __init__(self, rules: GameRules, config: MatchConfig) -> None:
        self.rules = rules
        self.config = config
        self.params = rules.settlement
        self.ties = self.params.get("ties", "full-award-each")  # read by hand_winners and award_points

    # -- hooks: each a rule decision a variant or mutant may read differently -------------
    def round_remaining(self, pips: int) -> int:
        """Nearest multiple of 5: remainder 1-2 down, 3-4 up (SN-SETTLE-2, HR-SETTLE-4)."""
        r = self.params["rounding"]
        q, rem = divmod(pips, r["multiple"])
        rounded: int = (q + (1 if rem >= r["round_up_from_remainder"] else 0)) * r["multiple"]
        return rounded

    def side_deduction(self, seat_pips: list[int]) -> int:
        """Sniff: what one side loses; partners are rounded separately (SN-SETTLE-3)."""
        if self.params.get("merge_partners"):
            return self.round_remaining(sum(seat_pips))
        return sum(self.round_remaining(p) for p in seat_pips)

    def hand_winners(self, end: HandEnd, totals: list[int]) -> list[int]:
        """Horse Race: the sides that won the hand (HR-SETTLE-1, HR-SETTLE-2)."""
        if end.reason == GONE_OUT:
            assert end.seat is not None
            return [self.config.side_of[end.seat]]
        if self.params.get("blocked_winner", "lowest-remaining") == "nobody":
            return []  # a variant: a blocked hand awards nothing
        low = min(totals)  # partnerships compare team totals, never a single hand
        lowest = [side for side, t in enumerate(totals) if t == low]
        if len(lowest) > 1 and self.ties == "nobody":
            return []  # a variant: a tie for lowest wins nothing
        return lowest

    def award_seats(self, side: int, end: HandEnd) -> list[int]:
        """Seats whose pips count for `side`'s award: every seat of the other sides, the other
        tied winners included; the winner's partner is excluded (HR-SETTLE-5, HR-SETTLE-6)."""
        if self.params.get("exclude_winner_partner", True):
            return [s for s in range(self.config.players) if self.config.side_of[s] != side]
        own = end.seat if end.seat is not None else self.config.sides[side][0]
        return [s for s in range(self.config.players) if s != own]

    def award_total(self, counted_pips: int, winner_pips: int) -> int:
        """The pips an award is computed from; the winner's own are not subtracted (HR-SETTLE-3).
        As a variant they are, down to 0 at least (a partner may hold more than the others)."""
        if self.params.get("subtract_winner_own"):
            return max(0, counted_pips - winner_pips)
        return counted_pips

    def award_rounded(self, pips: list[int], winner_pips: int) -> int:
        """The rounded pips of an award from the counted seats' `pips`: their total rounded
        once (HR-SETTLE-4), or, as a variant, each seat rounded separately."""
        if self.params.get("award_rounding", "total") == "per-opponent":
            return self.award_total(sum(self.round_remaining(p) for p in pips), self.round_remaining(winner_pips))
        return self.round_remaining(self.award_total(sum(pips), winner_pips))

    def award_points(self, rounded: int, tied: int) -> int:
        """Displayed points of one award; every tied side gets a full one (HR-SETTLE-6), or,
        as a variant (`ties: split`), an equal share rounded down."""
        points: int = rounded // self.params.get("award_divisor", self.rules.display_divisor)
        return points // tied if self.ties == "split" else points

    def match_winners(self, scores: list[int]) -> list[int]:
        """Every side at or past the target after a settlement shares the win (HR-MATCH-2);
        as a variant (`simultaneous_winners: highest`) only the highest of them (still shared
        by sides equal there)."""
        over = [side for side, score in enumerate(scores) if score >= self.config.target]
        if over and self.rules.match_end.get("simultaneous_winners", "shared") == "highest":
            best = max(scores[side] for side in over)
            return [side for side in over if scores[side] == best]
        return over

    def lowest_seat_side(self, sides: list[int]) -> list[int]:
        """Of several sides, the one holding the lowest seat, alone (a seat tie-break)."""
        return [min(sides, key=lambda side: min(self.config.sides[side]))] if len(sides) > 1 else sides

    def break_hand_tie(self, winners: list[int]) -> list[int]:
        """Sides tied for lowest in a blocked hand all win it (HR-SETTLE-6, HR-SETTLE-7); as a
        variant (`settlement.tie_break: lowest-seat`) the tied side holding the lowest seat wins
        alone. Read after `settlement.ties`, so `ties: nobody` still gives nobody."""
        if self.params.get("tie_break", "none") == "lowest-seat":
            return self.lowest_seat_side(winners)
        return winners

    def break_match_tie(self, winners: list[int]) -> list[int]:
        """Sides winning the match together share the win (HR-MATCH-2); as a variant
        (`match_end.tie_break: lowest-seat`) the one holding the lowest seat wins alone. Read
        after `match_end.simultaneous_winners`."""
        if self.rules.match_end.get("tie_break", "none") == "lowest-seat":
            return self.lowest_seat_side(winners)
        return winners

    def award_rules(self, end: HandEnd) -> "Settlement":
        """The settlement an award is computed under: this one (the seeds: a blocked hand's award
        is a going-out award, HR-SETTLE-2, HR-SETTLE-3), or, as a variant
        (`settlement.blocked_award: others-minus-own`), for a blocked hand this one with the
        winner's own pips subtracted, as `subtract_winner_own: true` subtracts them always."""
        if (end.reason == BLOCKED and self.params.get("blocked_award", "others") == "others-minus-own"
                and not self.params.get("subtract_winner_own")):
            view = copy.copy(self)  # a subclass (a mutant's hooks) stays itself
            view.params = {**self.params, "subtract_winner_own": True}
            return view
        return self

    # -- the settlement ---------------------------------------------------------------------
    def apply_changes(self, scores: list[int], changes: list[int]) -> tuple[list[int], list[int]]:
        """Add all of a settlement's changes together, then check the target once."""
        after = [s + c for s, c in zip(scores, changes)]
        floor = self.params.get("floor")
        if floor is not None:
            after = [max(floor, s) for s in after]
        return after, self.break_match_tie(self.match_winners(after))

    def settle(self, scores: list[int], end: HandEnd, pips: list[int]) -> SettlementResult:
        cfg = self.config
        if len(pips) != cfg.players or len(scores) != len(cfg.sides):
            raise ValueError(f"need {cfg.players} seats' pips and {len(cfg.sides)} scores")
        if end.reason == GONE_OUT:
            if end.seat is None or not 0 <= end.seat < cfg.players:
                raise ValueError(f"the seat that went out must be 0..{cfg.players - 1}, got {end.seat}")
            if pips[end.seat]:
                raise ValueError(f"seat {end.seat} went out, so it holds no tiles, but has {pips[end.seat]} pips")
        elif end.reason != BLOCKED:
            raise ValueError(f"a hand ends {GONE_OUT!r} or {BLOCKED!r}, not {end.reason!r}")
        totals = [sum(pips[s] for s in seats) for seats in cfg.sides]
        changes = [0] * len(cfg.sides)
        awards: list[dict[str, Any]] = []
        deductions: list[dict[str, Any]] = []
        winners_of_hand: list[int] = []
        rounded: list[int] | None = None
        kind = self.params["kind"]
        if kind == "deduct-per-seat":
            rounded = [self.round_remaining(p) for p in pips]
            for side, seats in enumerate(cfg.sides):
                points = self.rules.display(self.side_deduction([pips[s] for s in seats]))  # in score units
                deductions.append({"side": side, "seats": list(seats), "points": points})
                changes[side] -= points  # nobody gains from others' hands (SN-SETTLE-4)
        elif kind == "award-to-winner":
            award = self.award_rules(end)
            winners_of_hand = award.break_hand_tie(award.hand_winners(end, totals))
            for side in winners_of_hand:
                counted = award.award_seats(side, end)
                total = award.award_total(sum(pips[s] for s in counted), totals[side])
                r = award.award_rounded([pips[s] for s in counted], totals[side])
                points = award.award_points(r, len(winners_of_hand))
                awards.append({"side": side, "from_seats": counted, "pips": total, "rounded": r, "points": points})
                changes[side] += points
        else:
            raise ValueError(f"unknown settlement kind {kind!r}")
        after, winners = self.apply_changes(scores, changes)
        return SettlementResult(kind, end, list(pips), rounded, totals, winners_of_hand, awards, deductions,
                                changes, list(scores), after, winners)
