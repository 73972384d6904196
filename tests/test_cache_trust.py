"""The cache is untrusted input (issue 21): whatever state it is in, the cases loaded, and so
every verdict, equal a load with no cache. Entries are believed only with this user's MAC;
a cache path that is not a folder costs speed, never a traceback."""
from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
from pathlib import Path

import pytest
import yaml

from fives.conformance.cases import fixture_cache, fixtures, prebuilt
from fives.conformance.cases.fixture_cache import FORMAT, FixtureCache, entry_mac
from fives.conformance.cases.fixtures import load_cases
from fives.support import cache_key, paths, schema_memo
from fives.support.errors import UserError
from fives.support.reading import read_regular_file
from test_suite_loading import CASE as SUITE_CASE

KEY = bytes(range(32))
CASE = SUITE_CASE.replace("EXPECT", "{sum: 10}")  # the one-case fixture of test_suite_loading


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private key and cache folder for the test."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("FIVES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FIVES_CACHE_KEY", raising=False)
    monkeypatch.delenv("FIVES_NO_CACHE", raising=False)
    cache_key._secret.cache_clear()
    return tmp_path


def a_fixture(folder: Path) -> Path:
    f = folder / "t.yaml"
    f.write_text(CASE, encoding="utf-8")
    return f


def entry_of(store: FixtureCache) -> Path:
    (entry,) = store.folder.glob("*.json")
    return entry


def reseal(body: bytes, key: str, secret: bytes | None) -> bytes:
    """An entry for `body` with a header that looks right: the old SHA-256 seal when `secret`
    is None, else a MAC made with `secret`."""
    if secret is None:
        header = {"format": "fives-fixture-cache/1", "key": key, "sha256": hashlib.sha256(body).hexdigest()}
    else:
        header = {"format": FORMAT, "key": key, "mac": entry_mac(secret, key, body)}
    return json.dumps(header).encode() + b"\n" + body


# -- poisoned entries ----------------------------------------------------------------------------
@pytest.mark.parametrize("seal", ["sha256-reseal", "another-users-key", "no-seal"])
def test_a_poisoned_resealed_entry_is_not_believed(home: Path, seal: str) -> None:
    f = a_fixture(home)
    store = FixtureCache(home / "cache", secret=KEY)
    truth = load_cases([f], cache=False)
    assert load_cases([f], cache=store) == truth
    entry = entry_of(store)
    key = entry.stem
    doc = json.loads(entry.read_bytes().partition(b"\n")[2])
    doc["cases"][0]["expect"] = {"sum": 15}  # the poisoned expectation
    body = json.dumps(doc).encode()
    blob = {"sha256-reseal": reseal(body, key, None), "another-users-key": reseal(body, key, b"x" * 32),
            "no-seal": body}[seal]
    entry.write_bytes(blob)
    again = FixtureCache(home / "cache", secret=KEY)
    assert load_cases([f], cache=again) == truth
    assert again.hits == 0 and again.rejected == 1 and again.misses == 1
    assert load_cases([f], cache=again)[0].expect == {"sum": 10}  # rewritten with our MAC
    assert again.hits == 1


def test_an_entry_with_our_mac_but_unreadable_shape_is_rebuilt(home: Path) -> None:
    """Even an entry the MAC vouches for cannot make the loader fail: the source decides."""
    f = a_fixture(home)
    store = FixtureCache(home / "cache", secret=KEY)
    load_cases([f], cache=store)
    entry = entry_of(store)
    for body in (b'{"format": "fives-fixtures/1", "cases": [{"id": 3}]}', b'{"cases": 5}', b"[1, 2]", b'"x"',
                 b"[" * 100 + b"]" * 100):
        entry.write_bytes(reseal(body, entry.stem, KEY))
        assert load_cases([f], cache=FixtureCache(home / "cache", secret=KEY)) == load_cases([f], cache=False)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "symlink-to-valid", "directory", "huge", "foreign-owner",
                                  "truncated", "schema-invalid"])
