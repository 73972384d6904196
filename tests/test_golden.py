"""Golden suites: deterministic and parallel-safe generation, valid and right cases, a manifest
that cannot be fooled, and folders a killed or repeated generation cannot corrupt."""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from fives.cli import main
from fives.conformance.cases.fixtures import lint, load_cases
from fives.conformance.golden.generate import generate
from fives.conformance.golden.idset import IdSet
from fives.conformance.golden.manifest import SUITE_FORMAT, check_fixture_roots, verify_suite
from fives.support.errors import UserError
from fives.conformance.cases.kinds import load_kinds
from fives.support.paths import CONFORMANCE
from fives.rules import load_rules


def tree(path: Path) -> dict[str, bytes]:
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def gen(out: Path, cases: int = 20, seed: int = 11, *extra: str, games=("horse-race",)):
    game_args = [a for g in games for a in ("--game", g)]
    return invoke("golden", "generate", *game_args, "--cases", str(cases), "--seed", str(seed), "--out", str(out), *extra)


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small valid suite; tests copy it before damaging it."""
    out = tmp_path_factory.mktemp("golden") / "suite"
    r = gen(out, 30, 4, games=("american-sniff", "horse-race"))
    assert r.exit_code == 0, r.output
    return out


def copy(suite: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "copy"
    shutil.copytree(suite, dest)
    return dest


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_same_seed_byte_identical_and_jobs_do_not_matter(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    games = ("american-sniff", "horse-race")
    assert gen(a, 60, 11, games=games).exit_code == 0
    assert gen(b, 60, 11, games=games).exit_code == 0
    assert gen(c, 60, 11, "--jobs", "2", games=games).exit_code == 0
    assert tree(a) == tree(b) == tree(c)
    d = tmp_path / "d"
    assert gen(d, 60, 12, games=("american-sniff",)).exit_code == 0
    assert tree(d)["american-sniff/random-play.yaml"] != tree(a)["american-sniff/random-play.yaml"]
    listed = [f for s in yaml.safe_load(tree(a)["manifest.yaml"])["suites"] for f in s["files"]]
    assert sorted(tree(a)) == sorted(["manifest.yaml", *listed]) and len(listed) > 20


def test_block_size_does_not_change_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fives.conformance.golden import generate as module
    a = generate("american-sniff", 40, 2, tmp_path / "a")
    monkeypatch.setattr(module, "MIN_BLOCK", 3)  # 40 cases in blocks of 3 instead of 8
    b = generate("american-sniff", 40, 2, tmp_path / "b", jobs=2)
    assert a == b and tree(tmp_path / "a") == tree(tmp_path / "b")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_manifest_lists_every_file_with_cases_size_and_hash(tmp_path: Path) -> None:
    entry = generate("horse-race", 80, 3, tmp_path)
    assert sum(f["cases"] for f in entry["files"].values()) == 80
    for rel, info in entry["files"].items():
        data = (tmp_path / rel).read_bytes()
        assert hashlib.sha256(data).hexdigest() == info["sha256"]
        assert len(data) == info["size"]
        assert len(yaml.safe_load(data)["cases"]) == info["cases"]


def test_manifest_records_the_command(suite: Path) -> None:
    m = yaml.safe_load((suite / "manifest.yaml").read_text())
    assert m["format"] == SUITE_FORMAT
    assert m["command"] == ("fives golden generate --game american-sniff --game horse-race --cases 30 --seed 4 "
                            "--out DIR")
    assert [s["game"] for s in m["suites"]] == ["american-sniff", "horse-race"]


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_generated_cases_lint_and_pass_and_ids_are_content_hashes(tmp_path: Path) -> None:
    generate("american-sniff", 120, 5, tmp_path)
    count, problems = lint([tmp_path])
    assert problems == [] and count == 120
    kinds = load_kinds()
    cases = load_cases([tmp_path])
    assert len({c.id for c in cases}) == 120
    for c in cases:
        assert c.id.startswith(f"G-SN-{c.kind}-")
        kind = kinds[c.kind]
        assert kind.compare(c.expect, kind.run(load_rules(c.game), c.input, {})) == []


def test_committed_golden_suite_matches_its_manifest() -> None:
    folder = CONFORMANCE / "golden"
    r = invoke("golden", "verify", str(folder))
    assert r.exit_code == 0, r.output
    assert r.output.strip() == f"ok: {folder}"
    assert yaml.safe_load((folder / "manifest.yaml").read_text())["format"] == SUITE_FORMAT


# --------------------------------------------------------------------------- verify


def test_verify_ok(suite: Path) -> None:
    assert verify_suite(suite) == []
    assert invoke("golden", "verify", str(suite)).exit_code == 0


def _edit_manifest(folder: Path, edit) -> None:
    m = yaml.safe_load((folder / "manifest.yaml").read_text())
    m = edit(m)
    (folder / "manifest.yaml").write_text(m if isinstance(m, str) else yaml.safe_dump(m, sort_keys=False))


def _first_file(m: dict) -> dict:
    return next(iter(m["suites"][0]["files"].values()))


def _rename_first(m: dict, new: str) -> dict:
    files = m["suites"][0]["files"]
    old = next(iter(files))
    files[new] = files.pop(old)
    return m


BAD_MANIFESTS = {
    "empty mapping": (lambda m: {}, "format"),
    "empty text": (lambda m: "", "format"),
    "a list": (lambda m: "- 1\n", "expected a mapping"),
    "no suites": (lambda m: {**m, "suites": []}, "non-empty list"),
    "no files": (lambda m: (m["suites"][0].update(files={}), m)[1], "non-empty mapping"),
    "old format": (lambda m: {**m, "format": "fives-golden/1"}, "regenerate"),
    "missing sha256": (lambda m: (_first_file(m).pop("sha256"), m)[1], "missing sha256"),
    "missing size": (lambda m: (_first_file(m).pop("size"), m)[1], "missing size"),
    "sha256 not hex": (lambda m: (_first_file(m).update(sha256="xyz"), m)[1], "64 lowercase hex"),
    "size a string": (lambda m: (_first_file(m).update(size="12"), m)[1], "expected an integer"),
    "entry a list": (lambda m: (m["suites"][0]["files"].update({k: [1] for k in list(m["suites"][0]["files"])[:1]}), m)[1],
                     "expected a mapping"),
    "unknown entry key": (lambda m: (_first_file(m).update(path="/etc/passwd"), m)[1], "unknown key"),
    "dot-dot path": (lambda m: _rename_first(m, "american-sniff/../../escape.yaml"), "not a plain path"),
    "absolute path": (lambda m: _rename_first(m, "/etc/passwd"), "not a plain path"),
    "other game's folder": (lambda m: _rename_first(m, "horse-race/zz.yaml"), "american-sniff/<category>.yaml"),
    "deeper path": (lambda m: _rename_first(m, "american-sniff/x/y.yaml"), "american-sniff/<category>.yaml"),
    "unknown game": (lambda m: (m["suites"][0].update(game="chess"), m)[1], "unknown game"),
    "wrong total": (lambda m: (m["suites"][0].update(cases=999), m)[1], "999 cases"),
    "game twice": (lambda m: {**m, "suites": [m["suites"][0], m["suites"][0]]}, "listed twice"),
}


@pytest.mark.parametrize("name", sorted(BAD_MANIFESTS))
def test_verify_rejects_a_malformed_or_incomplete_manifest(suite: Path, tmp_path: Path, name: str) -> None:
    edit, message = BAD_MANIFESTS[name]
    folder = copy(suite, tmp_path)
    _edit_manifest(folder, edit)
    r = invoke("golden", "verify", str(folder))
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert message in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_verify_rejects_missing_extra_and_changed_files(suite: Path, tmp_path: Path) -> None:
    folder = copy(suite, tmp_path)
    files = sorted((folder / "horse-race").glob("*.yaml"))
    files[0].unlink()
    with open(files[1], "ab") as f:
        f.write(b"# appended\n")
    data = bytearray(files[2].read_bytes())
    data[-2] ^= 1  # same size, other bytes
    files[2].write_bytes(bytes(data))
    (folder / "horse-race" / "stale.yaml").write_text("cases: []\n")
    (folder / "notes.txt").write_text("hi\n")
    os.symlink("/etc", folder / "link")
    problems = verify_suite(folder)
    text = "\n".join(problems)
    assert f"{files[0].name}: missing" in text
    assert f"{files[1].name}: {files[1].stat().st_size} bytes, the manifest says" in text
    assert f"{files[2].name}: SHA-256 differs" in text
    assert "stale.yaml: extra file not listed" in text and "notes.txt: extra file" in text
    assert "link: extra (a symbolic link)" in text
    assert len(problems) == 6
    r = invoke("golden", "verify", str(folder))
    assert r.exit_code == 1 and r.output.strip().endswith(f"6 problems: {folder}")


def test_verify_without_manifest_is_bad_input(tmp_path: Path) -> None:
    r = invoke("golden", "verify", str(tmp_path))
    assert r.exit_code == 2 and "no manifest.yaml" in r.output
    r = invoke("golden", "verify", str(tmp_path / "absent"))
    assert r.exit_code == 2 and "no such folder" in r.output


# --------------------------------------------------------------------------- conformance run


def test_conformance_run_checks_the_suite(suite: Path, tmp_path: Path) -> None:
    r = invoke("conformance", "run", "--fixtures", str(suite))
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines()[-1] == "60 passed, 0 failed, 0 errored, 0 skipped"
    folder = copy(suite, tmp_path)
    extra = folder / "horse-race" / "stale.yaml"
    shutil.copy(CONFORMANCE / "fixtures" / "play" / "horse-race-zero-sum.yaml", extra)
    extra_cases = len(load_cases([extra]))
    for root in (folder, folder / "horse-race", extra):  # the suite, a game folder, a single file
        r = invoke("conformance", "run", "--fixtures", str(root))
        assert r.exit_code == 2, r.output
        assert "stale.yaml: extra file not listed in the manifest" in r.output and "--no-verify" in r.output
    r = invoke("conformance", "run", "--fixtures", str(folder), "--no-verify")
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines()[-1] == f"{60 + extra_cases} passed, 0 failed, 0 errored, 0 skipped"
    extra.unlink()
    (folder / "manifest.yaml").write_text("{}\n")
    r = invoke("conformance", "run", "--fixtures", str(folder))
    assert r.exit_code == 2 and "format" in r.output
    (folder / "manifest.yaml").unlink()
    r = invoke("conformance", "run", "--fixtures", str(folder))
    assert r.exit_code == 2 and "no manifest.yaml" in r.output
    r = invoke("conformance", "run", "--fixtures", str(folder), "--no-verify")
    assert r.exit_code == 0, r.output


def test_hand_written_fixture_folders_need_no_manifest() -> None:
    check_fixture_roots([CONFORMANCE / "fixtures"])
    check_fixture_roots(None)  # the defaults: hand-written, committed golden suite, perft
    with pytest.raises(UserError, match="no such fixture"):
        check_fixture_roots([CONFORMANCE / "nowhere"])


# --------------------------------------------------------------------------- output folder


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_non_empty_out_needs_force_and_force_replaces_the_suite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert gen(out, 80, 1, games=("american-sniff", "horse-race")).exit_code == 0
    r = gen(out, 10, 1)
    assert r.exit_code == 2 and "not empty; add --force" in r.output
    r = gen(out, 10, 1, "--force")
    assert r.exit_code == 0, r.output
    files = tree(out)
    assert not any(f.startswith("american-sniff/") for f in files)  # no stale file of the old suite
    assert sum(c for c in [yaml.safe_load(files["manifest.yaml"])["suites"][0]["cases"]]) == 10
    assert verify_suite(out) == []
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging or old folder left over
    fresh = tmp_path / "fresh"
    assert gen(fresh, 10, 1).exit_code == 0
    assert tree(fresh) == files


def test_force_never_deletes_what_the_tool_did_not_write(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "horse-race").mkdir()
    keep = out / "horse-race" / "notes.txt"
    keep.write_text("mine\n")
    r = gen(out, 5, 1, "--force")
    assert r.exit_code == 2 and "notes.txt" in r.output and "fives golden generate does not write" in r.output
    assert keep.read_text() == "mine\n"
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("x\n")
    assert gen(home, 5, 1, "--force").exit_code == 2 and (home / ".bashrc").exists()
    assert gen(home / ".bashrc", 5, 1).exit_code == 2


def test_empty_out_folder_is_fine(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    assert gen(out, 5, 1).exit_code == 0 and verify_suite(out) == []


_KILL_SCRIPT = """
import sys
from fives.cli import main
main(["golden", "generate", "--game", "horse-race", "--cases", "100000", "--seed", "1", "--out", sys.argv[1]] + sys.argv[2:])
"""


def _start_and_wait_for_files(out: Path, *extra: str) -> tuple[subprocess.Popen, Path]:
    # its own process group, so a kill reaches the generation's workers too (a SIGKILL of the
    # parent alone left two workers generating 100,000 cases for an hour, loading every later test)
    proc = subprocess.Popen([sys.executable, "-c", _KILL_SCRIPT, str(out), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 240  # v2 plays whole matches: the first files take longer on a busy machine
    while time.monotonic() < deadline:
        stages = [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.partial-")]
        if stages and len(list(stages[0].rglob("*.yaml"))) >= 10:
            return proc, stages[0]
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError("the generation never wrote its files")


def _group_empties(pgid: int, within: float) -> bool:
    """Whether every process of the group is gone before the deadline (waits for the event)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _live_members(pgid):
            return True
        time.sleep(0.05)
    return False


