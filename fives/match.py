# lines: ~500 because Match is one state machine (deal, lead, turn, draw, pass, block, settle, match end) with its value types.
"""The match state machine: deal, lot, turns, draws, passes, continuation, hand and match end.

A `Match` holds the whole state (scores, every seat's hand, the boneyard in draw order, the
layout, the seat to act). `start_hand()` shuffles and deals; `apply(action)` checks one
action against the rules, performs it and returns its `Outcome`, or raises `IllegalAction`
and changes nothing. Every rule decision a variant or a mutant engine may read differently
is one small `_hook_*` method (spec/play.md, "Hooks"), as in python-chess.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Iterable

from fives.layout import IllegalPlacement, Layout, Placement
from fives.rules import GameRules
from fives.settlement import BLOCKED, GONE_OUT, HandEnd, MatchConfig, Settlement, SettlementResult
from fives.tiles import ALL_TILES, Tile

LOT_FACES = 6  # the lot is modelled as a six-sided die per candidate (SN-LEAD-1 RULING)
PLACE, DRAW, PASS = "place", "draw", "pass"
#: How a match ends (`MatchEnd.by`): a placement reached the target, a settlement did, or
#: the table stopped it between hands with no winner (spec/play.md, "Abandoned matches").
BY_PLACEMENT, BY_SETTLEMENT, BY_ABANDONED = "placement", "settlement", "abandoned"
#: `fives play` abandons a match still running after this many hands. American Sniff sets no
#: floor on scores, so deductions can outrun points for ever (seed 110, four players in
#: partnerships, strategy first); ended self-play matches need well under 200 hands.
DEFAULT_MAX_HANDS = 1000


class PlayCode(str, Enum):
    """Why an action is illegal (besides the layout's IllegalCode values)."""

    MUST_PLACE = "must-place"  # a legal placement exists: drawing or passing is illegal
    MUST_PLACE_DRAWN_TILE = "must-place-drawn-tile"  # the playable tile just drawn goes first
    CANNOT_PASS = "cannot-pass"  # the boneyard is not empty: draw instead
    CANNOT_DRAW = "cannot-draw"  # the boneyard is empty: pass instead
    NOT_YOUR_TURN = "not-your-turn"
    AFTER_HAND_END = "after-hand-end"
    AFTER_MATCH_END = "after-match-end"
    NO_HAND = "no-hand"  # nothing has been dealt yet
    HAND_IN_PROGRESS = "hand-in-progress"  # a new deal before the hand ended
    TILE_NOT_IN_HAND = "tile-not-in-hand"
    MUST_OPEN_WITH = "must-open-with"  # a variant's opening rule: the leader holds a tile it requires

    def __str__(self) -> str:
        return self.value


def first_leader(rules: GameRules, hands: list[list[Tile]] | None) -> int | str | None:
    """The first hand's leader (`lead.first_hand`): None for a lot, a seat, or, before the deal
    (`hands` None), "highest-double" for whoever will hold the highest double, "opening-order"
    for whoever will hold the earliest tile of `opening.order`."""
    how = rules.lead["first_hand"]
    if how == "seat-0":
        return 0
    if how in ("highest-double", "opening-order") and hands is None:
        return how
    if how == "highest-double":
        held = [(t.low, s) for s, h in enumerate(hands or []) for t in h if t.is_double]
        return max(held)[1] if held else None
    if how == "opening-order":  # whoever holds the earliest tile of `opening.order`
        holder = {t: s for s, h in enumerate(hands or []) for t in h}
        return next((holder[t] for t in rules.opening_order if t in holder), None)
    return None


def leader_after(rules: GameRules, end: HandEnd, leader: int | None, players: int) -> int | None:
    """Who leads after a hand that `leader` led and that ended `end`; None for a new lot
    (`lead.after_gone_out`, `lead.after_blocked`). ValueError if the rule needs the leader."""
    how = rules.lead["after_gone_out" if end.reason == GONE_OUT else "after_blocked"]
    if how == "last-tile-player":
        return end.seat
    if how == "lot":
        return None
    if leader is None:
        raise ValueError(f"the previous hand's leader is needed: the next leader is {how}")
    return (leader + 1) % players if how == "next-seat" else leader


class IllegalAction(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message


@dataclass(frozen=True, slots=True)
class Action:
    kind: str  # PLACE, DRAW or PASS
    placement: Placement | None = None
    seat: int | None = None  # who claims to act; None means the seat to act


@dataclass(frozen=True)
class Options:
    """What the seat to act may do: place one of `placements`, draw, or pass."""

    placements: list[Placement]
    draw: bool
    pass_: bool


@dataclass(frozen=True)
class HandStart:
    hand: int
    deal: list[list[Tile]]
    boneyard: list[Tile]  # in draw order: boneyard[0] is drawn first
    leader: int
    lot: list[tuple[tuple[int, ...], tuple[int, ...]]] | None  # (candidates, their draws) per round
    scores: list[int]


@dataclass(frozen=True)
class MatchEnd:
    winners: list[int]  # sides; none when abandoned
    by: str  # BY_PLACEMENT, BY_SETTLEMENT or BY_ABANDONED
    scores: list[int]


@dataclass
class Outcome:
    """What one action did."""

    seat: int
    action: str
    placement: Placement | None = None
    from_drawn: bool = False  # the placed tile had just been drawn
    sum: int = 0
    raw: int = 0
    display: int = 0
    score: int = 0  # the acting side's score after the action
    tile: Tile | None = None  # the tile drawn
    playable: bool = False
    continues: bool = False  # the same seat places again (Horse Race continuation)
    turn_end: bool = False
    next_seat: int | None = None  # who acts next; None once the hand or match ended
    hand_end: HandEnd | None = None
    next_leader: int | None = None  # after a gone-out hand; None means a new lot
    remaining: list[list[Tile]] | None = None  # every hand, revealed at the hand's end
    settlement: SettlementResult | None = None
    match_end: MatchEnd | None = None
    scores: list[int] = field(default_factory=list)


class Match:
    """One match of one game and configuration."""

    def __init__(self, rules: GameRules, config: MatchConfig, seed: int | None = None, *,
                 layout_factory: Callable[[GameRules], Layout] = Layout,
                 settlement_factory: Callable[[GameRules, MatchConfig], Settlement] = Settlement) -> None:
        self.rules = rules
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.layout_factory = layout_factory
        self.settlement = settlement_factory(rules, config)
        self.scores = [0] * len(config.sides)
        self.hand_no = 0
        self.hands: list[list[Tile]] = [[] for _ in range(config.players)]
        self.boneyard: list[Tile] = []
        self.layout = layout_factory(rules)
        self.to_act = 0
        self.drawn: Tile | None = None  # a playable tile just drawn, which must be placed now
        self.continuing = False  # the seat to act is placing again (Horse Race)
        self.banked = 0  # continuations earned and not used yet (never above 0 in the rules)
        self.in_hand = False
        self.hand_end: HandEnd | None = None
        self.match_end: MatchEnd | None = None
        self.next_leader: int | None = None  # None: the next leader is chosen by lot
        self.leader = 0  # who led this hand
        self.passes = 0  # passes in a row (a variant blocks the hand after a full round)
        self.draws = 0  # tiles drawn in this turn (a variant limits them)

    # -- hooks: the rules' choices, overridable by variants and mutants ------------------
    def _hook_continuations_earned(self, tile: Tile, from_drawn: bool, raw: int) -> int:
        """HR-CONT-1..5: a tile from hand that is a double or scored gives one continuation;
        a drawn tile none. The opening counts as from hand (HR-CONT-6)."""
        c = self.rules.continuation
        if not c.get("enabled") or (from_drawn and c.get("drawn_tile_ends_turn", True)):
            return 0
        if len(self.layout) == 1 and not c.get("opening_counts_as_from_hand", True):
            return 0
        qualifies = (tile.is_double and c.get("from_hand_double", False)) or \
                    (raw > 0 and c.get("from_hand_scoring", False))
        return c.get("max_per_placement", 1) if qualifies else 0

    def _hook_last_tile_continues(self, earned: int) -> bool:
        """HR-END: a last tile from hand ends the hand even if it earns a continuation; as a
        variant (`continuation.last_tile: draws-and-continues`) the player draws and goes on."""
        return bool(earned) and self.rules.continuation.get("last_tile", "goes-out") == "draws-and-continues" \
            and self._hook_drawable(len(self.boneyard)) > 0

    def _hook_placement_ends_match(self, side: int) -> bool:
        """SN-MATCH-1, HR-MATCH-1: reaching the target by a placement ends the match at once;
        as a variant (`match_end.on_placement: hand-end`) the target is checked at hand end only."""
        return self.rules.match_end["on_placement"] == "immediate" and self.scores[side] >= self.config.target

    def _hook_drawable(self, boneyard: int) -> int:
        """SN-DRAW-*, HR-DRAW-*: every boneyard tile may be drawn; a variant keeps a reserve."""
        return max(0, boneyard - self.rules.boneyard_reserve[self.config.players])

    def _hook_draw_limit_reached(self, draws: int) -> bool:
        """SN-DRAW-2, HR-DRAW-2: a seat draws until it can place; a variant (`drawing.limit`)
        stops it after that many draws in one turn, and it passes."""
        return 0 < self.rules.draw_limit <= draws

    def _hook_may_draw_holding_playable(self) -> bool:
        """SN-DRAW-1, HR-DRAW-1: a seat that can place may not draw; a variant
        (`drawing.while_playable`) lets it draw instead."""
        return self.rules.draw_while_playable

    def _hook_opening_tiles(self, hand: Iterable[Tile]) -> set[Tile] | None:
        """SN-LEAD-2, HR-LEAD-2: any tile opens (None); a variant requires a double, the
        highest double held, a scoring tile, a double or a scoring tile when the leader holds one,
        or the earliest tile of a fixed order (`opening.order`) that the leader holds; in every
        hand, or in the first only (`opening.scope`)."""
        need = self.rules.opening_requires
        if need == "any" or (self.rules.opening_scope == "first-hand" and self.hand_no > 1):
            return None  # `opening.scope: first-hand`: later hands open with any tile
        if need == "fixed-order":  # the earliest tile of `opening.order` the leader holds
            held = set(hand)
            return next(({t} for t in self.rules.opening_order if t in held), None)
        if need == "highest-double":
            doubles = [t for t in hand if t.is_double]
            return {max(doubles, key=lambda t: t.pips)} if doubles else None
        scoring = need in ("scoring", "double-or-scoring")
        ok = {t for t in hand if (t.is_double and need != "scoring") or (scoring and self.rules.score(t.pips) > 0)}
        return ok or None

    def _hook_blocked(self) -> bool:
        """SN-END-2, HR-END-1: nothing is drawable and nobody can place; as a variant
        (`hand_end.blocked: round-of-passes`) once every seat has passed in a row."""
        if self.rules.blocked_after == "round-of-passes":
            return self.passes >= self.config.players
        return not any(self._can_place_any(h) for h in self.hands)

    def _hook_first_leader(self) -> int | None:
        """SN-LEAD-1, HR-LEAD-1: the first leader is chosen by lot (None); variants: seat 0, or
        whoever holds the highest double (a lot when nobody does)."""
        got = first_leader(self.rules, self.hands)
        return got if isinstance(got, int) else None

    def _hook_settle_after_match_end(self) -> bool:
        """SN-MATCH-1, HR-SETTLE-1: a hand whose last placement ended the match is not settled."""
        return bool(self.rules.match_end["settle_after_match_end"])

    def _hook_continuation_may_draw(self) -> bool:
        """HR-CONT-6 RULING: a continuation is a full new turn, so it may draw."""
        return bool(self.rules.continuation.get("no_legal_placement", "draw-or-pass") == "draw-or-pass")

    def _hook_next_leader(self, end: HandEnd) -> int | None:
        """SN-LEAD-3, HR-LEAD-3: whoever played the last tile leads; after a block, a new lot.
        Variants: the seat after this hand's leader, this hand's leader again, or a lot."""
        return leader_after(self.rules, end, self.leader, self.config.players)

    # -- state from outside (the `turn` kind) ---------------------------------------------
    @classmethod
    def from_state(cls, rules: GameRules, config: MatchConfig, *, scores: list[int], layout: Iterable[Placement],
                   hands: list[list[Tile]], boneyard: list[Tile], seat: int, continuing: bool = False,
                   drawn: Tile | None = None, leader: int | None = None, passes: int = 0, draws: int = 0,
                   hand: int = 1, **factories: Callable[..., Any]) -> "Match":
        """A match in the middle of a hand, as a fixture states it. ValueError if inconsistent."""
        m = cls(rules, config, None, **factories)
        if len(scores) != len(config.sides) or len(hands) != config.players:
            raise ValueError(f"need {len(config.sides)} scores and {config.players} hands")
        if not 0 <= seat < config.players:
            raise ValueError(f"seat {seat} does not exist: seats are 0..{config.players - 1}")
        m.scores = list(scores)
        for p in layout:
            try:
                m.layout.push(p)
            except IllegalPlacement as e:
                raise ValueError(f"layout placement {p}: {e.code}: {e.message}") from None
        seen: dict[Tile, str] = {t: "the layout" for t in m.layout.tiles}
        for where, tiles in [(f"seat {s}'s hand", h) for s, h in enumerate(hands)] + [("the boneyard", boneyard)]:
            for t in tiles:
                if t in seen:
                    raise ValueError(f"{t} is both in {seen[t]} and in {where}")
                seen[t] = where
        if drawn is not None and drawn not in hands[seat]:
            raise ValueError(f"the drawn tile {drawn} must be in seat {seat}'s hand")
        if drawn is not None and not m.layout.can_place(drawn):
            raise ValueError(f"the drawn tile {drawn} cannot be placed, so it would not be pending")
        m.hands = [sorted(h) for h in hands]
        m.boneyard = list(boneyard)
        m.to_act, m.continuing, m.drawn = seat, continuing, drawn
        if leader is not None and not 0 <= leader < config.players:
            raise ValueError(f"leader {leader} does not exist: seats are 0..{config.players - 1}")
        m.leader, m.passes, m.draws = (seat if leader is None else leader), passes, draws
        if hand < 1:
            raise ValueError(f"hand {hand}: the hands of a match are numbered from 1")
        m.in_hand, m.hand_no = True, hand  # the hand's number, read by `opening.scope`
        if not len(m.layout) and (continuing or drawn is not None):
            raise ValueError("a continuation or a drawn tile needs a layout")
        return m

    # -- dealing ------------------------------------------------------------------------
    def start_hand(self) -> HandStart:
        """Shuffle, deal and choose the leader (a lot for the first hand and after a block)."""
        if self.match_end is not None:
            raise IllegalAction(PlayCode.AFTER_MATCH_END, "the match is over: no new hand")
        if self.in_hand:
            raise IllegalAction(PlayCode.HAND_IN_PROGRESS, f"hand {self.hand_no} has not ended")
        tiles = list(ALL_TILES)
        self.rng.shuffle(tiles)
        n, h = self.config.players, self.config.hand_size
        self.hands = [sorted(tiles[i * h:(i + 1) * h]) for i in range(n)]
        # deal.dead: the next tiles are set aside face down, out of play (none in the seeds)
        self.boneyard = tiles[n * h + self.rules.dead_tiles(n):]
        lot = None
        leader = self.next_leader if self.hand_no else self._hook_first_leader()
        if leader is None:
            leader, lot = self._draw_lot()
        self.layout = self.layout_factory(self.rules)
        self.to_act, self.drawn, self.continuing, self.banked = leader, None, False, 0
        self.leader, self.passes, self.draws = leader, 0, 0
        self.in_hand, self.hand_end = True, None
        self.hand_no += 1
        return HandStart(self.hand_no, [list(x) for x in self.hands], list(self.boneyard), leader, lot,
                         list(self.scores))

    def _draw_lot(self) -> tuple[int, list[tuple[tuple[int, ...], tuple[int, ...]]]]:
        """Every candidate draws; the highest leads; tied candidates draw again (SN-LEAD-1)."""
        candidates = tuple(range(self.config.players))
        rounds = []
        while True:
            draws = tuple(self.rng.randint(1, LOT_FACES) for _ in candidates)
            rounds.append((candidates, draws))
            best = max(draws)
            candidates = tuple(c for c, d in zip(candidates, draws) if d == best)
            if len(candidates) == 1:
                return candidates[0], rounds

    # -- what may be done -----------------------------------------------------------------
    def options(self, layout: Layout, hand: Iterable[Tile], boneyard: int, continuing: bool = False,
                drawn: Tile | None = None, draws: int = 0) -> Options:
        """The legal actions of a seat holding `hand` (SN-DRAW-1..4, HR-DRAW-1..4, HR-CONT-6)."""
        if drawn is not None:
            return Options(layout.placements_for(drawn), False, False)
        values = layout.open_values() if len(layout) else None
        # a quick look at the open values first: most turns that draw have nothing to place
        if values is None or any(t.low in values or t.high in values for t in hand):
            placements = layout.legal_placements(hand)
        else:
            placements = []
        if values is None:
            allowed = self._hook_opening_tiles(hand)
            if allowed is not None:
                placements = [p for p in placements if p.tile in allowed]
        may_draw = self._hook_drawable(boneyard) > 0 and (not continuing or self._hook_continuation_may_draw()) \
            and not self._hook_draw_limit_reached(draws)
        if placements:  # SN-DRAW-1, HR-DRAW-1: a seat that can place does; a variant lets it draw instead
            return Options(placements, may_draw and values is not None and self._hook_may_draw_holding_playable(), False)
        return Options([], may_draw, not may_draw)

    def legal_options(self) -> Options:
        if not self.in_hand or self.match_end is not None:
            return Options([], False, False)
        return self.options(self.layout, self.hands[self.to_act], len(self.boneyard), self.continuing, self.drawn,
                            self.draws)

    def _can_place_any(self, hand: Iterable[Tile]) -> bool:
        if not len(self.layout):
            return True
        values = self.layout.open_values()
        return any(t.low in values or t.high in values for t in hand)

    # -- acting ---------------------------------------------------------------------------
    def apply(self, action: Action) -> Outcome:
        """Perform `action` for the seat to act; IllegalAction (and no change) if it is illegal."""
        if self.match_end is not None:
            raise IllegalAction(PlayCode.AFTER_MATCH_END, "the match is over: nothing more is played")
        if not self.in_hand:
            if self.hand_end is None:
                raise IllegalAction(PlayCode.NO_HAND, "no hand has been dealt")
            raise IllegalAction(PlayCode.AFTER_HAND_END, f"hand {self.hand_no} has ended ({self.hand_end.reason})")
        seat = self.to_act
        if action.seat is not None and action.seat != seat:
            raise IllegalAction(PlayCode.NOT_YOUR_TURN, f"seat {seat} is to act, not seat {action.seat}")
        if action.kind == PLACE and action.placement is not None:
            return self._place(seat, action.placement)
        if action.kind == DRAW:
            return self._draw(seat)
        if action.kind == PASS:
            return self._pass(seat)
        raise IllegalAction("malformed-action", f"unknown action {action.kind!r}")

    def _place(self, seat: int, p: Placement) -> Outcome:
        hand = self.hands[seat]
        t = p.tile
        if self.drawn is not None and t != self.drawn:
            raise IllegalAction(PlayCode.MUST_PLACE_DRAWN_TILE, f"the drawn tile {self.drawn} must be placed, not {t}")
        if t not in hand:
            raise IllegalAction(PlayCode.TILE_NOT_IN_HAND, f"seat {seat} does not hold {t}")
        allowed = None if len(self.layout) else self._hook_opening_tiles(hand)
        if allowed is not None and t not in allowed:
            need = " or ".join(str(x) for x in sorted(allowed))
            raise IllegalAction(PlayCode.MUST_OPEN_WITH, f"the opening must be one of {need}, not {t}")
        try:
            raw = self.layout.push(p)
        except IllegalPlacement as e:
            raise IllegalAction(e.code.value, e.message) from None
        hand.remove(t)
        from_drawn, self.drawn, self.passes, self.draws = self.drawn is not None, None, 0, 0
        side = self.config.side_of[seat]
        display = self.rules.display(raw)
        self.scores[side] += display
        out = Outcome(seat, PLACE, p, from_drawn, self.layout.sum, raw, display, self.scores[side])
        if self._hook_placement_ends_match(side):
            self.in_hand = False  # HR-CONT-4: nothing more is placed, and no settlement
            if not hand and self._hook_settle_after_match_end():
                self._end_hand(HandEnd(GONE_OUT, seat), out)
            if self.match_end is None:
                self._end_match([side], "placement", out)  # only the placing side gained
            return self._finish(out)
        earned = self._hook_continuations_earned(t, from_drawn, raw)
        if not hand and not self._hook_last_tile_continues(earned):
            self._end_hand(HandEnd(GONE_OUT, seat), out)
            return self._finish(out)
        self.banked += earned
        if self.banked > 0:
            self.banked -= 1
            self.continuing = out.continues = True
        else:
            self._next_turn()
            out.turn_end = True
        out.next_seat = self.to_act
        self._check_blocked(out)
        return self._finish(out)

    def _draw(self, seat: int) -> Outcome:
        if self.drawn is not None:
            raise IllegalAction(PlayCode.MUST_PLACE_DRAWN_TILE, f"the drawn tile {self.drawn} must be placed now")
        hand = self.hands[seat]
        if self._can_place_any(hand) and not (len(self.layout) and self._hook_may_draw_holding_playable()):
            raise IllegalAction(PlayCode.MUST_PLACE, f"seat {seat} can place a tile, so may not draw")
        if not self._hook_drawable(len(self.boneyard)):
            raise IllegalAction(PlayCode.CANNOT_DRAW, "the boneyard is empty: pass" if not self.boneyard else
                                f"the last {len(self.boneyard)} boneyard tiles are not drawn: pass")
        if self.continuing and not self._hook_continuation_may_draw():
            raise IllegalAction(PlayCode.CANNOT_DRAW, "a continuation without a legal placement passes")
        if self._hook_draw_limit_reached(self.draws):
            raise IllegalAction(PlayCode.CANNOT_DRAW, f"seat {seat} has drawn {self.draws} tiles this turn: pass")
        t = self.boneyard.pop(0)
        self.passes = 0
        self.draws += 1
        hand.append(t)
        hand.sort()
        playable = self.layout.can_place(t)
        if playable:
            self.drawn = t  # SN-DRAW-3, HR-DRAW-3: it must be placed at once
        side = self.config.side_of[seat]
        out = Outcome(seat, DRAW, tile=t, playable=playable, score=self.scores[side], next_seat=seat)
        self._check_blocked(out)
        return self._finish(out)

    def _pass(self, seat: int) -> Outcome:
        if self.drawn is not None:
            raise IllegalAction(PlayCode.MUST_PLACE_DRAWN_TILE, f"the drawn tile {self.drawn} must be placed now")
        if self._can_place_any(self.hands[seat]):
            raise IllegalAction(PlayCode.MUST_PLACE, f"seat {seat} can place a tile, so may not pass")
        if self._hook_drawable(len(self.boneyard)) and (not self.continuing or self._hook_continuation_may_draw()) \
                and not self._hook_draw_limit_reached(self.draws):
            raise IllegalAction(PlayCode.CANNOT_PASS, f"the boneyard holds {len(self.boneyard)} tiles: draw")
        self.passes += 1
        self._next_turn()
        out = Outcome(seat, PASS, score=self.scores[self.config.side_of[seat]], turn_end=True, next_seat=self.to_act)
        self._check_blocked(out)
        return self._finish(out)

    # -- turn, hand and match end -----------------------------------------------------------
    def _next_turn(self) -> None:
        self.to_act = (self.to_act + 1) % self.config.players  # seats are numbered clockwise
        self.continuing, self.banked, self.draws = False, 0, 0

    def _check_blocked(self, out: Outcome) -> None:
        """SN-END-2, HR-END-1: the boneyard is empty and nobody can place."""
        if self._hook_drawable(len(self.boneyard)) or self.drawn is not None or not len(self.layout):
            return
        if self._hook_blocked():
            self._end_hand(HandEnd(BLOCKED), out)

    def _end_hand(self, end: HandEnd, out: Outcome) -> None:
        self.in_hand, self.hand_end = False, end
        self.next_leader = self._hook_next_leader(end)
        out.hand_end, out.next_leader = end, self.next_leader
        out.remaining = [list(h) for h in self.hands]
        out.turn_end, out.continues, out.next_seat = True, False, None
        result = self.settlement.settle(self.scores, end, [sum(t.pips for t in h) for h in self.hands])
        self.scores = list(result.scores)
        out.settlement = result
        if result.winners:
            self._end_match(result.winners, "settlement", out)

    def _end_match(self, winners: list[int], by: str, out: Outcome) -> None:
        self.in_hand = False
        self.match_end = MatchEnd(list(winners), by, list(self.scores))
        out.match_end = self.match_end
        out.turn_end, out.continues, out.next_seat = True, False, None

    def abandon(self) -> MatchEnd:
        """End the match between hands with no winner, the scores as they stand (a match
        the rules cannot end: spec/play.md, "Abandoned matches"). IllegalAction during a
        hand, before the first one, or after the match ended."""
        if self.match_end is not None:
            raise IllegalAction(PlayCode.AFTER_MATCH_END, "the match is over already")
        if self.in_hand:
            raise IllegalAction(PlayCode.HAND_IN_PROGRESS,
                                f"hand {self.hand_no} has not ended: a match is abandoned only between hands")
        if self.hand_end is None:
            raise IllegalAction(PlayCode.NO_HAND, "no hand has been played: nothing to abandon")
        self.match_end = MatchEnd([], BY_ABANDONED, list(self.scores))
        return self.match_end

    def _finish(self, out: Outcome) -> Outcome:
        out.scores = list(self.scores)
        return out

    # -- views ----------------------------------------------------------------------------
    def tiles_accounted(self) -> list[Tile]:
        """Every tile in a hand, the layout or the boneyard (all 28 during a dealt hand, but the
        tiles `deal.dead` sets aside)."""
        return sorted([t for h in self.hands for t in h] + self.layout.tiles + self.boneyard)
