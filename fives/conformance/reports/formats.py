# lines: ~430 because FORMATS and SEVERAL are one table of writers sharing the summary, JSON layout and JUnit pieces
"""Conformance reports: a human summary, JSON, JUnit XML, Markdown and HTML (fives/conformance/reports/html.py).

Every failing case is explained (fives/conformance/reports/failures.py): description, clauses with their titles
and seed quotes, and a difference per path. Engine-supplied text (stderr, raw replies, error
messages, engine names) is sanitised for each target (fives/support/sanitize.py).

One engine: `FORMATS[fmt](results, handshake, interrupted)`. Several engines:
`SEVERAL[fmt](runs)`: JSON `{"format": "fives-conformance-engines/1", "engines": [...]}`
(each entry the one-engine document plus `command`), one JUnit file whose suites are named
`COMMAND: FILE`, one Markdown file (an engine × totals table, then a section per engine),
and one HTML page comparing the engines.
"""
from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from typing import Any, Callable
from xml.sax.saxutils import escape, quoteattr

from fives.conformance.reports.causes import cause_lookup, with_causes
from fives.conformance.cases.clauses import Clause
from fives.conformance.cases.expected_under import ProfilePlan
from fives.conformance.engines.drivers import Handshake
from fives.conformance.reports.failures import (EngineRun, explain_result, failures_by_clause, group_failures,
                                       failures_markdown, load_clause_book, pattern_lines, pattern_markdown)
from fives.conformance.runner import CaseResult
from fives.conformance.reports.slow import slow_cases, slow_lines
from fives.conformance.reports.badge import scope_words, to_badge
from fives.support.colour import paint
from fives.support.wording import plural
from fives.support.sanitize import escape_controls, json_safe, markdown_cell, markdown_code, one_line

STATUSES = ("passed", "failed", "errored", "skipped")
#: Failing clauses listed on the first screen of the human report.
CLAUSE_LINES = 20
MULTI_FORMAT = "fives-conformance-engines/1"
_SURROGATE = re.compile("[\ud800-\udfff]")


def area_of(result: CaseResult) -> str:
    """The rule area a case exercises: its first clause without the number (e.g. SN-COUNT)."""
    return result.case.clauses[0].rsplit("-", 1)[0] if result.case.clauses else "(none)"


def counts(results: list[CaseResult]) -> Counter[str]:
    c: Counter[str] = Counter()
    for r in results:
        c[r.status if r.known is None or r.status in ("passed", "skipped") else "known"] += 1
    return c


def summary_line(results: list[CaseResult], colour: bool = False) -> str:
    """`N passed, N failed, N errored, N skipped`; with `colour`, the non-zero counts in
    green (passed), red (failed, errored) and yellow (skipped) for a terminal."""
    c = counts(results)
    shades = {"passed": "green", "failed": "red", "errored": "red", "skipped": "yellow"}
    line = ", ".join(paint(f"{c[s]} {s}", shades[s], colour and c[s] > 0) for s in STATUSES)
    # known failures are in none of the four counts: say so, or the total would not add up
    return line + (f", {c['known']} known failure{'s' * (c['known'] != 1)}" if c["known"] else "")


def engine_line(handshake: Handshake) -> str:
    said = scope_words(handshake)  # the hello's `scope` (spec/protocol.md), if any
    return one_line(f"engine: {handshake.name} {handshake.version} ({handshake.language}); "
                    f"games: {', '.join(handshake.games)}; capabilities: {', '.join(handshake.capabilities)}"
                    + (f"; scope: {said}" if said else ""), 500)


def rules_line(plan: ProfilePlan) -> str:
    """What --rules P did to the suite: the profile, its digest, the cases it changed or skipped."""
    p = plan.profile
    line = (f"rules: {p.name} (digest {p.digest}), extends {p.extends}"
            + (f"; source: {p.source}" if p.source else "")
            + f"; {len(plan.changed)} case{'s' * (len(plan.changed) != 1)} expected under {p.name}"
            + plan.pins_words() + f", {len(plan.illegal)} skipped as illegal under it")
    return one_line(line + ("; only the unchanged cases run (--unchanged-only)" if plan.unchanged_only else ""), 600)


def _under(r: CaseResult) -> str:
    return f" (expected under {r.expected_under})" if r.expected_under else ""


