"""The profile space: the rule dimensions on which published rule books disagree, every
alternative value of each, and random profiles drawn from them (spec/variants.md).

This is the search space of `fives conformance diagnose`, the causes report and the coverage
report; it decides no rule. A profile itself (reading, checking, the rules under it) is
`fives.profiles`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from fives.profiles import Profile, _canonical_value, make_profile, parameters
from fives.support import paths


@dataclass(frozen=True)
class Dimension:
    """One rule on which rule books disagree (spec/variants.md)."""

    path: str  # the parameter
    games: tuple[str, ...]
    clauses: tuple[str, ...]  # the clauses of spec/rules.md whose rule it changes
    what: str  # one line: what the parameter decides
    values: tuple[Any, ...] | None = None  # None: every value the schema allows
    #: (parameter, value) under which this dimension changes nothing: `fives rules show` leaves
    #: its row out when every profile shown plays that value (so the seeds' table is unchanged)
    inert_under: tuple[str, Any] | None = None


HR, SN = ("horse-race",), ("american-sniff",)
BOTH = HR + SN
#: Orders of opening tiles the rule books give (spec/variants.md, `opening.order`): the doubles
#: from [6|6] down, then [5|6] (big6bones); the lowest double first (dr-dominos); [5|5] first, then
#: the others from [6|6] down (engine B of issue 27).
OPENING_ORDERS = (["[6|6]", "[5|5]", "[4|4]", "[3|3]", "[2|2]", "[1|1]", "[0|0]", "[5|6]"],
                   ["[0|0]", "[1|1]", "[2|2]", "[3|3]", "[4|4]", "[5|5]", "[6|6]"],
                   ["[5|5]", "[6|6]", "[4|4]", "[3|3]", "[2|2]", "[1|1]", "[0|0]"])
_TARGETS = ({2: 305, 3: 305, 4: 305}, {2: 250, 3: 250, 4: 250}, {2: 250, 3: 200, 4: 200})
#: The rule dimensions: every parameter a published rule book sets otherwise than the seeds.
DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("continuation.enabled", HR, ("HR-CONT-1",),
              "a tile from hand that is a double or scores earns a continuation (Horse Race), or never (Five Up)"),
    Dimension("continuation.drawn_tile_ends_turn", HR, ("HR-CONT-5",),
              "a playable drawn tile ends the turn, or may earn a continuation like a tile from hand"),
    Dimension("continuation.last_tile", HR, ("HR-CONT-4", "HR-SETTLE-1"),
              "a last tile that is a double or scores goes out, or the player draws and continues"),
    Dimension("continuation.opening_counts_as_from_hand", HR, ("HR-CONT-6",),
              "an opening double or scoring opening earns a continuation"),
    Dimension("match_end.on_placement", BOTH, ("SN-MATCH-1", "HR-MATCH-1"),
              "reaching the target by a placement ends the match at once, or only at hand end"),
    Dimension("match_end.simultaneous_winners", BOTH, ("SN-MATCH-1", "HR-MATCH-2"),
              "several sides at the target after a settlement all win, or only the highest"),
    Dimension("target.raw", BOTH, ("SN-TARGET-1", "HR-POINTS-1"),
              "the target in raw points, by number of players", _TARGETS),
    Dimension("settlement.award_rounding", BOTH, ("SN-SETTLE-1", "HR-SETTLE-4"),
              "the go-out award is rounded once over the total, or per opponent"),
    Dimension("settlement.blocked_winner", BOTH, ("SN-SETTLE-1", "HR-SETTLE-2"),
              "a blocked hand is won by the lowest remaining count, or by nobody"),
    Dimension("settlement.subtract_winner_own", BOTH, ("SN-SETTLE-1", "HR-SETTLE-3"),
              "the winner's own remaining pips (a blocked hand's winner's, a partner's) are subtracted from the award"),
    # Sniff profiles may set `settlement.ties` too, but play from a deal never showed a Sniff tie
    # for lowest in a blocked hand (conformance/tools/make_variant_fixtures.py): not a Sniff dimension
    Dimension("settlement.ties", HR, ("HR-SETTLE-6", "HR-SETTLE-7"),
              "sides tied for lowest in a blocked hand each get the full award, share it, or get nothing"),
    Dimension("opening.requires", BOTH, ("SN-LEAD-2", "HR-LEAD-2"),
              "the leader may open with any tile, or must open with a double / the highest double / a scoring "
              "tile / a double or a scoring tile if held",
              # fixed-order is offered with its order (`opening.order`): under the default order of
              # doubles it plays as highest-double, and a diagnosis must not name twins
              ("any", "double", "scoring", "highest-double", "double-or-scoring")),
    Dimension("opening.order", BOTH, ("SN-LEAD-1", "SN-LEAD-2", "HR-LEAD-1", "HR-LEAD-2"),
              "a fixed order of opening tiles: the holder of the earliest one held leads the first hand, and a "
              "leader holding one opens with the earliest it holds (with opening.requires fixed-order and "
              "lead.first_hand opening-order)", OPENING_ORDERS),
    Dimension("drawing.limit", BOTH, ("SN-DRAW-2", "HR-DRAW-2"),
              "a seat that cannot place draws until it can, or at most this many tiles in a turn and then passes",
              (3,)),
    Dimension("drawing.while_playable", BOTH, ("SN-DRAW-1", "HR-DRAW-1"),
              "a seat holding a playable tile must place, or may draw instead"),
    Dimension("hand_end.blocked", BOTH, ("SN-END-2", "HR-END-1"),
              "a hand is blocked as soon as nobody can place or draw, or after a full round of passes"),
    Dimension("deal.hand_size", BOTH, ("SN-DEAL-1", "HR-DEAL-1"),
              "tiles dealt to each player, by number of players",
              ({2: 7, 3: 7, 4: 6}, {2: 5, 3: 5, 4: 5})),
    Dimension("deal.reserve", BOTH, ("SN-DRAW-2", "HR-DRAW-2"),
              "boneyard tiles that are never drawn (drawing is limited), by number of players",
              ({2: 2, 3: 2, 4: 2}, {2: 2, 3: 0, 4: 0})),
    Dimension("lead.first_hand", BOTH, ("SN-LEAD-1", "HR-LEAD-1"),
              "the first leader: a lot, seat 0, or whoever holds the highest double",
              ("lot", "seat-0", "highest-double")),  # opening-order goes with `opening.order`
    Dimension("lead.after_gone_out", BOTH, ("SN-LEAD-3", "HR-LEAD-3"),
              "after a gone-out hand: the last tile's player leads, the next seat, or a lot"),
    Dimension("lead.after_blocked", BOTH, ("SN-LEAD-3", "HR-LEAD-3"),
              "after a blocked hand: a lot, the next seat, or the same leader"),
    Dimension("spinners.policy", BOTH, ("SN-SPIN-1", "HR-SPIN-1"),
              "which doubles are spinners: the first (the sniff), every double, none (all in line), or only "
              "a double that opens the hand"),
    Dimension("counting.open_branch_side", BOTH, ("SN-COUNT-3", "HR-COUNT-2"),
              "a spinner's open branch sides, once both line sides are covered, count one half each or nothing"),
    Dimension("settlement.kind", BOTH, ("SN-SETTLE-1", "HR-SETTLE-1"),
              "at hand end each side loses its own remaining pips (Sniff), or the hand's winner scores the others'"),
    Dimension("settlement.rounding.multiple", BOTH, ("SN-SETTLE-2", "HR-SETTLE-4"),
              "remaining pips are rounded to a multiple of 5, or counted as they are (1)", (1, 5)),
    Dimension("settlement.rounding.round_up_from_remainder", BOTH, ("SN-SETTLE-2", "HR-SETTLE-4"),
              "the remainder from which pips round up: 3 (to the nearest 5), 1 (always up), 5 (always down)",
              (1, 3, 5)),
    Dimension("points.display_divisor", SN, ("SN-TARGET-1",),
              "points shown raw (1) or per five (5); the unit goes with it", (1, 5)),
    # last, so the variant fixtures generated before it keep their order (issue 38)
    Dimension("opening.scope", BOTH, ("SN-LEAD-2", "HR-LEAD-2"),
              "the opening requirement binds every hand's leader, or the first hand's only",
              inert_under=("opening.requires", "any")),
    # issue 39, last for the same reason: seat tie-breaks and a blocked hand's own award
    Dimension("settlement.tie_break", HR, ("HR-SETTLE-6", "HR-SETTLE-7"),
              "sides tied for lowest in a blocked hand all win it, or the one holding the lowest seat alone"),
    Dimension("settlement.blocked_award", BOTH, ("SN-SETTLE-1", "HR-SETTLE-2", "HR-SETTLE-3"),
              "a blocked hand's winner scores the others' pips, as on going out, or the others' pips minus its own",
              inert_under=("settlement.kind", "deduct-per-seat")),
    Dimension("match_end.tie_break", BOTH, ("SN-MATCH-1", "HR-MATCH-2"),
              "sides that win the match together share the win, or the one holding the lowest seat wins alone"),
    Dimension("deal.dead", BOTH, ("SN-DEAL-1", "HR-DEAL-1"),
              "tiles set aside at the deal, face down, by number of players: never drawn, in no boneyard, "
              "nobody's at the hand's end",
              ({2: 1, 3: 1, 4: 1},)),
)


def dimensions(game: str | None = None) -> list[Dimension]:
    return [d for d in DIMENSIONS if game is None or game in d.games]


def alternatives(game: str) -> dict[str, list[Any]]:
    """Every non-default value of every dimension of `game` (a random profile picks from these)."""
    from fives.support.reading import load_json_schema

    schema = load_json_schema(paths.SPEC_SCHEMAS / "game.schema.json")["properties"]
    known = parameters(game)
    out: dict[str, list[Any]] = {}
    for d in dimensions(game):
        values: Any = d.values
        if values is None:  # an enum or a flag: every value the schema allows
            node = schema
            parts = d.path.split(".")
            for p in parts[:-1]:
                node = node[p]["properties"]
            values = node[parts[-1]].get("enum", [True, False])
        alts = [_canonical_value(v) for v in values if _canonical_value(v) != known[d.path]]
        if alts:
            out[d.path] = alts
    return out


#: the settlement parameters that only an award to the hand's winner reads (`settlement.kind`)
AWARD_PARAMETERS = ("settlement.award_rounding", "settlement.blocked_winner", "settlement.subtract_winner_own",
                    "settlement.ties", "settlement.tie_break", "settlement.blocked_award")


#: what an `opening.order` sets with it: the rules that read the order
ORDER_COMPANIONS = ("opening.requires", "lead.first_hand")
#: what an `opening.scope` sets with it where the game opens with any tile: the requirement the
#: books that scope it state (gambit: the highest double, in the first hand only)
SCOPE_COMPANION = "highest-double"


def alternative_overrides(game: str, path: str, value: Any) -> dict[str, Any]:
    """The overrides that set one dimension to `value` (with what goes with it)."""
    out = {path: value}
    if path == "points.display_divisor":  # the unit goes with the divisor: one dimension
        out["points.unit"] = "displayed" if value > 1 else "raw"
    if path == "opening.order":  # an order is read only by the rules that name it
        out.update(zip(ORDER_COMPANIONS, ("fixed-order", "opening-order")))
    if path == "opening.scope" and parameters(game)["opening.requires"] == "any":
        out["opening.requires"] = SCOPE_COMPANION  # a scope shows only where an opening is required
    if path in AWARD_PARAMETERS and parameters(game)["settlement.kind"] != "award-to-winner":
        out["settlement.kind"] = "award-to-winner"  # an award's details show only where the winner is awarded
    return out


def random_profile(rng: random.Random, game: str, params: int) -> Profile:
    """A valid random profile of `game` overriding `params` distinct dimensions."""
    alts = alternatives(game)
    names = sorted(alts)
    if not 1 <= params <= len(names):
        raise ValueError(f"{game} has {len(names)} dimensions, not {params}")
    chosen = rng.sample(names, params)
    if "opening.order" in chosen:  # it sets its companions: they are not drawn beside it
        clash = [c for c in chosen if c in ORDER_COMPANIONS]
        if clash:
            rest = [n for n in names if n not in chosen and n not in ORDER_COMPANIONS]
            chosen = [c for c in chosen if c not in ORDER_COMPANIONS] + rng.sample(rest, len(clash))
    overrides: dict[str, Any] = {}
    for p in sorted(chosen):
        got = alternative_overrides(game, p, rng.choice(alts[p]))
        if p == "opening.scope" and "opening.requires" in chosen:  # a drawn requirement is kept
            got = {p: got[p]}
        overrides.update(got)
    return make_profile(game, overrides, source="random (fives.profiles.random_profile)")
