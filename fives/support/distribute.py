"""Run independent work units in order: in process, on a local process pool, or on Dask.

`map_ordered(fn, units, jobs=..., dask=...)` yields `fn(unit)` for every unit, in unit order,
whatever runs them, so a command's output never depends on `--jobs` or `--dask`. Callers split
their work into a few coarse units (index blocks, first placements), never one per case or node:
each unit is one message each way.

- `jobs == 1` and no `dask`: a plain in-process map (no pickling, no processes).
- `jobs > 1`: a process pool of `min(jobs, len(units))` workers, each holding at most two units.
  At most `2 * workers` units are handed out beyond the last one yielded, so memory stays flat
  however many units there are. A worker that dies (SIGKILL, the OOM killer) is seen at once
  with the unit it was running: that unit is rerun once on a fresh worker (same output), and a
  second loss ends the run with one line naming the unit (UserError, exit 1), never a hang. The pool forks when the caller
  has no other thread (fast, and safe: no lock can be held by a thread that fork does not copy)
  and uses `forkserver` otherwise. Workers ignore SIGINT (the parent handles Ctrl-C) and die with
  the parent (Linux `PR_SET_PDEATHSIG`); on Ctrl-C, SIGTERM, an error in `fn` or the consumer
  stopping early, every worker is terminated before the exception propagates.
- `dask="local:N"` starts a `dask.distributed.LocalCluster` of N single-threaded worker processes
  on this machine (`"local"`: one per core); any other value is a scheduler address given to
  `Client(address)`, e.g. `tcp://host:8786`. `jobs` is then ignored: the cluster's threads bound
  the work in flight. A local cluster reruns a task whose worker died once (the scheduler's
  `allowed-failures` is 1), a remote one as its own configuration says; then the run ends with
  one line naming the unit, exit 1. Dask is optional (`pip install 'fives[dask]'`).

`fn` and the units must be picklable for a pool or Dask: a module-level function (or a
`functools.partial` of one) and plain data. An exception raised by `fn` is re-raised here.
"""
from __future__ import annotations

import collections
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from typing import Any, Callable, Iterator, Sequence, TypeVar

from fives.support.errors import EXIT_FAILURES, UserError
from fives.support.stop import Stop

U = TypeVar("U")
R = TypeVar("R")

DASK_INSTALL_HINT = "pip install 'fives[dask]'"
_IN_FLIGHT_PER_WORKER = 2  # enough to keep a worker busy while its last result travels back
_PR_SET_PDEATHSIG = 1


def map_ordered(fn: Callable[[U], R], units: Sequence[U], *, jobs: int = 1,
                dask: str | None = None) -> Iterator[R]:
    """Yield `fn(unit)` for each unit, in order. Arguments are checked now (a missing Dask or a
    malformed `local:N` is a `UserError` at call time); processes start on first iteration."""
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    if dask is not None:
        local_workers = parse_dask_address(dask)
        require_dask()
        return _map_dask(fn, units, dask, local_workers)
    workers = min(jobs, len(units))
    if workers <= 1:
        return map(fn, units)
    return _map_pool(fn, units, workers)


def parse_dask_address(address: str) -> int | None:
    """The worker count for `local[:N]`, None for a scheduler address; UserError if malformed."""
    address = address.strip()
    if not address:
        raise UserError("--dask needs an address: local:N or a scheduler such as tcp://host:8786")
    if address == "local":
        return os.cpu_count() or 1
    if address.startswith("local:"):
        n = address[len("local:"):]
        if not n.isascii() or not n.isdigit() or int(n) < 1 or len(n) > 4:
            raise UserError(f"--dask {address[:40]!r}: expected local:N with N a worker count from 1 to 9999")
        return int(n)
    return None


def require_dask() -> None:
    """UserError (exit 2) when dask.distributed is not installed."""
    try:
        import distributed  # noqa: F401  (imported for its side effect of existing)
    except ImportError:
        raise UserError(f"--dask needs dask.distributed, which is not installed: {DASK_INSTALL_HINT}") from None


# --- local process pool -------------------------------------------------------------------

