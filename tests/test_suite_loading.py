"""Loading the suite: the fixture cache (hits, corruption, invalidation), compiled validators
that agree with jsonschema, schema errors that name the key, partial `expect` mappings and the
comparison that replaced JSON serialisation."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fives.conformance.cases import fixtures

from fives.support import paths
from fives.support.errors import UserError
from fives.conformance.cases.fixture_cache import FixtureCache, cache_dir
from fives.conformance.cases.fixtures import Schemas, load_cases
from fives.conformance.cases.kinds import canonical, load_kinds, same
from fives.conformance.cases.kinds.play import compare_subset
from fives.conformance.runner import judge
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.cases.schema_check import SchemaSet

FIGURES = paths.FIXTURES / "seed" / "american-sniff-figures.yaml"
PLAY = paths.FIXTURES / "play"

CASE = """format: fives-fixtures/1
cases:
- id: T-1
  kind: evaluate
  game: horse-race
  clauses: [HR-COUNT-1]
  source: {derived: "test"}
  input:
    placements:
    - {tile: "[1|4]"}
    - {tile: "[1|1]", to: "[1|4]", side: low}
    - {tile: "[4|4]", to: "[1|4]", side: high}
  expect: EXPECT
"""


def fixture(tmp_path: Path, expect: str, name: str = "t.yaml") -> Path:
    f = tmp_path / name
    f.write_text(CASE.replace("EXPECT", expect), encoding="utf-8")
    return f


def error_of(path: Path) -> str:
    with pytest.raises(UserError) as e:
        load_cases([path], cache=False)
    return str(e.value)


@pytest.fixture()
def cache(tmp_path: Path) -> FixtureCache:
    return FixtureCache(tmp_path / "cache")


# -- the cache ----------------------------------------------------------------------------------
def test_warm_cache_gives_the_same_cases_without_parsing(cache: FixtureCache, monkeypatch) -> None:
    roots = [FIGURES, PLAY]
    plain = load_cases(roots, cache=False)
    cold = load_cases(roots, cache=cache)
    files = len(fixtures.fixture_files(roots))
    assert (cache.hits, cache.misses) == (0, files)
    assert len(list(cache.folder.glob("*.json"))) == files

    def no_yaml(text: str, name: str) -> None:
        raise AssertionError(f"parsed {name} although it is cached")
    monkeypatch.setattr(fixtures, "parse_text", no_yaml)
    warm = load_cases(roots, cache=cache)
    assert cache.hits == files
    assert [c.to_dict() for c in plain] == [c.to_dict() for c in cold] == [c.to_dict() for c in warm]
    assert [(c.file, c.tags) for c in plain] == [(c.file, c.tags) for c in warm]
    fig = next(c for c in warm if c.id == "SN-FIG-4-4")
    assert fig.file == "conformance/fixtures/seed/american-sniff-figures.yaml" and fig.expect["sum"] == 10


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "empty", "other-key"])
def test_a_damaged_entry_is_ignored_and_rewritten(cache: FixtureCache, tmp_path: Path, damage: str) -> None:
    f = fixture(tmp_path, "{sum: 10}")
    load_cases([f], cache=cache)
    (entry,) = cache.folder.glob("*.json")
    blob = entry.read_bytes()
    if damage == "flip":  # same length, one digit of the body changed: the MAC catches it
        i = blob.rindex(b"10")
        blob = blob[:i] + b"15" + blob[i + 2:]
    elif damage == "truncate":
        blob = blob[: len(blob) // 2]
    elif damage == "header":
        blob = b"not json\n" + blob.partition(b"\n")[2]
    elif damage == "empty":
        blob = b""
    else:  # a valid entry of another key copied over this one
        other = FixtureCache(tmp_path / "other")
        other.put("0" * 64, {"format": "fives-fixtures/1", "cases": []})
        blob = (tmp_path / "other" / ("0" * 64 + ".json")).read_bytes()
    entry.write_bytes(blob)
    (case,) = load_cases([f], cache=cache)
    assert case.expect == {"sum": 10}
    assert cache.hits == 0 and cache.misses == 2
    load_cases([f], cache=cache)  # the entry was rewritten whole
    assert cache.hits == 1


def test_an_edited_file_is_validated_again(cache: FixtureCache, tmp_path: Path) -> None:
    f = fixture(tmp_path, "{sum: 10}")
    assert load_cases([f], cache=cache)[0].expect == {"sum": 10}
    fixture(tmp_path, "{sum: ten}")
    with pytest.raises(UserError, match=r"t\.yaml: case T-1: evaluate schema violation at expect/sum: 'ten' is not of type 'integer'"):
        load_cases([f], cache=cache)


def test_the_key_covers_schemas_kinds_and_games(monkeypatch) -> None:
    kinds = load_kinds()
    base = Schemas().fingerprint()
    assert base == Schemas().fingerprint()
    fewer = {k: v for k, v in kinds.items() if k != "tally"}
    monkeypatch.setattr("fives.conformance.cases.fixtures.load_kinds", lambda: fewer)
    assert Schemas().fingerprint() != base


def test_cache_location_and_switch(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FIVES_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FIVES_NO_CACHE", raising=False)
    assert cache_dir() == tmp_path / "fixtures"
    monkeypatch.delenv("FIVES_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "fives" / "fixtures"
    monkeypatch.setenv("FIVES_NO_CACHE", "1")
    assert cache_dir() is None


def test_an_unwritable_cache_only_costs_speed(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = FixtureCache(blocker / "cache")
    f = fixture(tmp_path, "{sum: 10}")
    assert [c.id for c in load_cases([f], cache=store)] == ["T-1"]
    assert [c.id for c in load_cases([f], cache=store)] == ["T-1"]
    assert store.hits == 0


def test_a_document_json_cannot_hold_is_not_cached(cache: FixtureCache) -> None:
    cache.put("a" * 64, {"when": __import__("datetime").date(2024, 1, 1)})
    cache.put("c" * 64, {"cases": {True: "bool key"}})
    assert not cache.folder.exists() or list(cache.folder.glob("*.json")) == []
    # integer keys (YAML's `{2: 7}`) come back as ints (issue 41; tests/test_fixture_cache_int_keys.py)
    cache.put("b" * 64, {"cases": {1: "int key"}})
    assert cache.get("b" * 64) == {"cases": {1: "int key"}}


# -- validators ---------------------------------------------------------------------------------
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_compiled_validators_agree_with_jsonschema_on_the_fixtures() -> None:
    """Every committed fixture file (not the golden suites: slow under jsonschema) passes both."""
    kinds = load_kinds()
    schemas = SchemaSet(paths.CONFORMANCE_SCHEMAS)
    for f in fixtures.fixture_files([paths.FIXTURES]):
        data, _ = __import__("fives.support.reading", fromlist=["load_data"]).load_data(f)
        assert schemas.check("fixtures.schema.json", data) is None
        assert next(schemas.full("fixtures.schema.json").iter_errors(data), None) is None
        for raw in data["cases"]:
            doc = {"input": raw["input"], "expect": raw["expect"]}
            name = f"kinds/{kinds[raw['kind']].schema}"
            assert schemas.check(name, doc) is None, raw["id"]


BAD_EXPECTS = [
    ({"sum": "five"}, "expect/sum", "'five' is not of type 'integer'"),
    ({"summ": 5}, "expect", "'summ' was unexpected"),
    ({"error": {"index": 0, "code": "bad"}}, "expect/error/code", "'bad' is not one of"),
    ({"sum": True}, "expect/sum", "True is not of type 'integer'"),
    ({"positions": [{"tile": "[1|9]"}]}, "expect/positions/0/tile", "does not match"),
    ({"positions": [{"side": "low"}]}, "expect/positions/0", "'tile' is a required property"),
    ({}, "expect", "should be non-empty"),
    ({"error": {"code": "side-occupied"}, "sum": 5}, "expect", "'sum' was unexpected"),
]


@pytest.mark.parametrize("expect,where,reason", BAD_EXPECTS)
def test_schema_errors_name_the_key_and_the_reason(tmp_path: Path, expect: dict, where: str, reason: str) -> None:
    message = error_of(fixture(tmp_path, json.dumps(expect)))
    assert message.startswith(f"{tmp_path / 't.yaml'}: case T-1: evaluate schema violation at {where}: "), message
    assert reason in message
    assert "is not valid under any of the given schemas" not in message
    # the compiled validator rejects what jsonschema rejects
    v = jsonschema.Draft202012Validator(SchemaSet(paths.CONFORMANCE_SCHEMAS).schema("kinds/evaluate.schema.json"))
    assert next(v.iter_errors({"input": {"placements": []}, "expect": expect}), None) is not None


def test_envelope_errors_name_the_case(tmp_path: Path) -> None:
    f = fixture(tmp_path, "{sum: 10}")
    f.write_text(f.read_text().replace("  clauses: [HR-COUNT-1]\n", ""))
    assert error_of(f).endswith("t.yaml: case T-1: schema violation at cases/0: 'clauses' is a required property")
    f.write_text(CASE.replace("EXPECT", "{sum: 10}").replace("source: {derived: \"test\"}", "source: {derived: 7}"))
    assert error_of(f).endswith("case T-1: schema violation at cases/0/source/derived: 7 is not of type 'string'")


# -- partial expect --------------------------------------------------------------------------------
def run_one(path: Path) -> tuple[str, list[str]]:
    (case,) = load_cases([path], cache=False)
    kinds = load_kinds()
    engine = ReferenceEngine()
    r = judge(case, engine.run(case), kinds[case.kind])
    return r.status, r.diffs


@pytest.mark.parametrize("expect,status,diffs", [
    ("{sum: 10}", "passed", []),
    ("{sum: 5}", "failed", ["sum: expected 5, got 10"]),
    ("{display: 2, spinners: ['[1|1]', '[4|4]']}", "passed", []),
    ("{positions: [{tile: '[1|1]'}, {tile: '[4|4]', value: 4}]}", "passed", []),
    ("{positions: [{tile: '[1|1]'}, {tile: '[4|4]', value: 5}]}", "failed",
     ['positions: missing {"tile":"[4|4]","value":5}; unexpected {"side":"line-b","tile":"[4|4]","value":4}']),
    ("{contributions: [{tile: '[1|1]', value: 2}, {tile: '[4|4]'}]}", "passed", []),
])
def test_partial_expect_compares_only_stated_keys(tmp_path: Path, expect: str, status: str, diffs: list[str]) -> None:
    assert run_one(fixture(tmp_path, expect)) == (status, diffs)


def test_partial_error_compares_the_code(tmp_path: Path) -> None:
    f = fixture(tmp_path, "{error: {code: side-occupied}}")
    f.write_text(f.read_text().replace("side: high}", "side: low}"))
    assert run_one(f) == ("passed", [])
    f.write_text(f.read_text().replace("code: side-occupied", "code: value-mismatch"))
    assert run_one(f) == ("failed", ['error.code: expected "value-mismatch", got "side-occupied"'])


# -- comparison ---------------------------------------------------------------------------------
def test_same_is_equality_of_the_json_text() -> None:
    values = [0, 1, True, False, 1.0, -0.0, 0.0, None, "a", "1", [1], (1,), [True], [], {}, (),
              {"a": 1}, {"a": True}, {"a": 1, "b": 2}, {"b": 2, "a": 1}, {1: "x"}, {"1": "x"},
              [[1, 2], [1, 2]], [(1, 2), [1, 2]], float("nan"), {"a": [1, {"b": None}]}, {"a": [1, {"b": 0}]}]
    for a in values:
        for b in values:
            assert same(a, b) == (canonical(a) == canonical(b)), (a, b)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_whole_default_suite_loads_with_unique_ids(tmp_path: Path) -> None:
    store = FixtureCache(tmp_path / "c")
    cases = load_cases(cache=store)
    assert len({c.id for c in cases}) == len(cases) > 3400
    assert {c.kind for c in cases} >= {"evaluate", "turn", "settle", "perft"}
    shutil.rmtree(tmp_path / "c")


def _old_compare_subset(want: Any, got: Any, path: str = "") -> list[str]:
    """compare_subset as it was, comparing JSON text at every leaf (the reference for the fast one)."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{path or 'answer'}: expected {canonical(want)}, got {canonical(got)}"]
        diffs = []
        for k, v in want.items():
            where = f"{path}.{k}" if path else k
            if k not in got:
                diffs.append(f"{where}: missing (expected {canonical(v)})")
            else:
                diffs.extend(_old_compare_subset(v, got[k], where))
        return diffs
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [d for i, (w, g) in enumerate(zip(want, got)) for d in _old_compare_subset(w, g, f"{path}[{i}]")]
    if canonical(want) != canonical(got):
        return [f"{path}: expected {canonical(want)}, got {canonical(got)}"]
    return []


