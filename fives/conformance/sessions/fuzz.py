"""The fuzzing session (`fives conformance fuzz`, spec/fuzz.md): an engine and the reference
asked the same generated requests, every distinct disagreement shrunk to a minimal request,
and the findings written as fixture files that `conformance run --fixtures DIR` runs.

`fuzz(options)` starts the engine (`options.engine`, its profile set to `options.profile`),
draws and shrinks, closes the engine (its whole process group killed) and returns the
`FuzzReport` (fives/conformance/fuzz/); Ctrl-C returns what was found so far, `interrupted`.
`write_findings(report, out, options)` writes them as one set into a new or emptied folder."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fives.conformance.engines.handle import EngineSpec
    from fives.conformance.fuzz import FuzzReport
    from fives.profiles import Profile

__all__ = ["FuzzOptions", "check_out", "fixture_files_only", "fuzz", "write_findings"]


@dataclass(frozen=True)
class FuzzOptions:
    """What to fuzz: `engine`, the `games` and request `kinds` (empty: all the fuzzer makes),
    until `cases` draws or `seconds` (None: that limit unset; the CLI's default is 500 draws),
    the generators' `seed`, the engine requests one shrink may spend (`shrink_budget`) and the
    rule `profile` the requests are drawn and answered under (None: the seeds')."""

    engine: EngineSpec
    games: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    cases: int | None = 500
    seconds: float | None = None
    seed: int = 0
    shrink_budget: int = 3000
    profile: Profile | None = None


def fuzz(options: FuzzOptions) -> FuzzReport:
    """Draw, ask, shrink; EngineStartError when the engine cannot be started."""
    from fives.conformance.fuzz import Fuzzer
    from fives.support.progress import Progress

    engine, _ = options.engine.with_profile(options.profile).start()
    try:
        fuzzer = Fuzzer(engine, options.games or None, options.kinds or None, options.seed, options.shrink_budget,
                        options.profile)
        with Progress(options.cases, "fuzz") as bar:
            report = fuzzer.run(cases=options.cases, seconds=options.seconds,
                                on_draw=lambda i, r: bar.advance(note=f"{len(r.findings)} found"))
    finally:
        engine.close()
    if not report.interrupted:
        _asked_afresh(options, report)
    return report


def _asked_afresh(options: FuzzOptions, report: FuzzReport) -> None:
    """Each finding asked once more of the engine started again (fuzz/recheck.py): an engine whose
    answers drift with the requests it has had answers a re-run's first requests otherwise."""
    from fives.conformance.engines.handle import EngineStartError
    from fives.conformance.fuzz.recheck import FRESH, changed

    if not report.findings:
        return
    try:
        engine, _ = options.engine.with_profile(options.profile).start()
    except EngineStartError:
        return  # it started once: a second start that fails leaves the findings as asked again
    kept = []
    try:
        for f in report.findings:
            odd, asked = changed(engine, f.game, f.kind, f.input, f.expected, f.actual, f"finding {f.id}", 1, FRESH)
            report.requests += asked
            (report.inconsistent.append(odd) if odd else kept.append(f))
    except KeyboardInterrupt:
        report.interrupted = True  # the findings not yet asked are not written
    finally:
        engine.close()
    report.findings = kept


def fixture_files_only(folder: Path) -> list[Path]:
    """Every file in `folder` when all are fixture files (`*.yaml`); UserError naming the first
    that is not (--force replaces only such a folder)."""
    from fives.support.errors import UserError
    from fives.support.sanitize import clean_name

    files = sorted(folder.iterdir())
    for f in files:
        if not (f.suffix == ".yaml" and f.is_file() and not f.is_symlink()):
            raise UserError(f"--out {clean_name(str(folder))}: holds {clean_name(str(f))}, which fuzz does not write: "
                            "--force replaces only fuzz findings; move it away or choose another --out")
    return files


def check_out(out: Path, force: bool) -> None:
    """UserError, before any work, for an --out folder that cannot take the findings."""
    from fives.support.errors import UserError
    from fives.support.staging import check_out as check_folder

    if out.exists() and not out.is_dir():  # the wording of earlier versions, kept
        raise UserError(f"--out {out}: not a folder")
    check_folder(out, force, fixture_files_only, "findings")


def write_findings(report: FuzzReport, out: Path, options: FuzzOptions, force: bool = False) -> dict[str, Path]:
    """One fixture file per finding into `out`, written as one set (staged, renamed into place;
    a second signal held off); the path of each finding's file, by case id."""
    from fives.conformance.fuzz.output import write_findings as write_files
    from fives.support.staging import staged_folder
    from fives.support.stop import signals_held

    with signals_held(), staged_folder(out, force, fixture_files_only, "findings") as stage:
        written = write_files(report.findings, stage, options.seed, options.profile)
    return {p.stem: out / p.name for p in written}
