"""The one progress bar of every long command: on stderr when it is a terminal, silent when
stderr is piped or redirected (scripts, CI logs), so output files and logs never hold it.

    with Progress(total, "cases") as bar:   # counting up
        bar.advance()
    with Progress(None, "perft") as bar:     # as a (done, total) callback, e.g. fives.perft
        perft(..., progress=bar)

It draws at most 10 times a second; `clear()` erases the line before other output is
printed (the next update draws it again); leaving the `with` block erases it for good.
"""
from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import IO

WIDTH = 30  # characters of the bar itself
REDRAW_SECONDS = 0.1


class Progress:
    """A one-line bar `label [#####.....] done/total elapsed note` on `stream` (stderr)."""

    def __init__(self, total: int | None, label: str = "", stream: IO[str] | None = None,
                 enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self._shown = False
        self._last = 0.0
        self._start = time.monotonic()

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
            self._last = now
            self._draw(note)

    def __call__(self, done: int, total: int) -> None:
        """A `(done, total)` callback, as `fives.perft` reports its tasks."""
        self.update(done, total)

    def _draw(self, note: str) -> None:
        elapsed = time.monotonic() - self._start
        if self.total:
            filled = int(min(1.0, self.done / self.total) * WIDTH)
            bar = "#" * filled + "." * (WIDTH - filled)
            text = f"{self.label} [{bar}] {self.done}/{self.total} {elapsed:5.1f}s {note}"
        else:
            text = f"{self.label} {self.done} {elapsed:5.1f}s {note}"
        self.stream.write("\r" + text[:200].rstrip() + "\033[K")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the bar (before printing other lines); the next update draws it again."""
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False
            self._last = 0.0

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.clear()


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or file-like stream without isatty
        return False
