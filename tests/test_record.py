"""Game records: every configuration plays and replays clean; tampered records fail at the right line."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from fives.record import RecordError, dumps, replay
from fives.rules import load_rules
from fives.settlement import configure
from fives.strategies import play_match

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [(g, n, p) for g in ("american-sniff", "horse-race") for n, p in load_rules(g).configurations()]
MATCHES_PER_CONFIG = 4  # benchmarks/selfplay.py runs 1,000


def record(game: str, players: int, partnerships: bool, seed: int, names=("random",)) -> list[str]:
    rules = load_rules(game)
    return [dumps(e) for e in play_match(rules, configure(rules, players, partnerships), seed, list(names))]


@pytest.fixture(scope="module")
def hr4() -> list[str]:
    return record("horse-race", 4, True, 21, ("greedy", "random"))


@pytest.fixture(scope="module")
def sn3() -> list[str]:
    return record("american-sniff", 3, False, 5)


@pytest.mark.parametrize("game, players, partnerships", CONFIGS)
def test_selfplay_records_replay_clean(game: str, players: int, partnerships: bool) -> None:
    for seed in range(MATCHES_PER_CONFIG):
        names = ("random", "greedy", "first")[seed % 3]
        lines = record(game, players, partnerships, seed, (names,))
        summary = replay(lines)
        end = json.loads(lines[-1])
        assert (summary.winners, summary.scores, summary.hands) == (end["winners"], end["scores"], end["hands"])


def test_every_line_is_valid_under_the_whole_schema(hr4: list[str], sn3: list[str]) -> None:
    """The replay validates per event type; the root schema (if/then) must agree."""
    schema = json.loads((ROOT / "spec/schema/record.schema.json").read_text(encoding="utf-8"))
    v = jsonschema.Draft202012Validator(schema)
    for line in hr4 + sn3:
        v.validate(json.loads(line))
    assert not v.is_valid({"event": "place", "seat": 0, "tile": "[4|1]"})


def test_same_seed_byte_identical() -> None:
    a = "\n".join(record("horse-race", 3, False, 99, ("greedy",)))
    b = "\n".join(record("horse-race", 3, False, 99, ("greedy",)))
    c = "\n".join(record("horse-race", 3, False, 98, ("greedy",)))
    assert a == b and a != c


def first_index(lines: list[str], event: str, where=lambda e: True) -> int:
    return next(i for i, line in enumerate(lines) if i and (e := json.loads(line))["event"] == event and where(e))


def edited(lines: list[str], index: int, **changes) -> list[str]:
    out = list(lines)
    ev = json.loads(out[index])
    ev.update(changes)
    out[index] = dumps(ev)
    return out


def fails(lines: list[str]) -> tuple[int, str]:
    with pytest.raises(RecordError) as e:
        replay(lines)
    return e.value.line, e.value.code


def test_wrong_points(hr4: list[str]) -> None:
    i = first_index(hr4, "place", lambda e: e["raw"] > 0)
    ev = json.loads(hr4[i])
    assert fails(edited(hr4, i, raw=ev["raw"] + 5)) == (i + 1, "points-mismatch")
    assert fails(edited(hr4, i, score=ev["score"] + 1)) == (i + 1, "points-mismatch")
    assert fails(edited(hr4, i, continues=not ev["continues"])) == (i + 1, "continuation-mismatch")


def test_drawing_while_able_to_place(sn3: list[str]) -> None:
    # replace a placement from hand (the seat had a legal placement) with a draw
    i = first_index(sn3, "place", lambda e: not e["drawn"] and "to" in e)
    ev = json.loads(sn3[i])
    bad = list(sn3)
    bad[i] = dumps({"event": "draw", "seat": ev["seat"], "tile": "[0|0]", "playable": False})
    assert fails(bad) == (i + 1, "must-place")


def test_wrong_drawn_tile_and_deal(sn3: list[str]) -> None:
    i = first_index(sn3, "draw")
    other = "[6|6]" if json.loads(sn3[i])["tile"] != "[6|6]" else "[0|0]"
    assert fails(edited(sn3, i, tile=other)) == (i + 1, "draw-mismatch")
    h = first_index(sn3, "hand")
    deal = json.loads(sn3[h])["deal"]
    deal[0], deal[1] = deal[1], deal[0]
    assert fails(edited(sn3, h, deal=deal)) == (h + 1, "deal-mismatch")
    assert fails(edited(sn3, h, leader=(json.loads(sn3[h])["leader"] + 1) % 3)) == (h + 1, "leader-mismatch")


def test_illegal_placement_reports_the_layout_code(hr4: list[str]) -> None:
    i = first_index(hr4, "place", lambda e: "to" in e)
    ev = json.loads(hr4[i])
    assert fails(edited(hr4, i, side="branch-b" if ev["side"] != "branch-b" else "line-a"))[0] == i + 1
    assert fails(edited(hr4, i, seat=(ev["seat"] + 1) % 4)) == (i + 1, "not-your-turn")


def test_events_after_the_end(hr4: list[str]) -> None:
    extra = dumps({"event": "pass", "seat": 0})
    assert fails(hr4 + [extra]) == (len(hr4) + 1, "after-match-end")
    # a placement right after the hand ended, before its hand-end line
    i = first_index(hr4, "hand-end")
    bad = hr4[:i] + [extra] + hr4[i:]
    assert fails(bad) == (i + 1, "after-hand-end")


def test_missing_and_extra_lines(hr4: list[str]) -> None:
    assert fails(hr4[:-1]) == (len(hr4) - 1, "incomplete-record")
    i = first_index(hr4, "settle")
    assert fails(hr4[:i] + hr4[i + 1:])[1] == "after-hand-end"
    j = first_index(hr4, "place")
    bad = hr4[:j + 1] + [hr4[i - 1]] + hr4[j + 1:]  # a hand-end line where nothing ended
    assert fails(bad) == (j + 2, "hand-not-ended")
    assert fails(hr4[:1]) == (1, "incomplete-record")


def test_malformed_lines(hr4: list[str]) -> None:
    assert fails(hr4[:3] + ["{not json"] + hr4[3:]) == (4, "malformed-line")
    assert fails(hr4[:3] + [""] + hr4[3:]) == (4, "malformed-line")
    i = first_index(hr4, "place")
    assert fails(edited(hr4, i, tile="[4|1]")) == (i + 1, "schema-violation")
    assert fails(edited(hr4, i, extra=1)) == (i + 1, "schema-violation")
    assert fails(edited(hr4, 0, game="dominoes")) == (1, "unknown-game")
    assert fails(edited(hr4, 0, partnerships=False, players=5))[1] == "schema-violation"
    sniff = record("american-sniff", 2, False, 1)
    assert fails(edited(sniff, 0, players=4)) == (1, "bad-config")
    assert fails(edited(sniff, 0, target=200)) == (1, "points-mismatch")


def test_schema_violation_message_names_the_key(hr4: list[str]) -> None:
    i = first_index(hr4, "draw")
    with pytest.raises(RecordError, match="tile"):
        replay(edited(hr4, i, tile="[9|9]"))
