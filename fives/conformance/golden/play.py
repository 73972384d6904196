"""Golden play cases from seeded self-play: turns (continuation chains, draws, passes, hand
ends, targets crossed mid-hand), settlements (blocked ties, partnerships, targets crossed at
settlement) and match ends. Expected answers come from the reference kinds."""
from __future__ import annotations

import random
from typing import Any, Iterator

from fives.conformance.cases.kinds.play import run_match_end, run_settle, run_turn
from fives.match import DRAW, PASS, PLACE, Action, Match
from fives.rules import GameRules
from fives.settlement import configure
from fives.strategies import make_strategies
from fives.tiles import ALL_TILES
from fives.conformance.golden.cases import PREFIX, CaseBuilder

MAX_TURNS = 400  # one match is plenty to find a turn of any kind


def _config(rng: random.Random, rules: GameRules, partnerships: bool | None = None) -> tuple[int, bool]:
    options = rules.configurations()
    if partnerships is not None:
        options = [o for o in options if o[1] == partnerships] or options
    return rng.choice(options)


def _turns(rng: random.Random, rules: GameRules, players: int, partners: bool) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(turn state, actions) for each turn of a seeded self-play match."""
    config = configure(rules, players, partners)
    seed = rng.randrange(1 << 30)
    strategies = make_strategies([rng.choice(["random", "greedy"])], config, seed)
    match = Match(rules, config, seed)
    turns = 0
    while match.match_end is None and turns < MAX_TURNS:
        match.start_hand()
        state: dict[str, Any] | None = None
        actions: list[dict[str, Any]] = []
        while match.in_hand:
            if state is None:
                state = turn_state(match, players, partners)
            out = play_one(match, strategies, actions)
            if out.turn_end or not match.in_hand:
                turns += 1
                yield state, actions
                state, actions = None, []


def turn_state(match: Match, players: int, partners: bool) -> dict[str, Any]:
    """The `turn` input of the match as it stands (no actions yet): at a turn's start, or in
    the middle of one (a continuation owed, a drawn tile pending)."""
    state: dict[str, Any] = {"players": players, "partnerships": partners, "scores": list(match.scores),
                             "layout": [p.to_dict() for p in match.layout.history()],
                             "hands": [[str(t) for t in hand] for hand in match.hands],
                             "boneyard": [str(t) for t in match.boneyard], "seat": match.to_act}
    if match.continuing:
        state["continuing"] = True
    if match.drawn is not None:
        state["drawn"] = str(match.drawn)
    if match.hand_no > 1 and match.rules.opening_requires != "any":
        # the hand's number tells an opening requirement of every hand from the first hand's
        # (`opening.scope`); the seeds require no opening, so their states never carry it
        state["hand_number"] = match.hand_no
    return state


def play_one(match: Match, strategies: Any, actions: list[dict[str, Any]]) -> Any:
    """The seat to act places (by its strategy), draws or passes; the action is appended to
    `actions` as a `turn` request lists it, and its outcome returned."""
    opts = match.legal_options()
    seat = match.to_act
    if opts.placements:
        p = strategies[seat].choose(match, seat, opts.placements)
        action = Action(PLACE, p, seat)
        actions.append({"action": PLACE, **p.to_dict()})
    else:
        action = Action(DRAW if opts.draw else PASS, None, seat)
        actions.append({"action": action.kind})
    return match.apply(action)


def _turn_case(rules: GameRules, state: dict[str, Any], actions: list[dict[str, Any]], category: str) -> dict[str, Any]:
    p = PREFIX[rules.id]
    inp = {**state, "actions": actions}
    answer = run_turn(rules, inp, {})
    clauses: list[str] = []
    kinds = [a["action"] for a in actions]
    if DRAW in kinds:
        clauses += [f"{p}-DRAW-2", f"{p}-DRAW-3"]
    if PASS in kinds:
        clauses.append(f"{p}-DRAW-4")
    if kinds.count(PLACE) > 1:
        clauses += ["HR-CONT-1", "HR-CONT-3"]
    if DRAW in kinds and rules.has_continuation:
        clauses.append("HR-CONT-5")
    if not rules.has_continuation:
        clauses.append("SN-TURN-1")
    if answer.get("match_end"):
        clauses.append("SN-MATCH-1" if p == "SN" else "HR-MATCH-1")
        if rules.has_continuation:
            clauses.append("HR-CONT-4")
    if answer.get("hand_end"):
        clauses.append(f"{p}-END-1" if answer["hand_end"].get("reason") == "gone-out"
                       else ("SN-END-2" if p == "SN" else "HR-END-1"))
    if answer.get("settlement"):
        clauses.append("SN-SETTLE-1" if p == "SN" else "HR-SETTLE-1")
    clauses.append(f"{p}-DRAW-1")
    expect = {k: v for k, v in answer.items() if v is not None or k in ("match_end", "hand_end")}
    return {"kind": "turn", "clauses": list(dict.fromkeys(clauses)),
            "description": f"{category}: seat {state['seat']}, {len(actions)} action(s): {', '.join(kinds)}",
            "input": inp, "expect": expect}


def turn_builder(category: str, wants: Any, hr_only: bool = False) -> CaseBuilder:
    def build(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
        if hr_only and not rules.has_continuation:
            return None
        players, partners = _config(rng, rules)
        for state, actions in _turns(rng, rules, players, partners):
            if wants(actions):
                return _turn_case(rules, state, actions, category)
        return None
    return build


def target_mid_hand(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A turn whose scoring placement lifts the side to the target: the match ends at once,
    and whatever the turn did after it is refused."""
    players, partners = _config(rng, rules)
    config = configure(rules, players, partners)
    for state, actions in _turns(rng, rules, players, partners):
        inp = {**state, "actions": actions}
        answer = run_turn(rules, inp, {})
        first = next((r for r in answer.get("results", []) if r.get("display", 0) > 0), None)
        if first is None:
            continue
        side = config.side_of[state["seat"]]
        scores = list(state["scores"])
        scores[side] = config.target - first["display"] + rng.choice([0, 0, 1, 2])
        return _turn_case(rules, {**state, "scores": scores}, actions, "target-mid-hand")
    return None


