"""Conformance reports: a human summary, JSON, JUnit XML and Markdown."""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .engine import Handshake
from .runner import CaseResult

STATUSES = ("passed", "failed", "errored", "skipped")


def area_of(result: CaseResult) -> str:
    """The rule area a case exercises: its first clause without the number (e.g. SN-COUNT)."""
    return result.case.clauses[0].rsplit("-", 1)[0] if result.case.clauses else "(none)"


def counts(results: list[CaseResult]) -> Counter[str]:
    c: Counter[str] = Counter()
    for r in results:
        c[r.status if r.known is None or r.status in ("passed", "skipped") else "known"] += 1
    return c


def summary_line(results: list[CaseResult]) -> str:
    c = counts(results)
    line = f"{c['passed']} passed, {c['failed']} failed, {c['errored']} errored, {c['skipped']} skipped"
    # known failures are in none of the four counts: say so, or the total would not add up
    return line + (f", {c['known']} known failure{'s' * (c['known'] != 1)}" if c["known"] else "")


def _table(groups: dict[str, list[CaseResult]], title: str) -> list[str]:
    lines = [f"{title}:"]
    width = max((len(k) for k in groups), default=10)
    for key in sorted(groups):
        c = counts(groups[key])
        lines.append(f"  {key:<{width}}  {c['passed']:4d} passed {c['failed']:3d} failed "
                     f"{c['errored']:3d} errored {c['skipped']:3d} skipped")
    return lines


def human(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False,
          verbose_failures: int = 50) -> str:
    lines: list[str] = []
    if handshake:
        lines.append(f"engine: {handshake.name} {handshake.version} ({handshake.language}); "
                     f"games: {', '.join(handshake.games)}; capabilities: {', '.join(handshake.capabilities)}")
    by_area: dict[str, list[CaseResult]] = defaultdict(list)
    by_file: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_area[area_of(r)].append(r)
        by_file[r.case.file].append(r)
    lines += _table(by_area, "by rule area")
    lines += _table(by_file, "by file")
    bad = [r for r in results if r.status in ("failed", "errored")]
    if bad:
        lines.append("failures:")
    for r in bad[:verbose_failures]:
        tag = f" (known: {r.known})" if r.known else ""
        lines.append(f"  {r.status.upper()} {r.case.id} [{r.case.file}]{tag}")
        for d in r.diffs[:6]:
            lines.append(f"    {d}")
        o = r.outcome
        if o and o.message:
            lines.append(f"    {o.message}")
        if o and o.raw:
            lines.append(f"    raw reply: {o.raw.strip()[:200]}")
        if o and o.stderr:
            tail = [ln for ln in o.stderr.strip().splitlines() if ln.strip()][-3:]
            for ln in tail:
                lines.append(f"    stderr: {ln[:200]}")
    if len(bad) > verbose_failures:
        lines.append(f"  ... and {len(bad) - verbose_failures} more (use --report json for all)")
    known = [r for r in results if r.known is not None]
    fixed = [r for r in known if r.status == "passed"]
    if known:
        lines.append(f"known failures: {len(known) - len(fixed)} still failing, {len(fixed)} now passing"
                     + (f": {', '.join(r.case.id for r in fixed)}" if fixed else ""))
    if interrupted:
        lines.append("interrupted: the results above cover the cases that finished")
    lines.append(summary_line(results))
    return "\n".join(lines)


def to_json(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False) -> str:
    c = counts(results)
    doc: dict[str, Any] = {
        "engine": handshake.raw or {"name": handshake.name, "version": handshake.version} if handshake else None,
        "summary": {s: c[s] for s in STATUSES} | {"known": c["known"], "interrupted": interrupted},
        "cases": [r.to_dict() for r in results],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1)


def to_junit(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False) -> str:
    by_file: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_file[r.case.file].append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    c = counts(results)
    name = handshake.name if handshake else "engine"
    out.append(f'<testsuites name={quoteattr("fives conformance: " + name)} tests="{len(results)}" '
               f'failures="{c["failed"]}" errors="{c["errored"]}" skipped="{c["skipped"] + c["known"]}">')
    for file in sorted(by_file):
        rs = by_file[file]
        fc = counts(rs)
        time = sum(r.outcome.seconds for r in rs if r.outcome)
        out.append(f'  <testsuite name={quoteattr(file)} tests="{len(rs)}" failures="{fc["failed"]}" '
                   f'errors="{fc["errored"]}" skipped="{fc["skipped"] + fc["known"]}" time="{time:.3f}">')
        for r in rs:
            t = r.outcome.seconds if r.outcome else 0.0
            out.append(f'    <testcase name={quoteattr(r.case.id)} classname={quoteattr(file)} time="{t:.4f}">')
            msg = "; ".join(r.diffs) or (r.outcome.message if r.outcome else "")
            body = escape("\n".join(r.diffs + ([r.outcome.message] if r.outcome and r.outcome.message else [])
                                    + ([f"raw: {r.outcome.raw}"] if r.outcome and r.outcome.raw else [])))
            if r.status == "failed" and r.known is None:
                out.append(f'      <failure message={quoteattr(msg[:500])}>{body}</failure>')
            elif r.status == "errored" and r.known is None:
                out.append(f'      <error message={quoteattr(msg[:500])}>{body}</error>')
            elif r.status == "skipped" or r.known is not None:
                reason = f"known failure: {r.known}" if r.known is not None else msg
                out.append(f'      <skipped message={quoteattr(reason[:500])}/>')
            if r.outcome and r.outcome.stderr:
                out.append(f"      <system-err>{escape(r.outcome.stderr)}</system-err>")
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out)


def to_markdown(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False) -> str:
    c = counts(results)
    icon = "✅" if not c["failed"] and not c["errored"] else "❌"
    lines = [f"## {icon} fives conformance" + (f": {handshake.name} {handshake.version}" if handshake else ""), "",
             f"**{summary_line(results)}**" + (" (interrupted)" if interrupted else ""), "",
             "| rule area | passed | failed | errored | skipped |", "|---|---:|---:|---:|---:|"]
    by_area: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_area[area_of(r)].append(r)
    for area in sorted(by_area):
        ac = counts(by_area[area])
        lines.append(f"| {area} | {ac['passed']} | {ac['failed']} | {ac['errored']} | {ac['skipped']} |")
    bad = [r for r in results if r.counts_as_failure]
    if bad:
        lines += ["", "### Failures", "", "| case | status | file | first difference |", "|---|---|---|---|"]
        for r in bad[:200]:
            first = (r.diffs[0] if r.diffs else (r.outcome.message if r.outcome else "")).replace("|", "\\|")
            lines.append(f"| `{r.case.id}` | {r.status} | `{r.case.file}` | {first[:200]} |")
    return "\n".join(lines) + "\n"


FORMATS = {"json": to_json, "junit": to_junit, "markdown": to_markdown}
