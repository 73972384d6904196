"""The one stop mechanism: SIGTERM (how CI cancels a job, how `kill` stops a command) and Ctrl-C
become one clean stop, whichever library the signal lands in.

`Stop` records which signal arrived and raises where Ctrl-C would (`Terminated`, a
KeyboardInterrupt, for SIGTERM), so every `finally` block kills its engines and writes what was
found; the caller reads `Stop.exit_code` (130 or 143). `signals_held()` keeps a second signal
from cutting a report in half. The CLI installs one `Stop` per command; the pytest plugin one per
session. Nothing here is global: each `Stop` is an object its owner installs and restores.
"""
from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from fives.support.errors import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated

__all__ = ["Stop", "is_stop", "signals_held"]


class Stop:
    """Which signal stopped the work, if one did, so that no C library between the signal and
    its owner loses the stop. A handler that raises can fire
    - while ctypes converts a call's arguments (z3 in `puzzles generate`): ctypes re-raises the
      exception as ctypes.ArgumentError, which `is_stop` reads as the stop recorded here;
    - inside a finaliser or a C callback (z3's `__del__`), where Python can only report the
      exception as unraisable and goes on: `on_unraisable` has the signal sent again shortly,
      from a timer thread, so that it lands in ordinary code."""

    REDELIVER_SECONDS = 0.05

    def __init__(self) -> None:
        self.signum: int | None = None
        self.handled = False  # the stop reached its owner: from here on the work is exiting
        self._replaced: dict[int, Any] = {}

    @property
    def terminated(self) -> bool:
        """A SIGTERM arrived (exit 143 rather than 130)."""
        return self.signum == signal.SIGTERM

    @property
    def exit_code(self) -> int:
        return EXIT_TERMINATED if self.terminated else EXIT_INTERRUPTED

    def on_signal(self, signum: int, frame: object) -> None:
        self.signum = signum
        # a process-wide hook, set only once the process is stopping: objects the signal cuts in
        # half (z3's, mid-constructor) complain from their finalisers, which no user can act on
        sys.unraisablehook = self.on_unraisable
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def on_unraisable(self, unraisable: Any) -> None:
        try:
            if not self.handled and is_stop(unraisable.exc_type, unraisable.exc_value):
                self._redeliver()  # the stop was swallowed
        except KeyboardInterrupt:  # a stop landing in the hook itself would be lost too
            self._redeliver()

    def _redeliver(self) -> None:
        timer = threading.Timer(self.REDELIVER_SECONDS, self._send_again)
        timer.daemon = True
        timer.start()

    def _send_again(self) -> None:
        import os

        if not self.handled and self.signum is not None:  # not once the work is exiting
            os.kill(os.getpid(), self.signum)

    def install(self, *, replace_any: bool = False) -> Stop:
        """Handle SIGTERM and Ctrl-C here (where nobody else does, unless `replace_any`); only in
        the main thread, where Python delivers signals. `restore()` puts the old handlers back."""
        if threading.current_thread() is not threading.main_thread():
            return self
        for signum, default in ((signal.SIGTERM, signal.SIG_DFL), (signal.SIGINT, signal.default_int_handler)):
            if replace_any or signal.getsignal(signum) == default:
                self._replaced[signum] = signal.signal(signum, self.on_signal)
        return self

    def __enter__(self) -> Stop:  # `with Stop():` for library work that runs outside the CLI
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.restore()

    def restore(self) -> None:
        self.handled = True  # however the work ended, a stop is no longer to be delivered
        for signum, handler in self._replaced.items():
            signal.signal(signum, handler)
        self._replaced = {}


def is_stop(exc_type: Any, exc_value: object) -> bool:
    """The exception is a stop (KeyboardInterrupt, Terminated), or ctypes' wrapping of one: ctypes
    words it "argument N: <class name>: <message>"."""
    import ctypes

    if not isinstance(exc_type, type):
        return False
    if issubclass(exc_type, KeyboardInterrupt):
        return True
    return issubclass(exc_type, ctypes.ArgumentError) \
        and any(f": {c.__name__}:" in str(exc_value) for c in (Terminated, KeyboardInterrupt))


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM ignored while the reports are written (a second Ctrl-C or a repeated
    SIGTERM must not leave half a report), the previous handlers restored afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
