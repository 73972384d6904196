"""User-facing errors and the CLI's documented exit codes."""
from __future__ import annotations

#: Exit codes (documented in docs/errors-and-limits.md, "Exit codes").
EXIT_OK = 0
EXIT_FAILURES = 1  # a run finished and some case failed or errored
EXIT_BAD_INPUT = 2  # bad input: malformed file, schema violation, illegal placement, unknown game
EXIT_ENGINE = 3  # a third-party engine could not be started or never completed its handshake
EXIT_NO_CASES = 5  # a run in which no case ran (every case skipped or out of scope): pytest's 5, never a pass
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT); partial results are still reported
EXIT_TERMINATED = 143  # SIGTERM (128 + 15, how CI cancels a job): handled like Ctrl-C, reports still written


class UserError(Exception):
    """A mistake in what the user gave us: reported as one line, never a traceback."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code

    def __reduce__(self) -> tuple[type, tuple[str, int]]:
        # keep the exit code when the error crosses a process boundary (--jobs, --dask workers)
        return (type(self), (str(self), self.exit_code))


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be (`fives conformance run`): the same clean stop,
    exit EXIT_TERMINATED."""
