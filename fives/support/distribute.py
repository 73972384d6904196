"""Run independent work units in order: in process, on a local process pool, or on Dask.

`map_ordered(fn, units, jobs=..., dask=...)` yields `fn(unit)` for every unit, in unit order,
whatever runs them, so a command's output never depends on `--jobs` or `--dask`. Callers split
their work into a few coarse units (index blocks, first placements), never one per case or node:
each unit is one message each way.

- `jobs == 1` and no `dask`: a plain in-process map (no pickling, no processes).
- `jobs > 1`: a process pool of `min(jobs, len(units))` workers. At most `2 * workers` units are
  in flight, so memory stays flat however many units there are. The pool forks when the caller
  has no other thread (fast, and safe: no lock can be held by a thread that fork does not copy)
  and uses `forkserver` otherwise. Workers ignore SIGINT (the parent handles Ctrl-C) and die with
  the parent (Linux `PR_SET_PDEATHSIG`); on Ctrl-C, SIGTERM, an error in `fn` or the consumer
  stopping early, every worker is terminated before the exception propagates.
- `dask="local:N"` starts a `dask.distributed.LocalCluster` of N single-threaded worker processes
  on this machine (`"local"`: one per core); any other value is a scheduler address given to
  `Client(address)`, e.g. `tcp://host:8786`. `jobs` is then ignored: the cluster's threads bound
  the work in flight. Dask is optional (`pip install 'fives[dask]'`).

`fn` and the units must be picklable for a pool or Dask: a module-level function (or a
`functools.partial` of one) and plain data. An exception raised by `fn` is re-raised here.
"""
from __future__ import annotations

import collections
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from typing import Any, Callable, Iterator, Sequence, TypeVar

from fives.support.errors import Terminated, UserError

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


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated()


class SigtermAsInterrupt:
    """While active, SIGTERM raises `fives.support.errors.Terminated` (a KeyboardInterrupt) in the main
    thread, so `finally` blocks kill workers and remove partial output; the CLI then exits 143.
    A handler installed by someone else (a CLI-wide one) is left alone."""

    def __enter__(self) -> None:
        self._previous: Any = None
        if threading.current_thread() is threading.main_thread() \
                and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            self._previous = signal.signal(signal.SIGTERM, _raise_terminated)

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


def sigterm_as_interrupt() -> SigtermAsInterrupt:
    """`with sigterm_as_interrupt(): ...`: see SigtermAsInterrupt."""
    return SigtermAsInterrupt()


def _map_pool(fn: Callable[[U], R], units: Sequence[U], workers: int) -> Iterator[R]:
    pool = _pool_context().Pool(workers, initializer=_init_worker)
    try:
        with SigtermAsInterrupt():
            pending: collections.deque[Any] = collections.deque()
            feed = iter(units)
            window = workers * _IN_FLIGHT_PER_WORKER
            for unit in feed:
                pending.append(pool.apply_async(fn, (unit,)))
                if len(pending) >= window:
                    break
            while pending:
                result = pending.popleft().get()
                for unit in feed:  # refill before yielding: the consumer may be slow
                    pending.append(pool.apply_async(fn, (unit,)))
                    break
                yield result
        pool.close()
        pool.join()
    finally:
        pool.terminate()  # no-op after a clean close+join; kills the workers otherwise


# --- Dask ---------------------------------------------------------------------------------

def _map_dask(fn: Callable[[U], R], units: Sequence[U], address: str, local_workers: int | None) -> Iterator[R]:
    import logging

    from distributed import Client, LocalCluster

    cluster = None
    client = None
    pending: collections.deque[Any] = collections.deque()
    try:
        with SigtermAsInterrupt():
            if local_workers is not None:
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
            while pending:
                future = pending.popleft()
                try:
                    result = future.result()
                except ImportError as e:  # a worker without the package (or another version)
                    raise UserError(f"--dask {address[:80]}: a worker could not import {e.name or 'a module'}: "
                                    "install the same fives[dask] on every worker") from None
                future.release()
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
