"""fives.support.distribute.map_ordered: order, errors, bounded in-flight work, worker cleanup."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from fives.support import distribute
from fives.support.distribute import map_ordered, parse_dask_address
from fives.support.errors import UserError


def square_with_pid(n: int) -> tuple[int, int]:
    # a little uneven work so results can finish out of order
    time.sleep(0.002 * (n % 3))
    return n * n, os.getpid()


def fail_on_five(n: int) -> int:
    if n == 5:
        raise ValueError("unit 5 is bad")
    return n


def test_in_process_map_is_plain_and_ordered() -> None:
    got = list(map_ordered(square_with_pid, range(10)))
    assert [r for r, _ in got] == [n * n for n in range(10)]
    assert {pid for _, pid in got} == {os.getpid()}


def test_pool_keeps_unit_order_and_uses_other_processes() -> None:
    got = list(map_ordered(square_with_pid, list(range(40)), jobs=2))
    assert [r for r, _ in got] == [n * n for n in range(40)]
    pids = {pid for _, pid in got}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


def test_single_unit_or_empty_runs_in_process() -> None:
    assert list(map_ordered(square_with_pid, [], jobs=4)) == []
    [(r, pid)] = map_ordered(square_with_pid, [7], jobs=4)
    assert (r, pid) == (49, os.getpid())


def test_forkserver_when_other_threads_run() -> None:
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert distribute._pool_context().get_start_method() in ("forkserver", "spawn")
        got = list(map_ordered(square_with_pid, list(range(6)), jobs=2))
        assert [r for r, _ in got] == [0, 1, 4, 9, 16, 25]
    finally:
        stop.set()
        t.join()
    if threading.active_count() == 1:  # earlier tests in this process may leave threads of their own
        assert distribute._pool_context().get_start_method() == "fork"


def test_worker_error_propagates_in_order() -> None:
    it = map_ordered(fail_on_five, list(range(10)), jobs=2)
    assert [next(it) for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="unit 5 is bad"):
        next(it)


def test_in_flight_work_is_bounded() -> None:
    """A consumer that stops after 3 results: at most 2 * workers units were ever handed out."""
    handed_out: list[int] = []

    class Units:
        def __len__(self) -> int:
            return 10_000

        def __getitem__(self, i: int) -> int:
            if i >= 10_000:
                raise IndexError(i)
            handed_out.append(i)
            return i

    it = map_ordered(fail_on_five, Units(), jobs=2)  # type: ignore[arg-type]
    assert [next(it) for _ in range(3)] == [0, 1, 2]
    it.close()  # type: ignore[attr-defined]
    assert len(handed_out) <= 3 + 2 * 2


def test_bad_arguments_are_user_errors() -> None:
    with pytest.raises(UserError, match="at least 1"):
        map_ordered(fail_on_five, [1], jobs=0)
    for bad in ("", "local:", "local:0", "local:x", "local:-1", "local:٣"):
        with pytest.raises(UserError):
            parse_dask_address(bad)
    assert parse_dask_address("local:3") == 3
    assert parse_dask_address("local") == (os.cpu_count() or 1)
    assert parse_dask_address("tcp://10.0.0.1:8786") is None


def test_missing_dask_is_one_line_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes `import distributed` fail
    with pytest.raises(UserError) as e:
        map_ordered(fail_on_five, [1], dask="local:2")
    assert "pip install 'fives[dask]'" in str(e.value) and "\n" not in str(e.value)
    assert e.value.exit_code == 2


_SCRIPT = textwrap.dedent("""
    import os, sys, time
    from fives.support.distribute import map_ordered

    def slow(n):
        open(os.path.join(os.environ["UNITS"], str(n)), "w").close()  # the test waits for this, not a guess
        time.sleep(60)
        return n

    if __name__ == "__main__":
        try:
            for r in map_ordered(slow, list(range(8)), jobs=2):
                pass
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
""")


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(") ", 1)[1].startswith("Z"))  # a name may hold ") "


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and ps")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_kills_the_workers(tmp_path: Path, sig: int) -> None:
    script = tmp_path / "run.py"
    script.write_text(_SCRIPT)
    units = tmp_path / "units"
    units.mkdir()
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "UNITS": str(units)})
    try:
        deadline = time.monotonic() + 120
        # the workers have started a unit each: each wrote its unit's file
        while (len(workers := _children(proc.pid)) < 2 or len(list(units.iterdir())) < 2) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2 and len(list(units.iterdir())) >= 2
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130 and out.strip() == "interrupted"
    deadline = time.monotonic() + 60  # generous: a loaded machine reaps slowly
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux-only")
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    script = tmp_path / "run.py"
    script.write_text(_SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script)], env={**os.environ, "UNITS": str(tmp_path)})
    try:
        deadline = time.monotonic() + 120
        while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 60  # generous: a loaded machine reaps slowly
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)


def die_once_on_three(marker: str, n: int) -> int:
    """SIGKILLs its own worker the first time it sees unit 3 (as the OOM killer would)."""
    if n == 3 and not os.path.exists(marker):
        Path(marker).write_text("killed once")
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


def die_always_on_three(n: int) -> int:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_killed_worker_s_unit_is_retried_on_a_fresh_worker(tmp_path: Path) -> None:
    import functools

    marker = tmp_path / "killed"
    got = list(map_ordered(functools.partial(die_once_on_three, str(marker)), list(range(12)), jobs=2))
    assert marker.read_text() == "killed once"  # a worker really died
    assert got == [n * n for n in range(12)]  # and nothing was lost, duplicated or reordered


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_unit_that_kills_every_worker_ends_the_run_naming_it() -> None:
    t0 = time.monotonic()
    with pytest.raises(UserError) as e:
        list(map_ordered(die_always_on_three, list(range(8)), jobs=2))
    assert time.monotonic() - t0 < 30
    assert e.value.exit_code == 1
    message = str(e.value)
    assert "unit 4 of 8 (3)" in message and "killed by SIGKILL" in message and "\n" not in message


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_an_externally_killed_worker_does_not_hang_the_run(tmp_path: Path) -> None:
    """A worker SIGKILLed from outside mid-unit (a CI agent reclaiming memory)."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent("""
        import os, sys, time
        from fives.support.distribute import map_ordered

        def unit(n):
            os.write(2, f"start {n} {os.getpid()}\\n".encode())  # one write: two workers' lines never interleave
            time.sleep(0.5)
            return n * 10

        if __name__ == "__main__":
            print(list(map_ordered(unit, list(range(6)), jobs=2)), flush=True)
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline().split()  # type: ignore[union-attr]
        assert first[0] == "start"
        os.kill(int(first[2]), signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err[-2000:]
    assert out.strip() == str([n * 10 for n in range(6)])
    rerun = [line.split() for line in err.splitlines() if line.startswith(f"start {first[1]} ")]
    assert len(rerun) == 1 and rerun[0][2] != first[2]  # the lost unit ran again, on another worker


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux-only")
def test_a_killed_dask_worker_s_unit_is_retried(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    import functools

    marker = tmp_path / "killed"
    got = list(map_ordered(functools.partial(die_once_on_three, str(marker)), list(range(6)), dask="local:2"))
    assert marker.exists() and got == [n * n for n in range(6)]
    with pytest.raises(UserError) as e:
        list(map_ordered(die_always_on_three, list(range(6)), dask="local:2"))
    assert e.value.exit_code == 1 and "unit 4 of 6 (3)" in str(e.value)
