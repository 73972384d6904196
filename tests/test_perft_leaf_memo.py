"""conformance/perft/leaf-memo.yaml: perft rows the default run holds that pin the leaf memo.

`Layout.leaf_counts` memoises the last ply by (count once the position is taken, the
position's value, spinner flag, free tiles of that value). Positions of two values only share
the free tiles when a single tile is left for both, which takes a deep layout: here every 0
and every 6 but [0|6] placed. A memo key that mixes up the value passes every row of the
committed table (those of the default run, as tested below; the --slow ones place at most 8
tiles, too few); these rows fail it.
"""
from __future__ import annotations

import inspect
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import simple_evaluator as simple  # noqa: E402
from walks import plain_walk  # noqa: E402

import fives.layout as layout_module  # noqa: E402
from fives.conformance.cases.fixtures import default_roots, load_cases  # noqa: E402
from fives.layout import Layout  # noqa: E402
from fives.perft import PerftResult, perft  # noqa: E402
from fives.rules import load_rules  # noqa: E402
from fives.support import paths  # noqa: E402
from fives.tiles import ALL_TILES  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MEMO_TABLE = yaml.safe_load((ROOT / "conformance" / "perft" / "leaf-memo.yaml").read_text(encoding="utf-8"))
SEED_TABLE = yaml.safe_load((ROOT / "conformance" / "perft" / "perft.yaml").read_text(encoding="utf-8"))
ROWS = [pytest.param(e, r, id=f"{e['id']}-d{r['depth']}") for e in MEMO_TABLE["tables"] for r in e["depths"]]

#: the memo key in Layout.leaf_counts, and two ways to break it
KEY = "key = ((before + ct[row | 1 << s]) * 7 + v) * 2 + spin << 28 | f"
BROKEN_KEYS = {
    "off-by-one": KEY.replace("* 7", "* 6"),  # (count, 6) and (count + 1, 0) share a key
    "no-value": KEY.replace(" * 7 + v)", " * 7)"),  # the position's value left out
}


def broken_layout(key: str) -> type[Layout]:
    """A Layout whose leaf memo uses `key` (and a memo of its own, so the shared one stays clean)."""
    src = textwrap.dedent(inspect.getsource(Layout.leaf_counts))
    assert KEY in src and "memo = self._t.leaf_memo" in src, "the memo key changed: update this test"
    namespace = dict(vars(layout_module))
    exec(src.replace(KEY, key).replace("memo = self._t.leaf_memo", "memo = self.own_memo"), namespace)
    return type("BrokenMemo", (Layout,), {"leaf_counts": namespace["leaf_counts"], "own_memo": {}})


def test_the_layouts_leave_one_tile_for_two_values() -> None:
    for e in MEMO_TABLE["tables"]:
        placed = {p["tile"] for p in e["from"]}
        zeros_and_sixes = {str(t) for t in ALL_TILES if {t.low, t.high} & {0, 6}}
        assert zeros_and_sixes - placed == {"[0|6]"}, e["id"]
    assert {e["game"] for e in MEMO_TABLE["tables"]} == {"horse-race", "american-sniff"}


def test_the_rows_run_by_default() -> None:
    assert paths.PERFT in default_roots()
    cases = {c.id: c for c in load_cases([paths.PERFT]) if c.file.endswith("perft/leaf-memo.yaml")}
    assert sorted(cases) == sorted(f"PERFT-{e['id']}-D{r['depth']}" for e in MEMO_TABLE["tables"] for r in e["depths"])
    assert not [i for i, c in cases.items() if "slow" in c.tags]


@pytest.mark.parametrize("entry,row", ROWS)
def test_engine_perft_matches_the_rows(entry: dict, row: dict) -> None:
    assert perft(entry["game"], row["depth"], entry["from"]) == PerftResult(row["nodes"], row["points"])


@pytest.mark.parametrize("entry", MEMO_TABLE["tables"], ids=lambda e: e["id"])
def test_a_walk_without_the_memo_agrees(entry: dict) -> None:
    row = entry["depths"][-1]
    assert row["depth"] == 4
    layout = Layout(load_rules(entry["game"]))
    for p in entry["from"]:
        layout.push(p)
    assert plain_walk(layout, 4) == (row["nodes"], row["points"])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("entry", MEMO_TABLE["tables"], ids=lambda e: e["id"])
def test_the_simple_evaluator_agrees(entry: dict) -> None:
    for row in entry["depths"][:3]:  # depth 4: 11 s for Horse Race, checked when the table was made
        assert simple.perft(entry["game"], row["depth"], entry["from"]) == (row["nodes"], row["points"])


@pytest.mark.parametrize("name", sorted(BROKEN_KEYS))
def test_a_broken_memo_key_fails_these_rows(name: str) -> None:
    cls = broken_layout(BROKEN_KEYS[name])
    wrong = [(e["id"], r["depth"]) for e in MEMO_TABLE["tables"] for r in e["depths"]
             if perft(e["game"], r["depth"], e["from"], layout_class=cls) != PerftResult(r["nodes"], r["points"])]
    assert ("horse-race-leaf-memo", 3) in wrong and ("horse-race-leaf-memo", 4) in wrong, wrong


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("name", sorted(BROKEN_KEYS))
def test_the_seed_tables_quick_rows_miss_a_broken_memo_key(name: str) -> None:
    """Why these rows exist: the committed table's rows of the default run (depth 4 at most)
    all pass with either broken key, one memo shared by them all as in a suite run."""
    cls = broken_layout(BROKEN_KEYS[name])
    for e in SEED_TABLE["tables"]:
        for r in e["depths"]:
            if r["depth"] <= 4:
                got = perft(e["game"], r["depth"], e["from"], layout_class=cls)
                assert got == PerftResult(r["nodes"], r["points"]), (e["id"], r["depth"])