def _pool_context() -> multiprocessing.context.BaseContext:
    # fork copies only the calling thread: with other threads alive it could copy a held lock.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:  # die with the parent even if it is SIGKILLed (no cleanup code runs then)
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass


class _Worker:
    """One worker process and its pipe. `jobs`: the units handed to it, (index, unit, attempt),
    in order; `running`: whether it said it started the first of them."""

    def __init__(self, ctx: multiprocessing.context.BaseContext, fn: Callable[[Any], Any]) -> None:
        self.conn, child_conn = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_worker_main, args=(child_conn, fn),  # type: ignore[attr-defined]
                                daemon=True, name="fives-worker")
        self.proc.start()
        child_conn.close()
        self.jobs: collections.deque[tuple[int, Any, int]] = collections.deque()
        self.running = False

    def give(self, job: tuple[int, Any, int]) -> None:
        self.jobs.append(job)
        try:
            self.conn.send((job[0], job[1]))
        except OSError:  # it died meanwhile: its sentinel says so next, and the job is handed out again
            pass

    def read(self, done: dict[int, tuple[str, Any]]) -> bool:
        """Take every message waiting; False once the pipe is closed (the worker is gone)."""
        try:
            while self.conn.poll():
                msg = self.conn.recv()
                if msg[0] == "start":
                    self.running = True
                else:
                    index, status, payload = msg[1:]
                    self.jobs.popleft()
                    self.running = False
                    done[index] = (status, payload)
        except (EOFError, OSError):
            return False
        return True

    def stop(self, clean: bool) -> None:
        if clean:
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(timeout=2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=2)
        self.conn.close()


def _worker_main(conn: Any, fn: Callable[[Any], Any]) -> None:
    _init_worker()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        index, unit = msg
        conn.send(("start", index))  # should this process die now, the parent knows which unit did it
        try:
            reply: tuple[Any, ...] = ("done", index, "ok", fn(unit))
        except BaseException as e:  # noqa: BLE001 - re-raised in the parent, in unit order
            reply = ("done", index, "error", e)
        try:
            conn.send(reply)
        except Exception as e:  # noqa: BLE001 - a result or exception that does not pickle
            conn.send(("done", index, "error", RuntimeError(f"unit {index + 1}: {type(e).__name__}: {e}")))


def _how_it_died(proc: multiprocessing.process.BaseProcess) -> str:
    proc.join(timeout=1)
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}" if code is not None else "its pipe closed"


def _unit_name(unit: Any, index: int, total: int | None) -> str:
    text = repr(unit)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"unit {index + 1}{f' of {total}' if total is not None else ''} ({text})"


