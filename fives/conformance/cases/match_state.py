"""A match's state as a case's input: the `turn` input (the whole table before the seat to act
moves) and the `legal-placements` input (the seat to act's view of it).

One function for every generator of cases from play (profile_pins.py through pin_play.py, and
conformance/tools/make_variant_fixtures.py), so a field one of them learns to write (issue 37:
`hand_number`) reaches the others. An optional field is written only where it says something,
so the cases written before it existed keep their bytes.
"""
from __future__ import annotations

import random
from typing import Any

from fives.match import PLACE, Action, Match
from fives.rules import GameRules


def config_input(players: int, partnerships: bool) -> dict[str, Any]:
    """The configuration fields every kind takes: `players`, and `partnerships` when set."""
    return {"players": players, **({"partnerships": True} if partnerships else {})}


def reads_hand_number(rules: GameRules) -> bool:
    """Whether the hand's number changes an answer under `rules`: an opening requirement that
    binds the first hand only (`opening.scope: first-hand`)."""
    return rules.opening_scope == "first-hand" and rules.opening_requires != "any"


def _hand_number(m: Match) -> int | None:
    """The state's hand of the match, where a rule reads it and it is not the first (default 1)."""
    return m.hand_no if reads_hand_number(m.rules) and m.hand_no > 1 else None


def turn_input(m: Match, draws: bool = True) -> dict[str, Any]:
    """The `turn` input of the state before `m`'s seat to act moves (without `actions`).
    `draws` (the draws made this turn, read by `drawing.limit`) is written only when asked:
    the variant fixtures were written without it."""
    out = config_input(m.config.players, m.config.partnerships)
    out.update({"scores": list(m.scores), "layout": [p.to_dict() for p in m.layout.history()],
                "hands": [[str(t) for t in h] for h in m.hands], "boneyard": [str(t) for t in m.boneyard],
                "seat": m.to_act})
    if m.continuing:
        out["continuing"] = True
    if m.drawn is not None:
        out["drawn"] = str(m.drawn)
    if m.leader != m.to_act:
        out["leader"] = m.leader
    if m.passes:
        out["passes"] = m.passes
    if draws and m.draws:
        out["draws"] = m.draws
    if (n := _hand_number(m)) is not None:
        out["hand_number"] = n
    return out


def legal_input(state: dict[str, Any]) -> dict[str, Any]:
    """The `legal-placements` input of a `turn` input's state: the layout, the hand of the seat
    to act, the boneyard's size, and the turn's fields that change what it may do. It shares
    the state's lists (a YAML file holding both writes them once, as an anchor)."""
    out = {k: state[k] for k in ("players", "partnerships") if k in state}
    out.update({"layout": state["layout"], "hand": state["hands"][state["seat"]], "boneyard": len(state["boneyard"])})
    out.update({k: state[k] for k in ("continuing", "drawn", "draws", "hand_number") if k in state})
    return out


def action_input(a: Action) -> dict[str, Any]:
    """An action as a `turn` input's `actions` entry: a placement's record, or the action's kind."""
    if a.kind == PLACE and a.placement is not None:
        return {"action": PLACE, **a.placement.to_dict()}
    return {"action": a.kind}


def seeded_choice(rng: random.Random, m: Match, placements: list[Any]) -> Any:
    """The seeded self-play's placement: mostly greedy (scores reach the targets, and scoring
    rules show), sometimes random. One draw sequence for every generator, so a seed plays alike."""
    if rng.random() < 0.3:
        return rng.choice(placements)
    best = max(m.layout.score_move(p.code) for p in placements)
    return rng.choice([p for p in placements if m.layout.score_move(p.code) == best])
