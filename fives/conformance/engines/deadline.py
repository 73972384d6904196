"""Calls with a deadline, for the in-process engine: `--timeout` holds for it too.

The call runs in the caller's own thread (no hand-off per case: a thread switch per case
cost more than most cases). A watchdog thread, waking every few hundredths of a second,
raises `CaseTimeout` inside a call that has run past its deadline, with CPython's
asynchronous exception: it lands between two bytecodes, so pure-Python work such as perft
or a search stops at once. (One long C call cannot be interrupted that way; the reference
engine's work is Python, and the input limits of fives.support.reading bound what a C call is given.)

Why the injection is kept rather than a plainer mechanism: SIGALRM stops only the main
thread and does not exist off POSIX; a thread or process per case costs more than most
cases (and a process would need every case pickled); a cooperative check would have to be
threaded through every loop of the rules engine. The injection is CPython's documented C API
(`PyThreadState_SetAsyncExc`); where it is missing (another Python), `DEADLINES` is False and
in-process cases run without a limit, while engines behind `--engine` keep their timeouts
(the runner kills their process group).
"""
from __future__ import annotations

import ctypes
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

TICK = 0.05  # seconds between the watchdog's looks: a deadline holds to within this


class CaseTimeout(BaseException):
    """Raised inside a call whose deadline passed (a BaseException: `except Exception` in the
    code under test cannot swallow it)."""


@dataclass
class Result:
    status: str  # "ok" | "error" | "timeout"
    value: Any = None
    error: BaseException | None = None
    trace: str = ""


#: Whether this Python can stop a running call (CPython's asynchronous exceptions).
DEADLINES = hasattr(ctypes, "pythonapi") and hasattr(ctypes.pythonapi, "PyThreadState_SetAsyncExc")


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Schedule `exc` in the thread (None: cancel one scheduled and not yet raised)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc) if exc is not None else ctypes.c_void_p(0))


class DeadlineRunner:
    """`call(fn, seconds)` runs `fn()` here and returns a Result; past `seconds` it is stopped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: tuple[int, float, int] | None = None  # (token, deadline, thread id)
        self._fired: set[int] = set()
        self._token = 0
        self._watchdog: threading.Thread | None = None
        self._closed = threading.Event()

    def _watch(self) -> None:
        while not self._closed.wait(TICK):
            with self._lock:
                armed = self._armed
                if armed is not None and armed[0] not in self._fired and time.monotonic() >= armed[1]:
                    self._fired.add(armed[0])
                    _raise_in(armed[2], CaseTimeout)

    def _arm(self, seconds: float) -> int:
        if self._watchdog is None or not self._watchdog.is_alive():
            self._closed.clear()
            self._watchdog = threading.Thread(target=self._watch, daemon=True, name="fives-deadline")
            self._watchdog.start()
        with self._lock:
            self._token += 1
            self._armed = (self._token, time.monotonic() + seconds, threading.get_ident())
            return self._token

    def _disarm(self, token: int) -> bool:
        """True when the deadline fired for `token` (its exception is cancelled if still pending)."""
        with self._lock:
            if self._armed is not None and self._armed[0] == token:
                self._armed = None
            fired = token in self._fired
            self._fired.discard(token)
            if fired:
                _raise_in(threading.get_ident(), None)
        return fired

    def call(self, fn: Callable[[], Any], seconds: float | None) -> Result:
        if not seconds or seconds <= 0 or not DEADLINES:  # no limit (or none this Python can enforce)
            try:
                return Result("ok", fn())
            except Exception as e:
                return Result("error", error=e, trace=traceback.format_exc())
        token = self._arm(seconds)
        fired = False
        try:
            try:
                result = Result("ok", fn())
            except Exception as e:
                result = Result("error", error=e, trace=traceback.format_exc())
            finally:
                fired = self._disarm(token)
        except CaseTimeout:  # raised in fn, or in the few bytecodes before the disarm
            self._disarm(token)
            fired = True
        return Result("timeout") if fired else result

    def close(self) -> None:
        self._closed.set()
        self._watchdog = None
