"""`fives conformance`: run the fixtures through an engine, lint them."""
# lines: ~425 because `run` is one command whose many options (engines, filters, reports, rules, stopping) meet here
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, TextIO

import click

from fives.cli._case_filters import case_filter_options
from fives.cli._document import document_out
from fives.cli._rules_option import rules_option
from fives.cli._samples import fixture_roots
from fives.cli._seconds import Seconds
from fives.conformance.cases.fixtures import Case, default_roots, lint, load_cases
from fives.conformance.cases.profile_pins import select_run
from fives.conformance.cases.selection import CaseFilters, listing
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.reports.causes import diagnosis_causes
from fives.conformance.reports.formats import FORMATS
from fives.conformance.runner import load_known_failures, write_known_failures, write_not_started
from fives.conformance.sessions.run import RunOptions, RunOutcome, run_suite
from fives.support.colour import wants_colour
from fives.support.errors import EXIT_BAD_INPUT, EXIT_ENGINE, EXIT_FAILURES, EXIT_INTERRUPTED, EXIT_NO_CASES, EXIT_OK, UserError
from fives.support.progress import Progress
from fives.support.stop import signals_held
from fives.support.wording import plural
from fives.support.writing import check_outputs, write_output

if TYPE_CHECKING:
    from fives.conformance.cases.expected_under import ProfilePlan
    from fives.profiles import Profile


@click.group("conformance")
def conformance() -> None:
    """Conformance fixtures: run them against an engine, lint them, measure coverage."""


def _report_targets(reports: tuple[str, ...]) -> list[tuple[str, str | None]]:
    out = []
    for spec in reports:
        fmt, _, path = spec.partition(":")
        if fmt not in FORMATS:
            raise UserError(f"--report {spec}: unknown format {fmt!r} (one of {', '.join(FORMATS)}; add :FILE to write a file)")
        if fmt in ("html", "badge") and not path:  # a page, not lines: never poured onto a terminal by default
            what = "an HTML report" if fmt == "html" else "an SVG badge"
            document_out(None, what, f"--report {fmt}:FILE", f"--report {fmt}:-")
        out.append((fmt, None if path in ("", "-") else path))
    if sum(1 for _, p in out if p is None) > 1:
        raise UserError("only one --report may go to standard output; give the others a file: --report junit:out.xml")
    return out


@conformance.command("run")
@click.option("--engine", "commands", metavar="CMD", multiple=True,
              help='Engine command speaking spec/protocol.md, e.g. "fives serve" or "node engine.js". Default: the built-in reference engine, in process. Repeatable: the suite runs once per engine, one after another, and the reports compare them (see spec/reports.md).')
