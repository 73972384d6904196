"""Hostile caches and surrogates, in real processes under memory and time limits (issue 21).

- A poisoned cache entry, resealed, leaves a failing mutant failing: the verdicts equal a run
  with FIVES_NO_CACHE=1.
- Entries that are FIFOs or links to /dev/zero neither hang the run nor fill memory.
- A cache path that is a file (FIVES_CACHE_DIR, XDG_CACHE_HOME, HOME=/dev/null) costs speed only.
- Lone surrogates on `evaluate --jsonl`: one error object per line, later lines still answered,
  on the compiled and the pure-Python path alike.
"""
from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fives.support import paths

MEMORY = 1 << 30  # as tests/test_hostile_inputs.py
SECONDS = 120
TURNS = paths.FIXTURES / "play" / "horse-race-turn.yaml"
MUTANT = f"{sys.executable} -m fives.cli serve --mutant drawn-tile-continues"


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def fives(args: list[str], env: dict[str, str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("FIVES_NO_CACHE", "FIVES_CACHE_DIR", "FIVES_ROOT")}
    full.update(env)
    p = subprocess.run([sys.executable, "-m", "fives.cli", *args], input=stdin, capture_output=True,
                       timeout=SECONDS, preexec_fn=_limits, env=full)
    out = subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode("utf-8", "replace"),
                                      p.stderr.decode("utf-8", "replace"))
    assert "Traceback" not in out.stderr and "MemoryError" not in out.stderr, out.stderr[-2000:]
    return out


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CONFIG_HOME": str(tmp_path / "config"), "FIVES_CACHE_DIR": str(tmp_path / "cache")}


def failed_ids(report: str) -> list[str]:
    return sorted(line.split()[1] for line in report.splitlines() if line.strip().startswith("FAILED "))


