"""Kinds `setup` (who may play, deal sizes, target) and `next-leader` (who leads a hand)."""
from __future__ import annotations

from typing import Any

from fives.rules import GameRules
from fives.tiles import Tile
from fives.conformance.cases.kinds import Kind, compare_error, compare_fields, malformed


def setup_answer(rules: GameRules, players: int, partnerships: bool) -> dict[str, Any]:
    """The configuration a game allows, read from its spec file."""
    allowed = players in (rules.partnership_players if partnerships else rules.solo_players)
    if not allowed:
        what = "in partnerships" if partnerships else "each for themselves"
        return {"valid": False, "reason": f"{rules.name} is not played by {players} players {what}"}
    hand = rules.hand_size[players]
    teams = [list(t) for t in rules.teams] if partnerships else [[s] for s in range(players)]
    target = rules.target_raw[players]
    return {"valid": True, "hand_size": hand, "boneyard": 28 - hand * players - rules.dead_tiles(players), "teams": teams,
            "target_raw": target, "target_display": target // rules.display_divisor}


def run_setup(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    return setup_answer(rules, int(input["players"]), bool(input.get("partnerships", False)))


def compare_setup(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    # the reason for an invalid configuration is free text
    return compare_fields({k: v for k, v in expected.items() if k != "reason"}, actual)


def next_leader(rules: GameRules, previous: dict[str, Any] | None, players: int = 4,
                deal: list[list[Any]] | None = None) -> dict[str, Any]:
    """`lot` for the first hand and after a blocked hand; else whoever played the last tile
    (the seeds). Under a profile: seat 0 or "highest-double" first (with the first hand's
    `deal`, the seat holding that double), the seat after the previous leader
    (`previous.leader`) or that leader again later (fives.match.leader_after)."""
    from fives.match import first_leader, leader_after
    from fives.settlement import BLOCKED, GONE_OUT, HandEnd

    if previous is None:
        hands = None if deal is None else _dealt(rules, deal, players)
        if isinstance(hands, dict):
            return hands
        first = first_leader(rules, hands)
        return {"leader": "lot" if first is None else first}
    end = HandEnd(BLOCKED) if previous["ended"] == "blocked" else \
        HandEnd(GONE_OUT, int(previous["last_tile_seat"]))
    leader = leader_after(rules, end, previous.get("leader"), players)
    return {"leader": "lot" if leader is None else leader}


def _dealt(rules: GameRules, deal: list[list[Any]], players: int) -> list[list[Tile]] | dict[str, Any]:
    """The first hand's hands, or the malformed-input reply when they are no deal of the game
    (fives.conformance.cases.reachable.dealt_hands)."""
    from fives.conformance.cases.reachable import dealt_hands

    hands = dealt_hands(rules, deal, players)
    return malformed(hands) if isinstance(hands, str) else hands


def config_problem(rules: GameRules, input: dict[str, Any]) -> str | None:
    """Why a next-leader question's configuration is none of the game's, as the other play
    kinds refuse it (spec/play.md, "next-leader"): `players` and `partnerships` a configuration
    the game allows, and every seat the question names one of its seats. None: it is one."""
    from fives.settlement import ConfigError, configure

    try:
        config = configure(rules, input["players"], bool(input.get("partnerships", False)))
    except ConfigError as e:
        return str(e)
    previous = input.get("previous") or {}
    for key in ("last_tile_seat", "leader"):
        seat = previous.get(key)
        if seat is not None and not 0 <= seat < config.players:
            return f"previous.{key} {seat} does not exist: seats are 0..{config.players - 1}"
    return None


def run_next_leader(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    problem = config_problem(rules, input)
    if problem is not None:
        return malformed(problem)
    return next_leader(rules, input.get("previous"), int(input["players"]), input.get("deal"))


def compare_next_leader(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    err = compare_error(expected, actual)  # a malformed-input answer compares by index and code
    return err if err is not None else compare_fields(expected, actual)


KINDS = [
    Kind("setup", "setup", run_setup, compare_setup, "setup.schema.json", "setup"),
    Kind("next-leader", "next-leader", run_next_leader, compare_next_leader,
         "next-leader.schema.json", "lead"),
]
