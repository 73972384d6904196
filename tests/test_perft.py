"""Perft: the committed table, the engine's fast counter, the simple evaluator and the CLI agree."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import simple_evaluator as simple  # noqa: E402
from walks import plain_walk  # noqa: E402

import fives.perft as perft_module  # noqa: E402
from fives.layout import IllegalPlacement, Layout, Placement  # noqa: E402
from fives.conformance.mutants.registry import LAYOUT_MUTANTS  # noqa: E402
from fives.perft import PerftResult, divide, perft  # noqa: E402
from fives.rules import load_rules  # noqa: E402
from fives.tiles import ALL_TILES, Side, parse_tile  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TABLE_PATH = ROOT / "conformance" / "perft" / "perft.yaml"
SCHEMA_PATH = ROOT / "conformance" / "schema" / "perft.schema.json"
TABLE = yaml.safe_load(TABLE_PATH.read_text(encoding="utf-8"))
ENTRIES = {e["id"]: e for e in TABLE["tables"]}
GAMES = ["american-sniff", "horse-race"]


def _rows(max_depth: int, max_nodes: int | None = None):
    for e in TABLE["tables"]:
        for row in e["depths"]:
            if row["depth"] <= max_depth and (max_nodes is None or row["nodes"] <= max_nodes):
                yield pytest.param(e, row, id=f"{e['id']}-d{row['depth']}")


def test_table_matches_schema() -> None:
    jsonschema.validate(TABLE, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def test_table_covers_both_games_to_depth_6() -> None:
    for game in GAMES:
        empty = [e for e in TABLE["tables"] if e["game"] == game and e["from"] == []]
        assert len(empty) == 1
        assert [r["depth"] for r in empty[0]["depths"]][:6] == [1, 2, 3, 4, 5, 6]
        assert empty[0]["divide"]["moves"]


def test_depth_one_from_empty_is_28_openings() -> None:
    # Issue 5 and the seeds: any of the 28 tiles may open; [0|5], [1|4], [2|3] score 5
    # (sum of both ends), [4|6] 10, [5|5] 10 (a lone double counts both halves); 35 in all.
    for game in GAMES:
        assert perft(game, 1) == PerftResult(28, 35)
        assert ENTRIES[f"{game}-empty"]["depths"][0] == {"depth": 1, "nodes": 28, "points": 35}


def test_depth_one_from_seed_layout_by_hand() -> None:
    # The Sniff figure after [1|3]: positions [0|5] low 0, [1|2] high 2, [1|3] high 3,
    # [3|4] low 3; unplaced tiles holding 0: 6, holding 2: 6, holding 3: 5 (twice) = 22.
    entry = ENTRIES["american-sniff-seed-layout"]
    assert perft("american-sniff", 1, entry["from"]).nodes == 22
    assert entry["depths"][0]["nodes"] == 22


@pytest.mark.parametrize("entry,row", list(_rows(4)))
def test_engine_perft_matches_table(entry: dict, row: dict) -> None:
    assert perft(entry["game"], row["depth"], entry["from"]) == PerftResult(row["nodes"], row["points"])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("entry,row", list(_rows(3, max_nodes=10_000)))
def test_simple_evaluator_perft_matches_table(entry: dict, row: dict) -> None:
    assert simple.perft(entry["game"], row["depth"], entry["from"]) == (row["nodes"], row["points"])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("game", GAMES)
def test_simple_evaluator_perft_depth_4_from_empty(game: str) -> None:
    row = ENTRIES[f"{game}-empty"]["depths"][3]
    assert row["depth"] == 4
    assert simple.perft(game, 4) == (row["nodes"], row["points"])


@pytest.mark.parametrize("entry", [e for e in TABLE["tables"] if e.get("divide")], ids=lambda e: e["id"])
def test_divide_matches_table(entry: dict) -> None:
    d = entry["divide"]
    got = [{"placement": p.to_dict(), **r.to_dict()} for p, r in divide(entry["game"], d["depth"], entry["from"])]
    assert got == d["moves"]
    row = next(r for r in entry["depths"] if r["depth"] == d["depth"])
    assert sum(m["nodes"] for m in got) == row["nodes"]
    assert sum(m["points"] for m in got) == row["points"]


def test_simple_divide_matches_table() -> None:
    """Each first placement's subtree, recounted from scratch by the simple evaluator."""
    entry = ENTRIES["horse-race-filled-spinner"]
    d = entry["divide"]
    for m in d["moves"]:
        got = simple.perft(entry["game"], d["depth"] - 1, entry["from"] + [m["placement"]])
        if d["depth"] == 1:
            got = (1, simple.evaluate(entry["game"], entry["from"] + [m["placement"]])["raw"])
        assert got == (m["nodes"], m["points"]), m["placement"]


