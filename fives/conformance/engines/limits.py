"""Per-case time limits that fit the work (spec/protocol.md, "Time limits").

A case's limit is the base (`--timeout`, default 10 s) times its scale when that is over 1:
how many ordinary cases' work it is, as its kind measures it (`Kind.scale`,
fives/conformance/cases/kinds/): a perft row by its expected node count (a base per 50,000),
a turn, a legal-placements or an evaluate case by the length of its layout and actions, a
match-end case by its hands (a base per 100). A case of ordinary size keeps the base exactly,
so `--timeout S` still means S seconds for every such case.
"""
from __future__ import annotations

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import load_kinds

#: Above this a limit is no limit: the longest wait the runner's pipes and timers take.
NO_LIMIT = 365 * 86400.0


def scale_of(case: Case) -> float:
    """How many ordinary cases' work `case` is, at least 1; a kind with no measure, or an
    input too odd to measure (the engine's answer will say so), is ordinary work."""
    kind = load_kinds().get(case.kind)
    if kind is None or kind.scale is None:
        return 1.0
    try:
        factor = float(kind.scale(case.input if isinstance(case.input, dict) else {},
                                  case.expect if isinstance(case.expect, dict) else {}))
    except Exception:  # noqa: BLE001 - a malformed case is judged by its answer, not here
        return 1.0
    return factor if factor > 1.0 else 1.0  # NaN and anything below 1: ordinary


def time_limit(case: Case, base: float | None) -> float | None:
    """The seconds `case` may take: `base` times its scale, to a tenth of a second (exactly
    `base` for an ordinary case); None when `base` is None or 0 (no limit)."""
    if not base or base <= 0:
        return None
    if base >= NO_LIMIT:
        return base
    factor = scale_of(case)
    if factor == 1.0:
        return base
    return min(max(base, round(base * factor, 1)), NO_LIMIT)