def _map_pool(fn: Callable[[U], R], units: Sequence[U], workers: int) -> Iterator[R]:
    """Each worker holds at most two units and says when it starts one, so a worker that dies
    (SIGKILL, the OOM killer) is known with the unit it was running: that unit is rerun once
    on a fresh worker (a second loss ends the run: UserError, exit 1, naming it), the one queued
    behind it is handed out again as it was. Results are kept in unit order, so a rerun changes
    no output; at most 2 * workers units are handed out beyond the last one yielded."""
    ctx = _pool_context()
    try:
        total: int | None = len(units)
    except TypeError:
        total = None
    pool: list[_Worker] = []
    clean = False
    try:
        with Stop():  # SIGTERM stops like Ctrl-C: workers killed (a CLI-wide Stop is left alone)
            pool = [_Worker(ctx, fn) for _ in range(workers)]
            window = workers * _IN_FLIGHT_PER_WORKER
            feed = iter(units)
            fed = 0  # units taken from feed
            exhausted = False
            again: collections.deque[tuple[int, Any, int]] = collections.deque()  # units to hand out again
            done: dict[int, tuple[str, Any]] = {}
            next_out = 0
            while True:
                for w in sorted(pool, key=lambda w: len(w.jobs)):  # the idlest first
                    while len(w.jobs) < _IN_FLIGHT_PER_WORKER:
                        if again:
                            w.give(again.popleft())
                        elif not exhausted and fed < next_out + window:
                            try:
                                unit = next(feed)
                            except StopIteration:
                                exhausted = True
                                break
                            w.give((fed, unit, 1))
                            fed += 1
                        else:
                            break
                while next_out in done:
                    status, payload = done.pop(next_out)
                    next_out += 1
                    if status == "error":
                        raise payload
                    yield payload
                busy = [w for w in pool if w.jobs]
                if not busy:
                    if exhausted and not again and next_out >= fed:
                        break
                    continue
                ready = set(multiprocessing.connection.wait(
                    [w.conn for w in busy] + [w.proc.sentinel for w in busy]))
                for i, w in enumerate(pool):
                    if w.conn not in ready and w.proc.sentinel not in ready:
                        continue
                    pipe_open = w.read(done)
                    if w.proc.sentinel not in ready and (pipe_open or w.proc.is_alive()):
                        continue  # messages; or the pipe closed first and its exit comes next round
                    how = _how_it_died(w.proc)
                    w.stop(clean=False)
                    pool[i] = _Worker(ctx, fn)
                    lost = list(w.jobs)
                    if lost and w.running:  # the unit it was running is to blame, not the queued one
                        index, unit, attempt = lost[0]
                        if attempt >= 2:
                            raise UserError(f"a worker process was lost ({how}) running {_unit_name(unit, index, total)}, "
                                            "also on its rerun on a fresh worker: the run stops", EXIT_FAILURES)
                        lost[0] = (index, unit, attempt + 1)
                    again.extend(sorted(lost))
            clean = True
    finally:
        for w in pool:
            w.stop(clean)


# --- Dask ---------------------------------------------------------------------------------

def _map_dask(fn: Callable[[U], R], units: Sequence[U], address: str, local_workers: int | None) -> Iterator[R]:
    import logging

    from distributed import Client, KilledWorker, LocalCluster

    cluster = None
    client = None
    pending: collections.deque[Any] = collections.deque()
    try:
        with Stop():  # SIGTERM stops like Ctrl-C: workers killed (a CLI-wide Stop is left alone)
            if local_workers is not None:
                import dask

                # a task whose worker dies is rerun once on another (the nanny restarts the dead
                # one), and KilledWorker after a second loss; the scheduler reads this at start.
                # Saturation 1: a worker holds only the task it runs, so a death blames that one.
                with dask.config.set({"distributed.scheduler.allowed-failures": 1,
                                      "distributed.scheduler.worker-saturation": 1.0}):
                    cluster = LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.ERROR)
                client = Client(cluster)
            else:
                try:
                    client = Client(address, timeout="10s")
                except (OSError, TimeoutError, ValueError) as e:
                    raise UserError(f"--dask {address[:80]}: cannot reach the Dask scheduler: "
                                    f"{str(e).splitlines()[0][:200] if str(e) else type(e).__name__}") from None
            threads = sum(client.nthreads().values()) or 1
            window = threads * _IN_FLIGHT_PER_WORKER
            feed = iter(units)
            # pure=False: two equal units are still two tasks (no key collision, no caching).
            for unit in feed:
                pending.append(client.submit(fn, unit, pure=False))
                if len(pending) >= window:
                    break
            try:
                total: int | None = len(units)
            except TypeError:
                total = None
            index = 0
            while pending:
                future = pending.popleft()
                try:
                    result = future.result()
                except KilledWorker:
                    raise UserError(f"--dask {address[:80]}: the workers running {_unit_name(units[index], index, total)} "
                                    "died (its retries used up): the run stops", EXIT_FAILURES) from None
                except ImportError as e:  # a worker without the package (or another version)
                    raise UserError(f"--dask {address[:80]}: a worker could not import {e.name or 'a module'}: "
                                    "install the same fives[dask] on every worker") from None
                future.release()
                index += 1
                for unit in feed:
                    pending.append(client.submit(fn, unit, pure=False))
                    break
                yield result
    finally:
        if client is not None:
            for future in pending:
                future.cancel()
            client.close()
        if cluster is not None:
            cluster.close()
