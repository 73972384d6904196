"""A conformance run over a list of engines (one engine is a list of one): the session the CLI's
`conformance run`, the pytest plugin and `fives.suite` go through.

`run_suite(RunOptions(...))` runs the chosen cases through each engine in turn with the one
case loop (fives/conformance/runner.py `run_one`: the plan's skips, the engine's declared
scope, what it supports, the judgement), streams every result to `--results`, and makes every
report with one set of writers: one engine's formats (reports/formats.py FORMATS) or the
comparison of several (SEVERAL). It prints nothing: the caller prints `RunOutcome.human` and
the reports that go to standard output, writes the file reports, and exits with
`RunOutcome.exit_code`; notes said while it runs go to `on_note`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping

from fives.conformance.cases.fixtures import Case
from fives.conformance.engines.drivers import Engine, EngineStartError
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.reports.causes import run_causes
from fives.conformance.reports.failures import EngineRun
from fives.conformance.reports.formats import FORMATS, SEVERAL, human, human_several
from fives.conformance.runner import CaseResult, ResultStream, not_started, run_cases
from fives.conformance.stopping import StopRun, stop_after
from fives.support.errors import EXIT_ENGINE, EXIT_FAILURES, EXIT_INTERRUPTED, EXIT_NO_CASES, EXIT_OK, UserError
from fives.support.progress import Progress
from fives.support.sanitize import one_line
from fives.support.stop import signals_held
from fives.support.wording import plural

if TYPE_CHECKING:
    from fives.conformance.cases.expected_under import ProfilePlan

__all__ = ["RunOptions", "RunOutcome", "nothing_ran", "run_suite"]

Note = Callable[[str], None]


@dataclass(frozen=True)
class RunOptions:
    """One run: the engines (several: each runs the cases in turn, the reports compare them),
    the cases (already chosen, with their expectations under `plan` for --rules P), and what
    the reports need. `targets`: (format, file or None for standard output). `causes`: case ID
    -> cause from a diagnosis (--diagnosis). `notes`: said once the run is under way (for one
    engine after its hello, so a start error comes alone). `write_known`: the file the caller
    writes the failures to (one engine only)."""

    engines: tuple[EngineSpec, ...]
    cases: tuple[Case, ...]
    known: Mapping[str, str] = field(default_factory=dict)
    plan: ProfilePlan | None = None
    jobs: int = 1
    maxfail: int | None = None
    results_path: str | None = None
    targets: tuple[tuple[str, str | None], ...] = ()
    causes: Mapping[str, str] = field(default_factory=dict)
    last_failed: bool = False
    write_known: str | None = None
    verbosity: int = 0
    colour: bool = False
    notes: tuple[str, ...] = ()

    @property
    def several(self) -> bool:
        return len(self.engines) > 1


@dataclass
class RunOutcome:
    """What a run found and the texts of its reports, in the order they are delivered."""

    runs: list[EngineRun]
    several: bool
    human: str = ""
    reports: list[tuple[str | None, str]] = field(default_factory=list)  # (file or None: stdout, text)
    interrupted: bool = False
    not_started: str | None = None  # one engine that never completed its hello: why
    cache_note: str | None = None  # what --lf's record says of this run
    stream_error: UserError | None = None  # --results could not be written: raised after the reports

    @property
    def results(self) -> list[CaseResult]:
        return [r for run in self.runs for r in run.results]

    @property
    def exit_code(self) -> int:
        if self.not_started is not None:
            return EXIT_ENGINE
        if self.interrupted:
            return EXIT_INTERRUPTED
        if any(run.error for run in self.runs):
            return EXIT_ENGINE
        if any(r.counts_as_failure for r in self.results):
            return EXIT_FAILURES
        return EXIT_NO_CASES if self.nothing_ran else EXIT_OK

    @property
    def nothing_ran(self) -> str | None:
        """Why no case ran through an engine of the run (every result skipped, or none), or
        None: a run that ran nothing is not a pass (exit 5, as pytest's when no test ran).
        A run stopped early (Ctrl-C, -x) is judged by its own exit code, not by this."""
        if self.interrupted or self.not_started is not None:
            return None
        for run in self.runs:
            if run.error is None and (why := nothing_ran(run.results)):
                return f"engine {one_line(run.label, 200)!r}: {why}" if self.several else why
        return None


def nothing_ran(results: list[CaseResult]) -> str | None:
    """Why none of `results` ran (passed, failed or errored), or None when one did."""
    if any(r.status != "skipped" for r in results):
        return None
    if not results:
        return "no case was selected"
    why = [_skip_cause(r) for r in results]
    if all(w == "scope" for w in why):  # outside the hello's scope, games or capabilities: never sent
        return "the engine's scope leaves no case"
    if all(w == "engine" for w in why):
        return "every case skipped by the engine"
    said = {"scope": "outside the engine's scope", "engine": "skipped by the engine", "run": "left out by the run"}
    return "every case skipped (" + ", ".join(f"{why.count(k)} {text}" for k, text in said.items() if k in why) + ")"


def _skip_cause(result: CaseResult) -> str:
    """Why a case was skipped: "scope" (the engine's hello leaves it out: its scope, games or
    capabilities, never sent), "engine" (its reply said `skipped`) or "run" (--rules P made
    it illegal or left it out, or it plays under rules of its own the run does not)."""
    message = result.outcome.message if result.outcome is not None else ""
    if result.out_of_scope or "engine does not declare" in message:
        return "scope"
    return "engine" if message.startswith("engine skipped:") else "run"


def run_suite(options: RunOptions, on_note: Note | None = None) -> RunOutcome:
    """Run the cases through every engine of `options`; Ctrl-C or SIGTERM stops the run and the
    outcome covers every finished case (the caller's Stop says which signal it was)."""
    note = on_note or (lambda text: None)
    if options.several:
        return _run_several(options, note)
    return _run_single(options, note)


def _open(spec: EngineSpec) -> Engine:
    """The driver; a command that cannot even be parsed is the run's error (exit 3)."""
    try:
        return spec.open()
    except EngineStartError as e:
        raise UserError(f"engine {spec.command!r}: {e}", EXIT_ENGINE) from None


def _drive(engine: Engine, cases: list[Case], run: EngineRun, options: RunOptions,
           stream: ResultStream, title: str, tag: str | None) -> str | None:
    """The cases through one started engine into `run`; the line saying why it stopped early
    (-x, --maxfail), or None. KeyboardInterrupt (Ctrl-C, SIGTERM) goes to the caller."""
    with Progress(len(cases), title) as bar:
        def on_result(r: CaseResult) -> None:
            run.results.append(r)
            stream(r, engine=tag)
            bar.advance(note=r.case.id)
        try:
            run_cases(engine, cases, stop_after(options.maxfail, on_result), dict(options.known),
                      jobs=options.jobs, plan=options.plan)
        except StopRun as e:
            engine.abort()  # cases still running in other engine processes are not waited for
            bar.clear()
            return e.line(len(cases) - len(run.results))
    return None


def _digest(options: RunOptions) -> str | None:
    return options.plan.profile.digest if options.plan is not None else None


def _run_single(options: RunOptions, note: Note) -> RunOutcome:
    spec = options.engines[0]
    cases, lf_note = list(options.cases), ""
    if options.last_failed:
        cases, lf_note = last_failed_cases(spec.command, cases, _digest(options))
    engine = _open(spec)
    try:
        handshake = engine.start()
    except EngineStartError as e:
        engine.close()
        failed = EngineRun(spec.label, not_started(cases, str(e), dict(options.known)), None, error=str(e))
        return RunOutcome([failed], False, not_started=str(e))
    for text in (*options.notes, lf_note if options.verbosity >= 0 else ""):  # after the hello: its error comes alone
        if text:
            note(text)
    try:
        stream = ResultStream(options.results_path)
    except BaseException:
        engine.close()  # never leave the started engine behind
        raise
    run, stopped = EngineRun(spec.label, [], handshake), None
    try:
        stopped = _drive(engine, cases, run, options, stream, "conformance", None)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (Terminated)
        run.interrupted = True
        engine.abort()
    finally:
        with signals_held():  # a second Ctrl-C must not leave half a report
            engine.close()
            outcome = _single_outcome(options, run, stopped)
            outcome.stream_error = _close(stream)
    return outcome


def _single_outcome(options: RunOptions, run: EngineRun, stopped: str | None) -> RunOutcome:
    from fives.conformance.reports.last_failed import update

    plan, results = options.plan, run.results
    causes = run_causes(plan, results, options.causes)
    text = human(results, run.handshake, run.interrupted, plan=plan, verbosity=options.verbosity,
                 colour=options.colour, stopped=stopped, causes=causes)
    reports = [(path, FORMATS[fmt](results, run.handshake, run.interrupted, plan=plan, causes=causes))
               for fmt, path in options.targets]
    cache_note = update(options.engines[0].command, results, _digest(options))
    return RunOutcome([run], False, text, reports, run.interrupted, cache_note=cache_note)


def _labels(engines: tuple[EngineSpec, ...]) -> list[str]:
    """Each engine's name in the reports: its command, numbered when given twice."""
    names = [spec.label for spec in engines]
    return [n if names.count(n) == 1 else f"{n} (#{i + 1})" for i, n in enumerate(names)]


def _run_several(options: RunOptions, note: Note) -> RunOutcome:
    for text in options.notes:
        note(text)
    if options.write_known:
        raise UserError("--write-known-failures takes a single --engine (whose failures would it list?)")
    cases = list(options.cases)
    stream = ResultStream(options.results_path)
    runs: list[EngineRun] = []
    engine: Engine | None = None
    current: EngineRun | None = None  # the run in progress, if any
    interrupted = False
    try:
        for spec, label in zip(options.engines, _labels(options.engines)):
            engine, current = _start_one(spec, label, note)
            runs.append(current)
            if engine is not None and current.handshake is not None:
                stopped = _drive(engine, cases, current, options, stream, f"conformance {spec.label}"[:40], label)
                if stopped:
                    note(one_line(f"engine {spec.command!r}: {stopped}", 500))
            if engine is not None:
                engine.close()
            engine = current = None
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (Terminated): the later engines do not run
        interrupted = True
        if engine is not None:
            engine.abort()
        if current is not None:
            current.interrupted = True
    finally:
        with signals_held():  # a second Ctrl-C must not leave half a report
            if engine is not None:
                engine.close()
            outcome = _several_outcome(options, runs, interrupted)
            outcome.stream_error = _close(stream)
    return outcome


def _start_one(spec: EngineSpec, label: str, note: Note) -> tuple[Engine | None, EngineRun]:
    """One of several engines, started, and its run; or no engine and a run that says why it
    could not start, a command that cannot even be parsed included (the others still run, and
    the reports keep what the earlier ones found)."""
    try:
        engine, handshake = spec.start()
    except EngineStartError as e:
        note(one_line(f"engine {spec.command!r}: could not start: {e}", 500))
        return None, EngineRun(label, [], None, error=str(e))
    return engine, EngineRun(label, [], handshake)


def _several_outcome(options: RunOptions, runs: list[EngineRun], interrupted: bool) -> RunOutcome:
    # only a diagnosis's causes: the profile's are one engine's reading (as before, --rules alone groups nothing here)
    causes = dict(options.causes) or None
    text = human_several(runs, options.verbosity, options.colour, plan=options.plan, causes=causes)
    reports = [(path, SEVERAL[fmt](runs, options.plan, causes=causes)) for fmt, path in options.targets]
    return RunOutcome(runs, True, text, reports, interrupted)


def _close(stream: ResultStream) -> UserError | None:
    try:
        stream.close()
    except UserError as e:
        return e
    return None


def last_failed_cases(command: str | None, cases: list[Case], digest: str | None) -> tuple[list[Case], str]:
    """--lf: the chosen cases that failed in this engine command's last run, and a note saying what runs."""
    from fives.conformance.reports.last_failed import load

    failed, why = load(command, digest)
    if failed is None:
        return cases, f"(--lf: {why}: running all {plural(len(cases), 'selected case')})"
    ids = set(failed)
    again = [c for c in cases if c.id in ids]
    if not again:
        return cases, f"(--lf: no selected case failed last time: running all {plural(len(cases), 'selected case')})"
    return again, (f"(--lf: running the {plural(len(again), 'case')} that failed last time; "
                   f"{len(cases) - len(again)} left out)")