def test_an_entry_that_is_not_a_plain_file_of_ours_is_a_miss(home: Path, kind: str) -> None:
    f = a_fixture(home)
    store = FixtureCache(home / "cache", secret=KEY)
    truth = load_cases([f], cache=store)
    entry = entry_of(store)
    good = entry.read_bytes()
    entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "dev-zero":
        entry.symlink_to("/dev/zero")
    elif kind == "symlink-to-valid":  # a good entry, but behind a link: not read
        (home / "elsewhere.json").write_bytes(good)
        entry.symlink_to(home / "elsewhere.json")
    elif kind == "directory":
        entry.mkdir()
    elif kind == "huge":
        with open(entry, "wb") as fh:
            fh.truncate(fixture_cache.MAX_ENTRY_BYTES + 1)  # sparse: costs no disk
    elif kind == "foreign-owner":
        if os.geteuid() != 0:
            pytest.skip("only root can give a file to another user")
        entry.write_bytes(good)
        os.chown(entry, 65534, 65534)
    elif kind == "truncated":
        entry.write_bytes(good[: len(good) - 7])
    else:  # a body that breaks the schema, sealed the old way
        entry.write_bytes(reseal(b'{"format": "fives-fixtures/1", "cases": [{"id": 3}]}', entry.stem, None))
    again = FixtureCache(home / "cache", secret=KEY)
    assert load_cases([f], cache=again) == truth
    assert again.hits == 0


def test_two_runs_sharing_a_cold_cache_at_once(home: Path) -> None:
    roots = [paths.FIXTURES / "play"]
    truth = load_cases(roots, cache=False)
    results: list[object] = []

    def run() -> None:
        results.append(load_cases(roots, cache=FixtureCache(home / "cache", secret=KEY)))
    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [truth] * 3
    assert load_cases(roots, cache=FixtureCache(home / "cache", secret=KEY)) == truth


# -- the key ---------------------------------------------------------------------------------------
def test_the_key_is_made_once_at_0600_outside_the_cache(home: Path) -> None:
    key = cache_key.secret()
    path = home / "config" / "fives" / "cache.key"
    assert key is not None and len(key) == 32 and path.read_bytes() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    cache_key._secret.cache_clear()
    assert cache_key.secret() == key
    assert not str(path).startswith(str(paths.cache_dir()))


@pytest.mark.parametrize("problem", ["loose-mode", "symlink", "wrong-size", "config-is-a-file", "fifo"])
def test_a_key_that_binds_nothing_turns_the_cache_off(home: Path, problem: str) -> None:
    path = home / "config" / "fives" / "cache.key"
    path.parent.mkdir(parents=True)
    if problem == "loose-mode":
        path.write_bytes(KEY)
        path.chmod(0o644)
    elif problem == "symlink":
        (home / "k").write_bytes(KEY)
        (home / "k").chmod(0o600)
        path.symlink_to(home / "k")
    elif problem == "wrong-size":
        path.write_bytes(KEY + b"\n")
        path.chmod(0o600)
    elif problem == "fifo":
        os.mkfifo(path, 0o600)
    else:
        path.parent.rmdir()
        path.parent.write_text("a file")
    assert cache_key.secret() is None
    store = FixtureCache(home / "cache")
    assert store.folder is None  # no key: no user cache
    f = a_fixture(home)
    assert load_cases([f], cache=store) == load_cases([f], cache=False)
    if problem == "loose-mode":
        assert path.read_bytes() == KEY and stat.S_IMODE(path.stat().st_mode) == 0o644  # never "repaired"


