"""One self-contained HTML page comparing engines: totals per engine, then a clause × engine
matrix of pass / fail / skipped counts; each failing cell opens (details/summary, no script)
on its cases' explanations. Inline CSS only: no external file, works offline."""
from __future__ import annotations

from collections import defaultdict

from fives.conformance.cases.clauses import Clause
from fives.conformance.cases.expected_under import ProfilePlan
from fives.conformance.reports.failures import EngineRun, Explanation, clause_order, explain_result, failures_by_clause, load_clause_book
from fives.conformance.reports.html_patterns import CSS as PATTERN_CSS, patterns_section
from fives.conformance.runner import CaseResult
from fives.support.sanitize import html_text as h

#: Cases shown inside one failing cell (the JSON report has them all).
CELL_CASES = 40

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.3em .5em;vertical-align:top}
th{background:#f0f0f0;text-align:left}td.n{text-align:right}
.pass{background:#d9f2d9}.fail{background:#f8d0d0}.skip{background:#e8e8e8}.none{background:#fff}
.known{background:#fff2c2}.start-error{background:#f8d0d0}
body:has(#only-failing:checked) #matrix tr.clean{display:none}
summary{cursor:pointer}details.cases{max-width:60em}
.case{border-top:1px solid #ccc;margin-top:.4em;padding-top:.3em}
.diff{font-family:ui-monospace,monospace;white-space:pre-wrap;margin:.1em 0 .1em 1em}
.quote{color:#555}.quote q{unicode-bidi:isolate}.muted{color:#666}
code{font-family:ui-monospace,monospace}
"""


def _cell_class(failed: int, passed: int, skipped: int, known: int) -> str:
    if failed:
        return "fail"
    if known:
        return "known"
    if passed:
        return "pass"
    return "skip" if skipped else "none"


def _case_html(ex: Explanation) -> str:
    r = ex.result
    parts = [f'<div class="case" data-case="{h(r.case.id)}"><b><code>{h(r.case.id)}</code></b> '
             f'<span class="muted">{h(r.status)} · {h(r.case.file)}'
             + (f" · expected under {h(r.expected_under)}" if r.expected_under else "") + "</span>"]
    if r.case.description:
        parts.append(f"<div>{h(r.case.description)}</div>")
    for d in ex.differences:
        parts.append(f'<div class="diff">{h(str(d))}</div>')
    if ex.message and r.status != "failed":
        parts.append(f'<div class="diff">{h(ex.message)}</div>')
    o = r.outcome
    if o and o.raw:
        parts.append(f'<div class="diff">raw reply: {h(o.raw.strip()[:300])}</div>')
    for ln in ex.stderr_tail:
        parts.append(f'<div class="diff">stderr: {h(ln[:300])}</div>')
    parts.append("</div>")
    return "".join(parts)


def _clause_header(cid: str, clauses: dict[str, Clause]) -> str:
    c = clauses.get(cid)
    if c is None:
        return f'<th scope="row" data-clause="{h(cid)}"><code>{h(cid)}</code></th>'
    quotes = "".join(f'<div class="quote">{h(s.seed)} «{h(s.heading)}»: <q lang="ar" dir="rtl">{h(s.quote)}</q></div>'
                     for s in c.sources)
    return (f'<th scope="row" data-clause="{h(cid)}"><details class="clause"><summary><code>{h(cid)}</code> '
            f"{h(c.title)}</summary>{quotes}</details></th>")


def _cell(run_index: int, cid: str, rs: list[CaseResult], clauses: dict[str, Clause],
          cache: dict[tuple[int, str], Explanation]) -> str:
    failed = [r for r in rs if r.counts_as_failure]
    passed = sum(r.status == "passed" for r in rs)
    skipped = sum(r.status == "skipped" for r in rs)
    known = sum(r.known is not None and r.status in ("failed", "errored") for r in rs)
    cls = _cell_class(len(failed), passed, skipped, known)
    attrs = (f'class="cell {cls}" data-engine="{run_index}" data-clause="{h(cid)}" data-passed="{passed}" '
             f'data-failed="{len(failed)}" data-skipped="{skipped}"')
    if not rs:
        return f"<td {attrs}></td>"
    errors = sum(r.status == "errored" for r in failed)
    text = (f"{passed} pass · {len(failed)} fail" + (f" ({errors} errored)" if errors else "")
            + f" · {skipped} skip" + (f" · {known} known" if known else ""))
    if not failed:
        return f"<td {attrs}>{text}</td>"
    cases = []
    for r in failed[:CELL_CASES]:
        key = (run_index, r.case.id)
        if key not in cache:
            cache[key] = explain_result(r, clauses)
        cases.append(_case_html(cache[key]))
    if len(failed) > CELL_CASES:
        cases.append(f'<div class="muted">… and {len(failed) - CELL_CASES} more (see the JSON report)</div>')
    return f'<td {attrs}><details class="cases"><summary>{text}</summary>{"".join(cases)}</details></td>'


def _top_clauses(results: list[CaseResult], clauses: dict[str, Clause], n: int = 3) -> str:
    rows = failures_by_clause(results, clauses)[:n]
    return ", ".join(f"<code>{h(f.clause)}</code> {f.bad}/{f.total}" for f in rows)


def _rules_html(plan: ProfilePlan | None) -> str:
    if plan is None:
        return ""
    p = plan.profile
    return (f'<p id="rules" data-rules="{h(p.name)}" data-digest="{h(p.digest)}">Rules: <b>{h(p.name)}</b> '
            f"(digest <code>{h(p.digest)}</code>, extends <code>{h(p.extends)}</code>"
            + (f"; source: {h(p.source)}" if p.source else "") + f"): {len(plan.changed)} cases expected under it"
            f"{h(plan.pins_words())}, {len(plan.illegal)} skipped as illegal under it"
            + (" (only the unchanged cases run)" if plan.unchanged_only else "") + ".</p>")


def html_page(runs: list[EngineRun], plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    """The page; `causes` (case ID -> cause, fives/conformance/reports/causes.py): failures grouped by cause."""
    from fives.conformance.reports.causes import cause_lookup

    clauses = load_clause_book()
    failing = any(r.counts_as_failure for run in runs for r in run.results)
    title = f"fives conformance: {len(runs)} engine{'s' * (len(runs) != 1)}"
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{h(title)}</title><style>{CSS}{PATTERN_CSS if failing else ''}</style></head><body>", f"<h1>{h(title)}</h1>" + _rules_html(plan),
           '<h2>Totals</h2><table id="totals"><thead><tr><th>engine</th><th>name</th><th>passed</th>'
           "<th>failed</th><th>errored</th><th>skipped</th><th>known</th>"
           "<th>most consistently failing clauses</th></tr></thead><tbody>"]
    for i, run in enumerate(runs):
        hs = run.handshake
        name = (f"{hs.name} {hs.version} ({hs.language})" if hs else "") + (" (interrupted)" if run.interrupted else "")
        if run.error:
            out.append(f'<tr data-engine="{i}" class="start-error"><th><code>{h(run.label)}</code></th>'
                       f'<td colspan="7">could not start: {h(run.error)}</td></tr>')
            continue
        c = {s: 0 for s in ("passed", "failed", "errored", "skipped", "known")}
        for r in run.results:
            c["known" if r.known is not None and r.status in ("failed", "errored") else r.status] += 1
        cls = "fail" if c["failed"] or c["errored"] else "pass"
        out.append(f'<tr data-engine="{i}" class="{cls}"><th><code>{h(run.label)}</code></th><td>{h(name)}</td>'
                   + "".join(f'<td class="n">{c[s]}</td>' for s in ("passed", "failed", "errored", "skipped", "known"))
                   + f"<td>{_top_clauses(run.results, clauses)}</td></tr>")
    out.append("</tbody></table>")
    out += patterns_section(runs, clauses, cause_lookup(causes))

    by_clause: list[dict[str, list[CaseResult]]] = []
    for run in runs:
        table: dict[str, list[CaseResult]] = defaultdict(list)
        for r in run.results:
            for cid in r.case.clauses or ("(none)",):
                table[cid].append(r)
        by_clause.append(table)
    order = clause_order(runs, clauses)
    if any(not r.case.clauses for run in runs for r in run.results):
        order.append("(none)")
    out.append('<h2>Clauses × engines</h2><p class="muted">A case counts under each clause it tests. '
               "Open a red cell for its failing cases and their differences; open a clause for its seed quotes.</p>"
               '<p><label><input type="checkbox" id="only-failing"> only clauses some engine fails</label></p>')
    out.append('<table id="matrix"><thead><tr><th>clause</th>'
               + "".join(f'<th class="engine" data-engine="{i}"><code>{h(run.label)}</code></th>'
                         for i, run in enumerate(runs))
               + "</tr></thead><tbody>")
    cache: dict[tuple[int, str], Explanation] = {}
    for cid in order:
        clean = not any(r.counts_as_failure for table in by_clause for r in table.get(cid, []))
        out.append(f'<tr data-clause="{h(cid)}"{" class=clean" if clean else ""}>{_clause_header(cid, clauses)}'
                   + "".join(_cell(i, cid, by_clause[i].get(cid, []), clauses, cache) for i in range(len(runs)))
                   + "</tr>")
    out.append("</tbody></table></body></html>")
    return "\n".join(out) + "\n"
