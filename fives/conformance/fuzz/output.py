"""Fuzz findings as fixture files and as report lines."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from fives.conformance.cases.clauses import load_clauses
from fives.support.sanitize import one_line
from fives.support.writing import write_output
from fives.conformance.fuzz import GENERATOR_VERSION, Finding, FuzzReport

if TYPE_CHECKING:
    from fives.profiles import Profile

#: Not the golden header (fives/conformance/golden/manifest.py): a fuzz folder needs no manifest.
HEADER = "# Found by fives conformance fuzz {version} (seed {seed}); the expected answer is the reference engine's.\n"


def fixture_text(finding: Finding, seed: int, profile: Profile | None = None) -> str:
    case = finding.case(seed)
    body = yaml.safe_dump([case], allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)
    title = yaml.safe_dump(f"fuzz: {finding.clause}, {finding.kind} differs in {', '.join(finding.keys)}",
                           allow_unicode=True, width=1000).strip()
    if title.endswith("..."):
        title = title[:-3].strip()
    rules = ""
    if profile is not None and profile.extends == finding.game and profile.overrides:  # found under --rules P
        rules = yaml.safe_dump({"rules": {"name": profile.name, "source": profile.source or "fives conformance fuzz --rules",
                                          "rules": {k: profile.overrides[k] for k in sorted(profile.overrides)}}},
                               allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)
    return (HEADER.format(version=GENERATOR_VERSION, seed=seed)
            + f"format: fives-fixtures/1\ntitle: {title}\n" + rules + "cases:\n" + body)


def write_findings(findings: list[Finding], out: Path, seed: int, profile: Profile | None = None) -> list[Path]:
    """One file per finding, `<case id>.yaml`, written atomically; returns the paths. Under
    --rules P each file says so (`rules`), so `conformance run` plays its case under P."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for f in findings:
        path = out / f"{f.id}.yaml"
        write_output(fixture_text(f, seed, profile), path)
        paths.append(path)
    return paths


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe_size(f: Finding) -> str:
    s = f.size
    parts = [_plural(s["placements"], "placement")]
    if f.kind not in ("evaluate", "perft", "tally"):  # no seats in a layout or a score
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
        lines.append(f"{f.clause} ({title}): {f.id}: {f.kind} differs in {', '.join(f.keys)}; {describe_size(f)}; "
                     f"found after {_plural(f.requests_to_find, 'request')}" + (f" -> {where}" if where else ""))
    return lines


def timing_lines(report: FuzzReport) -> list[str]:
    """How long each finding took to find and to shrink (seconds vary from run to run, so
    these go to standard error, not into the deterministic lines)."""
    return [f"{f.id}: found after {f.requests_to_find} requests, {f.seconds_to_find:.2f} s; shrunk with "
            f"{f.shrink_requests} requests, {f.seconds_to_shrink:.2f} s"
            + (f"; {f.merged} other signature(s) shrank to the same cause" if f.merged else "")
            for f in report.findings]


def engine_error_lines(report: FuzzReport) -> list[str]:
    """Engine errors, apart from the rule findings: one line per kept example."""
    return [f"engine error ({e.what}): {e.game} {e.kind} request (draw {e.draw}): {one_line(e.message, 200)}"
            + (f" (and {e.count - 1} more like it)" if e.count > 1 else "") for e in report.engine_errors]


def summary(report: FuzzReport) -> str:
    rate = report.requests / report.seconds if report.seconds > 0 else 0.0
    clauses = len({f.clause for f in report.findings})
    return (f"{report.draws} requests drawn, {report.requests} sent to the engine ({rate:.0f}/s)"
            + (f", {report.skipped} skipped (not declared by the engine)" if report.skipped else "")
            + f"; {_plural(len(report.findings), 'disagreement')} in {_plural(clauses, 'clause')}"
            + (f"; {_plural(sum(e.count for e in report.engine_errors), 'engine error')}" if report.engine_errors else "")
            + (f"; {_plural(len(report.inconsistent), 'request')} answered inconsistently (not written)"
               if report.inconsistent else "")
            + (" (interrupted)" if report.interrupted else ""))
