"""The reply contract (issue 26): spec/protocol.md lists every request kind with its
capability, and spec/play.md's "Every kind by example" gives one complete request and reply
per kind and game. Every example is sent to the in-process reference engine and must come
back exactly as written; a wrong example, a missing kind or an unreachable state fails."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fives.conformance.cases.kinds import canonical, load_kinds
from fives.conformance.cases.reachable import problems
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.engines.protocol import MessageValidator
from fives.rules import load_rules

SPEC = Path(__file__).resolve().parent.parent / "spec"
GAMES = ("american-sniff", "horse-race")
KINDS = load_kinds()


def examples(text: str) -> list[tuple[dict, dict]]:
    """The (request, reply) pairs of the "Every kind by example" section: each ```json block
    there holds exactly two JSON objects, the request and the reply."""
    section = text.split("## Every kind by example", 1)[1].split("\n## ", 1)[0]
    pairs = []
    decoder = json.JSONDecoder()
    for block in re.findall(r"```json\n(.*?)```", section, re.S):
        objs, i, body = [], 0, block.strip()
        while i < len(body):
            obj, i = decoder.raw_decode(body, i)
            objs.append(obj)
            while i < len(body) and body[i].isspace():
                i += 1
        assert len(objs) == 2, f"an example block holds a request and a reply, got {len(objs)}: {body[:80]}"
        pairs.append((objs[0], objs[1]))
    return pairs


def example_problems(text: str) -> list[str]:
    """What is wrong with the examples of `text` (a copy of spec/play.md): each line names one
    example; empty when every example is the reference's exact reply to a reachable state and
    every kind appears once per game."""
    engine, validate = ReferenceEngine(), MessageValidator()
    out, seen = [], []
    for request, reply in examples(text):
        rid, kind, game = request.get("id"), request.get("type"), request.get("game")
        seen.append((kind, game))
        for direction, msg in (("request", request), ("reply", reply)):
            problem = validate(direction, msg)
            if problem:
                out.append(f"{rid}: the {direction} breaks the protocol schema: {problem}")
        if reply.get("id") != rid:
            out.append(f"{rid}: the reply's id is {reply.get('id')!r}")
        actual = engine.answer(kind, game, request["input"])
        if canonical(actual) != canonical(reply.get("result")):
            out.append(f"{rid}: the reference answers {canonical(actual)}")
        unreachable = problems(load_rules(game), kind, request["input"])
        if unreachable:
            out.append(f"{rid}: no game reaches this state: {unreachable}")
    want = sorted((k, g) for k in KINDS for g in GAMES)
    if sorted(seen) != want:
        out.append(f"examples of {sorted(seen)}, want one of each of {want}")
    return out


PLAY_MD = (SPEC / "play.md").read_text(encoding="utf-8")


def test_every_example_is_the_reference_reply():
    assert len(examples(PLAY_MD)) == 2 * len(KINDS) == 18
    assert example_problems(PLAY_MD) == []


@pytest.mark.parametrize("wrong, says", [
    ('{"id": "tally-hr", "result": {"hole": 61}}', '{"id": "tally-hr", "result": {"hole": 64}}'),  # the cap
    ('"deductions": [],\n     "changes": [7, 0]', '"changes": [7, 0]'),  # an always-present key left out
    ('"turn_end": true}],\n   "scores": [7, 5]', '"turn_end": false}],\n   "scores": [7, 5]'),  # the blocking draw
])
def test_a_wrong_example_fails(wrong, says):
    assert PLAY_MD.count(wrong) == 1
    found = example_problems(PLAY_MD.replace(wrong, says))
    assert len(found) == 1 and "the reference answers" in found[0], found


def test_a_missing_kind_fails():
    text = PLAY_MD
    block = re.search(r"\*\*`tally`, American Sniff\*\*.*?```json\n.*?```", text, re.S)
    assert block is not None
    found = example_problems(text.replace(block.group(0), ""))
    assert found == [f"examples of {sorted((k, g) for k in KINDS for g in GAMES if (k, g) != ('tally', 'american-sniff'))}"
                     f", want one of each of {sorted((k, g) for k in KINDS for g in GAMES)}"]


def test_the_examples_say_what_the_contract_promises():
    by = {(q["type"], q["game"]): r["result"] for q, r in examples(PLAY_MD)}
    # the settlement keys are present in both games, empty where they do not apply
    sn, hr = by[("settle", "american-sniff")], by[("settle", "horse-race")]
    assert sn["hand_winners"] == [] and sn["awards"] == [] and sn["deductions"]
    assert hr["deductions"] == [] and hr["awards"] and hr["hand_winners"] == [0]
    # a draw that leaves the hand blocked ends the turn, in both games
    for game in GAMES:
        turn = by[("turn", game)]
        assert [r["action"] for r in turn["results"]] == ["draw"]
        assert turn["results"][0]["turn_end"] is True and turn["results"][0]["playable"] is False
        assert turn["hand_end"]["reason"] == "blocked" and turn["next_seat"] is None
        assert set(turn) == {"results", "scores", "next_seat", "hand_end", "settlement", "match_end"}
    # the Horse Race tally caps at the target; a Sniff settlement never ends a match
    assert by[("tally", "horse-race")] == {"hole": 61}
    assert by[("match-end", "american-sniff")]["winners"] == []


def test_protocol_md_lists_every_kind_with_its_capability():
    text = (SPEC / "protocol.md").read_text(encoding="utf-8")
    table = text.split("## Request types (case kinds)", 1)[1].split("\n\n", 2)[1]
    rows = re.findall(r"^\| `([a-z-]+)` \| `([a-z-]+)` \|", table, re.M)
    assert sorted(rows) == sorted((k.name, k.capability) for k in KINDS.values())
    assert len(rows) == 9
