"""`fives conformance`: run the fixtures through an engine, lint them."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from fives.conformance.drivers import EngineStartError
from fives.conformance.process import make_engine
from fives.support.errors import (
    EXIT_BAD_INPUT,
    EXIT_ENGINE,
    EXIT_FAILURES,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    UserError,
)
from fives.conformance.fixtures import lint, load_cases
from fives.support.writing import write_output
from fives.conformance.kinds import load_kinds
from fives.support.progress import Progress
from fives.conformance.reports import FORMATS, human
from fives.conformance.runner import (
    CaseResult,
    ResultStream,
    check_outputs,
    load_known_failures,
    run_cases,
    sigterm_as_interrupt,
    signals_held,
    write_known_failures,
)
from fives.conformance.selection import CaseFilters, listing, load_selection
from fives.cli._case_filters import case_filter_options


@click.group("conformance")
def conformance() -> None:
    """Conformance fixtures: run them against an engine, lint them, measure coverage."""


def _report_targets(reports: tuple[str, ...]) -> list[tuple[str, str | None]]:
    out = []
    for spec in reports:
        fmt, _, path = spec.partition(":")
        if fmt not in FORMATS:
            raise UserError(f"--report {spec}: unknown format {fmt!r} (one of {', '.join(FORMATS)}; add :FILE to write a file)")
        out.append((fmt, path or None))
    if sum(1 for _, p in out if p is None) > 1:
        raise UserError("only one --report may go to standard output; give the others a file: --report junit:out.xml")
    return out


@conformance.command("run")
@click.option("--engine", "commands", metavar="CMD", multiple=True,
              help='Engine command speaking spec/protocol.md, e.g. "fives serve" or "node engine.js". Default: the built-in reference engine, in process. Repeatable: the suite runs once per engine, one after another, and the reports compare them (see spec/reports.md).')
@click.option("--oneshot", is_flag=True, help="Start the engine once per case (request on stdin, reply on stdout).")
@click.option("--timeout", type=float, default=None, help="Seconds an engine may take per case before it is killed and restarted (its whole process group); the in-process reference engine stops the case. 0: no limit. Default 10, except that slow cases run in process (--slow: deep perft rows, minutes by design) then have no limit.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Engine processes run at once (with --engine, persistent or --oneshot); the output, results and reports do not depend on N. The in-process engine runs one case at a time.")
@click.option("--validate", is_flag=True, help="Check every message both ways against spec/protocol/*.schema.json and the kind schemas.")
@click.option("--fixtures", "roots", multiple=True, type=click.Path(path_type=Path),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures and conformance/golden.")
@case_filter_options
@click.option("--report", "reports", multiple=True, metavar="FORMAT[:FILE]",
              help="Also write a report: json, junit, markdown or html (one self-contained page; with several --engine a clause x engine matrix); to FILE, or to stdout (the human summary then goes to stderr). Repeatable. Formats: spec/reports.md.")
@click.option("--results", "results_path", metavar="FILE",  # checked by us: one line, not click's usage text
              help="Stream each case's result to this JSON Lines file as it arrives.")
@click.option("--known-failures", "known_path", metavar="FILE",  # checked by us: one line, not click's usage text
              help="YAML `known_failures: {CASE-ID: reason}`: listed cases do not fail the run; ones that pass again are reported.")
@click.option("--write-known-failures", "write_known", metavar="FILE",  # checked by us: one line, not click's usage text
              help="Write every failing or erroring case of this run to a known-failures file.")
@click.option("--no-verify", "no_verify", is_flag=True,
              help="Run golden suites even if they do not match their manifest.yaml (by default such a suite, or golden files with no manifest, is refused: exit 2).")
def run_cmd(commands: tuple[str, ...], oneshot: bool, timeout: float | None, jobs: int, validate: bool, roots: tuple[Path, ...],
            ids: tuple[str, ...], games: tuple[str, ...], kinds_: tuple[str, ...], caps: tuple[str, ...], slow: bool,
            reports: tuple[str, ...], results_path: str | None, known_path: str | None, write_known: str | None,
            no_verify: bool) -> None:
    """Run every conformance case through an engine and report.

    Prints the failing clauses, a summary per rule area and per file, each failure explained
    (description, clauses with their seed quotes, a difference per path), and a final line
    `N passed, N failed, N errored, N skipped`. With several --engine the suite runs once per
    engine and the reports compare them (--report html:FILE: a clause x engine matrix). Exit 0 when nothing failed or
    errored (known failures excepted), 1 otherwise, 2 for bad fixtures or options, 3 when
    the engine never completed its handshake, 130 when interrupted by Ctrl-C and 143 by
    SIGTERM (the reports still cover every finished case).
    """
    signals = sigterm_as_interrupt()
    click.get_current_context().call_on_close(signals.restore)
    targets = _report_targets(reports)
    check_outputs([results_path, write_known, *(p for _, p in targets)])  # before the suite loads
    kinds = load_kinds()
    if not no_verify:
        from fives.conformance.golden.manifest import check_fixture_roots
        check_fixture_roots(roots or None)
    chosen = load_selection(list(roots) or None, CaseFilters(ids, games, kinds_, caps, slow), kinds)
    cases, left_out = chosen.cases, chosen.slow_left_out
    if left_out:
        click.echo(f"({left_out} slow cases left out: add --slow to run them)", err=True)
    known = load_known_failures(known_path) if known_path else {}
    if len(commands) > 1:
        from fives.cli.several_engines import run_several
        code = run_several(commands, cases, kinds, known, targets, oneshot, timeout, validate, results_path, write_known,
                           jobs=jobs)
        sys.exit(EXIT_TERMINATED if code == EXIT_INTERRUPTED and signals.terminated else code)
    command = commands[0] if commands else None
    engine = make_engine(command, oneshot, timeout, validate)
    try:
        handshake = engine.start()
    except EngineStartError as e:
        raise UserError(f"engine {command!r}: {e}", EXIT_ENGINE) from None
    try:
        stream = ResultStream(results_path)
    except BaseException:
        engine.close()  # never leave the started engine behind
        raise
    done: list[CaseResult] = []
    interrupted = False
    human_out = sys.stderr if any(p is None for _, p in targets) else sys.stdout
    try:
        with Progress(len(cases), "conformance") as bar:
            def on_result(r: CaseResult) -> None:
                done.append(r)
                stream(r)
                bar.advance(note=r.case.id)
            run_cases(engine, cases, kinds, on_result, known, jobs=jobs)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (Terminated)
        interrupted = True
        engine.abort()
    finally:
        with signals_held():
            engine.close()
            try:
                click.echo(human(done, handshake, interrupted), file=human_out)
                for fmt, path in targets:
                    text = FORMATS[fmt](done, handshake, interrupted)
                    if path:
                        write_output(text, path)
                    else:
                        click.echo(text)
                if write_known:
                    n = write_known_failures(write_known, done)
                    click.echo(f"wrote {n} known failure(s) to {write_known}", file=sys.stderr)
            finally:
                stream.close()  # last: a --results write error must not cost the reports
    if interrupted:
        sys.exit(EXIT_TERMINATED if signals.terminated else EXIT_INTERRUPTED)
    if any(r.counts_as_failure for r in done):
        sys.exit(EXIT_FAILURES)


@conformance.command("list")
@click.option("--fixtures", "roots", multiple=True, type=click.Path(path_type=Path),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures, conformance/golden and conformance/perft.")
@case_filter_options
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON array of {id, kind, game, clauses, capability, file, tags}.")
def list_cmd(roots: tuple[Path, ...], ids: tuple[str, ...], games: tuple[str, ...], kinds_: tuple[str, ...],
             caps: tuple[str, ...], slow: bool, as_json: bool) -> None:
    """List the cases `conformance run` would run with the same filters, one per line (ID,
    kind, game, clauses), without running anything. Exit 2 for a filter the suite has no
    case of, or filters that together select nothing."""
    kinds = load_kinds()
    chosen = load_selection(list(roots) or None, CaseFilters(ids, games, kinds_, caps, slow), kinds)
    if as_json:
        import json
        click.echo(json.dumps(listing(chosen.cases, kinds), indent=1))
    elif chosen.cases:
        width = max(len(c.id) for c in chosen.cases)
        click.echo("\n".join(f"{c.id:<{width}}  {c.kind:<16}  {c.game:<14}  {', '.join(c.clauses)}"
                             for c in chosen.cases))
    slow_note = f" ({chosen.slow_left_out} slow cases left out: add --slow)" if chosen.slow_left_out else ""
    count = len(chosen.cases)
    click.echo(f"{count} case{'' if count == 1 else 's'}{slow_note}", err=True)


@conformance.command("lint")
@click.argument("roots", nargs=-1, type=click.Path(path_type=Path))
def lint_cmd(roots: tuple[Path, ...]) -> None:
    """Validate fixture files against conformance/schema/, check IDs are unique, clauses
    exist in spec/rules.md and every seed quote is verbatim under its heading. Exit 2 on
    any problem, one line each."""
    count, problems = lint(roots or None)
    for p in problems:
        click.echo(p, err=True)
    click.echo(f"{count} cases, {len(problems)} problems")
    if problems:
        sys.exit(EXIT_BAD_INPUT)


@conformance.command("coverage")
@click.option("--fixtures", "roots", multiple=True, type=click.Path(path_type=Path),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures and conformance/golden.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--ids", "show_ids", type=int, default=4, show_default=True, help="Case IDs shown per clause.")
def coverage_cmd(roots: tuple[Path, ...], as_json: bool, show_ids: int) -> None:
    """List every clause of spec/rules.md with the fixtures that exercise it (seed-cited,
    then derived: hand-written and golden). Exit 1 if any clause has none."""
    import json

    from fives.conformance.coverage import coverage
    table = coverage(load_cases(roots or None))
    empty = [row.clause.id for row in table if row.total == 0]
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
        click.echo(f"{len(table)} clauses, {len(table) - len(empty)} covered, {len(empty)} without a fixture"
                   + (f": {', '.join(empty)}" if empty else ""))
    if empty:
        sys.exit(EXIT_FAILURES)


@conformance.command("mutants")
@click.option("--list", "list_only", is_flag=True, help="List the mutants and their misreadings, run nothing.")
@click.option("--mutant", "names", multiple=True, help="Only this mutant (repeatable).")
@click.option("--fixtures", "roots", multiple=True, type=click.Path(path_type=Path),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures and conformance/golden.")
@click.option("--in-process", is_flag=True, help="Run mutants in process instead of through `fives serve --mutant` (faster).")
@click.option("--jobs", type=int, default=2, show_default=True, help="Mutants run at once.")
@click.option("--timeout", type=float, default=20.0, show_default=True, help="Seconds per case.")
@click.option("--json", "as_json", is_flag=True, help="Print the kill matrix as JSON.")
@click.option("--show", type=int, default=5, show_default=True, help="Killing fixtures shown per mutant.")
def mutants_cmd(list_only: bool, names: tuple[str, ...], roots: tuple[Path, ...], in_process: bool, jobs: int,
                timeout: float, as_json: bool, show: int) -> None:
    """Run the whole suite against every mutant engine (each with one classic misreading)
    through the protocol, and print the kill matrix: which fixtures kill which mutant and
    the rule clauses those fixtures test. Exit 0 only if every mutant is killed."""
    import json
    from concurrent.futures import ThreadPoolExecutor

    from fives.conformance.mutants import all_mutants, run_mutant
    mutants = all_mutants()
    known = {m.name for m in mutants}
    for n in names:
        if n not in known:
            raise UserError(f"unknown mutant {n!r}: one of {', '.join(sorted(known))}")
    mutants = [m for m in mutants if not names or m.name in names]
    if list_only:
        for m in mutants:
            click.echo(f"{m.name:<36} {m.clause:<12} {m.misreading}")
        return
    cases = load_cases(roots or None)
    with Progress(len(mutants), "mutants") as bar, ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = [pool.submit(run_mutant, m, cases, not in_process, timeout) for m in mutants]
        results = []
        for f in futures:
            results.append(f.result())
            bar.advance(note=results[-1].mutant.name)
    if as_json:
        click.echo(json.dumps([{"mutant": r.mutant.name, "misreading": r.mutant.misreading, "clause": r.mutant.clause,
                                "killed": r.killed, "cases": r.ran,
                                "killers": [{"id": k.case.id, "clauses": list(k.case.clauses), "status": k.status}
                                            for k in r.killers]} for r in results], indent=1))
    else:
        for r in results:
            status = f"KILLED by {len(r.killers):4d}" if r.killed else "SURVIVED      "
            click.echo(f"{status}  {r.mutant.name:<34} ({r.mutant.clause}) {r.mutant.misreading}")
            for k in r.killers[:show]:
                click.echo(f"      {k.case.id:<34} {k.status:<7} clauses {', '.join(k.case.clauses)}")
            if len(r.killers) > show:
                click.echo(f"      ... {len(r.killers) - show} more")
    survivors = [r.mutant.name for r in results if not r.killed]
    click.echo(f"{len(results)} mutants, {len(results) - len(survivors)} killed, {len(survivors)} survived"
               + (f": {', '.join(survivors)}" if survivors else ""), err=as_json)
    if survivors:
        sys.exit(EXIT_FAILURES)


@conformance.command("diff")
@click.argument("old", metavar="OLD.json")
@click.argument("new", metavar="NEW.json")
def diff_cmd(old: str, new: str) -> None:
    """Compare two `conformance run --report json` files: the cases that newly fail, newly
    pass, and changed (status, differences or message), one line each. Exit 1 if any case
    newly fails, 0 otherwise, 2 for a file that is not such a report."""
    from fives.conformance.report_diff import diff_files
    result = diff_files(old, new)
    click.echo(result.text())
    if result.newly_failing:
        sys.exit(EXIT_FAILURES)


def register(main: click.Group) -> None:
    main.add_command(conformance)
    from fives.cli.conformance_fuzz import add_to  # `conformance fuzz` lives in its own module
    add_to(conformance)
