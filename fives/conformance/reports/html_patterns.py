"""The HTML report's failures by difference pattern (or by cause): a pattern × engine table,
each failing cell opening on its cases, each shown case's layout drawn as `fives render`
draws it (fives/draw/svg.py) with the tiles its differences name marked, and its
differences as expected against got beside the picture. Every failing case is in one group
(never once per clause it cites); caps say how many more there are and where they are."""
from __future__ import annotations

import re
from typing import Any

from fives.conformance.cases.clauses import Clause
from fives.conformance.reports.failures import Cause, EngineRun, Explanation, FailureGroup, group_failures
from fives.support.sanitize import html_text as h

#: Cases listed inside one pattern cell, and of those the first ones drawn.
PATTERN_CASES = 40
DRAWN_CASES = 3
_TILE = re.compile(r"\[[0-6]\|[0-6]\]")

CSS = """
figure.layout{display:inline-block;margin:.3em 1em .3em 0;vertical-align:top}
figure.layout svg{max-width:28em;height:auto}
table.vs{display:inline-table;vertical-align:top;font-size:.92em}
table.vs td{font-family:ui-monospace,monospace;white-space:pre-wrap;max-width:24em}
"""


def _layout_records(case: Any) -> list[Any] | None:
    """The layout a case asks about, as placement records: the evaluate or perft placements,
    or the layout a turn or legal-placements question starts from; None for other kinds."""
    inp = case.input if isinstance(case.input, dict) else {}
    records = inp.get("placements") if case.kind in ("evaluate", "perft") else inp.get("layout")
    if case.kind not in ("evaluate", "perft", "turn", "legal-placements") or not isinstance(records, list):
        return None
    return records


def layout_svg(ex: Explanation) -> str:
    """The case's layout (its legal prefix) as `fives render` draws it, the tiles its
    differences name marked as new tiles are; "" when the case has no layout."""
    from fives.draw.svg import render_layout
    from fives.evaluation import build_layout
    from fives.layout import IllegalPlacement
    from fives.rules import load_rules
    from fives.tiles import parse_tile

    case = ex.result.case
    records = _layout_records(case)
    if not records:
        return ""
    try:
        rules = load_rules(case.game)
    except Exception:  # a game this installation does not know: no picture, the text stays
        return ""
    layout = None
    for n in range(len(records), 0, -1):
        try:
            layout = build_layout(rules, records[:n])[0]
            break
        except IllegalPlacement:
            continue
    if layout is None:
        return ""
    named = set()
    for d in ex.differences:
        for text in (d.path, str(d.expected), str(d.actual), d.text):
            for t in _TILE.findall(text):
                try:
                    named.add(parse_tile(t))
                except ValueError:
                    pass
    marked = frozenset(t for t in named if t in layout)
    svg = render_layout(layout, legend=False, new=marked, title=f"{case.id}: the layout, "
                        + (f"marked: {', '.join(map(str, sorted(marked)))}" if marked else "no tile named by a difference"))
    # inline SVG in HTML needs no namespace: the page names no external address at all
    svg = svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
    return (f'<figure class="layout" data-case="{h(case.id)}" data-marked="{h(" ".join(map(str, sorted(marked))))}">'
            f"{svg}<figcaption class=\"muted\">{len(layout)} tile(s)"
            + (f"; marked (named by a difference): {h(', '.join(map(str, sorted(marked))))}" if marked else "")
            + "</figcaption></figure>")


def _vs_table(ex: Explanation) -> str:
    from fives.conformance.reports.explain import render

    rows = []
    for d in ex.differences:
        if d.kind == "note":
            rows.append(f'<tr><td colspan="3">{h(str(d))}</td></tr>')
            continue
        want = render(d.expected) if d.kind in ("differs", "missing", "missing-element") else "—"
        got = render(d.actual) if d.kind in ("differs", "unexpected", "unexpected-element") else "—"
        rows.append(f"<tr><td>{h(d.path or 'answer')}</td><td>{h(want)}</td><td>{h(got)}</td></tr>")
    if not rows and ex.message:
        rows.append(f'<tr><td colspan="3">{h(ex.message)}</td></tr>')
    return ('<table class="vs"><thead><tr><th>path</th><th>expected</th><th>got</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def case_block(ex: Explanation, drawn: bool) -> str:
    r = ex.result
    head = (f'<div class="case" data-case="{h(r.case.id)}"><b><code>{h(r.case.id)}</code></b> '
            f'<span class="muted">{h(r.status)} · {h(r.case.file)} · {h(", ".join(r.case.clauses))}</span>')
    if not drawn:
        first = str(ex.differences[0]) if ex.differences else ex.message
        return head + f'<div class="diff">{h(first[:300])}</div></div>'
    desc = f"<div>{h(r.case.description)}</div>" if r.case.description else ""
    return head + desc + f"<div>{layout_svg(ex)}{_vs_table(ex)}</div></div>"


def _cell(i: int, g: FailureGroup | None) -> str:
    if g is None:
        return f'<td class="cell none" data-engine="{i}" data-failed="0"></td>'
    shown = [case_block(ex, n < DRAWN_CASES) for n, ex in enumerate(g.explanations[:PATTERN_CASES])]
    if g.count > PATTERN_CASES:
        shown.append(f'<div class="muted more">… and {g.count - PATTERN_CASES} more cases with this pattern, not '
                     "listed here: every one is under its clauses in the table below, and in the JSON report "
                     "(<code>failures_by_pattern</code>)</div>")
    return (f'<td class="cell fail" data-engine="{i}" data-failed="{g.count}"><details class="cases"><summary>'
            f"{g.count} fail · {h(g.clause_text())}</summary>{''.join(shown)}</details></td>")


def patterns_section(runs: list[EngineRun], clauses: dict[str, Clause], cause_of: Cause | None = None) -> list[str]:
    """The section, or nothing when no engine fails a case (an all-pass page stays as it was)."""
    per_run = [{g.key: g for g in group_failures(run.results, clauses, cause_of)} for run in runs]
    totals: dict[str, int] = {}
    for groups in per_run:
        for key, g in groups.items():
            totals[key] = totals.get(key, 0) + g.count
    if not totals:
        return []
    what = "cause" if cause_of else "difference pattern"
    out = [f'<h2>Failures by {what}</h2><p class="muted">Each failing case counts once, under the {what} of its '
           "differences (the path and the shape of expected against got). Open a cell for its cases: the first "
           f"{DRAWN_CASES} are drawn as <code>fives render</code> draws them, the tiles a difference names marked, "
           "with expected against got beside the picture.</p>",
           f'<table id="patterns"><thead><tr><th>{what}</th>'
           + "".join(f'<th class="by-engine" data-engine="{i}"><code>{h(run.label)}</code></th>' for i, run in enumerate(runs))
           + "</tr></thead><tbody>"]
    for key in sorted(totals, key=lambda k: (-totals[k], k)):
        out.append(f'<tr data-pattern="{h(key)}"><th scope="row"><code>{h(key)}</code></th>'
                   + "".join(_cell(i, groups.get(key)) for i, groups in enumerate(per_run)) + "</tr>")
    out.append("</tbody></table>")
    return out
