"""Kinds `setup` (who may play, deal sizes, target) and `next-leader` (who leads a hand)."""
from __future__ import annotations

from typing import Any

from fives.rules import GameRules
from fives.conformance.kinds import Kind, compare_fields


def setup_answer(rules: GameRules, players: int, partnerships: bool) -> dict[str, Any]:
    """The configuration a game allows, read from its spec file."""
    allowed = players in (rules.partnership_players if partnerships else rules.solo_players)
    if not allowed:
        what = "in partnerships" if partnerships else "each for themselves"
        return {"valid": False, "reason": f"{rules.name} is not played by {players} players {what}"}
    hand = rules.hand_size[players]
    teams = [list(t) for t in rules.teams] if partnerships else [[s] for s in range(players)]
    target = rules.target_raw[players]
    return {"valid": True, "hand_size": hand, "boneyard": 28 - hand * players, "teams": teams,
            "target_raw": target, "target_display": target // rules.display_divisor}


def run_setup(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    return setup_answer(rules, int(input["players"]), bool(input.get("partnerships", False)))


def compare_setup(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    # the reason for an invalid configuration is free text
    return compare_fields({k: v for k, v in expected.items() if k != "reason"}, actual)


def next_leader(rules: GameRules, previous: dict[str, Any] | None) -> dict[str, Any]:
    """`lot` for the first hand and after a blocked hand; else whoever played the last tile."""
    lead = rules.raw["lead"]
    if previous is None:
        return {"leader": lead["first_hand"]}  # the schema allows only "lot"
    if previous["ended"] == "blocked":
        return {"leader": lead["after_blocked"]}
    return {"leader": int(previous["last_tile_seat"])}


def run_next_leader(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    return next_leader(rules, input.get("previous"))


KINDS = [
    Kind("setup", "setup", run_setup, compare_setup, "setup.schema.json", "setup"),
    Kind("next-leader", "next-leader", run_next_leader, lambda e, a: compare_fields(e, a),
         "next-leader.schema.json", "lead"),
]
