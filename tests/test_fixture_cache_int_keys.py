"""Fixture files with YAML's integer keys (`hand_size: {2: 7}`) are cached too (issue 41: they
were parsed and validated on every run): the cases read back equal the cases parsed, keys
stay ints, and a reader of the plain format takes such an entry for a miss."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from fives.conformance.cases import fixture_cache
from fives.conformance.cases.fixture_cache import FORMAT, KEYED_FORMAT, FixtureCache, json_safe
from fives.conformance.cases.fixtures import load_cases
from fives.support import cache_key, paths

KEY = bytes(range(32))
KEYED = ["mutation/play/horse-race-profiles.yaml", "mutation/profiles/profiles.yaml", "variants/horse-race.yaml",
         "variants/american-sniff.yaml"]
#: the variant files hold a few hundred cases each: over ~0.45 s to load twice
SLOW = ("variants/horse-race.yaml", "variants/american-sniff.yaml")


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("FIVES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FIVES_CACHE_KEY", raising=False)
    monkeypatch.delenv("FIVES_NO_CACHE", raising=False)
    cache_key._secret.cache_clear()
    return tmp_path


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in KEYED])
def test_int_keyed_files_round_trip(home: Path, name: str) -> None:
    f = paths.FIXTURES / name
    truth = load_cases([f], cache=False)
    store = FixtureCache(home / "cache", secret=KEY)
    assert load_cases([f], cache=store) == truth
    (entry,) = store.folder.glob("*.json")
    assert json.loads(entry.read_bytes().partition(b"\n")[0])["format"] == KEYED_FORMAT
    again = FixtureCache(home / "cache", secret=KEY)
    assert load_cases([f], cache=again) == truth
    assert (again.hits, again.misses) == (1, 0)


def test_pairs_keep_key_types_and_order() -> None:
    doc = {"a": [{2: 7, 3: 7, "4": 6}], "b": {1: {5: "x"}}, "c": "d"}
    assert json_safe(doc, int_keys=True) and not json_safe(doc)
    back = fixture_cache._unpairs(json.loads(json.dumps(fixture_cache._pairs_of(doc))))
    assert back == doc and list(back["a"][0]) == [2, 3, "4"] and type(list(back["a"][0])[2]) is str
    assert not json_safe({"\0": [[1, 2]]}, int_keys=True)  # the marker itself is never a key
    assert not json_safe({True: 1}, int_keys=True)  # a bool key would come back as an int


def test_a_plain_format_reader_misses_a_keyed_entry(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = paths.FIXTURES / KEYED[0]
    store = FixtureCache(home / "cache", secret=KEY)
    load_cases([f], cache=store)
    (entry,) = store.folder.glob("*.json")
    head, _, body = entry.read_bytes().partition(b"\n")
    header = json.loads(head)
    # the same body with a plain header and a plain MAC: an older reader's view, and a forgery test
    header["format"] = FORMAT
    entry.write_bytes(json.dumps(header).encode() + b"\n" + body)
    again = FixtureCache(home / "cache", secret=KEY)
    assert load_cases([f], cache=again) == load_cases([f], cache=False)
    assert again.rejected == 1


@pytest.mark.parametrize("body", [b'{"\\u0000": 5}', b'{"\\u0000": [[[1], 2]]}', b'{"\\u0000": [[1, 2, 3]]}',
                                  b'{"cases": {"\\u0000": [1]}}'])
def test_a_keyed_entry_of_another_shape_is_a_miss(home: Path, body: bytes) -> None:
    """Even an entry our MAC vouches for cannot make the loader fail: the source decides."""
    f = paths.FIXTURES / KEYED[0]
    store = FixtureCache(home / "cache", secret=KEY)
    load_cases([f], cache=store)
    (entry,) = store.folder.glob("*.json")
    key = entry.stem
    header = {"format": KEYED_FORMAT, "key": key, "mac": fixture_cache.entry_mac(KEY, key, body, KEYED_FORMAT)}
    entry.write_bytes(json.dumps(header).encode() + b"\n" + body)
    assert load_cases([f], cache=FixtureCache(home / "cache", secret=KEY)) == load_cases([f], cache=False)
