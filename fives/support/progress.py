"""The one progress bar of every long command: on stderr when it is a terminal, silent when
stderr is piped or redirected (scripts, CI logs), so output files and logs never hold it.

    with Progress(total, "cases") as bar:   # counting up
        bar.advance()
    with Progress(None, "perft") as bar:     # as a (done, total) callback, e.g. fives.perft
        perft(..., progress=bar)
    with Progress(None, "loading"):          # a phase of unknown length: label and a running clock

It draws on entering the `with` block, on updates (at most 10 times a second) and once a
second between them from a timer thread, so its clock and ETA move while one long case
runs. `clear()` erases the line before other output is printed (the next update draws it
again; the timer does not); leaving the `with` block erases it for good.
"""
from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import IO

WIDTH = 30  # characters of the bar itself
REDRAW_SECONDS = 0.1
TICK_SECONDS = 1.0  # the timer's redraw between updates


class Progress:
    """A one-line bar `label [#####.....] done/total elapsed ETA note` on `stream` (stderr)."""

    def __init__(self, total: int | None, label: str = "", stream: IO[str] | None = None,
                 enabled: bool | None = None, tick: float = TICK_SECONDS) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.tick = tick
        self._shown = False
        self._last = 0.0
        self._note = ""
        self._start = time.monotonic()
        self._lock = threading.Lock()  # the timer thread and the caller draw on one line
        self._timer: threading.Thread | None = None
        self._stop = threading.Event()

    def advance(self, n: int = 1, note: str = "") -> None:
        """Count `n` more units done."""
        self.update(self.done + n, note=note)

    def update(self, done: int, total: int | None = None, note: str = "") -> None:
        """Set the count done (and the total, if it is known only now)."""
        self.done = done
        if total is not None:
            self.total = total
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last > REDRAW_SECONDS or self.done == self.total:
            with self._lock:
                self._last = now
                self._note = note
                self._draw()
            self._start_timer()

    def __call__(self, done: int, total: int) -> None:
        """A `(done, total)` callback, as `fives.perft` reports its tasks."""
        self.update(done, total)

    def text(self, now: float | None = None) -> str:
        """The line as drawn at time `now` (monotonic; default: now)."""
        elapsed = (time.monotonic() if now is None else now) - self._start
        note = f" {self._note}" if self._note else ""
        if self.total:
            filled = int(min(1.0, self.done / self.total) * WIDTH)
            bar = "#" * filled + "." * (WIDTH - filled)
            eta = ""
            if 0 < self.done < self.total:
                eta = f" ETA {_clock(elapsed / self.done * (self.total - self.done))}"
            return f"{self.label} [{bar}] {self.done}/{self.total} {elapsed:5.1f}s{eta}{note}"
        if self.total is None and self.done == 0:  # a phase: nothing counted yet, only the clock
            return f"{self.label} {elapsed:5.1f}s{note}"
        return f"{self.label} {self.done} {elapsed:5.1f}s{note}"

    def _draw(self) -> None:
        self.stream.write("\r" + self.text()[:200].rstrip() + "\033[K")
        self.stream.flush()
        self._shown = True

    def _start_timer(self) -> None:
        with self._lock:
            if self._timer is None and self.tick > 0 and not self._stop.is_set():
                self._timer = threading.Thread(target=self._ticks, daemon=True, name="fives-progress")
                self._timer.start()

    def _ticks(self) -> None:
        while not self._stop.wait(self.tick):
            with self._lock:
                if not self._shown:  # cleared for other output: the next update draws (and restarts us)
                    self._timer = None
                    return
                self._draw()

    def clear(self) -> None:
        """Erase the bar (before printing other lines); the next update draws it again."""
        with self._lock:
            if self._shown:
                self.stream.write("\r\033[K")
                self.stream.flush()
                self._shown = False
                self._last = 0.0

    def __enter__(self) -> "Progress":
        if self.enabled:
            with self._lock:
                self._draw()
            self._start_timer()
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self._stop.set()
        timer = self._timer
        if timer is not None and timer is not threading.current_thread():
            timer.join(timeout=1.0)
        self.clear()


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or file-like stream without isatty
        return False