def _table(groups: dict[str, list[CaseResult]], title: str) -> list[str]:
    lines = [f"{title}:"]
    width = max((len(k) for k in groups), default=10)
    for key in sorted(groups):
        c = counts(groups[key])
        lines.append(f"  {key:<{width}}  {c['passed']:4d} passed {c['failed']:3d} failed "
                     f"{c['errored']:3d} errored {c['skipped']:3d} skipped")
    return lines


def explain_lines(r: CaseResult, clauses: dict[str, Clause], indent: str = "    ",
                  quoted: set[str] | None = None) -> list[str]:
    """A failing case for a terminal: description, clauses with seed quotes, differences,
    the engine's message, raw reply and stderr tail, every engine-supplied line escaped.
    A clause in `quoted` was quoted earlier in the same report and is not quoted again."""
    ex = explain_result(r, clauses)
    lines = []
    if r.case.description:
        lines.append(indent + one_line(r.case.description, 300))
    for c in ex.clauses:
        again = quoted is not None and c["id"] in quoted and c["sources"]
        lines.append(f"{indent}{c['id']}: {c['title']}" + (" (quoted above)" if again else ""))
        if quoted is not None:
            quoted.add(c["id"])
        for s in [] if again else c["sources"]:
            lines.append(f"{indent}  {s['seed']} «{s['heading']}»: «{s['quote']}»")
    for d in ex.differences:
        lines.append(indent + one_line(str(d), 300))
    o = r.outcome
    if o and o.message and r.status != "failed":
        lines.append(indent + one_line(o.message, 300))
    if o and o.raw:
        lines.append(f"{indent}raw reply: {one_line(o.raw.strip(), 200)}")
    lines += [f"{indent}stderr: {one_line(ln, 200)}" for ln in ex.stderr_tail]
    return lines


def human(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False,
          verbose_failures: int = 50, clauses: dict[str, Clause] | None = None, verbosity: int = 1,
          colour: bool = False, stopped: str | None = None, plan: ProfilePlan | None = None,
          causes: dict[str, str] | None = None) -> str:
    """The terminal report. `verbosity` 1 (`conformance run -v`): everything, the tables per
    rule area and per file included; 0 (the default of `conformance run`): the same without
    the tables, so an all-pass run is the engine line and the final line; -1 (`-q`): the final
    line alone; -v also lists every case ID with its verdict (`HR-FIG-1-3 PASSED`), as pytest
    -v does. `colour`: the final line's counts and the failure tags in colour. `stopped`:
    why the run stopped early (-x, --maxfail), said before the final line. `causes`: case ID
    -> cause (fives/conformance/reports/causes.py): failures are grouped by cause where it names one."""
    if verbosity < 0:
        return summary_line(results, colour)
    clauses = load_clause_book() if clauses is None else clauses
    lines: list[str] = []
    if handshake:
        lines.append(engine_line(handshake))
    if plan is not None:
        lines.append(rules_line(plan))
    if verbosity >= 1:  # -v: every case with its verdict, in run order, as pytest -v lists its tests
        lines += [f"{r.case.id} {r.status.upper()}" + (f" (known: {one_line(r.known, 200)})" if r.known else "")
                  for r in results]
    lines += pattern_lines(results, clauses, cause_of=cause_lookup(causes))
    failing = failures_by_clause(results, clauses)
    if failing:
        lines.append("failing clauses, most consistently failing first (a case counts under each clause it tests):")
        lines += [f"  {f.line()}" for f in failing[:CLAUSE_LINES]]
        if len(failing) > CLAUSE_LINES:
            lines.append(f"  ... and {plural(len(failing) - CLAUSE_LINES, 'more clause')}")
    by_area: dict[str, list[CaseResult]] = defaultdict(list)
    by_file: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_area[area_of(r)].append(r)
        by_file[r.case.file].append(r)
    if verbosity >= 1:
        lines += _table(by_area, "by rule area")
        lines += _table(by_file, "by file")
    bad = [r for r in results if r.status in ("failed", "errored")]
    if bad:
        lines.append("failures:")
    quoted: set[str] = set()
    for r in bad[:verbose_failures]:
        tag = f" (known: {one_line(r.known, 200)})" if r.known else ""
        lines.append(f"  {paint(r.status.upper(), 'red', colour)} {r.case.id} [{r.case.file}]{_under(r)}{tag}")
        lines += explain_lines(r, clauses, quoted=quoted)
    if len(bad) > verbose_failures:
        lines.append(f"  ... and {len(bad) - verbose_failures} more (use --report json for all)")
    known = [r for r in results if r.known is not None]
    fixed = [r for r in known if r.status == "passed"]
    if known:
        lines.append(f"known failures: {len(known) - len(fixed)} still failing, {len(fixed)} now passing"
                     + (f": {', '.join(r.case.id for r in fixed)}" if fixed else ""))
    lines += slow_lines(results)  # none in an ordinary run: its summary stays as it was
    if interrupted:
        lines.append("interrupted: the results above cover the cases that finished")
    if stopped:
        lines.append(stopped)
    lines.append(summary_line(results, colour))
    return "\n".join(lines)