_json = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b"]),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("xyz"), inner, max_size=3),
                     max_leaves=12)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@settings(max_examples=400, deadline=None)
@given(_json, _json)
def test_compare_subset_reports_what_the_serialising_comparison_did(want: Any, got: Any) -> None:
    assert compare_subset(want, got) == _old_compare_subset(want, got)
    assert compare_subset(want, want) == []


def test_old_entries_are_pruned_when_new_ones_are_written(cache: FixtureCache, tmp_path: Path) -> None:
    import os
    import time
    f = fixture(tmp_path, "{sum: 10}")
    load_cases([f], cache=cache)
    (entry,) = cache.folder.glob("*.json")
    stale = cache.folder / ("f" * 64 + ".json")
    stale.write_bytes(entry.read_bytes())
    old = time.time() - 40 * 24 * 3600
    os.utime(stale, (old, old))
    load_cases([f], cache=cache)  # all hits: nothing written, nothing pruned
    assert stale.exists()
    fixture(tmp_path, "{sum: 10, raw: 10}")
    load_cases([f], cache=cache)  # a miss writes, then prunes
    assert not stale.exists() and entry.exists() and len(list(cache.folder.glob("*.json"))) == 2


def test_an_id_filter_reads_only_the_files_that_can_hold_it(monkeypatch) -> None:
    read: list[str] = []
    real = fixtures.parse_text

    def counting(text: str, name: str) -> Any:
        read.append(Path(name).name)
        return real(text, name)
    monkeypatch.setattr(fixtures, "parse_text", counting)
    cases = load_cases(cache=False, ids=["SN-FIG-4-4"])
    # a perft table's row IDs are made from the table, so each table is read
    tables = sorted(p.name for p in (paths.CONFORMANCE / "perft").glob("*.yaml"))
    assert sorted(set(read)) == sorted(["american-sniff-figures.yaml", *tables]) and "perft.yaml" in tables
    assert "SN-FIG-4-4" in {c.id for c in cases}
    assert fixtures.id_fragments(["HR-SETTLE-*", "*-ILL-?ALUE-*"]) == ("HR-SETTLE-", "-ILL-")
    assert fixtures.id_fragments(["*"]) is None and fixtures.id_fragments(["SN-[AB]*"]) is None
