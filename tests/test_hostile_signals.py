"""Issue 29: SIGTERM is SIGINT. Every long command, sent SIGTERM (how CI cancels a job) while
its engine hangs, writes what it has, exits 143, and leaves no engine process behind: the
engine's whole process group is killed, the hung one included. Each command runs in a child
process against tests/hostile_engines/leak.py, which forks a child into the engine's process
group (writing its pid), then hangs on its first request; SIGTERM goes to the command once
that pid is written, so the engine is known to be mid-request."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from fives.support.paths import ROOT

from test_runner_hostile import wait_dead  # noqa: E402 - the same check that a pid is gone
from test_runner_robustness import engine  # noqa: E402 - the same hostile engines

FIGURES = ROOT / "conformance" / "fixtures" / "seed" / "american-sniff-figures.yaml"
pytestmark = pytest.mark.slow  # each starts a command and an engine: over 0.45 s


def _start(argv: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_for(path: Path, proc: subprocess.Popen[str], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not (path.exists() and path.read_text().strip()):
        assert proc.poll() is None, f"ended before the engine hung: {proc.communicate()}"
        assert time.monotonic() < deadline, "the engine never got a request"
        time.sleep(0.05)


def _terminate(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("still running 30 s after SIGTERM")
    return proc.returncode, out, err


def _hung_engine(tmp_path: Path) -> tuple[str, Path]:
    pids = tmp_path / "pids"
    return engine("leak.py", "--then", "hang", "--at", "1", "--pids", str(pids)), pids


def _fives(*args: str) -> list[str]:
    return [sys.executable, "-m", "fives", *args]


def _check(code: int, err: str, pids: Path) -> None:
    assert code == 143, err
    assert "Traceback" not in err
    children = [int(x) for x in pids.read_text().split()]
    assert children and wait_dead(children), "the engine's process group outlived the command"


def test_run_writes_its_reports_and_exits_143(tmp_path: Path) -> None:
    cmd, pids = _hung_engine(tmp_path)
    report = tmp_path / "r.json"
    proc = _start(_fives("conformance", "run", "--engine", cmd, "--fixtures", str(FIGURES), "--timeout", "0",
                         "--report", f"json:{report}"), tmp_path)
    _wait_for(pids, proc)
    code, out, err = _terminate(proc)
    _check(code, err, pids)
    assert report.is_file() and '"interrupted":true' in report.read_text()


def test_diagnose_writes_what_was_found_and_exits_143(tmp_path: Path) -> None:
    cmd, pids = _hung_engine(tmp_path)
    out_dir = tmp_path / "dx"
    proc = _start(_fives("conformance", "diagnose", "--engine", cmd, "--game", "american-sniff", "--kind", "evaluate",
                         "--timeout", "0", "--fuzz", "0", "--out", str(out_dir)), tmp_path)
    _wait_for(pids, proc)
    code, out, err = _terminate(proc)
    _check(code, err, pids)
    assert (out_dir / "diagnosis.json").is_file() and "interrupted" in err


def test_fuzz_writes_its_findings_and_exits_143(tmp_path: Path) -> None:
    cmd, pids = _hung_engine(tmp_path)
    out_dir = tmp_path / "found"
    proc = _start(_fives("conformance", "fuzz", "--engine", cmd, "--timeout", "0", "--cases", "50",
                         "--out", str(out_dir)), tmp_path)
    _wait_for(pids, proc)
    code, out, err = _terminate(proc)
    _check(code, err, pids)
    assert out_dir.is_dir() and "requests drawn" in out and "(interrupted)" in out  # the summary of what was drawn


def test_perft_through_an_engine_exits_143(tmp_path: Path) -> None:
    cmd, pids = _hung_engine(tmp_path)
    proc = _start(_fives("perft", "--game", "horse-race", "--depth", "2", "--engine", cmd, "--timeout", "0"),
                  tmp_path)
    _wait_for(pids, proc)
    code, out, err = _terminate(proc)
    _check(code, err, pids)


def _children(pid: int) -> list[int]:
    return [int(p) for p in subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                                           text=True).stdout.split()]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:  # gone meanwhile
        return ""


def _handles(pid: int, signum: int) -> bool:
    """Whether `pid` has installed its own handler for `signum` (/proc's SigCgt): the command is
    up, and a signal now is its stop, not the interpreter's default death."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next((int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:")), 0)
    return bool(caught >> (signum - 1) & 1)


def _wait_until(what: Callable[[], bool], proc: subprocess.Popen[str], why: str, seconds: float = 180.0) -> None:
    """Poll for an event (never a fixed sleep): generous, for a loaded machine."""
    deadline = time.monotonic() + seconds
    while not what():
        assert proc.poll() is None, f"ended before {why}: {proc.communicate()}"
        assert time.monotonic() < deadline, f"never {why}"
        time.sleep(0.05)


def test_mutants_print_what_finished_and_kill_every_mutant_engine(tmp_path: Path) -> None:
    proc = _start(_fives("conformance", "mutants", "--mutant", "drawn-tile-continues", "--mutant", "zero-sum-scores"),
                  tmp_path)
    # both mutant engines (`fives.cli serve --mutant NAME`, --jobs 2; each in its own session) are up:
    # the event, not a guess of 4 s
    engines = lambda: [p for p in _children(proc.pid) if " serve --mutant " in _cmdline(p)]  # noqa: E731
    _wait_until(lambda: len(engines()) >= 2, proc, "the two mutant engines were up")
    mine = engines()
    code, out, err = _terminate(proc)
    assert code == 143 and "Traceback" not in err, err
    assert "not run to the end" in err and "mutants," in out + err
    assert len(mine) == 2 and wait_dead(mine)


@pytest.mark.parametrize("command", [
    ["golden", "generate", "--game", "horse-race", "--cases", "100000", "--seed", "1", "--out", "suite"],
    ["puzzles", "generate", "--game", "horse-race", "--count", "500", "--seed", "1", "--out", "set.yaml"],
])
def test_generation_stops_cleanly_and_leaves_no_partial_output(tmp_path: Path, command: list[str]) -> None:
    proc = _start(_fives(*command), tmp_path)
    # the command is up (its SIGTERM handler installed), and the golden suite has begun its staging folder
    _wait_until(lambda: _handles(proc.pid, signal.SIGTERM), proc, "the command installed its SIGTERM handler")
    if command[0] == "golden":
        _wait_until(lambda: any(p.name.startswith(".suite.partial-") for p in tmp_path.iterdir()), proc,
                    "the generation began writing")
    code, out, err = _terminate(proc)
    assert code == 143 and "Traceback" not in err, err
    assert not (tmp_path / command[-1]).exists()  # nothing half-written under the output's name
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging folder left


def test_the_pytest_plugin_exits_143_and_kills_the_engine(tmp_path: Path) -> None:
    cmd, pids = _hung_engine(tmp_path)
    proc = _start([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--fives-engine", cmd,
                   "--fives-fixtures", str(FIGURES), "--fives-timeout", "0", "-q"], tmp_path)
    _wait_for(pids, proc)
    code, out, err = _terminate(proc)
    _check(code, err + out, pids)


# The CI races behind `puzzles generate` (z3 speaks to its library through ctypes), made certain.
# "c-call": the signal lands while ctypes converts a call's argument, so ctypes re-raises the stop
# as ctypes.ArgumentError, and inside a constructor, so a half-built object's finaliser fails at
# exit. "finaliser": the signal lands inside a finaliser, where Python can only report the stop as
# unraisable and goes on; the command then runs to its end unless the stop is delivered again.
# "c-call-in-finaliser": both at once, as in z3's AstRef.__del__ (ctypes.ArgumentError, unraisable).
_SIGNAL_IN_C = '''
import ctypes, os, signal, sys, time
import click
from fives.cli import FivesGroup

SIGNUM, MODE = int(sys.argv[1]), sys.argv[2]

class Half:  # as z3's AstRef: a finaliser that needs what the constructor had not set yet
    def __init__(self):
        os.kill(os.getpid(), SIGNUM)
        time.sleep(5)
        self.ctx = 1
    def __del__(self):
        self.ctx

class Arg:
    @classmethod
    def from_param(cls, value):
        Half()
        return value

class Dying:  # as z3's AstRef.__del__, which calls into the library
    def __del__(self):
        if MODE == "finaliser":
            os.kill(os.getpid(), SIGNUM)
            time.sleep(0.5)
        else:  # the stop lands in the library call's argument, in the finaliser
            c_abs = ctypes.CDLL(None).abs
            c_abs.argtypes = [Signalling]
            c_abs(1)

class Signalling:
    @classmethod
    def from_param(cls, value):
        os.kill(os.getpid(), SIGNUM)
        time.sleep(0.5)
        return value

main = FivesGroup()

@main.command()
def work():
    if MODE == "c-call":
        c_abs = ctypes.CDLL(None).abs
        c_abs.argtypes = [Arg]
        c_abs(1)
    else:
        Dying()
        for _ in range(500):  # 5 s of work, then a normal exit: 0 if the stop was lost
            time.sleep(0.01)

main(["work"], prog_name="fives")
'''


@pytest.mark.parametrize("mode", ["c-call", "finaliser", "c-call-in-finaliser"])
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stop_inside_c_code_is_still_a_stop(tmp_path: Path, signum: int, code: int, mode: str) -> None:
    done = subprocess.run([sys.executable, "-c", _SIGNAL_IN_C, str(int(signum)), mode], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (code, "fives: interrupted\n")
