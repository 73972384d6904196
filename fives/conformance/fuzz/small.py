"""The fuzzer's own generators: small play states, legal placements, setup, next leader and
input forms.

The golden turn generators take turns from whole self-play matches, whose layouts are long;
a turn rule (a drawn tile ends the turn, a continuation may draw, the target ends the match
at once) shows just as well a few placements into a hand, and such a request shrinks to a few
placements. Every state here is *reached*: a deal (any order of the 28 tiles is a shuffle; a
third of the deals hand out the low tiles first, so blank ends and zero sums come up), the
leader chosen as by lot, then a few legal actions played. So the state is reachable by
construction (fives/conformance/cases/reachable.py checks it again).
"""
from __future__ import annotations

import random
from typing import Any

from fives.conformance.golden.play import _config, _turn_case, turn_state
from fives.conformance.cases.reachable import problems
from fives.layout import Layout
from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match
from fives.rules import GameRules
from fives.settlement import MatchConfig, configure
from fives.strategies import make_strategies
from fives.tiles import ALL_TILES, Tile


def _scores(rng: random.Random, rules: GameRules, config: MatchConfig) -> list[int]:
    """Scores before the hand: 0, or a few scoring steps short of the target."""
    unit = rules.display_divisor if rules.raw.get("points", {}).get("unit") == "displayed" else 1
    step = max(1, rules.scoring_multiple // unit)
    return [rng.choice([0, 0, config.target - step * rng.choice([1, 2, 3])]) for _ in config.sides]


def play_one(rng: random.Random, match: Match, toward_zero: bool) -> None:
    """One action of seeded play: a placement chosen by `_pick`, else the draw, else the pass."""
    opts = match.legal_options()
    if opts.placements:
        match.apply(Action(PLACE, _pick(rng, match.layout, opts.placements, toward_zero), match.to_act))
    else:
        match.apply(Action(DRAW if opts.draw else PASS, None, match.to_act))


def _pick(rng: random.Random, layout: Layout, moves: list[Any], toward_zero: bool) -> Any:
    if toward_zero:
        sums = []
        for m in moves:
            layout.push(m)
            sums.append(layout.sum)
            layout.pop()
        moves = [m for m, v in zip(moves, sums) if v == min(sums)]
    return rng.choice(moves)


def small_state(rng: random.Random, rules: GameRules, late: bool = False,
                opening: bool = False) -> tuple[Match, dict[str, Any], bool] | None:
    """A match a few actions into a hand dealt from a random order, and its state as a
    `turn` input (without actions); None if the hand or match ended on the way. `late`:
    played on until the boneyard is spent or some seat holds only 1 or 2 tiles (the end of a
    hand: going out, blocks, settlements and their ties). `opening`: the state before the
    hand's first placement."""
    players, partners = _config(rng, rules)
    config = configure(rules, players, partners)
    low = rng.random() < 0.34
    toward_zero = low and rng.random() < 0.5
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    if low:  # a deal that hands out the blanks and low tiles first is still a deal
        tiles.sort(key=lambda t: t.high > 2 and t.low > 0)
    h = config.hand_size
    hands: list[list[Tile]] = [sorted(tiles[s * h:(s + 1) * h]) for s in range(players)]
    boneyard = tiles[players * h + rules.dead_tiles(players):]  # deal.dead: set aside, out of play
    # under an opening requirement, half the states are a later hand's: `opening.scope` shows in
    # a later hand's opening only (drawn only then, so the seeds' draws are unchanged)
    hand = rng.choice([1, 2]) if rules.opening_requires != "any" else 1
    try:
        match = Match.from_state(rules, config, scores=_scores(rng, rules, config), layout=[], hands=hands,
                                 boneyard=boneyard, seat=rng.randrange(players), hand=hand)
        steps = 120 if late else 0 if opening else rng.choice([0, 1, 1, 2, 2, 3, 4, 6])
        few = rng.choice([1, 1, 2])
        for _ in range(steps):
            if late and (not match.boneyard or min(len(h) for h in match.hands) <= few):
                break
            play_one(rng, match, toward_zero)
            if not match.in_hand or match.match_end is not None:
                return None
    except (IllegalAction, ValueError):
        return None
    return match, turn_state(match, players, partners), toward_zero


def late_turn(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A turn near the end of a hand (`small_state(late=True)`), played to its end."""
    return small_turn(rng, rules, late=True)


def small_turn(rng: random.Random, rules: GameRules, late: bool = False) -> dict[str, Any] | None:
    """A turn from a small reached state, played by a random or greedy strategy to its end."""
    made = small_state(rng, rules, late)
    if made is None:
        return None
    match, state, toward_zero = made
    if problems(rules, "turn", {**state, "actions": []}):
        return None
    strategy = make_strategies([rng.choice(["random", "greedy"])], match.config, rng.randrange(1 << 30))[match.to_act]
    actions: list[dict[str, Any]] = []
    try:
        while match.in_hand and match.match_end is None and len(actions) < 12:
            opts = match.legal_options()
            if opts.placements:
                p = (_pick(rng, match.layout, opts.placements, True) if toward_zero
                     else strategy.choose(match, match.to_act, opts.placements))
                out = match.apply(Action(PLACE, p, match.to_act))
                actions.append({"action": PLACE, **p.to_dict()})
            else:
                kind = DRAW if opts.draw else PASS
                out = match.apply(Action(kind, None, match.to_act))
                actions.append({"action": kind})
            if out.turn_end:
                break
    except IllegalAction:
        return None
    if not actions:
        return None
    return _turn_case(rules, state, actions, "late-turn" if late else "small-turn")


def small_legal(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """`legal-placements` for the seat to act in a small reached state."""
    made = small_state(rng, rules)
    if made is None:
        return None
    match, state, _ = made
    inp: dict[str, Any] = {"players": state["players"], "layout": state["layout"],
                           "hand": state["hands"][state["seat"]], "boneyard": len(state["boneyard"])}
    if state["partnerships"]:  # 4 Sniff players always play in partnerships: say so
        inp["partnerships"] = True
    for key in ("continuing", "drawn", "hand_number"):
        if key in state:
            inp[key] = state[key]
    return {"kind": "legal-placements", "clauses": [], "description": "small-legal", "input": inp, "expect": {}}


def setup_question(rng: random.Random, rules: GameRules) -> dict[str, Any]:
    """A configuration, allowed or not: 1 to 6 players, each for themselves or in partnerships."""
    return {"kind": "setup", "clauses": [], "description": "setup",
            "input": {"players": rng.randint(1, 6), "partnerships": rng.random() < 0.4}, "expect": {}}


def next_leader_question(rng: random.Random, rules: GameRules) -> dict[str, Any]:
    """Who leads: the first hand, after a blocked hand, or after a seat went out."""
    players = rng.choice(sorted({n for n, _ in rules.configurations()}))
    previous = rng.choice([None, {"ended": "blocked"},
                           {"ended": "gone-out", "last_tile_seat": rng.randrange(players)}])
    # a leader rule that reads the previous hand's leader (next-seat, same-leader) is asked with
    # one: without it those rules answer as each other. The seeds read none: their draws are unchanged
    if previous is not None and {rules.lead["after_blocked"], rules.lead["after_gone_out"]} & {"next-seat",
                                                                                               "same-leader"}:
        previous["leader"] = rng.randrange(players)
    inp: dict[str, Any] = {"players": players, "previous": previous}
    if (players, False) not in rules.configurations():  # 4 Sniff players always play in partnerships: say so
        inp["partnerships"] = True  # (next-leader refuses a configuration the game lacks, spec/play.md)
    return {"kind": "next-leader", "clauses": [], "description": "next-leader", "input": inp, "expect": {}}


def _respell(rng: random.Random, text: str) -> str | list[int]:
    """A tile in another accepted spelling (spec/engine.md, Input forms), or rarely a refused one."""
    a, b = text.strip("[]").split("|")
    return rng.choice([f"[{b}|{a}]", f"{a}-{b}", f"{b}-{a}", text, f"[{b}|{a}]", f"[{a},{b}]", [int(b), int(a)]])


def input_forms(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A short legal layout written in the input forms engines read differently: tiles high
    half first or as `a-b`, `to: null` and `side: null` on the opening, now and then a
    refused form (an array tile, `[a,b]`, nulls on a later placement, the list as a mapping)."""
    layout = Layout(rules)
    for _ in range(rng.randint(1, 4)):
        moves = layout.legal_placements([t for t in ALL_TILES if t not in layout])
        layout.push(rng.choice(moves))
    records: list[dict[str, Any]] = [p.to_dict() for p in layout.history()]
    out: list[Any] = []
    for i, rec in enumerate(records):
        rec = dict(rec)
        if rng.random() < 0.6:
            rec["tile"] = _respell(rng, rec["tile"])
        if "to" in rec and rng.random() < 0.4:
            rec["to"] = _respell(rng, rec["to"])
        if i == 0 and rng.random() < 0.4:
            rec.update(rng.choice([{"to": None}, {"to": None, "side": None}, {"side": None}]))
        elif i > 0 and rng.random() < 0.05:
            rec.update(rng.choice([{"to": None, "side": None}, {"to": None}]))
        out.append(rec)
    placements: Any = out
    if rng.random() < 0.03:
        placements = out[0]
    return {"kind": "evaluate", "clauses": [], "description": "input-forms", "input": {"placements": placements},
            "expect": {}}