def _live_members(pgid: int) -> list[int]:
    # a zombie is dead: a container's pid 1 may never reap it, so /proc's state decides
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /proc")
def test_killed_generation_leaves_a_folder_both_commands_reject(suite: Path, tmp_path: Path) -> None:
    out = copy(suite, tmp_path)
    before = tree(out)
    proc, stage = _start_and_wait_for_files(out, "--force", "--jobs", "2")
    try:
        proc.kill()  # the command alone, as the OOM killer would: its workers must die with it
        proc.wait()
        assert _group_empties(proc.pid, within=60), "a worker outlived its SIGKILLed parent"
    finally:
        _kill_group(proc.pid)
    assert tree(out) == before  # the old suite is untouched
    r = invoke("golden", "verify", str(stage))
    assert r.exit_code == 2 and "no manifest.yaml" in r.output
    r = invoke("conformance", "run", "--fixtures", str(stage))
    assert r.exit_code == 2 and "no manifest.yaml" in r.output, r.output
    r = invoke("conformance", "run", "--fixtures", str(stage / "horse-race"))
    assert r.exit_code == 2 and "no manifest.yaml" in r.output
    shutil.rmtree(stage)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_generation_cleans_up(tmp_path: Path, sig: int) -> None:
    out = tmp_path / "out"
    proc, stage = _start_and_wait_for_files(out, "--jobs", "2")
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == (143 if sig == signal.SIGTERM else 130), err
    assert err.strip().splitlines()[-1] == "fives: interrupted"
    assert list(tmp_path.iterdir()) == []  # no OUT, no staging folder, no orphan worker files


# --------------------------------------------------------------------------- the ID set


def test_idset_matches_a_python_set() -> None:
    rng = random.Random(7)
    keys = [rng.getrandbits(48) for _ in range(5000)]
    keys += keys[:700] + [0, (1 << 48) - 1, 0]
    rng.shuffle(keys)
    ids, ref = IdSet(8), set()
    for k in keys:
        assert ids.add(k) == (k not in ref)
        ref.add(k)
    assert len(ids) == len(ref)
    assert all(k in ids for k in ref) and (12345 in ids) == (12345 in ref)
    assert ids.nbytes <= 24 * len(ref) + 8 * 8
    with pytest.raises(ValueError):
        ids.add(1 << 48)
