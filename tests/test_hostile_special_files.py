"""Issue 29: one rule for special files, everywhere. Every file the program opens is opened
non-blocking and accepted only as a regular file (or standard input where documented): a FIFO,
a device, a socket or a folder named as an input is one line and exit 2, promptly; a FIFO in
the cache is a miss. Each probe runs in a child process with a timeout, so a regression hangs
nothing but fails."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from fives.support.paths import ROOT

from test_rules_option import COMMANDS  # noqa: E402 - every command that takes --rules

pytestmark = pytest.mark.slow
FIGURES = ROOT / "conformance" / "fixtures" / "seed" / "american-sniff-figures.yaml"


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fives", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, env={**os.environ, **env})


def one_line(p: subprocess.CompletedProcess[str], *says: str) -> str:
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fives: error: "), p.stderr
    for s in says:
        assert s in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo.yaml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_a_fifo_as_rules_is_one_line(command: list[str], fifo: Path, tmp_path: Path) -> None:
    one_line(run([*command, "--rules", str(fifo)], tmp_path), "fifo.yaml: is a FIFO, not a regular file")


@pytest.mark.parametrize("args", [
    ["evaluate", "--game", "horse-race", "{}"],
    ["conformance", "run", "--diagnosis", "{}"],
    ["conformance", "run", "--fixtures", "{}"],
    ["conformance", "run", "--known-failures", "{}"],
    ["replay", "{}"],
    ["puzzles", "verify", "{}"],
    ["book", "{}", "--out", "b.html"],
    ["perft", "--from", "{}", "--game", "horse-race", "--depth", "1"],
], ids=lambda a: " ".join(a[:2]))
def test_a_fifo_device_or_folder_as_input_is_one_line(args: list[str], fifo: Path, tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    for target, says in ((fifo, "is a FIFO"), (Path("/dev/zero"), "a device"), (folder, "is a directory")):
        p = run([a.replace("{}", str(target)) for a in args], tmp_path)
        assert p.returncode == 2, (args, target, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
        if "--fixtures" not in args:  # a fixture root may be a folder: then it says what it lacks
            assert says in p.stderr or "not a regular file" in p.stderr or "directory" in p.stderr, p.stderr


def test_a_socket_as_input_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        one_line(run(["evaluate", "--game", "horse-race", str(path)], tmp_path), "is a socket, not a regular file")


def test_a_fifo_in_the_fixture_cache_is_a_miss(tmp_path: Path) -> None:
    env = {"FIVES_CACHE_DIR": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    first = run(["conformance", "run", "--fixtures", str(FIGURES), "-q"], tmp_path, **env)
    assert first.returncode == 0, first.stderr
    entries = [p for p in (tmp_path / "cache").rglob("*.json") if "last-failed" not in p.parts]
    assert entries
    for e in entries:
        e.unlink()
        os.mkfifo(e)
    again = run(["conformance", "run", "--fixtures", str(FIGURES), "-q"], tmp_path, **env)
    assert again.returncode == 0 and again.stdout.strip().endswith("11 passed, 0 failed, 0 errored, 0 skipped")
    assert f"fives: note: {len(entries)} fixture cache entr" in again.stderr  # said in one line, then rebuilt
    assert all(e.is_file() for e in entries)


def test_the_pytest_plugin_calls_a_fifo_what_it_is(fifo: Path, tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--fives-engine", "fives serve",
                        "--fives-fixtures", str(fifo), "-q"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert p.returncode == 4, p.stdout + p.stderr  # pytest's usage error
    assert "fifo.yaml: not a regular file or folder" in p.stdout + p.stderr
