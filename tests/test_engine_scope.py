"""Engine scope (spec/protocol.md, "Engine scope"): a hello may narrow the players, partnerships,
games and kinds an engine plays; cases outside it are skipped with the reason, never failed."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.engines.drivers import (EngineStartError, Handshake, ReferenceEngine, parse_handshake,
                                               scope_problem)
from fives.conformance.runner import run_cases

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "conformance" / "fixtures" / "setup"


def hello(**extra: object) -> dict[str, object]:
    return {"id": "hello", "type": "hello", "protocol": 1, "engine": {"name": "x", "version": "1", "language": "c"},
            "games": ["horse-race"], "capabilities": ["setup"], **extra}


def test_the_hello_scope_is_read_and_a_malformed_one_fails_the_handshake() -> None:
    assert parse_handshake(hello()).scope is None
    got = parse_handshake(hello(scope={"players": [2], "partnerships": False, "colour": "red"}))
    assert got.scope == {"players": [2], "partnerships": False}  # an unknown key is ignored
    for bad in ({"players": ["two"]}, {"partnerships": "no"}, [2]):
        with pytest.raises(EngineStartError, match="scope"):
            parse_handshake(hello(scope=bad))


def test_scope_problem_names_what_lies_outside() -> None:
    cases = {(c.input.get("players"), bool(c.input.get("partnerships"))): c
             for c in load_cases([SETUP], cache=False) if c.game == "horse-race"}
    two, three, four_p = cases[(2, False)], cases[(3, False)], cases[(4, True)]
    scope = {"players": [2, 4], "partnerships": False}
    assert scope_problem(scope, two) is None
    assert scope_problem(scope, three) == "outside the engine's scope: 3 players (it declares players 2, 4)"
    assert scope_problem(scope, four_p) == "outside the engine's scope: partnerships (it declares partnerships false)"
    assert scope_problem({"kinds": ["evaluate"]}, two) == "outside the engine's scope: kind setup (it declares evaluate)"
    assert scope_problem(None, three) is None


def test_a_two_player_engine_in_process_gets_skips_with_the_reason() -> None:
    cases = load_cases([SETUP], cache=False)
    engine = ReferenceEngine(scope={"players": [2], "partnerships": False})
    results = run_cases(engine, cases)
    skipped = [r for r in results if r.status == "skipped"]
    assert skipped and all(r.case.input["players"] != 2 or r.case.input.get("partnerships") for r in skipped)
    assert all(r.out_of_scope and r.out_of_scope.startswith("outside the engine's scope") for r in skipped)
    assert all(r.to_dict()["out_of_scope"] == r.out_of_scope for r in skipped)
    assert {r.status for r in results if r.case.input["players"] == 2 and not r.case.input.get("partnerships")} == {"passed"}
    assert all(r.out_of_scope is None and "out_of_scope" not in r.to_dict() for r in results if r.status == "passed")


def test_fives_serve_players_2_declares_its_scope_and_declines_the_rest() -> None:
    lines = [{"id": "hello", "type": "hello", "protocol": 1},
             {"id": "a", "type": "setup", "game": "horse-race", "input": {"players": 3}},
             {"id": "b", "type": "setup", "game": "horse-race", "input": {"players": 2}}]
    r = subprocess.run([sys.executable, "-m", "fives", "serve", "--players", "2"], input="".join(
        json.dumps(m) + "\n" for m in lines), capture_output=True, text=True, check=True)
    replies = [json.loads(x) for x in r.stdout.splitlines()]
    assert replies[0]["scope"] == {"players": [2], "partnerships": False}
    assert replies[1] == {"id": "a", "skipped": "outside the engine's scope: 3 players"}
    assert replies[2]["result"]["valid"] is True and replies[2]["result"]["hand_size"] == 7


def test_a_two_player_engine_through_the_protocol_gets_skips_not_failures() -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "run", "--fixtures", str(SETUP),
                        "--engine", f"{sys.executable} -m fives serve --players 2"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(load_cases([SETUP], cache=False))
    two = sum(1 for c in load_cases([SETUP], cache=False) if c.input.get("players") == 2 and not c.input.get("partnerships"))
    assert 0 < two < n
    assert f"{two} passed, 0 failed, 0 errored, {n - two} skipped" in r.stdout
    assert "; scope: players 2, partnerships false" in r.stdout  # the engine line says what it declared
