"""A progress bar on stderr when it is a terminal; silent when piped (scripts, CI logs)."""
from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import IO


class Progress:
    """`with Progress(total, "cases") as bar: bar.advance()`; draws at most 10 times a second."""

    def __init__(self, total: int | None, label: str = "", stream: IO[str] | None = None,
                 enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._last = 0.0
        self._start = time.monotonic()

    def advance(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if self.enabled and (time.monotonic() - self._last > 0.1 or self.done == self.total):
            self._last = time.monotonic()
            self._draw(note)

    def _draw(self, note: str) -> None:
        elapsed = time.monotonic() - self._start
        if self.total:
            frac = min(1.0, self.done / self.total)
            bar = "#" * int(frac * 30)
            text = f"\r{self.label} [{bar:<30}] {self.done}/{self.total} {elapsed:5.1f}s {note}"
        else:
            text = f"\r{self.label} {self.done} {elapsed:5.1f}s {note}"
        self.stream.write(text[:200].ljust(60))
        self.stream.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()
