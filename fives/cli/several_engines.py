"""`fives conformance run --engine A --engine B ...`: the suite once per engine, one after the
other, then every report comparing them (fives/conformance/reports/formats.py SEVERAL, fives/conformance/reports/html.py)."""
from __future__ import annotations

import sys

import click

from fives.conformance.engines.drivers import Engine, EngineStartError
from fives.support.errors import EXIT_ENGINE, EXIT_FAILURES, EXIT_INTERRUPTED, EXIT_OK, UserError
from fives.conformance.reports.failures import EngineRun
from fives.conformance.cases.fixtures import Case
from fives.support.writing import write_output
from fives.conformance.cases.kinds import Kind
from fives.support.progress import Progress
from fives.conformance.reports.formats import SEVERAL, human_several
from fives.conformance.runner import CaseResult, ResultStream, run_cases, signals_held
from fives.conformance.stopping import StopRun, stop_after
from fives.support.colour import wants_colour
from fives.support.sanitize import one_line


class _Stream(ResultStream):
    """--results with several engines: one JSON line per result, tagged with its engine (a
    full disk: cut back to the last complete line, reported at close, as ResultStream)."""

    def write(self, engine: str, result: CaseResult) -> None:
        self(result, engine=engine)


def run_several(commands: tuple[str, ...], cases: list[Case], kinds: dict[str, Kind], known: dict[str, str],
                targets: list[tuple[str, str | None]], oneshot: bool, timeout: float | None, validate: bool,
                results_path: str | None, write_known: str | None, verbosity: int = 1, maxfail: int | None = None,
                **run_options: object) -> int:
    """Run `cases` through each engine in turn and write the comparison reports; the exit code.

    An engine that cannot start is reported as such and the others still run (exit 3 at the
    end); Ctrl-C or SIGTERM stops the run, the reports cover what finished (exit 130; the
    caller turns it into 143 for SIGTERM). `maxfail`: each engine stops after that many failing
    cases (-x, --maxfail), and the next engine runs. `verbosity`: as for `human`.
    """
    from fives.conformance.engines.process import make_engine
    plan = run_options.get("plan")  # --rules P: the cases already carry their expectations under P
    profile = getattr(plan, "profile", None)
    if write_known:
        raise UserError("--write-known-failures takes a single --engine (whose failures would it list?)")
    stream = _Stream(results_path)
    runs: list[EngineRun] = []
    interrupted = False
    engine: Engine | None = None
    current: EngineRun | None = None  # the run in progress, if any
    labels = [c if commands.count(c) == 1 else f"{c} (#{i + 1})" for i, c in enumerate(commands)]
    try:
        for command, label in zip(commands, labels):
            engine = make_engine(command, oneshot, timeout, validate, profile)
            try:
                handshake = engine.start()
            except EngineStartError as e:
                engine.close()
                engine = None
                runs.append(EngineRun(label, [], None, error=str(e)))
                click.echo(one_line(f"engine {command!r}: could not start: {e}", 500), err=True)
                continue
            run = current = EngineRun(label, [], handshake)
            runs.append(run)
            with Progress(len(cases), f"conformance {command}"[:40]) as bar:
                def on_result(r: CaseResult, run: EngineRun = run, bar: Progress = bar) -> None:
                    run.results.append(r)
                    stream.write(run.label, r)
                    bar.advance(note=r.case.id)
                try:
                    run_cases(engine, cases, kinds, stop_after(maxfail, on_result), known,
                              **run_options)  # type: ignore[arg-type]
                except StopRun as e:
                    engine.abort()
                    bar.clear()
                    click.echo(one_line(f"engine {command!r}: {e.line(len(cases) - len(run.results))}", 500), err=True)
            engine.close()
            engine = current = None
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (runner.Terminated): the later engines do not run
        interrupted = True
        if engine is not None:
            engine.abort()
        if current is not None:
            current.interrupted = True
    finally:
        with signals_held():  # a second Ctrl-C must not leave half a report
            if engine is not None:
                engine.close()
            try:
                human_out = sys.stderr if any(p is None for _, p in targets) else sys.stdout
                colour = wants_colour(human_out)
                click.echo(human_several(runs, verbosity, colour, plan=plan), file=human_out, color=colour)
                for fmt, path in targets:
                    text = SEVERAL[fmt](runs, plan)
                    if path:
                        write_output(text, path)
                    else:
                        click.echo(text)
            finally:
                stream.close()
    if interrupted:
        return EXIT_INTERRUPTED
    if any(run.error for run in runs):
        return EXIT_ENGINE
    if any(r.counts_as_failure for run in runs for r in run.results):
        return EXIT_FAILURES
    return EXIT_OK
