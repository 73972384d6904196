"""The `fives evaluate` contract and its bad-input errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from fives.cli import main

LAYOUT = '- {tile: "[1|4]"}\n- {tile: "[1|1]", to: "[1|4]", side: low}\n- {tile: "[4|4]", to: "[1|4]", side: high}\n'


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input)


def test_evaluate_yaml_file(tmp_path):
    f = tmp_path / "layout.yaml"
    f.write_text(LAYOUT)
    r = run(["evaluate", "--game", "horse-race", str(f)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["tiles"] == ["[1|4]", "[1|1]", "[4|4]"]
    assert out["spinners"] == ["[1|1]", "[4|4]"]
    assert out["positions"] == [{"tile": "[1|1]", "side": "line-b", "value": 1},
                                {"tile": "[4|4]", "side": "line-b", "value": 4}]
    assert out["contributions"] == [{"tile": "[1|1]", "value": 2}, {"tile": "[4|4]", "value": 8}]
    assert (out["sum"], out["raw"], out["display"]) == (10, 10, 2)


def test_evaluate_json_stdin_reversed_notation():
    data = json.dumps([{"tile": "4-1"}, {"tile": "[1|1]", "to": "[4|1]", "side": "low"}])
    r = run(["evaluate", "--game", "american-sniff", "-"], input=data)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["tiles"] == ["[1|4]", "[1|1]"]


def test_illegal_placement_exit_2_one_line_with_index_and_code(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(LAYOUT + '- {tile: "[2|3]", to: "[4|4]", side: line-b}\n')
    r = run(["evaluate", "--game", "american-sniff", str(f)])
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1
    assert "placement 3" in r.stderr and "value-mismatch" in r.stderr and str(f) in r.stderr


@pytest.mark.parametrize("content,needle", [
    ("- {tile: [1|4]\n", "malformed YAML"),
    ("[{\"tile\": \"[1|4]\"", "malformed"),
    ("- {tile: \"[1|4]\"}\n- {tile: \"[4|4]\", to: \"[1|4]\", side: upward}\n", "unknown-side"),
    ("- {tile: \"[1|9]\"}\n", "malformed-tile"),
    ("just a string\n", "malformed-placement"),
])
def test_bad_input_clear_error(tmp_path, content, needle):
    f = tmp_path / "bad.yaml"
    f.write_text(content)
    r = run(["evaluate", "--game", "horse-race", str(f)])
    assert r.exit_code == 2
    assert needle in r.stderr and "Traceback" not in r.output + r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_unknown_game_and_missing_file(tmp_path):
    r = run(["evaluate", "--game", "dominoes", str(tmp_path / "x.yaml")])
    assert r.exit_code == 2 and "unknown game 'dominoes'" in r.stderr
    r = run(["evaluate", "--game", "horse-race", str(tmp_path / "missing.yaml")])
    assert r.exit_code == 2 and "no such file" in r.stderr


def test_jsonl_in_order_with_inline_errors():
    lines = [
        json.dumps({"game": "horse-race", "placements": [{"tile": "[5|5]"}]}),
        json.dumps({"game": "american-sniff", "placements": [{"tile": "[1|4]"}, {"tile": "[2|3]", "to": "[1|4]", "side": "low"}]}),
        "not json",
        json.dumps({"game": "checkers", "placements": []}),
        json.dumps({"game": "american-sniff", "placements": [{"tile": "[2|3]"}]}),
    ]
    r = run(["evaluate", "--jsonl"], input="\n".join(lines) + "\n")
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["display"] == 2 and out[0]["raw"] == 10
    assert out[1] == {"error": {"index": 1, "code": "value-mismatch", "message": out[1]["error"]["message"]}}
    assert out[2]["error"]["code"] == "malformed-request" and "line 3" in out[2]["error"]["message"]
    assert out[3]["error"]["code"] == "unknown-game"
    assert out[4]["sum"] == 5
    assert r.exit_code == 2  # malformed lines are reported, after every result


def test_jsonl_subprocess_streams():
    req = "\n".join(json.dumps({"game": "american-sniff", "placements": [{"tile": f"[{i}|6]"}]}) for i in range(7))
    p = subprocess.run([sys.executable, "-m", "fives.cli", "evaluate", "--jsonl"], input=req + "\n",
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    sums = [json.loads(x)["sum"] for x in p.stdout.splitlines()]
    assert sums == [6 + i if i != 6 else 12 for i in range(7)]