def test_parallel_equals_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(perft_module, "PARALLEL_DEPTH", 3)  # split shallow counts too
    entry = ENTRIES["american-sniff-filled-spinner"]
    serial = divide("american-sniff", 3, entry["from"], jobs=1)
    assert divide("american-sniff", 3, entry["from"], jobs=2) == serial
    assert perft("horse-race", 4, jobs=2) == perft("horse-race", 4, jobs=1)
    done: list[tuple[int, int]] = []
    assert perft("horse-race", 3, jobs=2, progress=lambda d, t: done.append((d, t))) == PerftResult(3906, 5400)
    assert done[-1] == (336, 336)  # split at the second ply: one unit per two-placement prefix


@pytest.mark.parametrize("mutant", LAYOUT_MUTANTS, ids=lambda m: m.name)
def test_one_walker_serves_mutant_layouts(mutant) -> None:
    cls = mutant.hooks()["layout"]
    for game in GAMES:
        start = ENTRIES[f"{game}-filled-spinner"]["from"]
        layout = cls(load_rules(game))
        for r in start:
            layout.push(r)
        want = plain_walk(layout, 2)
        assert perft(game, 2, start, layout_class=cls) == PerftResult(*want)


def test_slow_tag_comes_from_the_case_not_its_claim() -> None:
    from fives.conformance.cases.fixtures import cases_of
    from fives.conformance.cases.kinds.perft import is_slow

    assert not is_slow("horse-race", [], 4) and is_slow("horse-race", [], 5)  # 49,770 and ~700,000 nodes
    assert is_slow("horse-race", [], 9)
    table = {"format": "fives-perft/1", "tables": [{"id": "liar", "game": "horse-race", "from": [], "description": "",
                                                     "depths": [{"depth": 9, "nodes": 1, "points": 0},
                                                                {"depth": 2, "nodes": 1, "points": 0}]}]}
    deep, shallow = cases_of(table, "liar.yaml")
    assert "slow" in deep.tags and "slow" not in shallow.tags
    fixture = {"format": "fives-fixtures/1", "cases": [
        {"id": "LIAR-1", "kind": "perft", "game": "american-sniff", "clauses": [], "source": {},
         "input": {"placements": [], "depth": 9}, "expect": {"nodes": 1, "points": 0}}]}
    assert cases_of(fixture, "liar.yaml")[0].tags == ("slow",)


def test_depth_zero_and_a_blocked_layout() -> None:
    assert perft("horse-race", 0) == PerftResult(1, 0)
    # grow a layout until no tile fits anywhere: nothing is left to count at any depth
    layout = Layout(load_rules("horse-race"))
    while moves := layout.legal_placements(ALL_TILES):
        layout.push(moves[0])
    assert perft("horse-race", 1, layout.history()) == PerftResult(0, 0)
    assert perft("horse-race", 3, layout.history()) == PerftResult(0, 0)


def test_from_accepts_records_or_placements() -> None:
    records = ENTRIES["horse-race-seed-layout"]["from"]
    placements = [Placement(parse_tile(r["tile"]), parse_tile(r["to"]) if "to" in r else None,
                            Side(r["side"]) if "side" in r else None) for r in records]
    assert perft("horse-race", 2, placements) == perft("horse-race", 2, records)


def test_illegal_from_layout_names_the_placement() -> None:
    bad = [{"tile": "[1|4]"}, {"tile": "[2|2]", "to": "[1|4]", "side": "low"}]
    with pytest.raises(IllegalPlacement) as e:
        perft("american-sniff", 1, bad)
    assert e.value.index == 1 and e.value.code.value == "value-mismatch"


# -- the command line -------------------------------------------------------------------------
def fives(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["fives", *args], input=stdin, capture_output=True, text=True, cwd=ROOT)


def test_cli_json() -> None:
    r = fives("perft", "--game", "horse-race", "--depth", "3", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"game": "horse-race", "depth": 3, "nodes": 3906, "points": 5400}
    assert r.stderr == ""  # quiet when piped


