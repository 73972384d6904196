"""Fuzz findings as fixture files and as report lines."""
from __future__ import annotations

from pathlib import Path

import yaml

from fives.conformance.clauses import load_clauses
from fives.support.writing import write_output
from fives.conformance.fuzz import GENERATOR_VERSION, Finding, FuzzReport

#: Not the golden header (fives/conformance/golden/manifest.py): a fuzz folder needs no manifest.
HEADER = "# Found by fives conformance fuzz {version} (seed {seed}); the expected answer is the reference engine's.\n"


def fixture_text(finding: Finding, seed: int) -> str:
    case = finding.case(seed)
    body = yaml.safe_dump([case], allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)
    title = yaml.safe_dump(f"fuzz: {finding.clause}, {finding.kind} differs in {', '.join(finding.keys)}",
                           allow_unicode=True, width=1000).strip()
    if title.endswith("..."):
        title = title[:-3].strip()
    return (HEADER.format(version=GENERATOR_VERSION, seed=seed)
            + f"format: fives-fixtures/1\ntitle: {title}\ncases:\n" + body)


def write_findings(findings: list[Finding], out: Path, seed: int) -> list[Path]:
    """One file per finding, `<case id>.yaml`, written atomically; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for f in findings:
        path = out / f"{f.id}.yaml"
        write_output(fixture_text(f, seed), path)
        paths.append(path)
    return paths


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe_size(f: Finding) -> str:
    s = f.size
    parts = [_plural(s["placements"], "placement")]
    if f.kind != "evaluate":
        parts += [_plural(s["hand_tiles"], "hand tile"), _plural(s["boneyard"], "boneyard tile"),
                  _plural(s["players"], "player")]
    return ", ".join(parts)


def report_lines(report: FuzzReport, paths: dict[str, Path]) -> list[str]:
    """One line per finding, grouped (sorted) by the clause it breaks."""
    clauses = load_clauses()
    order = {cid: i for i, cid in enumerate(clauses)}
    lines = []
    for f in sorted(report.findings, key=lambda f: (order.get(f.clause, len(order)), f.clause, f.id)):
        title = clauses[f.clause].title if f.clause in clauses else "?"
        where = paths.get(f.id)
        lines.append(f"{f.clause} ({title}): {f.id}: {f.kind} differs in {', '.join(f.keys)}; {describe_size(f)}"
                     + (f" -> {where}" if where else ""))
    return lines


def summary(report: FuzzReport) -> str:
    rate = report.requests / report.seconds if report.seconds > 0 else 0.0
    clauses = len({f.clause for f in report.findings})
    return (f"{report.draws} requests drawn, {report.requests} sent to the engine ({rate:.0f}/s)"
            + (f", {report.skipped} skipped (not declared by the engine)" if report.skipped else "")
            + f"; {_plural(len(report.findings), 'disagreement')} in {_plural(clauses, 'clause')}"
            + (" (interrupted)" if report.interrupted else ""))
