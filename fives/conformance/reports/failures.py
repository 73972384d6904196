"""What every report says about a failing case, gathered once: its description, the clauses it
tests with their titles and seed quotes (spec/rules.md), the differences (fives/conformance/reports/explain.py),
the engine's message and stderr tail; and failures grouped by clause."""
from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from fives.conformance.cases.clauses import Clause, load_clauses
from fives.conformance.engines.drivers import Handshake
from fives.conformance.reports.explain import Difference, explain
from fives.conformance.runner import CaseResult
from fives.support.sanitize import json_safe

STDERR_TAIL = 3


@dataclass
class EngineRun:
    """One engine's run of the suite: what every report format is made from."""
    label: str  # the --engine command, or "reference (in process)"
    results: list[CaseResult]
    handshake: Handshake | None
    interrupted: bool = False
    error: str | None = None  # why the engine could not be started (no results then)


@dataclass
class Explanation:
    result: CaseResult
    clauses: list[dict[str, Any]]
    differences: list[Difference]
    stderr_tail: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        o = self.result.outcome
        return o.message if o and o.message else ""

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        d: dict[str, Any] = {"description": r.case.description, "clauses": self.clauses,
                             "differences": [x.to_dict() for x in self.differences]}
        if self.message:
            d["message"] = self.message
        if self.stderr_tail:
            d["stderr_tail"] = self.stderr_tail
        return json_safe(d)


def clause_dict(cid: str, clauses: dict[str, Clause]) -> dict[str, Any]:
    c = clauses.get(cid)
    if c is None:
        return {"id": cid, "title": "(not in spec/rules.md)", "sources": []}
    return {"id": cid, "title": c.title,
            "sources": [{"seed": s.seed, "heading": s.heading, "quote": s.quote} for s in c.sources]}


def explain_result(r: CaseResult, clauses: dict[str, Clause]) -> Explanation:
    o = r.outcome
    diffs: list[Difference] = []
    if r.status == "failed" and o is not None:
        diffs = explain(r.case.kind, r.case.expect, o.answer, r.diffs)
    tail: list[str] = []
    if o and o.stderr:
        # split on newlines only: a bare \r or a form feed inside a line is shown escaped
        tail = [ln.removesuffix("\r") for ln in o.stderr.split("\n") if ln.strip()][-STDERR_TAIL:]
    return Explanation(r, [clause_dict(c, clauses) for c in r.case.clauses], diffs, tail)


def load_clause_book() -> dict[str, Clause]:
    try:
        return load_clauses()
    except OSError:  # an installed package without spec/: reports still work, titles are missing
        return {}


@dataclass(frozen=True)
class ClauseFailures:
    clause: str
    title: str
    failed: int
    errored: int
    total: int  # cases of this run that test the clause

    @property
    def bad(self) -> int:
        return self.failed + self.errored

    def line(self) -> str:
        n = self.failed
        parts = [f"{n} case{'s' * (n != 1)} fail{'s' * (n == 1)}"] if n else []
        if self.errored:
            parts.append(f"{self.errored} case{'s' * (self.errored != 1)} error{'s' * (self.errored == 1)}")
        return f"{self.clause} ({self.title}): {', '.join(parts)} (of {self.total})"

    def to_dict(self) -> dict[str, Any]:
        return {"clause": self.clause, "title": self.title, "failed": self.failed, "errored": self.errored,
                "cases": self.total}


def consistency(bad: int, total: int, z: float = 1.96) -> float:
    """Lower bound of the Wilson interval of the failing share: high when a clause's cases
    fail consistently and there are enough of them to say so (445 of 448 beats 1 of 1)."""
    if total == 0:
        return 0.0
    p = bad / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    return (centre - spread) / (1 + z * z / total)


