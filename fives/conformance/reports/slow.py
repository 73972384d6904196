"""Slow cases: those that used at least half their time limit, or all of it (spec/reports.md,
"Slow cases"). Every report says nothing of them when there are none, so an ordinary run's
reports stay as they were; a limit is the case's own (fives/conformance/engines/limits.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fives.conformance.runner import CaseResult
from fives.support.sanitize import one_line

#: A case that used this share of its time limit or more is slow: on a busier machine it may
#: run out, so the report names it before it does.
SLOW_SHARE = 0.5
#: Slow cases listed in the human summary; the JSON report lists every one.
SLOW_LINES = 10
HEADING = ('slow cases (half their time limit or more; a limit scales with the case\'s work, '
           'spec/protocol.md "Time limits"):')


@dataclass(frozen=True)
class SlowCase:
    id: str
    seconds: float
    limit: float

    @property
    def share(self) -> float:
        """The share of its limit the case used (1.0 or more: it ran out of time)."""
        return self.seconds / self.limit

    def line(self, width: int = 0) -> str:
        out = " (ran out)" if self.share >= 1.0 else ""
        return f"{one_line(self.id, 200):<{width}}  {self.seconds:.1f}s of {self.limit:g}s ({self.share:.0%}){out}"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "seconds": round(self.seconds, 3), "limit": self.limit, "share": round(self.share, 3)}


def slow_cases(results: list[CaseResult]) -> list[SlowCase]:
    """The slow cases of a run, the closest to its limit first (then in run order)."""
    found = [SlowCase(r.case.id, r.outcome.seconds, r.outcome.limit) for r in results
             if r.outcome is not None and r.outcome.limit and r.outcome.seconds >= SLOW_SHARE * r.outcome.limit]
    return sorted(found, key=lambda s: -s.share)


def slow_lines(results: list[CaseResult]) -> list[str]:
    """The human summary's lines on slow cases: none when no case was slow."""
    slow = slow_cases(results)
    if not slow:
        return []
    width = max(len(one_line(s.id, 200)) for s in slow[:SLOW_LINES])
    lines = [HEADING] + [f"  {s.line(width)}" for s in slow[:SLOW_LINES]]
    if len(slow) > SLOW_LINES:
        lines.append(f"  ... and {len(slow) - SLOW_LINES} more (--report json lists every one)")
    return lines