@click.option("--oneshot", is_flag=True, help="Start the engine once per case (request on stdin, reply on stdout).")
@click.option("--timeout", type=Seconds(), default=None, help="Seconds an engine may take per case of ordinary size before it is killed and restarted (its whole process group); the in-process reference engine stops the case. A bigger case gets this times its work (a perft row: its expected nodes over 50,000; spec/protocol.md, \"Time limits\"), and the report names the cases that used half their limit or more. 0: no limit. Default 10, except that slow cases run in process (--slow: deep perft rows, minutes by design) then have no limit.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Engine processes run at once (with --engine, persistent or --oneshot); the output, results and reports do not depend on N. The in-process engine runs one case at a time.")
@click.option("--validate", is_flag=True, help="Check every message both ways against spec/protocol/*.schema.json and the kind schemas.")
@click.option("--fixtures", "roots", multiple=True, type=fixture_roots(),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures and conformance/golden.")
@case_filter_options
@click.option("--report", "reports", multiple=True, metavar="FORMAT[:FILE]",
              help="Also write a report: json, junit, markdown, html (one self-contained page; with several --engine a clause x engine matrix) or badge (badge:FILE.svg: a small SVG for the engine's README: the games, passed out of run, the suite version and the --rules profile; one engine only); to FILE, or to stdout (the human summary then goes to stderr). Repeatable. Formats: spec/reports.md.")
@click.option("--results", "results_path", metavar="FILE",  # checked by us: one line, not click's usage text
              help="Stream each case's result to this JSON Lines file as it arrives.")
@click.option("--known-failures", "known_path", metavar="FILE",  # checked by us: one line, not click's usage text
              help="YAML `known_failures: {CASE-ID: reason}`: listed cases do not fail the run; ones that pass again are reported.")
@click.option("--write-known-failures", "write_known", metavar="FILE",  # checked by us: one line, not click's usage text
              help="Write every failing or erroring case of this run to a known-failures file.")
@click.option("--no-verify", "no_verify", is_flag=True,
              help="Run golden suites even if they do not match their manifest.yaml (by default such a suite, or golden files with no manifest, is refused: exit 2).")
@rules_option
@click.option("--unchanged-only", is_flag=True,
              help="With --rules: run only the cases the profile does not change (the others are skipped, reason given): for an engine that plays the seeds' rules only.")
@click.option("--diagnosis", "diagnosis_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="A diagnosis.json from `fives conformance diagnose --out DIR`: the human summary, the HTML page and the JSON report (failures_by_cause) group failures by its causes. With --rules P alone, failures P changes are grouped by the parameter of P that changes them.")
@click.option("-v", "--verbose", "verbose", count=True, help="Also list every case ID with its verdict (as pytest -v) and print the tables per rule area and per file.")
@click.option("-q", "--quiet", "quiet", count=True, help="Print the final line alone.")
@click.option("-x", "--exitfirst", "exitfirst", is_flag=True, help="Stop at the first failing or erroring case (--maxfail 1).")
@click.option("--maxfail", type=click.IntRange(min=1), metavar="N",
              help="Stop after N failing or erroring cases (known failures do not count); the reports cover the cases that ran.")
@click.option("--lf", "--last-failed", "last_failed", is_flag=True,
              help="Run only the cases that failed or errored in this engine command's last run (kept per engine command "
                   "in the user's cache folder); all selected cases when there is no record or it lists none of them.")
def run_cmd(commands: tuple[str, ...], oneshot: bool, timeout: float | None, jobs: int, validate: bool, roots: tuple[Path, ...],
            ids: tuple[str, ...], games: tuple[str, ...], kinds_: tuple[str, ...], caps: tuple[str, ...],
            deselect: tuple[str, ...], exclude: tuple[str, ...], slow: bool, reports: tuple[str, ...], results_path: str | None, known_path: str | None, write_known: str | None,
            no_verify: bool, profile: Profile | None, unchanged_only: bool, diagnosis_path: str | None, verbose: int,
            quiet: int, exitfirst: bool, maxfail: int | None, last_failed: bool) -> None:
    """Run every conformance case through an engine and report.

    Prints the engine, the failing clauses, each failure explained (description, clauses
    with their seed quotes, a difference per path), and a final line `N passed, N failed,
    N errored, N skipped` (in colour on a terminal; NO_COLOR, FORCE_COLOR); -v lists every case ID with its
    verdict and adds a summary per rule area and per file, -q prints the final line alone. With several --engine the suite runs once per
    engine and the reports compare them (--report html:FILE: a clause x engine matrix). Exit 0 when nothing failed or
    errored (known failures excepted), 1 otherwise, 2 for bad fixtures or options (an unwritable
    --report file is refused before the run), 3 when the engine never completed its handshake,
    5 when no case ran (the engine's scope leaves none, or it skipped every one: said in one
    line), 130 when interrupted by Ctrl-C and 143 by SIGTERM (the reports still cover every
    finished case; the final line is printed even with -q).
    """
    targets = _report_targets(reports)
    if unchanged_only and profile is None:
        raise UserError("--unchanged-only needs --rules PROFILE")
    _check_paths(roots, targets, results_path, write_known, known_path)
    if not no_verify:
        from fives.conformance.golden.manifest import check_fixture_roots
        check_fixture_roots(roots or None)
    verbosity = -1 if quiet > verbose else min(verbose - quiet, 1)
    if last_failed and len(commands) > 1:
        raise UserError("--lf takes a single --engine (each engine command keeps its own record: run them one by one)")
    human_out = sys.stderr if any(p is None for _, p in targets) else sys.stdout
    with _final_line_on_stop(human_out):
        filters = CaseFilters(ids, games, kinds_, caps, slow, deselect, exclude)
        cases, plan, notes = _choose(roots, filters, verbosity, profile, unchanged_only)
        known = load_known_failures(known_path) if known_path else {}
        causes = diagnosis_causes(diagnosis_path) if diagnosis_path is not None else {}
        engines = _engines(commands, oneshot, timeout, validate, profile, targets)
        options = RunOptions(engines, tuple(cases), known=known, plan=plan, jobs=jobs, maxfail=1 if exitfirst else maxfail,
                             results_path=results_path, targets=tuple(targets), causes=causes, last_failed=last_failed,
                             write_known=write_known, verbosity=verbosity, colour=wants_colour(human_out), notes=notes)
        outcome = run_suite(options, on_note=_note)
    _deliver(outcome, options, human_out)


@contextlib.contextmanager
def _final_line_on_stop(human_out: TextIO) -> Iterator[None]:
    """A run stopped before its cases ran (loading the suite, the engine's hello) still ends
    with its final line, `-q` or not: `0 passed, ...`, then `fives: interrupted`."""
    try:
        yield
    except KeyboardInterrupt:
        from fives.conformance.reports.formats import summary_line
        colour = wants_colour(human_out)
        _echo([], summary_line([], colour), file=human_out, color=colour)
        raise


def _check_paths(roots: tuple[Path, ...], targets: list[tuple[str, str | None]], results_path: str | None,
                 write_known: str | None, known_path: str | None) -> None:
    """Every file the run writes, refused before the suite loads if it would overwrite an input."""
    check_outputs([results_path, write_known, *(p for _, p in targets)], inputs=roots or default_roots(), run=True)
    check_outputs([results_path, *(p for _, p in targets)], inputs=[known_path], run=True)  # --write-known-failures may update it


def _choose(roots: tuple[Path, ...], filters: CaseFilters, verbosity: int, profile: Profile | None,
            unchanged_only: bool) -> tuple[list[Case], ProfilePlan | None, tuple[str, ...]]:
    """The selected cases, under --rules P their plan (the expectations under P and the cases
    pinning its values, which the filters select like the others), and the note on the slow
    ones left out (said once the run is under way)."""
    with Progress(None, "conformance: loading the suite"):
        chosen, plan = select_run(list(roots) or None, filters, profile, unchanged_only)
    left_out = chosen.slow_left_out
    if not left_out or verbosity < 0:
        return chosen.cases, plan, ()
    return chosen.cases, plan, (f"({plural(left_out, 'slow case')} left out: add --slow to run {'it' if left_out == 1 else 'them'})",)


def _engines(commands: tuple[str, ...], oneshot: bool, timeout: float | None, validate: bool, profile: Profile | None,
             targets: list[tuple[str, str | None]]) -> tuple[EngineSpec, ...]:
    if len(commands) > 1 and any(fmt == "badge" for fmt, _ in targets):
        raise UserError("--report badge: a badge is one engine's: run each --engine on its own for its badge")
    if oneshot and not commands:
        raise UserError("--oneshot needs --engine CMD")
    return tuple(EngineSpec(command, oneshot, timeout, validate, profile) for command in commands or (None,))


def _note(text: str) -> None:
    click.echo(text, err=True)


def _deliver(outcome: RunOutcome, options: RunOptions, human_out: TextIO) -> None:
    """Print the summary and the reports, write the files, exit with the run's code."""
    if outcome.not_started is not None:  # the reports and --results still say so: every case errored
        write_not_started(outcome.results, list(options.targets), options.results_path, FORMATS, options.plan)
        raise UserError(f"engine {options.engines[0].command!r}: {outcome.not_started}", EXIT_ENGINE)
    with signals_held():  # a second Ctrl-C must not leave half a report
        try:
            _print(outcome, options, human_out)
        finally:
            if outcome.stream_error is not None:
                raise outcome.stream_error  # last: a --results write error must not cost the reports
    if outcome.exit_code == EXIT_NO_CASES:  # nothing ran is not a pass: say why (spec/reports.md, "Exit codes")
        click.echo(f"fives: no case ran: {outcome.nothing_ran}", err=True)
    if outcome.exit_code != EXIT_OK:
        sys.exit(outcome.exit_code)


def _print(outcome: RunOutcome, options: RunOptions, human_out: TextIO) -> None:
    failed: list[OSError] = []  # a full stdout must not cost the file reports: raised after them
    _echo(failed, outcome.human, file=human_out, color=options.colour)
    for path, text in outcome.reports:
        if path:
            write_output(text, path)
        else:
            _echo(failed, text)
    if options.write_known and not outcome.several:
        n = write_known_failures(options.write_known, outcome.results)
        click.echo(f"wrote {plural(n, 'known failure')} to {options.write_known}", file=sys.stderr)
    if outcome.cache_note and options.verbosity >= 0:
        click.echo(f"fives: note: {outcome.cache_note}", err=True)
    if failed:
        raise failed[0]


def _echo(failed: list[OSError], text: str, **options: Any) -> None:
    try:
        click.echo(text, **options)
    except OSError as e:
        failed.append(e)


@conformance.command("list")
@click.option("--fixtures", "roots", multiple=True, type=fixture_roots(),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures, conformance/golden and conformance/perft.")
@case_filter_options
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON array of {id, kind, game, clauses, capability, file, tags} (with --rules also under_rules).")
@rules_option
def list_cmd(roots: tuple[Path, ...], ids: tuple[str, ...], games: tuple[str, ...], kinds_: tuple[str, ...],
             caps: tuple[str, ...], deselect: tuple[str, ...], exclude: tuple[str, ...], slow: bool, as_json: bool,
             profile: Profile | None) -> None:
    """List the cases `conformance run` would run with the same filters, one per line sorted
    by ID (ID, kind, game, clauses), without running anything. Exit 2 for a filter the suite has no
    case of, or filters that together select nothing. With --rules P each case also says
    whether P changes its expectation ("expected under P") or makes its input illegal."""
    filters = CaseFilters(ids, games, kinds_, caps, slow, deselect, exclude)
    chosen, plan = select_run(list(roots) or None, filters, profile)  # under --rules P, its pins listed too
    under = {}
    if plan is not None:
        under = {c.id: "changed" if c.id in plan.changed else "illegal" if c.id in plan.illegal else "unchanged"
                 for c in chosen.cases}
    chosen.cases.sort(key=lambda c: c.id)  # sorted by ID (issue 40): a case is found where a reader looks for it
    if as_json:
        import json
        rows = listing(chosen.cases)
        for row in rows if under else []:
            row["under_rules"] = under[row["id"]]
            if row["id"] in plan.illegal:
                row["illegal"] = plan.illegal[row["id"]]
        click.echo(json.dumps(rows, indent=1))
    elif chosen.cases:
        width = max(len(c.id) for c in chosen.cases)
        note = {"changed": f"  (expected under {getattr(profile, 'name', '')})",
                "illegal": f"  (illegal under {getattr(profile, 'name', '')})", "unchanged": ""}
        click.echo("\n".join(f"{c.id:<{width}}  {c.kind:<16}  {c.game:<14}  {', '.join(c.clauses)}"
                             + (note[under[c.id]] if under else "") for c in chosen.cases))
    slow_note = f" ({chosen.slow_left_out} slow cases left out: add --slow)" if chosen.slow_left_out else ""
    count = len(chosen.cases)
    if under:
        slow_note += (f"; under {profile.name}: {sum(v == 'changed' for v in under.values())} expected under it, "
                      f"{sum(v == 'illegal' for v in under.values())} illegal")
    click.echo(f"{count} case{'' if count == 1 else 's'}{slow_note}", err=True)


@conformance.command("lint")
@click.argument("roots", nargs=-1, type=fixture_roots())
def lint_cmd(roots: tuple[Path, ...]) -> None:
    """Validate fixture files against conformance/schema/, check IDs are unique, clauses
    exist in spec/rules.md and every seed quote is verbatim under its heading. Exit 2 on
    any problem, one line each."""
    count, problems = lint(roots or None)
    for p in problems:
        click.echo(p, err=True)
    click.echo(f"{plural(count, 'case')}, {plural(len(problems), 'problem')}")
    if problems:
        sys.exit(EXIT_BAD_INPUT)


@conformance.command("coverage")
@click.option("--fixtures", "roots", multiple=True, type=fixture_roots(),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures and conformance/golden.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--ids", "show_ids", type=int, default=4, show_default=True, help="Case IDs shown per clause.")
def coverage_cmd(roots: tuple[Path, ...], as_json: bool, show_ids: int) -> None:
    """List every clause of spec/rules.md with the fixtures that exercise it (seed-cited,
    then derived: hand-written and golden). Exit 1 if any clause has none."""
    import json

    from fives.conformance.cases.coverage import coverage
    cases = load_cases(roots or None)
    table = coverage(cases)
    empty = [row.clause.id for row in table if row.total == 0]
    bare: list[str] = []
    if as_json:
        click.echo(json.dumps([{"clause": r.clause.id, "title": r.clause.title, "seed": list(r.seed_cases),
                                "derived": list(r.derived_cases)} for r in table], indent=1))
    else:
        for r in table:
            sample = ", ".join((r.seed_cases + r.derived_cases)[:show_ids])
            more = f" +{r.total - show_ids}" if r.total > show_ids else ""
            mark = "  " if r.total else "!!"
            click.echo(f"{mark} {r.clause.id:<14} seed {len(r.seed_cases):4d}  derived {len(r.derived_cases):6d}  "
                       f"{r.clause.title[:40]:<40}  {sample}{more}")
        if not roots:  # spec/variants.md: every non-default rule value has a case played under it
            from fives.conformance.cases.coverage import parameter_lines

            lines, bare = parameter_lines(cases, show_ids)
            click.echo("\n".join(lines))
        click.echo(f"{plural(len(table), 'clause')}, {len(table) - len(empty)} covered, {len(empty)} without a fixture"
                   + (f": {', '.join(empty)}" if empty else ""))
    if empty or bare:
        sys.exit(EXIT_FAILURES)


@conformance.command("mutants")
@click.option("--list", "list_only", is_flag=True, help="List the mutants and their misreadings, run nothing.")
@click.option("--mutant", "names", multiple=True, help="Only this mutant (repeatable).")
@click.option("--fixtures", "roots", multiple=True, type=fixture_roots(),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures and conformance/golden.")
@click.option("--in-process", is_flag=True, help="Run mutants in process instead of through `fives serve --mutant` (faster).")
@click.option("--jobs", type=int, default=2, show_default=True, help="Mutants run at once.")
@click.option("--timeout", type=Seconds(), default=20.0, show_default=True, help="Seconds per case.")
@click.option("--json", "as_json", is_flag=True, help="Print the kill matrix as JSON.")
@click.option("--show", type=int, default=5, show_default=True, help="Killing fixtures shown per mutant.")
@rules_option
def mutants_cmd(list_only: bool, names: tuple[str, ...], roots: tuple[Path, ...], in_process: bool, jobs: int,
                timeout: float, as_json: bool, show: int, profile: Profile | None) -> None:
    """Run the whole suite against every mutant engine (each with one classic misreading)
    through the protocol, and print the kill matrix: which fixtures kill which mutant and
    the rule clauses those fixtures test. Exit 0 only if every mutant is killed; 130 on Ctrl-C
    and 143 on SIGTERM (the mutants finished so far are printed, every mutant engine killed)."""
    from fives.conformance.sessions.mutants import (MutantsOptions, interruption, kill_matrix, listing, matrix_json,
                                                    matrix_text, select_mutants, summary)
    if list_only:
        click.echo(listing(select_mutants(names)), nl=False)
        return
    matrix = kill_matrix(MutantsOptions(names, roots, in_process, jobs, timeout, profile))
    click.echo(matrix_json(matrix) if as_json else matrix_text(matrix, show), nl=as_json)
    click.echo(summary(matrix), err=as_json)
    if matrix.interrupted:
        click.echo(interruption(matrix), err=True)
        sys.exit(EXIT_INTERRUPTED)  # 143 after SIGTERM: the CLI's one Stop (fives/cli/__init__.py)
    if matrix.survivors:
        sys.exit(EXIT_FAILURES)


@conformance.command("diff")
@click.argument("old", metavar="OLD.json")
@click.argument("new", metavar="NEW.json")
def diff_cmd(old: str, new: str) -> None:
    """Compare two `conformance run --report json` files: the cases that newly fail, newly
    pass, and changed (status, differences or message), one line each. Exit 1 if any case
    newly fails, 0 otherwise, 2 for a file that is not such a report."""
    from fives.conformance.reports.diff import diff_files
    result = diff_files(old, new)
    click.echo(result.text())
    if result.newly_failing:
        sys.exit(EXIT_FAILURES)


def register(main: click.Group) -> None:
    main.add_command(conformance)
    from fives.cli.conformance_fuzz import add_to  # `conformance fuzz` lives in its own module
    add_to(conformance)
    from fives.cli.conformance_new_engine import add_to as add_new_engine  # so does `conformance new-engine`
    add_new_engine(conformance)