def failures_by_clause(results: list[CaseResult], clauses: dict[str, Clause]) -> list[ClauseFailures]:
    """Failing clauses, the most consistently failing first (see `consistency`), then by
    number of failures and spec order. Golden cases cite the placement and scoring clauses
    they touch, so the clause an engine misreads fails almost all of its cases while a
    clause every case cites fails only where the misreading shows. A case counts under every
    clause it tests; known failures are left out as they are from the exit code."""
    order = {cid: i for i, cid in enumerate(clauses)}
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        for cid in r.case.clauses:
            t = tally[cid]
            t[2] += 1
            if r.counts_as_failure:
                t[0 if r.status == "failed" else 1] += 1
    rows = [ClauseFailures(cid, clauses[cid].title if cid in clauses else "(not in spec/rules.md)", f, e, n)
            for cid, (f, e, n) in tally.items() if f + e]
    return sorted(rows, key=lambda x: (-round(consistency(x.bad, x.total), 9), -x.bad,
                                       order.get(x.clause, len(order)), x.clause))


def clause_order(runs: list[EngineRun], clauses: dict[str, Clause]) -> list[str]:
    """Every clause tested by any run, in spec order (unknown clauses last)."""
    order = {cid: i for i, cid in enumerate(clauses)}
    seen = {cid for run in runs for r in run.results for cid in r.case.clauses}
    return sorted(seen, key=lambda c: (order.get(c, len(order)), c))


# -- difference patterns: what a failure looks like, without its particular values ----------------


def _unindexed(path: str) -> str:
    """`contributions[tile=[1|1]].value` -> `contributions[].value`: every outermost bracket emptied."""
    out, depth = [], 0
    for ch in path:
        if ch == "[":
            if depth == 0:
                out.append("[]")
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def shape(value: Any) -> str:
    """A value's shape: booleans and null as themselves, other values by their type."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else ("true" if value else "false")
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list" if value else "[]"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def difference_pattern(d: Difference) -> str:
    """`results[].continues: false -> true`: the path without indices or entry labels, and the
    shape of expected against got (a missing key, an extra element, ...)."""
    path = _unindexed(d.path) or "answer"
    if d.kind == "differs":
        return f"{path}: {shape(d.expected)} -> {shape(d.actual)}"
    if d.kind == "note":
        return f"{path}: {_unindexed(re.sub(r'-?[0-9]+', 'N', d.text.split(':', 1)[0]))[:80]}"
    return f"{path}: {d.kind}"


def failure_pattern(ex: Explanation) -> str:
    """A failing case's pattern: the pattern of its first difference (in the order of the
    expected answer's keys, so the root of what differs: one miscounted end also moves `sum`,
    `raw` and `scores`, and those later differences would split one cause into many groups);
    an errored case is `errored: ` and the start of its message without numbers."""
    if ex.result.status == "errored" or not ex.differences:
        head = re.sub(r"-?[0-9]+(\.[0-9]+)?", "N", ex.message.split(":", 1)[0])[:80]
        return f"{ex.result.status}: {head}"
    return difference_pattern(ex.differences[0])


@dataclass
class FailureGroup:
    """Failing cases that share a cause or, without a known cause, a difference pattern.
    Each failing case is in exactly one group (never once per clause it cites)."""
    key: str  # the cause's name, or the difference pattern
    explanations: list[Explanation]
    clauses: list[tuple[str, int]]  # the clauses its cases cite, the most cited first, with how many cite each

    @property
    def count(self) -> int:
        return len(self.explanations)

    def clause_text(self, n: int = 3) -> str:
        shown = ", ".join(f"{c} {k}/{self.count}" for c, k in self.clauses[:n])
        return shown + (f" and {len(self.clauses) - n} more" if len(self.clauses) > n else "")

    def to_dict(self) -> dict[str, Any]:
        return {"group": self.key, "cases": self.count, "ids": [ex.result.case.id for ex in self.explanations],
                "clauses": [{"clause": c, "cases": k} for c, k in self.clauses]}


Cause = Callable[[Explanation], "str | None"]


def group_failures(results: list[CaseResult], clauses: dict[str, Clause], cause_of: Cause | None = None,
                   explained: dict[str, Explanation] | None = None) -> list[FailureGroup]:
    """The failing cases (known failures left out, as from the exit code) in groups: by
    `cause_of(explanation)` where it names a cause (a diagnosis or profile passes its causes
    in), else by `failure_pattern`. Largest group first, then by key. `explained` caches
    explanations by case id across calls."""
    order = {cid: i for i, cid in enumerate(clauses)}
    groups: dict[str, list[Explanation]] = defaultdict(list)
    for r in results:
        if not r.counts_as_failure:
            continue
        ex = explained.get(r.case.id) if explained is not None else None
        if ex is None:
            ex = explain_result(r, clauses)
            if explained is not None:
                explained[r.case.id] = ex
        key = (cause_of(ex) if cause_of else None) or failure_pattern(ex)
        groups[key].append(ex)
    out = []
    for key, exs in groups.items():
        cited: dict[str, int] = defaultdict(int)
        first: dict[str, int] = defaultdict(int)  # a case's first clause is the one it is about
        for ex in exs:
            for cid in ex.result.case.clauses:
                cited[cid] += 1
            if ex.result.case.clauses:
                first[ex.result.case.clauses[0]] += 1
        ranked = sorted(cited.items(), key=lambda kv: (-kv[1], -first[kv[0]], order.get(kv[0], len(order)), kv[0]))
        out.append(FailureGroup(key, exs, ranked))
    return sorted(out, key=lambda g: (-g.count, g.key))


#: Groups listed in the human report and in Markdown's pattern table.
PATTERN_LINES = 20


def pattern_lines(results: list[CaseResult], clauses: dict[str, Clause], limit: int = PATTERN_LINES,
                  cause_of: Cause | None = None) -> list[str]:
    """For the human report: a line per group (its size, the clauses its cases cite, an
    example), each failing case counted once; nothing when no case fails."""
    from fives.support.sanitize import one_line
    from fives.support.wording import plural

    groups = group_failures(results, clauses, cause_of)
    if not groups:
        return []
    lines = [f"failures by {'cause' if cause_of else 'difference pattern'} (each failing case counted once):"]
    for g in groups[:limit]:
        lines.append(f"  {plural(g.count, 'case')}: {one_line(g.key, 200)}; clauses {g.clause_text()}; "
                     f"e.g. {g.explanations[0].result.case.id}")
    if len(groups) > limit:
        more, key = ("more group", "failures_by_cause") if cause_of else ("more pattern", "failures_by_pattern")
        lines.append(f"  ... and {plural(len(groups) - limit, more)} (--report json lists them all, {key})")
    return lines


def pattern_markdown(groups: list[FailureGroup], level: str, limit: int = PATTERN_LINES) -> list[str]:
    """Markdown's table of failure groups (nothing when no case fails)."""
    from fives.support.sanitize import markdown_cell, markdown_code

    if not groups:
        return []
    lines = ["", f"{level} Failures by difference pattern", "", "| cases | difference pattern | clauses | example |",
             "|---:|---|---|---|"]
    lines += [f"| {g.count} | {markdown_cell(g.key)} | {markdown_cell(g.clause_text())} | "
              f"{markdown_code(g.explanations[0].result.case.id)} |" for g in groups[:limit]]
    if len(groups) > limit:
        lines.append(f"\n… and {len(groups) - limit} more patterns (every case is in the JSON report, "
                     "`failures_by_pattern`)")
    return lines


