"""`conformance run -x` / `--maxfail N`: stop the run after N failing or erroring cases.

`stop_after(n, on_result)` wraps a runner callback: once the n-th failure has been handed on,
it raises StopRun, which the runner treats as any stop (the engines are aborted, the finished
results are kept) and the command turns into a line of the report."""
from __future__ import annotations

from typing import Callable

from fives.conformance.runner import CaseResult


class StopRun(Exception):
    """Raised out of the result callback once `limit` cases have failed or errored."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit

    def line(self, not_run: int) -> str:
        what = "the first failure (-x)" if self.limit == 1 else f"{self.limit} failures (--maxfail {self.limit})"
        return f"stopped after {what}: {not_run} case{'' if not_run == 1 else 's'} not run"


def stop_after(limit: int | None, on_result: Callable[[CaseResult], None]) -> Callable[[CaseResult], None]:
    """`on_result`, raising StopRun after the `limit`-th failing result (unchanged when None).
    Known failures do not count, as they do not fail the run."""
    if limit is None:
        return on_result
    failures = 0

    def stopping(r: CaseResult) -> None:
        nonlocal failures
        on_result(r)
        if r.counts_as_failure:
            failures += 1
            if failures >= limit:
                raise StopRun(limit)
    return stopping
