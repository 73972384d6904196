"""`fives serve` answers every request (issue 40): a field of a request of any kind holding a value
of any JSON type (list, object, number, boolean, null, string), the top-level fields and every
field of the kind's input, gets exactly one reply, an error reply whenever the value is of the
wrong type (by the protocol for the request's own fields, by the kind's schema for the input),
and the request after it is answered, under every option (none, --strict, --players, --rules)."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds import kind_named, load_kinds
from fives.support import paths

ROOT = Path(__file__).resolve().parents[1]
#: a value of every JSON type; the list holds a request type, as the issue's probe did
VALUES: dict[str, Any] = {"list": ["evaluate"], "object": {"type": "evaluate"}, "integer": 3, "number": 2.5,
                          "boolean": True, "null": None, "string": "x"}
#: the JSON types the protocol allows for a request's own fields (spec/protocol.md); absent = null
ALLOWED = {"id": {"string"}, "type": {"string"}, "game": {"string"}, "input": {"object"},
           "rules": {"object", "null"}}
NEXT = {"id": "next", "type": "tally", "game": "american-sniff", "input": {"score": 135}}
OPTIONS = [[], ["--strict"], ["--players", "2"], ["--rules", "muggins-hoyle"]]


def input_validator(kind: str) -> jsonschema.Draft202012Validator:
    case_schema = json.loads((paths.CONFORMANCE_SCHEMAS / "kinds" / kind_named(kind).schema).read_text())
    return jsonschema.Draft202012Validator({**case_schema["properties"]["input"],
                                            "$defs": case_schema.get("$defs", {})})


def only_type_errors(error: jsonschema.ValidationError) -> bool:
    """The schema refuses the value for its JSON type alone (in every branch of a oneOf)."""
    if error.validator == "type":
        return True
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        return all(any(e.validator == "type" and e.absolute_path == error.absolute_path for e in es)
                   for es in branches.values())
    return False


def field_of_wrong_type(valid: jsonschema.Draft202012Validator, value: dict[str, Any], field: str) -> bool:
    """The kind's schema refuses `value[field]` for its JSON type (a list of the wrong items is of
    the right type: the kind's own answer, `malformed-input`, may say what is wrong with them)."""
    return any(list(e.absolute_path) == [field] and only_type_errors(e) for e in valid.iter_errors(value))


def requests() -> list[tuple[dict[str, Any], bool]]:
    """Every mutated request of every kind, with whether its value is of a wrong type."""
    samples: dict[str, Any] = {}
    for case in load_cases():
        if case.profile is None and "slow" not in case.tags and case.kind not in samples:
            samples[case.kind] = case
    assert set(samples) == set(load_kinds())
    out = []
    for kind, case in sorted(samples.items()):
        base = {"id": "r", "type": kind, "game": case.game, "input": case.input}
        if kind == "perft":  # the lightest perft: the suite's first may count for a while
            base["input"] = {"placements": [], "depth": 1}
        valid = input_validator(kind)
        for field, allowed in ALLOWED.items():
            for name, value in VALUES.items():
                request = {**copy.deepcopy(base), field: value}
                out.append((request, ("number" if name == "integer" else name) not in allowed))
        for field in base["input"]:
            for value in VALUES.values():
                request = copy.deepcopy(base)
                request["input"][field] = value
                out.append((request, field_of_wrong_type(valid, request["input"], field)))
    return out


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: " ".join(o) or "default")
def test_every_json_type_in_every_field_gets_one_reply_and_serving_goes_on(option: list[str]) -> None:
    mutated = requests()
    lines = [json.dumps({"id": "h", "type": "hello", "protocol": 1})]
    for n, (request, _) in enumerate(mutated):
        lines += [json.dumps(request), json.dumps({**NEXT, "id": f"next-{n}"})]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "fives", "serve", *option], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0 and r.stderr == "", r.stderr[-2000:]
    replies = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(replies) == len(lines)  # exactly one reply a line
    assert replies[0]["type"] == "hello"
    wrong = 0
    for n, (request, wrong_type) in enumerate(mutated):
        reply, after = replies[1 + 2 * n], replies[2 + 2 * n]
        assert after == {"id": f"next-{n}", "result": {"fifties": 2, "strokes": 7, "negative": False}}, request
        assert len({"result", "skipped", "error"} & set(reply)) == 1, (request, reply)
        if wrong_type:
            wrong += 1
            assert set(reply) == {"id", "error"} and isinstance(reply["error"], str), (request, reply)
            assert reply["id"] == (request["id"] if isinstance(request["id"], str) else None)
    assert wrong > 300  # the probe holds a wrong type in every field of every kind


def test_the_issues_probe_a_list_for_a_type() -> None:
    lines = ['{"id":"h","type":"hello","protocol":1}', '{"id":"t","type":["evaluate"]}',
             '{"id":"t2","type":"evaluate","game":"horse-race","input":{}}']
    r = subprocess.run([sys.executable, "-m", "fives", "serve"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0 and r.stderr == ""
    replies = [json.loads(line) for line in r.stdout.splitlines()]
    assert replies[1] == {"id": "t", "error": "request type is a list, not a string"}
    assert replies[2] == {"id": "t2", "error": "malformed input: input: 'placements' is a required property"}