#: Rows of Markdown's failures table.
MD_ROWS = 200


def failures_markdown(results: list[CaseResult], clauses: dict[str, Clause], level: str,
                      note: Callable[[CaseResult], str] = lambda r: "") -> list[str]:
    """Markdown's failures table: a row per failing case with its clause (the first it tests)
    and first difference; past MD_ROWS it says how many more and where they are. `note` adds
    to a row's status (the profile a case was expected under)."""
    from fives.support.sanitize import markdown_cell, markdown_code

    bad = [r for r in results if r.counts_as_failure]
    if not bad:
        return []
    lines = ["", f"{level} Failures", "", "| case | status | clause | file | first difference |", "|---|---|---|---|---|"]
    for r in bad[:MD_ROWS]:
        ex = explain_result(r, clauses)
        first = str(ex.differences[0]) if ex.differences else ex.message
        clause = markdown_code(r.case.clauses[0]) if r.case.clauses else "(none)"
        lines.append(f"| {markdown_code(r.case.id)} | {r.status}{markdown_cell(note(r))} | {clause} | "
                     f"{markdown_code(r.case.file)} | {markdown_cell(first)} |")
    if len(bad) > MD_ROWS:
        lines.append(f"\n… and {len(bad) - MD_ROWS} more failures, not listed here: every failing case, explained, "
                     "is in the JSON report (`--report json:FILE`, `cases`)")
    return lines
