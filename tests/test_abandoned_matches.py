"""Matches that end: `--max-hands` abandons an undecided match; records say so and replay."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.match import DEFAULT_MAX_HANDS, IllegalAction, Match
from fives.record import RecordError, dumps, replay
from fives.rules import load_rules
from fives.settlement import configure
from fives.strategies import play_match

ROOT = Path(__file__).resolve().parents[1]
SNIFF = load_rules("american-sniff")
STUCK = configure(SNIFF, 4, True)  # seed 110 with strategy first never reaches 200


def stuck_record(max_hands: int) -> list[str]:
    return [dumps(e) for e in play_match(SNIFF, STUCK, 110, ["first"], max_hands=max_hands)]


def test_the_repro_ends_abandoned_and_replays() -> None:
    lines = stuck_record(40)
    end = json.loads(lines[-1])
    assert end == {"event": "match-end", "by": "abandoned", "winners": [], "scores": end["scores"], "hands": 40}
    settle = json.loads(lines[-2])
    assert settle["event"] == "settle" and settle["hand"] == 40 and settle["scores"] == end["scores"]
    assert max(end["scores"]) < STUCK.target
    summary = replay(lines)
    assert (summary.hands, summary.winners, summary.scores) == (40, [], end["scores"])


def test_abandoned_lines_are_valid_under_the_whole_schema() -> None:
    schema = json.loads((ROOT / "spec/schema/record.schema.json").read_text(encoding="utf-8"))
    v = jsonschema.Draft202012Validator(schema)
    v.validate(json.loads(stuck_record(2)[-1]))
    assert not v.is_valid({"event": "match-end", "by": "abandoned", "winners": [0], "scores": [0, 0], "hands": 2})
    assert not v.is_valid({"event": "match-end", "by": "settlement", "winners": [], "scores": [0, 0], "hands": 2})


def test_the_limit_never_changes_a_match_that_ends_in_time() -> None:
    rules = load_rules("horse-race")
    config = configure(rules, 2, False)
    full = play_match(rules, config, 7, ["greedy", "random"])
    assert full[-1]["by"] != "abandoned"
    assert play_match(rules, config, 7, ["greedy", "random"], max_hands=full[-1]["hands"]) == full
    cut = play_match(rules, config, 7, ["greedy", "random"], max_hands=full[-1]["hands"] - 1)
    assert cut[-1]["by"] == "abandoned" and cut[:-1] == full[:len(cut) - 1]
    assert DEFAULT_MAX_HANDS == 1000


@pytest.mark.parametrize("cut,code", [
    (1, "hand-in-progress"),   # right after the first hand line: a hand is being played
    (0, "no-hand"),            # right after the header: nothing played yet
])
def test_abandoning_is_only_between_hands(cut: int, code: str) -> None:
    lines = stuck_record(2)
    end = json.loads(lines[-1])
    bad = lines[:cut + 1] + [json.dumps({**end, "hands": 1}, separators=(",", ":"))]
    with pytest.raises(RecordError) as e:
        replay(bad)
    assert (e.value.line, e.value.code) == (len(bad), code)


def test_an_abandoned_line_must_tell_the_scores_and_hands() -> None:
    lines = stuck_record(3)
    end = json.loads(lines[-1])
    for key, value, code in (("scores", [0, 0], "points-mismatch"), ("hands", 7, "result-mismatch")):
        bad = lines[:-1] + [json.dumps({**end, key: value}, separators=(",", ":"))]
        with pytest.raises(RecordError) as e:
            replay(bad)
        assert (e.value.line, e.value.code) == (len(lines), code)
    with pytest.raises(RecordError) as e:
        replay(lines + [lines[-1]])
    assert e.value.code == "after-match-end"  # nothing comes after the match ended


def test_match_abandon() -> None:
    m = Match(SNIFF, STUCK, 110)
    with pytest.raises(IllegalAction) as e:
        m.abandon()
    assert e.value.code == "no-hand"
    m.start_hand()
    with pytest.raises(IllegalAction) as e:
        m.abandon()
    assert e.value.code == "hand-in-progress"


def test_play_and_replay_commands(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    args = ["play", "--game", "american-sniff", "--players", "4", "--partnerships", "--seed", "110",
            "--strategy", "first", "--max-hands", "25", "--out", str(out)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "match abandoned after 25 hands with no winner" in r.stdout
    r = CliRunner().invoke(main, ["replay", str(out)])
    assert r.exit_code == 0 and "25 hands of american-sniff; abandoned, no winner (team 0+2 " in r.stdout
    r = CliRunner().invoke(main, [*args[:-2], "--max-hands", "0"])
    assert r.exit_code == 2


def test_the_abandoned_fixtures_pass_and_catch_a_missing_rule() -> None:
    from fives.conformance.cases.kinds.play import run_match_end

    cases = {c["id"]: c for c in json.loads(json.dumps(
        __import__("yaml").safe_load((ROOT / "conformance/fixtures/play/abandoned.yaml").read_text("utf-8"))))["cases"]}
    for case in cases.values():
        got = run_match_end(load_rules(case["game"]), case["input"], {})
        assert got == case["expect"], case["id"]
    bad = run_match_end(SNIFF, {"players": 2, "scores": [0, 0], "awards": [0, 0], "hands": 3}, {})
    assert bad["error"]["code"] == "malformed-input"