def human_several(runs: list[EngineRun], verbosity: int = 1, colour: bool = False,
                  plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    """Each engine's report under its command, then one line per engine; the last line adds
    up every engine's run (so it still reads `N passed, N failed, N errored, N skipped`).
    `verbosity`, `colour` and `causes` (--diagnosis) as for `human`; -1 gives the last line alone."""
    if verbosity < 0:
        return summary_line([r for run in runs for r in run.results], colour)
    clauses = load_clause_book()
    out: list[str] = [rules_line(plan)] if plan is not None else []
    for run in runs:
        out.append(f"=== {one_line(run.label, 300)} ===")
        out.append(f"could not start: {one_line(run.error, 300)}" if run.error else
                   human(run.results, run.handshake, run.interrupted, 10, clauses, verbosity, colour,
                         causes=causes))
    out.append("engines:")
    for run in runs:
        top = failures_by_clause(run.results, clauses)[:3]
        worst = "; most consistently failing: " + ", ".join(f"{f.clause} {f.bad}/{f.total}" for f in top) if top else ""
        out.append(f"  {one_line(run.label, 120)}: " + ("could not start" if run.error else summary_line(run.results))
                   + worst)
    out.append(summary_line([r for run in runs for r in run.results], colour))
    return "\n".join(out)


# -- JSON ------------------------------------------------------------------------------------------
def _json_doc(results: list[CaseResult], handshake: Handshake | None, interrupted: bool,
              clauses: dict[str, Clause], plan: ProfilePlan | None = None) -> dict[str, Any]:
    c = counts(results)
    cases = []
    for r in results:
        d = r.to_dict()
        d["description"] = r.case.description
        if r.status in ("failed", "errored"):
            d["explanation"] = explain_result(r, clauses).to_dict()
        cases.append(d)
    doc: dict[str, Any] = {
        "engine": handshake.raw or {"name": handshake.name, "version": handshake.version} if handshake else None}
    if plan is not None:  # only under --rules: the default report stays as it was
        doc["rules"] = plan.to_dict()
    doc |= {
        "summary": {s: c[s] for s in STATUSES} | {"known": c["known"], "interrupted": interrupted},
        "failures_by_clause": [f.to_dict() for f in failures_by_clause(results, clauses)],
    }
    groups = group_failures(results, clauses)
    if groups:  # only with failures: an all-pass report stays as it was
        doc["failures_by_pattern"] = [g.to_dict() for g in groups]
    if slow := slow_cases(results):  # only when a case was slow, likewise
        doc["slow_cases"] = [s.to_dict() for s in slow]
    return doc | {"cases": cases}


_compact = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
#: Lists written one entry per line (each entry compact): a case per line is small, fast to
#: write and still reads and diffs line by line. Entries of "engines" are laid out the same way.
_LINE_LISTS = ("cases", "failures_by_clause", "failures_by_pattern", "failures_by_cause", "slow_cases", "engines")


def _layout(doc: dict[str, Any], indent: str = "") -> str:
    inner = indent + " "
    parts = []
    for key, value in doc.items():
        if key in _LINE_LISTS and isinstance(value, list) and value:
            each = (lambda v: _layout(v, inner + "  ")) if key == "engines" else _compact
            items = ",\n".join(inner + "  " + each(v) for v in value)
            parts.append(f"{inner}{_compact(key)}: [\n{items}\n{inner}]")
        else:
            parts.append(f"{inner}{_compact(key)}: {_compact(value)}")
    return "{\n" + ",\n".join(parts) + "\n" + indent + "}"


def _dump(doc: dict[str, Any]) -> str:
    """Strict JSON, a case per line. Most answers need no cleaning, so the copy (json_safe)
    is made only when the plain dump meets NaN, infinity, a lone surrogate or deep nesting."""
    try:
        text = _layout(doc)
        if not _SURROGATE.search(text):
            return text
    except (ValueError, TypeError, RecursionError):
        pass
    return _layout(json_safe(doc))


def to_json(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False,
            plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    return _dump(with_causes(_json_doc(results, handshake, interrupted, load_clause_book(), plan), results, causes))


def json_several(runs: list[EngineRun], plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    clauses = load_clause_book()
    engines = []
    for run in runs:
        doc = with_causes(_json_doc(run.results, run.handshake, run.interrupted, clauses, plan), run.results, causes)
        engines.append({"command": run.label, **({"error": run.error} if run.error else {}), **doc})
    return _dump({"format": MULTI_FORMAT, **({"rules": plan.to_dict()} if plan else {}), "engines": engines})


# -- JUnit -----------------------------------------------------------------------------------------
def _xml_text(text: str) -> str:
    return escape(escape_controls(text))


def _xml_attr(text: str, limit: int = 500) -> str:
    return quoteattr(one_line(text, limit))


def _junit_properties(plan: ProfilePlan | None) -> list[str]:
    if plan is None:
        return []
    p = plan.profile
    return ["    <properties>", f'      <property name="fives.rules" value={_xml_attr(p.name)}/>',
            f'      <property name="fives.rules.digest" value={_xml_attr(p.digest)}/>',
            f'      <property name="fives.rules.extends" value={_xml_attr(p.extends)}/>', "    </properties>"]


def _junit_suites(results: list[CaseResult], prefix: str, clauses: dict[str, Clause],
                  plan: ProfilePlan | None = None) -> list[str]:
    by_file: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_file[r.case.file].append(r)
    out = []
    for file in sorted(by_file):
        rs = by_file[file]
        fc = counts(rs)
        time = sum(r.outcome.seconds for r in rs if r.outcome)
        out.append(f'  <testsuite name={_xml_attr(prefix + file)} tests="{len(rs)}" failures="{fc["failed"]}" '
                   f'errors="{fc["errored"]}" skipped="{fc["skipped"] + fc["known"]}" time="{time:.3f}">')
        out += _junit_properties(plan)
        for r in rs:
            t = r.outcome.seconds if r.outcome else 0.0
            out.append(f'    <testcase name={_xml_attr(r.case.id)} classname={_xml_attr(prefix + file)} time="{t:.4f}">')
            msg = "; ".join(r.diffs) or (r.outcome.message if r.outcome else "")
            if r.expected_under and r.status in ("failed", "errored"):
                msg = f"expected under {r.expected_under}: {msg}"
            if r.status in ("failed", "errored") and r.known is None:
                tag = "failure" if r.status == "failed" else "error"
                body = "\n".join(ln.strip() for ln in explain_lines(r, clauses, ""))
                out.append(f"      <{tag} message={_xml_attr(msg)}>{_xml_text(body)}</{tag}>")
            elif r.status == "skipped" or r.known is not None:
                reason = f"known failure: {r.known}" if r.known is not None else msg
                out.append(f"      <skipped message={_xml_attr(reason)}/>")
            if r.outcome and r.outcome.stderr:
                out.append(f"      <system-err>{_xml_text(r.outcome.stderr)}</system-err>")
            out.append("    </testcase>")
        out.append("  </testsuite>")
    return out


def _junit(runs: list[tuple[str, list[CaseResult]]], name: str, plan: ProfilePlan | None = None) -> str:
    clauses = load_clause_book()
    if plan is not None:
        name += f" under {plan.label}"
    every = [r for _, rs in runs for r in rs]
    c = counts(every)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={_xml_attr("fives conformance: " + name)} tests="{len(every)}" '
           f'failures="{c["failed"]}" errors="{c["errored"]}" skipped="{c["skipped"] + c["known"]}">']
    for prefix, rs in runs:
        out += _junit_suites(rs, prefix, clauses, plan)
    out.append("</testsuites>")
    return "\n".join(out)


def to_junit(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False,
             plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    # `causes` does not change JUnit: it has no groups
    return _junit([("", results)], handshake.name if handshake else "engine", plan)


def junit_several(runs: list[EngineRun], plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    # `causes` does not change JUnit, as for one engine
    return _junit([(f"{run.label}: ", run.results) for run in runs], f"{len(runs)} engines", plan)


# -- Markdown --------------------------------------------------------------------------------------
def _md_sections(results: list[CaseResult], clauses: dict[str, Clause], level: str) -> list[str]:
    lines = ["| rule area | passed | failed | errored | skipped |", "|---|---:|---:|---:|---:|"]
    by_area: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_area[area_of(r)].append(r)
    for area in sorted(by_area):
        ac = counts(by_area[area])
        lines.append(f"| {area} | {ac['passed']} | {ac['failed']} | {ac['errored']} | {ac['skipped']} |")
    failing = failures_by_clause(results, clauses)
    if failing:
        lines += ["", f"{level} Failing clauses", "", "| clause | title | failed | errored | cases |",
                  "|---|---|---:|---:|---:|"]
        lines += [f"| {markdown_code(f.clause)} | {markdown_cell(f.title)} | {f.failed} | {f.errored} | {f.total} |"
                  for f in failing]
    lines += pattern_markdown(group_failures(results, clauses), level)
    return lines + failures_markdown(results, clauses, level, _under)


def _md_title(handshake: Handshake | None) -> str:
    return f": {markdown_cell(handshake.name + ' ' + handshake.version)}" if handshake else ""


def _md_rules(plan: ProfilePlan | None) -> list[str]:
    if plan is None:
        return []
    p = plan.profile
    return [f"Rules: **{markdown_cell(p.name)}** (digest {markdown_code(p.digest)}, extends {markdown_code(p.extends)}): "
            f"{len(plan.changed)} cases expected under it{markdown_cell(plan.pins_words())}, "
            f"{len(plan.illegal)} skipped as illegal under it"
            + (" (only the unchanged cases run)" if plan.unchanged_only else "") + ".", ""]


def to_markdown(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False,
                plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    # `causes` leaves Markdown as it is: its pattern table and per-row clauses are the summary
    c = counts(results)
    icon = "✅" if not c["failed"] and not c["errored"] else "❌"
    lines = [f"## {icon} fives conformance{_md_title(handshake)}", "", *_md_rules(plan),
             f"**{summary_line(results)}**" + (" (interrupted)" if interrupted else ""), ""]
    return "\n".join(lines + _md_sections(results, load_clause_book(), "###")) + "\n"


def markdown_several(runs: list[EngineRun], plan: ProfilePlan | None = None,
                     causes: dict[str, str] | None = None) -> str:
    # `causes` leaves Markdown as it is, as for one engine
    clauses = load_clause_book()
    lines = [f"## fives conformance: {len(runs)} engines", "", *_md_rules(plan),
             "| engine | passed | failed | errored | skipped |", "|---|---:|---:|---:|---:|"]
    for run in runs:
        c = counts(run.results)
        cells = ("could not start", "", "", "") if run.error else (c["passed"], c["failed"], c["errored"], c["skipped"])
        lines.append(f"| {markdown_code(run.label)} | " + " | ".join(map(str, cells)) + " |")
    for run in runs:
        icon = "✅" if not any(r.counts_as_failure for r in run.results) and not run.error else "❌"
        lines += ["", f"### {icon} {markdown_code(run.label)}{_md_title(run.handshake)}", ""]
        if run.error:
            lines.append(f"could not start: {markdown_cell(run.error)}")
            continue
        lines += [f"**{summary_line(run.results)}**" + (" (interrupted)" if run.interrupted else ""), ""]
        lines += _md_sections(run.results, clauses, "####")
    return "\n".join(lines) + "\n"


# -- HTML ------------------------------------------------------------------------------------------
def to_html(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False,
            plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    from fives.conformance.reports.html import html_page
    label = f"{handshake.name} {handshake.version}" if handshake else "engine"
    return html_page([EngineRun(label, results, handshake, interrupted)], plan, causes)


def html_several(runs: list[EngineRun], plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    from fives.conformance.reports.html import html_page
    return html_page(runs, plan, causes)


#: (results, handshake, interrupted, plan=None) -> the report text; `plan`: --rules P
Single = Callable[..., str]
FORMATS: dict[str, Single] = {"json": to_json, "junit": to_junit, "markdown": to_markdown, "html": to_html,
                              "badge": to_badge}  # badge: one engine's (reports/badge.py); not in SEVERAL
SEVERAL: dict[str, Callable[..., str]] = {
    "json": json_several, "junit": junit_several, "markdown": markdown_several, "html": html_several}