def _random_hands(rng: random.Random, players: int, out_seat: int | None) -> list[list[str]]:
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    hands = []
    for s in range(players):
        n = 0 if s == out_seat else rng.randint(1, 5)
        hands.append([str(t) for t in sorted(tiles[:n])])
        tiles = tiles[n:]
    return hands


def _settle_case(rules: GameRules, inp: dict[str, Any], category: str) -> dict[str, Any]:
    p = PREFIX[rules.id]
    answer = run_settle(rules, inp, {})
    sn = p == "SN"
    clauses = ["SN-SETTLE-1", "SN-SETTLE-2", "SN-SETTLE-4"] if sn else ["HR-SETTLE-3", "HR-SETTLE-4"]
    if inp.get("partnerships"):
        clauses.append("SN-SETTLE-3" if sn else "HR-SETTLE-5")
    if inp["end"]["reason"] == "blocked":
        clauses.append("SN-END-2" if sn else "HR-SETTLE-2")
        if not sn and len(answer.get("hand_winners", [])) > 1:
            clauses.append("HR-SETTLE-7" if inp.get("partnerships") else "HR-SETTLE-6")
    else:
        clauses.append("SN-END-1" if sn else "HR-SETTLE-1")
    if answer.get("winners"):
        clauses.append("HR-MATCH-2" if not sn else "SN-MATCH-1")
    return {"kind": "settle", "clauses": list(dict.fromkeys(clauses)),
            "description": f"{category}: {inp['end']['reason']}, {inp['players']} players"
                           f"{' in partnerships' if inp.get('partnerships') else ''}",
            "input": inp, "expect": answer}


def settlement_builder(category: str) -> CaseBuilder:
    def build(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
        partners_wanted = True if category == "settle-partnership" else None
        players, partners = _config(rng, rules, partners_wanted)
        config = configure(rules, players, partners)
        blocked = category == "settle-blocked-tie" or rng.random() < 0.4
        out_seat = None if blocked else rng.randrange(players)
        hands = _random_hands(rng, players, out_seat)
        if category == "settle-blocked-tie":
            # copy one side's pip total onto another's so the lowest totals tie
            a, b = rng.sample(range(len(config.sides)), 2)
            target_pips = sum(sum(int(c) for c in t if c.isdigit()) for s in config.sides[a] for t in hands[s])
            for _ in range(300):
                trial = _random_hands(rng, players, None)
                got = sum(sum(int(c) for c in t if c.isdigit()) for s in config.sides[b] for t in trial)
                if got == target_pips:
                    used = {t for s in config.sides[a] for t in hands[s]}
                    if not used & {t for s in config.sides[b] for t in trial[s]}:
                        for s in config.sides[b]:
                            hands[s] = trial[s]
                        break
        scores = [rng.randint(0, config.target - 1) for _ in config.sides]
        if category == "settle-target":
            scores = [config.target - rng.randint(1, 6) for _ in config.sides]
        inp = {"players": players, "partnerships": partners, "scores": scores,
               "end": {"reason": "blocked"} if blocked else {"reason": "gone-out", "seat": out_seat},
               "remaining": hands}
        case = _settle_case(rules, inp, category)
        return None if "error" in case["expect"] else case
    return build


def match_end_case(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    players, partners = _config(rng, rules)
    config = configure(rules, players, partners)
    scores = [config.target - rng.randint(0, 8) for _ in config.sides]
    awards = [rng.choice([0, 0, 1, 2, 3, 5]) if rules.id == "horse-race" else rng.choice([0, 5, 10])
              for _ in config.sides]
    inp = {"players": players, "partnerships": partners, "scores": scores, "awards": awards}
    p = PREFIX[rules.id]
    return {"kind": "match-end", "clauses": ["HR-MATCH-2" if p == "HR" else "SN-MATCH-1", f"{p}-TARGET-1" if p == "SN" else "HR-POINTS-1"],
            "description": f"match end: scores {scores} + {awards}", "input": inp,
            "expect": run_match_end(rules, inp, {})}


PLAY_BUILDERS: dict[str, tuple[int, CaseBuilder]] = {
    "turn-continuation-chain": (2, turn_builder("continuation-chain",
                                                lambda a: sum(x["action"] == PLACE for x in a) >= 3, hr_only=True)),
    "turn-draw": (2, turn_builder("draw", lambda a: any(x["action"] == DRAW for x in a))),
    "turn-pass": (1, turn_builder("pass", lambda a: any(x["action"] == PASS for x in a))),
    "turn-random": (1, turn_builder("random", lambda a: True)),
    "turn-target-mid-hand": (1, target_mid_hand),
    "settle-blocked-tie": (1, settlement_builder("settle-blocked-tie")),
    "settle-partnership": (1, settlement_builder("settle-partnership")),
    "settle-target": (1, settlement_builder("settle-target")),
    "match-end": (1, match_end_case),
}
