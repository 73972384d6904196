"""`fives conformance fuzz`: differential fuzzing with shrinking (spec/fuzz.md).

A module of its own that adds the command to the `conformance` group, so the group's file
stays as it is."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fives.cli._seconds import Seconds, SecondsRange

from fives.support.errors import EXIT_ENGINE, EXIT_FAILURES, EXIT_INTERRUPTED, UserError
from fives.cli._rules_option import rules_option

if TYPE_CHECKING:
    from fives.conformance.fuzz import FuzzReport
    from fives.profiles import Profile


@click.command("fuzz")
@click.option("--engine", "command", metavar="CMD", required=True,
              help='Engine command speaking spec/protocol.md, e.g. "fives serve --mutant zero-sum-scores".')
@click.option("--game", "games", multiple=True, help="Only this game (repeatable). Default: every game, in turn.")
@click.option("--kind", "kinds_", multiple=True,
              help="Only requests of this kind (repeatable): evaluate, turn, settle, match-end, legal-placements, "
                   "setup, next-leader, tally, perft.")
@click.option("--cases", type=click.IntRange(min=1), help="Stop after this many requests drawn (default 500).")
@click.option("--seconds", type=SecondsRange(min=0, min_open=True),
              help="Stop drawing after this many seconds (a shrink in progress completes).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the request generators.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the fixture files, one per disagreement (created if missing). It must be new or "
                   "empty, unless --force; the files are written as one set, renamed into place.")
@click.option("--force", is_flag=True,
              help="Replace the findings in a non-empty --out folder (only a folder holding nothing but fixture files).")
@click.option("--oneshot", is_flag=True, help="Start the engine once per request.")
@click.option("--timeout", type=Seconds(), default=10.0, show_default=True, help="Seconds an engine may take per request.")
@click.option("--shrink-budget", type=click.IntRange(min=0), default=3000, show_default=True,
              help="Engine requests one shrink may spend.")
@rules_option
def fuzz_cmd(command: str, games: tuple[str, ...], kinds_: tuple[str, ...], cases: int | None, seconds: float | None,
             seed: int, out: Path, oneshot: bool, timeout: float, shrink_budget: int, force: bool = False,
             profile: Profile | None = None) -> None:
    """Ask an engine and the reference engine the same generated requests (the golden suites'
    generators: layouts, illegal placements, turns with continuations and draws, settlements,
    match ends); shrink every distinct disagreement to a minimal request (fewest players,
    placements, hand and boneyard tiles) that still disagrees the same way, and write it to
    OUT as a fixture file (the reference's answer expected) that `fives conformance run
    --engine CMD --fixtures OUT` runs.

    Prints one line per disagreement, grouped by the clause it breaks, then a summary. The
    same seed and --cases give the same requests, findings and files. Exit 0 when the engine
    agreed on everything, 1 when it disagreed, 2 for bad options, 3 when the engine cannot be
    started, 130 on Ctrl-C and 143 on SIGTERM (the findings so far are written first, and the
    engine's whole process group killed). Engine errors (a crash, a
    timeout, a reply that is no answer) are listed apart, as engine errors, never as rule
    findings; they also exit 1. So is an engine that answers the same request two ways: every
    finding is asked again (twice, and once of the engine started afresh) before it is written,
    and one whose reply changes is reported with the request and both replies, not written.
    """
    from fives.cli.conformance_diagnose import check_games
    from fives.conformance.engines.handle import EngineSpec, EngineStartError
    from fives.conformance.sessions.fuzz import FuzzOptions, check_out, fuzz, write_findings

    if cases is not None and seconds is not None:
        raise UserError("give --cases or --seconds, not both")
    check_games(games)
    _check_kinds(kinds_)
    check_out(out, force)
    options = FuzzOptions(EngineSpec(command, oneshot=oneshot, timeout=timeout), games, kinds_,
                          500 if cases is None and seconds is None else cases, seconds, seed, shrink_budget, profile)
    try:
        report = fuzz(options)
    except EngineStartError as e:
        raise UserError(f"engine {command!r}: {e}", EXIT_ENGINE) from None
    _report(report, write_findings(report, out, options, force), command, out)
    if report.interrupted:
        sys.exit(EXIT_INTERRUPTED)  # 143 after SIGTERM (fives/cli/__init__.py)
    if report.findings or report.engine_errors or report.inconsistent:
        sys.exit(EXIT_FAILURES)


def _check_kinds(kinds_: tuple[str, ...]) -> None:
    from fives.conformance.fuzz import fuzz_kinds

    known = fuzz_kinds()
    for k in kinds_:
        if k not in known:
            raise UserError(f"--kind {k}: the fuzzer makes no such requests (one of {', '.join(known)})")


def _report(report: FuzzReport, paths: dict[str, Path], command: str, out: Path) -> None:
    """The findings on stdout, grouped by clause, and the summary; the timings on stderr."""
    from fives.conformance.fuzz.output import engine_error_lines, report_lines, summary, timing_lines
    from fives.conformance.fuzz.recheck import lines as inconsistency_lines

    for line in report_lines(report, paths):
        click.echo(line)
    for line in engine_error_lines(report):
        click.echo(line)
    for line in inconsistency_lines(report.inconsistent):
        click.echo(line)
    click.echo(summary(report))
    for line in timing_lines(report):
        click.echo(line, err=True)
    if report.findings:
        click.echo(f"run them: fives conformance run --engine {command!r} --fixtures {out}", err=True)


def add_to(group: click.Group) -> None:
    """Called by fives/cli/conformance.py's register (no `register` here: this module adds
    no top-level command)."""
    from fives.cli.conformance_diagnose import diagnose_cmd  # `conformance diagnose`: its own module

    group.add_command(fuzz_cmd)
    group.add_command(diagnose_cmd)
