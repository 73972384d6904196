"""The questions profile_pins.py asks of a profile: (kind, input, where) of states the profile's
play reaches, cheapest first. Each is only a question; the answer is the reference's under the
profile, and profile_pins.py keeps the questions on which a rival engine's answer fails.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from fives.conformance.cases.match_state import action_input, config_input, legal_input, seeded_choice, turn_input
from fives.match import DRAW, PASS, PLACE, Action, Match
from fives.rules import GameRules
from fives.settlement import configure
from fives.tiles import ALL_TILES, Tile

Question = tuple[str, dict[str, Any], str]
MAX_HANDS = 12  # hands per seeded match
WINDOW = 4  # a `turn` question replays up to this many actions from a state


Setups = list[tuple[int, bool]]  # the (players, partnerships) setups questions are asked in


def _setups(rules: GameRules, setups: Setups | None) -> Setups:
    """The setups to ask in: those given (a profile's book plays only some: a run under it skips
    the others as out of scope, so a question there pins nothing), else every one the rules allow."""
    return [c for c in rules.configurations() if setups is None or c in setups]


def rule_questions(rules: GameRules, setups: Setups | None = None) -> Iterator[Question]:
    """Questions that need no play: each configuration's setup and first leader, and who
    leads after every way a hand can end (each leader, each last tile's seat)."""
    configs = _setups(rules, setups)
    for players, partnerships in configs:
        yield "setup", config_input(players, partnerships), "the rules alone (no play needed)"
        yield "next-leader", {**config_input(players, partnerships), "previous": None}, "the rules alone (no play needed)"
    for players in sorted({n for n, _ in configs}):
        # solo where the setups have it: partnerships only where they alone seat that many
        base = config_input(players, (players, False) not in configs)
        for leader in range(players):
            yield ("next-leader", {**base, "previous": {"ended": "blocked", "leader": leader}},
                   f"after a blocked hand led by seat {leader}")
            for seat in range(players):
                yield ("next-leader", {**base, "previous": {"ended": "gone-out", "leader": leader,
                                                            "last_tile_seat": seat}},
                       f"after a hand led by seat {leader} that seat {seat} went out of")


def _reads_order(rules: GameRules) -> bool:
    return rules.lead.get("first_hand") == "opening-order" or rules.opening_requires == "fixed-order"


def order_questions(rules: GameRules, setups: Setups | None = None) -> Iterator[Question]:
    """For each adjacent pair (A, B) of the opening order, first deals in which A and B are the
    only tiles of any order of opening tiles dealt: who leads when two seats hold them, and what
    a leader holding both must open with. Every other order ranks some pair otherwise, leaves
    one of its tiles out, or puts another tile first; one of these cases fails it."""
    from fives.profile_space import OPENING_ORDERS

    if not _reads_order(rules) or not rules.opening_order:
        return
    order = list(rules.opening_order)
    configs = _setups(rules, setups)
    if not configs:
        return
    players, partnerships = min(configs, key=lambda c: (c[1], c[0]))  # the fewest players, solo first
    hand = rules.hand_size[players]
    named = set(order) | {t for o in OPENING_ORDERS for t in _tiles(o)}
    fill = [t for t in ALL_TILES if t not in named and not t.is_double][:players * hand - 2]
    if hand < 2 or len(fill) < players * hand - 2:
        return  # an order that names most tiles leaves too few others to deal around two of them
    sizes = [hand - 1, hand - 1] + [hand] * (players - 2)
    chunks = [fill[sum(sizes[:s]):sum(sizes[:s + 1])] for s in range(players)]
    for a, b in zip(order, order[1:]):
        # B's holder is seat 0, so an engine that takes the first seat holding either shows too
        apart = [sorted(chunks[0] + [b]), sorted(chunks[1] + [a])] + [sorted(c) for c in chunks[2:]]
        yield ("next-leader", {**config_input(players, partnerships), "previous": None,
                               "deal": [[str(t) for t in h] for h in apart]},
               f"a first deal where {a} and {b} are the only tiles of an opening order, held apart")
        hands = [sorted(fill[:hand - 2] + [a, b])] + [fill[hand - 2 + s * hand:hand - 2 + (s + 1) * hand]
                                                       for s in range(players - 1)]
        used = {t for h in hands for t in h}
        yield ("turn", {**config_input(players, partnerships), "scores": [0] * players, "layout": [],
                        "hands": [[str(t) for t in h] for h in hands],
                        "boneyard": [str(t) for t in ALL_TILES if t not in used], "seat": 0,
                        "actions": [{"action": PLACE, "tile": str(b)}]},
               f"a first deal where seat 0 holds {a} and {b}, the only tiles of an opening order, and opens with {b}")


def _tiles(texts: list[str]) -> list[Tile]:
    from fives.tiles import parse_tile

    return [parse_tile(t) for t in texts]


def played_questions(rules: GameRules, seed: int, turns: bool = False,
                     setups: Setups | None = None) -> Iterator[Question]:
    """Questions on the states of one seeded match under `rules` (its configuration by the seed):
    the first deal's leader, every state's legal placements, each settlement and each next
    leader; or (`turns`) only short runs of the actions played, which cost more to answer."""
    configs = _setups(rules, setups)
    if not configs:
        return
    players, partnerships = configs[seed % len(configs)]
    config = configure(rules, players, partnerships)
    rng = random.Random(seed)
    m = Match(rules, config, seed)
    where = f"{players} players{' in partnerships' if partnerships else ''}, seed {seed}"
    while m.match_end is None and m.hand_no < MAX_HANDS:
        start = m.start_hand()
        if start.hand == 1 and not turns:
            yield ("next-leader", {**config_input(players, partnerships), "previous": None,
                                   "deal": [[str(t) for t in h] for h in start.deal]},
                   f"{where}, the first deal")
        steps: list[tuple[dict[str, Any], dict[str, Any]]] = []
        while m.in_hand:
            opts = m.legal_options()
            snap = turn_input(m)
            if not turns:
                yield "legal-placements", legal_input(snap), f"{where}, hand {m.hand_no}, action {len(steps)}"
            if opts.placements:
                a = Action(PLACE, opts.placements[0] if len(opts.placements) == 1 else seeded_choice(rng, m, opts.placements))
            else:
                a = Action(DRAW if opts.draw else PASS)
            leader = m.leader
            out = m.apply(a)
            steps.append((snap, action_input(a)))
            if out.settlement is not None and not turns:
                s = out.settlement
                yield "settle", {**config_input(players, partnerships), "scores": list(s.scores_before),
                                 "end": {k: v for k, v in s.end.to_dict().items() if v is not None},
                                 "remaining": [[str(t) for t in h] for h in (out.remaining or [])]}, \
                    f"{where}, hand {m.hand_no}, its settlement"
            if out.hand_end is not None and not turns:
                prev: dict[str, Any] = {"ended": out.hand_end.reason, "leader": leader}
                if out.hand_end.seat is not None:
                    prev["last_tile_seat"] = out.hand_end.seat
                yield ("next-leader", {**config_input(players, partnerships), "previous": prev},
                       f"{where}, after hand {m.hand_no}")
        for i, (snap, _) in enumerate(steps if turns else ()):
            for k in range(1, min(WINDOW, len(steps) - i) + 1):
                yield ("turn", {**snap, "actions": [act for _, act in steps[i:i + k]]},
                       f"{where}, hand {m.hand_no}, actions {i}..{i + k - 1}")
