"""The causes of a run's failures, when they are known: from a rules profile (`conformance run
--rules P`: which of P's parameters changes a failing case's answer) or from a diagnosis
(`conformance run --diagnosis DIR/diagnosis.json`, written by `conformance diagnose`). The
human summary, the Markdown and HTML reports and the JSON report's `failures_by_cause` then
group failures by cause (spec/reports.md); what no cause names keeps its difference pattern.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from fives.conformance.cases.kinds import kind_named
from fives.conformance.runner import CaseResult
from fives.support.errors import UserError

if TYPE_CHECKING:
    from fives.conformance.cases.expected_under import ProfilePlan
    from fives.conformance.reports.failures import Cause

DIAGNOSIS_FORMAT = "fives-diagnosis/1"


def show(v: Any) -> str:
    """A parameter value as a cause names it (`target.raw = {"2":250}`): canonical JSON."""
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def cause_lookup(causes: Mapping[str, str] | None) -> Cause | None:
    """The `cause_of` of fives/conformance/reports/failures.py `group_failures` for a case-ID map."""
    if not causes:
        return None
    return lambda ex: causes.get(ex.result.case.id)


def with_causes(doc: dict[str, Any], results: list[CaseResult], causes: Mapping[str, str] | None) -> dict[str, Any]:
    """The JSON report with `failures_by_cause` before its cases, when causes are known and a
    case fails (otherwise the report stays as it was)."""
    if not causes or "failures_by_pattern" not in doc:
        return doc
    from fives.conformance.reports.failures import group_failures, load_clause_book

    groups = group_failures(results, load_clause_book(), cause_lookup(causes))
    return {**{k: v for k, v in doc.items() if k != "cases"}, "failures_by_cause": [g.to_dict() for g in groups],
            "cases": doc["cases"]}


def run_causes(plan: ProfilePlan | None, results: list[CaseResult],
               diagnosed: Mapping[str, str]) -> dict[str, str]:
    """Case ID -> cause for `conformance run`: the diagnosis's, else P's parameters (--rules P).
    Grouping is a convenience: should P's reading fail, the reports group by pattern."""
    out: dict[str, str] = {}
    if plan is not None:
        try:
            out = profile_causes(plan, results)
        except Exception:  # noqa: BLE001 - never cost a finished run its reports
            out = {}
    return {**out, **diagnosed}


def profile_causes(plan: ProfilePlan, results: list[CaseResult]) -> dict[str, str]:
    """For each failing case P changes: the parameter of P that changes it alone
    (`P: target.raw = {...}`), or `P: parameters together` when none does alone."""
    from fives.profile_space import alternative_overrides, dimensions
    from fives.profiles import make_profile, rules_under

    p = plan.profile
    failing = [r for r in results if r.counts_as_failure and r.case.id in plan.changed]
    if not failing:
        return {}
    # each parameter with what goes with it (one dimension: the unit with the divisor), at P's values
    paths = {d.path for d in dimensions(p.extends)}
    parts = {k: {k2: p.overrides.get(k2, v2) for k2, v2 in
                 (alternative_overrides(p.extends, k, v) if k in paths else {k: v}).items()}
             for k, v in sorted(p.overrides.items())}
    implied = {k2 for k, part in parts.items() for k2 in part if k2 != k}
    singles = []
    for key, part in parts.items():
        if key in implied:
            continue  # it goes with another parameter, named by that one
        try:
            singles.append((f"{key} = {show(p.overrides[key])}", rules_under(make_profile(p.extends, part), p.extends)))
        except UserError:  # a parameter that is no profile alone: only the whole explains it
            continue
    out = {}
    plain = rules_under(None, p.extends)
    for r in failing:
        if r.case.id in plan.pinned:  # generated to pin one parameter: that parameter is the cause
            path = plan.pinned[r.case.id]
            out[r.case.id] = f"{p.name}: {path} = {show(p.overrides[path])}"
            continue
        kind = kind_named(r.case.kind)
        named = []
        try:
            seeds = kind.run(plain, r.case.input, {})
        except Exception:  # noqa: BLE001 - an input only P's rules read: the parameters together
            seeds = None
        for name, rules in singles:
            try:
                changes = seeds is None or bool(kind.compare(seeds, kind.run(rules, r.case.input, {})))
            except Exception:  # noqa: BLE001 - an input the parameter makes illegal: it changes the case
                changes = True
            if changes:
                named.append(name)
        out[r.case.id] = f"{p.name}: {named[0]}" if len(named) == 1 else \
            f"{p.name}: {' and '.join(named) if named else 'parameters together'}"
    return out


def diagnosis_causes(path: str | Path) -> dict[str, str]:
    """Case ID -> `cause NAME` or `unexplained: PATTERN`, from a diagnosis.json; UserError
    (one line, exit 2) for a file that is not one."""
    from fives.support.reading import parse_json_line, read_text

    text, name = read_text(path)  # bounded in size, strict UTF-8; one line for a missing file
    doc = parse_json_line(text, f"--diagnosis {name}")
    if not isinstance(doc, dict) or doc.get("format") != DIAGNOSIS_FORMAT:
        raise UserError(f"--diagnosis {name}: not a diagnosis (format {DIAGNOSIS_FORMAT!r}, written by "
                        "`fives conformance diagnose --out DIR`)")
    out: dict[str, str] = {}

    def take(entries: Any, label: Any) -> None:
        if not isinstance(entries, list):
            raise UserError(f"--diagnosis {name}: malformed: expected lists of causes and clusters")
        for e in entries:
            ids = e.get("ids") if isinstance(e, dict) else None
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise UserError(f"--diagnosis {name}: malformed entry: expected a list of case ids")
            for i in ids:
                out.setdefault(i, label(e))

    take(doc.get("causes", []), lambda e: f"cause {e.get('cause')}" + (f" ({e['game']})" if e.get("game") else ""))
    take(doc.get("unexplained", []), lambda e: f"unexplained: {e.get('group')}")
    return out
