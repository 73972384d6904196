"""Ctrl-C is Ctrl-C inside the solver too (issue 40): z3 would take a SIGINT that lands while it
solves for itself and answer "unknown" (a traceback in `puzzles generate`, a good puzzle called
unproven by `verify`, a lost interrupt, `solve` running on). SIGINT sent, as a terminal sends it,
to the command's process group at random moments of generate, verify and solve: exit 130 every
time, the one line "fives: interrupted", nothing on stdout, no output file, never a verdict.

Each moment is a random delay after an event the test waits for: the command's progress bar
(drawn because stderr is a terminal here) showing the first puzzle done or its first draw. The
issue's 20 tries of each command: `FIVES_SIGINT_TRIES=20 python -m pytest tests/test_puzzles_sigint.py`
(benchmarks/puzzles_sigint.sh); the default suite tries each a few times."""
from __future__ import annotations

import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("z3")

ROOT = Path(__file__).resolve().parents[1]
TRIES = int(os.environ.get("FIVES_SIGINT_TRIES", "3"))
DEADLINE = 180.0  # seconds for any one wait: generous, for a loaded two-core machine
#: words of a verdict on a puzzle or a set, which an interrupted command must never print
VERDICTS = ("verified", "unproven", "not proven", "undecided", "gave up", "exactly one", "Traceback",
            "time budget", "answers")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COMMANDS = {
    "generate": (["puzzles", "generate", "--game", "horse-race", "--count", "300", "--seed", "1",
                  "--out", "set.yaml"], "generating"),
    # LONG_SET: a set made once for the module (long_set below): the bundled sets take about a
    # second, so the latest moment (the first puzzle done, then 1.5 s) could fall after the end
    "verify": (["puzzles", "verify", "LONG_SET"], "verifying"),
    "solve": (["puzzles", "solve", "LONG_SET"], "solving"),
}
LONG_SET_COUNT = 80  # about 5 s of verify or solve on one core, three times the latest moment


@pytest.fixture(scope="module")
def long_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("long-set") / "set.yaml"
    subprocess.run([sys.executable, "-m", "fives", "puzzles", "generate", "--game", "horse-race", "--count",
                    str(LONG_SET_COUNT), "--seed", "1", "--out", str(out)], check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=DEADLINE)
    return out


def read_until(fd: int, seen: bytearray, done: re.Pattern[bytes] | None, deadline: float) -> bool:
    """Read the terminal into `seen` until `done` matches it (None: until the command closes it)."""
    while done is None or not done.search(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return False
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the command has exited and closed the terminal
            return done is None
        if not chunk:
            return done is None
        seen += chunk
    return True


def interrupt(tmp: Path, args: list[str], label: str, after_first: bool, delay: float) -> tuple[int, str, str]:
    """Run `fives ARGS` with stderr on a terminal, wait for its progress bar (its first draw, or
    the first puzzle done), wait `delay` more, send SIGINT to its process group; (exit code,
    stdout, the terminal's text)."""
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    with open(tmp / "stdout", "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "fives", *args], cwd=tmp, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    seen = bytearray()
    try:
        event = re.compile(re.escape(f"{label} [".encode()))
        assert read_until(master, seen, event, time.monotonic() + DEADLINE), seen.decode(errors="replace")
        if after_first:  # the bar's count moves past 0 (it may skip a number): a puzzle is done, the next solving
            moved = re.compile(rb"\] [1-9][0-9]*/[0-9]+")
            assert read_until(master, seen, moved, time.monotonic() + DEADLINE), seen.decode(errors="replace")
        time.sleep(delay)  # the moment: a random delay after the event
        assert proc.poll() is None, "the command ended before the interrupt: give it more work"
        os.killpg(proc.pid, signal.SIGINT)
        read_until(master, seen, None, time.monotonic() + DEADLINE)
        code = proc.wait(timeout=DEADLINE)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    return code, (tmp / "stdout").read_text(), ANSI.sub("", seen.decode(errors="replace"))


def said(terminal: str, label: str) -> list[str]:
    """The terminal's lines that are not the progress bar's drawing."""
    parts = (p.strip() for p in re.split(r"[\r\n]+", terminal))
    return [p for p in parts if p and not p.startswith(f"{label} [")]


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("attempt", range(TRIES))
def test_sigint_at_a_random_moment_exits_130_with_no_verdict(tmp_path: Path, command: str, attempt: int,
                                                             request: pytest.FixtureRequest) -> None:
    args, label = COMMANDS[command]
    if "LONG_SET" in args:
        where = str(request.getfixturevalue("long_set"))
        args = [where if a == "LONG_SET" else a for a in args]
    rng = random.Random(f"{command}-{attempt}")  # a moment of its own for each try, the same each run
    code, stdout, terminal = interrupt(tmp_path, args, label, after_first=attempt % 2 == 1,
                                       delay=rng.uniform(0.0, 1.5))
    lines = said(terminal, label)
    assert code == 130, terminal
    assert lines == ["fives: interrupted"], terminal
    assert stdout == ""
    assert not any(v in terminal for v in VERDICTS), terminal
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stdout"]  # no set written, no temporary left