def test_cli_plain() -> None:
    r = fives("perft", "--game", "american-sniff", "--depth", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "american-sniff depth 2: nodes 336 points 460\n"


def test_cli_divide_from_file(tmp_path: Path) -> None:
    entry = ENTRIES["american-sniff-seed-layout"]
    path = tmp_path / "layout.yaml"
    path.write_text(yaml.safe_dump({"placements": entry["from"]}), encoding="utf-8")
    r = fives("perft", "--game", "american-sniff", "--depth", "2", "--from", str(path), "--divide", "--jobs", "2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    row = next(x for x in entry["depths"] if x["depth"] == 2)
    assert lines[-1] == f"total {row['nodes']} {row['points']}"
    moves = entry["divide"]["moves"]
    assert len(lines) == len(moves) + 1
    first = moves[0]["placement"]
    assert lines[0] == f"{first['tile']}>{first['to']}:{first['side']} {moves[0]['nodes']} {moves[0]['points']}"
    r = fives("perft", "--game", "american-sniff", "--depth", "2", "--from", "-", "--divide", "--json",
              stdin=json.dumps(entry["from"]))
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert out[:-1] == moves
    assert out[-1] == {"game": "american-sniff", "depth": 2, "nodes": row["nodes"], "points": row["points"]}


@pytest.mark.parametrize("args,message", [
    (["--game", "poker", "--depth", "1"], "unknown game 'poker'"),
    (["--game", "horse-race"], "missing --depth"),
    (["--depth", "1"], "missing --game"),
    (["--game", "horse-race", "--depth", "0", "--divide"], "--divide needs"),
])
def test_cli_bad_input(args: list[str], message: str) -> None:
    r = fives("perft", *args)
    assert r.returncode == 2
    assert message in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_cli_illegal_from(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text('- {tile: "[1|4]"}\n- {tile: "[1|4]", to: "[1|4]", side: high}\n', encoding="utf-8")
    r = fives("perft", "--game", "horse-race", "--depth", "1", "--from", str(path))
    assert r.returncode == 2
    assert r.stderr == f"fives: error: {path}: placement 1: tile-already-placed: [1|4] is already in the layout\n"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_cli_check(tmp_path: Path) -> None:
    r = fives("perft", "--check", str(TABLE_PATH), "--max-depth", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "FAIL" not in r.stdout and r.stdout.count("ok  ") >= 12
    tampered = tmp_path / "perft.yaml"
    shutil.copy(TABLE_PATH, tampered)
    text = tampered.read_text(encoding="utf-8").replace("{depth: 2, nodes: 336, points: 460}",
                                                        "{depth: 2, nodes: 337, points: 460}", 1)
    tampered.write_text(text, encoding="utf-8")
    r = fives("perft", "--check", str(tampered), "--max-depth", "2")
    assert r.returncode == 1
    assert "FAIL american-sniff-empty depth 2: nodes 336 points 460 (table: nodes 337 points 460)" in r.stdout
    r = fives("perft", "--check", str(tampered), "--max-depth", "2", "--update")
    assert r.returncode == 0
    assert tampered.read_text(encoding="utf-8") == TABLE_PATH.read_text(encoding="utf-8")


class _ThroughTheHooks(Layout):
    """The reference rules asked through the hooks on every placement (no tables): the slow
    path, which the table-driven fast path must equal."""

    def _hook_double_contributions(self, pt):  # type: ignore[no-untyped-def]
        return super()._hook_double_contributions(pt)

    def _hook_is_spinner(self, tile):  # type: ignore[no-untyped-def]
        return super()._hook_is_spinner(tile)


@pytest.mark.parametrize("entry,row", list(_rows(3, max_nodes=10_000)))
def test_table_driven_and_hook_driven_paths_agree(entry: dict, row: dict) -> None:
    got = perft(entry["game"], row["depth"], entry["from"], layout_class=_ThroughTheHooks)
    assert got == PerftResult(row["nodes"], row["points"]) == perft(entry["game"], row["depth"], entry["from"])


# -- the sessions behind `fives perft` (fives/perft_session.py) ------------------------------
def test_count_session_equals_the_cli() -> None:
    from fives.perft_session import PerftOptions, count

    plain = count(PerftOptions(load_rules("horse-race"), 3))
    r = fives("perft", "--game", "horse-race", "--depth", "3", "--json")
    assert json.loads(r.stdout) == {"game": plain.game, "depth": 3, **plain.total.to_dict()}
    assert plain.total == PerftResult(3906, 5400) and plain.moves == []
    seen: list[tuple[Placement, PerftResult]] = []
    split = count(PerftOptions(load_rules("horse-race"), 3, divide=True), on_move=lambda p, n: seen.append((p, n)))
    assert split.total == plain.total and split.moves == seen and len(seen) == 28
    r = fives("perft", "--game", "horse-race", "--depth", "3", "--divide")
    assert r.stdout.splitlines() == [f"{p} {n.nodes} {n.points}" for p, n in seen] + ["total 3906 5400"]


def test_count_session_refuses_an_illegal_start() -> None:
    from fives.perft_session import PerftOptions, count

    start = ({"tile": "[1|4]"}, {"tile": "[1|4]", "to": "[1|4]", "side": "high"})
    with pytest.raises(IllegalPlacement) as e:
        count(PerftOptions(load_rules("horse-race"), 1, start))
    assert e.value.index == 1


def test_table_session_checks_and_rewrites(tmp_path: Path) -> None:
    from fives.perft_session import TableOptions, check_perft_table

    lines: list[str] = []
    result = check_perft_table(TableOptions(TABLE_PATH, max_depth=1), on_line=lines.append)
    assert result.failed == 0 and not result.rewritten and result.lines == lines
    assert len(lines) == len(TABLE["tables"]) and all(x.startswith("ok  ") for x in lines)
    tampered = tmp_path / "perft.yaml"
    tampered.write_text(TABLE_PATH.read_text(encoding="utf-8").replace(
        "{depth: 1, nodes: 28, points: 35}", "{depth: 1, nodes: 29, points: 35}", 1), encoding="utf-8")
    result = check_perft_table(TableOptions(tampered, max_depth=1))
    assert result.failed == 1 and result.error() == f"fives: error: 1 perft value differs from {tampered}"
    result = check_perft_table(TableOptions(tampered, max_depth=1, update=True))
    assert result.rewritten and tampered.read_text(encoding="utf-8") == TABLE_PATH.read_text(encoding="utf-8")