def run_mutant(fixture: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return fives(["conformance", "run", "-v", "--engine", MUTANT, "--fixtures", str(fixture)], env)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_poisoned_resealed_entry_leaves_a_failing_mutant_failing(env: dict[str, str], tmp_path: Path) -> None:
    fixture = tmp_path / "turns.yaml"
    shutil.copyfile(TURNS, fixture)
    clean = run_mutant(fixture, {**env, "FIVES_NO_CACHE": "1"})
    assert clean.returncode == 1, clean.stdout[-2000:] + clean.stderr
    failing = failed_ids(clean.stdout)
    assert "HR-TURN-06" in failing
    run_mutant(fixture, env)  # warms the cache: one entry for the file
    (entry,) = (tmp_path / "cache" / "fixtures").glob("*.json")
    header, _, body = entry.read_bytes().partition(b"\n")
    doc = json.loads(body)
    doc["cases"] = [c for c in doc["cases"] if c["id"] not in failing]  # the poison: only passing cases
    poisoned = json.dumps(doc).encode()
    # the poison works when believed: as a fixture file of its own, the mutant passes it
    (tmp_path / "poison.json").write_bytes(poisoned)
    assert run_mutant(tmp_path / "poison.json", {**env, "FIVES_NO_CACHE": "1"}).returncode == 0
    key = json.loads(header)["key"]
    for seal in ({"format": "fives-fixture-cache/1", "key": key, "sha256": hashlib.sha256(poisoned).hexdigest()},
                 {**json.loads(header), "mac": hashlib.sha256(b"forged" + poisoned).hexdigest()}):
        entry.write_bytes(json.dumps(seal).encode() + b"\n" + poisoned)
        again = run_mutant(fixture, env)
        assert again.returncode == 1, again.stdout[-2000:]
        assert failed_ids(again.stdout) == failing


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_entries_that_are_fifos_or_devices_neither_hang_nor_fill_memory(env: dict[str, str], tmp_path: Path,
                                                                        kind: str) -> None:
    roots = [str(paths.FIXTURES / "play"), str(paths.FIXTURES / "illegal")]
    args = ["conformance", "run", *[a for r in roots for a in ("--fixtures", r)]]
    first = fives(args, env)
    assert first.returncode == 0, first.stdout[-1000:]
    entries = list((tmp_path / "cache" / "fixtures").glob("*.json"))
    assert entries
    for e in entries:
        e.unlink()
        if kind == "fifo":
            os.mkfifo(e)
        else:
            e.symlink_to("/dev/zero")
    again = fives(args, env)
    assert again.returncode == 0 and again.stdout == first.stdout


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("where", ["FIVES_CACHE_DIR", "XDG_CACHE_HOME", "HOME"])
def test_a_cache_path_that_is_a_file(tmp_path: Path, where: str) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {"FIVES_CACHE_DIR": "", "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env[where] = "/dev/null" if where == "HOME" else str(blocker)
    if where == "HOME":
        env["XDG_CONFIG_HOME"] = ""
    r = fives(["conformance", "run", "--fixtures", str(paths.FIXTURES / "play")], env)
    assert r.returncode == 0 and " 0 failed, 0 errored" in r.stdout, r.stdout[-1000:]
    r = fives(["evaluate", "--game", "horse-race", "-"], env, b'[{"tile": "[1|4]"}]')
    assert r.returncode == 0 and json.loads(r.stdout)["sum"] == 5
    r = fives(["conformance", "list", "--id", "HR-TURN-06"], env)
    assert r.returncode == 0 and "HR-TURN-06" in r.stdout


@pytest.mark.parametrize("pure", [False, True], ids=["c-path", "python-path"])
def test_lone_surrogates_on_the_jsonl_stream(env: dict[str, str], pure: bool) -> None:
    good = b'{"game": "horse-race", "placements": [{"tile": "[1|4]"}]}\n'
    lines = [good, b'{"game": "horse-race", "placements": [{"tile": "\\ud800"}]}\n', good,
             b'{"game": "horse-race\\udfff", "placements": []}\n', b'{"game": "horse-race", "x": "\\udc00\\ud800"}\n',
             b'{"game": "horse-race", "placements": [{"tile": "[1|4]", "note": "\\ud83d\\ude00"}]}\n', good]
    r = fives(["evaluate", "--jsonl"], {**env, **({"FIVES_PURE_PYTHON": "1"} if pure else {})}, b"".join(lines))
    out = r.stdout.splitlines()
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert len(out) == len(lines)
    assert [("lone surrogate" in o) for o in out] == [False, True, False, True, True, False, False]
    assert out[0] == out[2] == out[6] and '"sum": 5' in out[0]
    assert '"code": "malformed-request"' in out[1] and "\\\\ud800" in out[1]


def test_a_surrogate_in_a_fixture_with_the_cache_on(env: dict[str, str], tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text('{"format": "fives-fixtures/1", "cases": [{"id": "T-1", "kind": "evaluate", "game": "horse-race", '
                 '"clauses": ["HR-COUNT-1"], "source": {"derived": "te\\ud800st"}, '
                 '"input": {"placements": [{"tile": "[1|4]"}]}, "expect": {"sum": 5}}]}', encoding="utf-8")
    r = fives(["conformance", "run", "--fixtures", str(f)], env)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "lone surrogate" in r.stderr, r.stderr


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_two_runs_sharing_a_cold_cache_at_once(env: dict[str, str]) -> None:
    args = [sys.executable, "-m", "fives.cli", "conformance", "run", "--fixtures", str(paths.FIXTURES / "play"),
            "--fixtures", str(paths.FIXTURES / "illegal")]
    full = {**{k: v for k, v in os.environ.items() if k not in ("FIVES_NO_CACHE", "FIVES_ROOT")}, **env}
    clean = fives(args[3:], {**env, "FIVES_NO_CACHE": "1"})
    runs = [subprocess.Popen(args, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_limits)
            for _ in range(2)]
    outs = [p.communicate(timeout=SECONDS) for p in runs]
    assert [p.returncode for p in runs] == [0, 0]
    assert [o.decode() for o, _ in outs] == [clean.stdout] * 2
    assert all(b"Traceback" not in e for _, e in outs)
