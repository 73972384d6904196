"""Filters that cannot lie (`fives conformance run` / `list`), the case listing, and
`fives render --fixture` finding golden and perft case IDs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fives.support import paths
from fives.cli import main
from fives.conformance.cases.fixtures import load_cases

SNIFF_FIGURES = str(paths.FIXTURES / "seed" / "american-sniff-figures.yaml")


pytestmark = pytest.mark.usefixtures("module_fixture_cache")  # tests/conftest.py


def fives(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def one_line_error(r: Result) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fives: error: "), r.stderr
    assert "Traceback" not in r.output
    return lines[0].removeprefix("fives: error: ")


@pytest.mark.parametrize("command", ["run", "list"])
@pytest.mark.parametrize("args,message", [
    (["--game", "chess"], "--game chess: unknown game (the suite has: american-sniff, horse-race)"),
    (["--id", "NOPE-*"], "--id NOPE-*: matches no case of the suite"),
    (["--capability", "teleport"], "--capability teleport: unknown capability (the suite has: evaluate, "
                                   "legal-placements, match-end, next-leader, perft, settle, setup, tally, turn)"),
    (["--kind", "evalute"], "--kind evalute: unknown kind (did you mean evaluate?) (the suite has: evaluate, "
                            "legal-placements, match-end, "
                            "next-leader, perft, settle, setup, tally, turn)"),
    (["--id", "SN-FIG-4-44"], "--id SN-FIG-4-44: matches no case of the suite (did you mean SN-FIG-4-4"),
    (["--game", "horse-race", "--id", "SN-*"], "--id SN-* --game horse-race: the filters together select no case"),
])
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_mistyped_filter_is_one_line_and_exit_2(command: str, args: list[str], message: str) -> None:
    assert one_line_error(fives("conformance", command, *args)).startswith(message)


@pytest.mark.parametrize("command", ["run", "list"])
def test_values_the_suite_lacks_are_named_as_such(command: str) -> None:
    """Known to the project but absent from the fixtures given: said so, not 'unknown'."""
    r = fives("conformance", command, "--fixtures", SNIFF_FIGURES, "--game", "horse-race")
    assert one_line_error(r) == "--game horse-race: the suite has no case of this game (it has: american-sniff)"
    r = fives("conformance", command, "--fixtures", SNIFF_FIGURES, "--kind", "turn")
    assert one_line_error(r) == "--kind turn: the suite has no case of this kind (it has: evaluate)"
    r = fives("conformance", command, "--fixtures", SNIFF_FIGURES, "--capability", "settle")
    assert one_line_error(r) == "--capability settle: the suite has no case of this capability (it has: evaluate)"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_only_slow_cases_selected_asks_for_slow() -> None:
    slow = next(c for c in load_cases() if "slow" in c.tags)
    message = one_line_error(fives("conformance", "run", "--id", slow.id))
    assert message == f"--id {slow.id}: selects only slow cases (1): add --slow to run them"
    r = fives("conformance", "list", "--id", slow.id, "--slow")
    assert r.exit_code == 0 and r.stdout.split()[0] == slow.id


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_list_prints_ids_kind_game_clauses_without_running() -> None:
    r = fives("conformance", "list", "--id", "SN-FIG-*-4", "--id", "SN-FIG-4-*", "--game", "american-sniff")
    assert r.exit_code == 0, r.output
    rows = [line.split(None, 3) for line in r.stdout.splitlines()]
    expected = [c for c in load_cases() if c.id.startswith("SN-FIG-") and "4" in c.id.split("-")[2:]]
    assert [row[0] for row in rows] == sorted(c.id for c in expected) and len(rows) >= 2  # sorted by ID (issue 40)
    fig = rows[[row[0] for row in rows].index("SN-FIG-4-4")]
    assert fig[1:3] == ["evaluate", "american-sniff"]
    assert fig[3] == ", ".join(next(c for c in expected if c.id == "SN-FIG-4-4").clauses)
    assert r.stderr == f"{len(rows)} cases\n"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_list_json_and_the_slow_note() -> None:
    r = fives("conformance", "list", "--kind", "perft", "--game", "horse-race", "--json")
    assert r.exit_code == 0, r.output
    items = json.loads(r.stdout)
    perft = [c for c in load_cases() if c.kind == "perft" and c.game == "horse-race"]
    fast = sorted((c for c in perft if "slow" not in c.tags), key=lambda c: c.id)  # list sorts by ID (issue 40)
    assert [i["id"] for i in items] == [c.id for c in fast]
    assert items[0] == {"id": fast[0].id, "kind": "perft", "game": "horse-race", "clauses": list(fast[0].clauses),
                        "capability": "perft", "file": fast[0].file, "tags": []}
    left_out = len(perft) - len(fast)
    assert left_out > 0 and r.stderr == f"{len(fast)} cases ({left_out} slow cases left out: add --slow)\n"


def test_run_one_id_runs_exactly_that_case() -> None:
    r = fives("conformance", "run", "--id", "SN-FIG-4-4")
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines()[-1] == "1 passed, 0 failed, 0 errored, 0 skipped"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_list_and_run_select_the_same_cases(tmp_path: Path) -> None:
    listed = fives("conformance", "list", "--kind", "settle", "--game", "horse-race", "--id", "HR-*").stdout.split("\n")
    ids = [line.split()[0] for line in listed if line]
    out = tmp_path / "r.jsonl"
    r = fives("conformance", "run", "--kind", "settle", "--game", "horse-race", "--id", "HR-*", "--results", str(out))
    assert r.exit_code == 0, r.output
    ran = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ran) == ids and ids  # the same cases; list shows them by ID, run in suite order


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_render_finds_golden_and_play_case_ids(tmp_path: Path) -> None:
    cases = load_cases()
    golden = next(c for c in cases if c.file.startswith("conformance/golden/") and c.kind == "evaluate"
                  and "error" not in c.expect)
    r = fives("render", "--fixture", golden.id)
    assert r.exit_code == 0, r.output
    assert f'data-game="{golden.game}"' in r.stdout and f'data-tiles="{len(golden.input["placements"])}"' in r.stdout
    turn = next(c for c in cases if c.file.startswith("conformance/golden/") and c.kind == "turn"
                and c.input["layout"])
    r = fives("render", "--fixture", turn.id)
    assert r.exit_code == 0, r.output
    assert f'data-tiles="{len(turn.input["layout"])}"' in r.stdout


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_an_id_with_brackets_selects_itself() -> None:
    """Perft divide IDs contain `[a|b]`, a set to fnmatch: the exact ID still selects its case."""
    divide = next(c for c in load_cases() if c.kind == "perft" and "[" in c.id and "slow" not in c.tags)
    r = fives("conformance", "list", "--id", divide.id)
    assert r.exit_code == 0, r.output
    assert [line.split()[0] for line in r.stdout.splitlines()] == [divide.id]