def test_runs_creating_the_key_at_once_agree(home: Path) -> None:
    got: list[bytes | None] = []

    def make() -> None:
        got.append(cache_key._create_key(str(home / "config" / "fives" / "cache.key")))
    threads = [threading.Thread(target=make) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 1 and got[0] is not None
    assert sorted(p.name for p in (home / "config" / "fives").iterdir()) == ["cache.key"]


# -- cache paths that are not folders --------------------------------------------------------------
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("where", ["FIVES_CACHE_DIR", "XDG_CACHE_HOME", "HOME"])
def test_a_cache_path_that_is_a_file(home: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    from click.testing import CliRunner

    from fives.cli import main
    from fives.rules import _load_rules

    blocker = home / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.delenv("FIVES_CACHE_DIR")
    if where == "HOME":
        monkeypatch.setenv("HOME", "/dev/null")
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    else:
        monkeypatch.setenv(where, str(blocker))
    cache_key._secret.cache_clear()
    _load_rules.cache_clear()
    f = a_fixture(home)
    assert load_cases([f]) == load_cases([f], cache=False)
    assert load_cases([paths.FIXTURES / "play"]) == load_cases([paths.FIXTURES / "play"], cache=False)
    layout = home / "l.yaml"
    layout.write_text('- {tile: "[1|4]"}\n')
    r = CliRunner().invoke(main, ["evaluate", "--game", "horse-race", str(layout)])
    assert r.exit_code == 0 and '"sum": 5' in r.output, r.output
    r = CliRunner().invoke(main, ["conformance", "run", "--fixtures", str(f)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 0, r.output


# -- the schema memo -------------------------------------------------------------------------------
def test_the_schema_memo_believes_only_its_own_notes(home: Path) -> None:
    schema, doc = b"{}", b"a: 1"
    assert not schema_memo.known_valid(schema, doc)
    schema_memo.remember_valid(schema, doc)
    assert schema_memo.known_valid(schema, doc)
    (note,) = (home / "cache" / "valid").iterdir()
    rec = schema_memo.record(schema, doc)
    note.write_bytes(rec)  # the version-1 entry: the record itself, which anyone can write
    assert not schema_memo.known_valid(schema, doc)
    note.write_bytes(schema_memo._note(b"y" * 32, rec))  # a note made with another key
    assert not schema_memo.known_valid(schema, doc)
    note.unlink()
    note.symlink_to("/dev/zero")
    assert not schema_memo.known_valid(schema, doc)


# -- the bounded reader for untrusted files --------------------------------------------------------
def test_read_regular_file_refuses_what_is_not_a_plain_file(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"12345")
    assert read_regular_file(f, 5) == b"12345"
    with pytest.raises(OSError, match="too large"):
        read_regular_file(f, 4)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(f)
    for p in (tmp_path / "fifo", tmp_path / "link", Path("/dev/zero"), tmp_path):
        with pytest.raises(OSError):
            read_regular_file(p, 100)
    with pytest.raises(OSError, match="another user"):
        read_regular_file(f, 100, owner=os.geteuid() + 1)


# -- the prebuilt suite ----------------------------------------------------------------------------
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_prebuilt_suite_is_the_suite_and_an_edit_misses(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = home / "prebuilt"
    monkeypatch.setenv("FIVES_NO_CACHE", "1")  # the build reads sources only
    n = prebuilt.build(out)  # which also checks the suite read back equals the sources'
    monkeypatch.delenv("FIVES_NO_CACHE")
    files = fixtures.fixture_files()
    # every bundled file is held, those with YAML's integer keys (a profile's per-player values)
    # in pairs: a fresh machine's first run parses none (it parsed 7 files, 230 kB, before)
    keyed = [f for f in files if not fixture_cache.json_safe(yaml.safe_load(f.read_text(encoding="utf-8")))]
    paired = list(out.glob(f"*{fixture_cache.PREBUILT_PAIRS_SUFFIX}"))
    assert n == len(files) == len(list(out.glob("*.json"))) and len(paired) == len(keyed) >= 1
    store = FixtureCache(None, prebuilt=out)
    suite = load_cases(cache=store)
    assert len(suite) > 3000 and store.prebuilt_hits == n and store.misses == 0
    variants = next(f for f in keyed if f.name == "horse-race.yaml" and f.parent.name == "variants")
    assert [c.to_dict() for c in load_cases([variants], cache=store)] == \
        [c.to_dict() for c in load_cases([variants], cache=False)]  # the int keys come back as ints
    # a damaged prebuilt entry makes the check fail (the build stops)
    first = sorted(set(out.glob("*.json")) - set(paired))[0]
    first.write_text(first.read_text(encoding="utf-8").replace('"id":"', '"id":"X', 1), encoding="utf-8")
    assert "X" in first.read_text(encoding="utf-8")
    with pytest.raises(SystemExit, match="differ from the sources"):
        prebuilt.check(out, suite, n)
    first.unlink()
    with pytest.raises(SystemExit, match=f"{n - 1} of {n} files"):
        prebuilt.check(out, suite, n)  # the file is parsed instead: same cases, one entry short
    store = FixtureCache(None, prebuilt=out)
    assert load_cases(cache=store) == suite and store.prebuilt_hits == n - 1
    # a checkout under FIVES_ROOT with one fixture edited: that file alone misses
    import shutil

    root = home / "root"
    root.mkdir()
    (root / "spec").symlink_to(paths.ROOT / "spec")
    shutil.copytree(paths.ROOT / "conformance", root / "conformance")
    edited = paths.FIXTURES / "play" / "horse-race-turn.yaml"
    target = root / "conformance" / "fixtures" / "play" / "horse-race-turn.yaml"
    target.write_text(edited.read_text(encoding="utf-8").replace("id: HR-TURN-06", "id: HR-TURN-06-EDITED"),
                      encoding="utf-8")
    monkeypatch.setenv("FIVES_ROOT", str(root))
    store = FixtureCache(None, prebuilt=out)
    ids = {c.id for c in load_cases(cache=store)}
    assert "HR-TURN-06-EDITED" in ids and "HR-TURN-06" not in ids
    assert store.prebuilt_hits == n - 2  # the edited file and the entry removed above


def test_a_prebuilt_folder_is_used_by_default_only_when_the_package_has_one(home: Path) -> None:
    assert paths.prebuilt_dir() is None or (paths.prebuilt_dir() / "..").resolve() == Path(fixtures.__file__).parents[2]
    store = fixtures.default_cache()
    assert store is not None and store.folder == home / "cache" / "fixtures"


def test_no_cache_means_no_layer_at_all(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIVES_NO_CACHE", "1")
    assert fixtures.default_cache() is None


def test_an_unreadable_fixture_with_surrogates_is_one_line_with_the_cache_on(home: Path) -> None:
    f = home / "s.json"
    doc = json.loads(json.dumps(__import__("yaml").safe_load(CASE)))
    text = json.dumps(doc).replace('"test"', '"te\\ud800st"')
    f.write_text(text, encoding="utf-8")
    with pytest.raises(UserError, match=r"s\.json: string .* lone surrogate"):
        load_cases([f], cache=FixtureCache(home / "cache", secret=KEY))
    assert not (home / "cache").exists() or not list((home / "cache").rglob("*.json"))


# -- the data a zipped import extracts into the cache -------------------------------------------
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_tampered_extracted_copy_of_the_data_is_not_used(home: Path) -> None:
    import subprocess
    import sys
    import zipfile

    root = Path(fixtures.__file__).parents[3]
    archive = home / "fives.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for f in sorted((root / "fives").rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix not in (".pyc", ".so"):
                z.write(f, f.relative_to(root).as_posix())
        for tree in paths.DATA_TREES:
            for f in sorted((root / tree).rglob("*")):
                if f.is_file() and "__pycache__" not in f.parts:
                    z.write(f, f"fives/_data/{f.relative_to(root).as_posix()}")
    env = {**{k: v for k, v in os.environ.items() if k != "FIVES_ROOT"}, "PYTHONPATH": str(archive)}
    probe = ("import fives.support.paths as p; r = p.data_root(); print(r); "
             "print((r / 'spec/games/horse-race.yaml').read_text().count('\\n'))")

    def where() -> tuple[Path, str]:
        r = subprocess.run([sys.executable, "-c", probe], cwd=home, env=env, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        first, lines = r.stdout.split()
        return Path(first), lines
    copy, lines = where()
    assert copy.parent == home / "cache" and (copy / ".complete").is_file()
    assert where() == (copy, lines)  # reused
    (copy / "spec" / "games" / "horse-race.yaml").write_text("poisoned: true\n")
    again, lines_again = where()
    assert lines_again == lines  # the tampered copy was replaced, not believed
    assert (again / "spec" / "games" / "horse-race.yaml").read_text().count("\n") == int(lines)
    env["FIVES_CACHE_DIR"] = str(home / "a-file")
    (home / "a-file").write_text("x")
    private, lines_private = where()  # a cache path that is a file: a private copy, removed at exit
    assert lines_private == lines and not private.exists()
