"""The conformance suite as pytest tests: `pytest --fives-engine CMD`.

Registered as the `pytest11` entry point `fives` (pyproject.toml), so an engine author's own
pytest run can include the suite: every case becomes one test item named by its case ID
(`fives-conformance::HR-FIG-1-3`), run through the protocol by one engine process for the
session, and a failing case shows what every report says about it (its clauses with their
seed quotes and one line per difference, fives/conformance/reports/formats.py `explain_lines`).

Without `--fives-engine` the plugin adds its options and nothing else: no case is collected
and no conformance module is imported, so it costs a test run nothing.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from fives.conformance.cases.expected_under import ProfilePlan
    from fives.conformance.engines.drivers import Engine, Handshake
    from fives.conformance.cases.fixtures import Case
    from fives.conformance.runner import CaseResult
    from fives.support.stop import Stop

#: the collector every case item hangs from, and so the first part of every node id
SUITE_NODE = "fives-conformance"


def _seconds(text: str) -> float:
    """--fives-timeout: a finite number of seconds, 0 or more (0: no limit), as the CLI's --timeout."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of seconds, 0 or more (0: no limit)")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fives", "fives conformance suite (fives.conformance.pytest_plugin)")
    group.addoption("--fives-engine", metavar="CMD", default=None,
                    help="Run every conformance case against the engine command CMD (spec/protocol.md), "
                         "one test per case ID. Without it no case is collected.")
    group.addoption("--fives-game", metavar="GAME", action="append", default=[],
                    help="Only cases of this game (repeatable).")
    group.addoption("--fives-id", metavar="GLOB", action="append", default=[],
                    help="Only cases whose ID matches this glob (repeatable), e.g. 'HR-SETTLE-*'.")
    group.addoption("--fives-kind", metavar="KIND", action="append", default=[],
                    help="Only cases of this kind (repeatable): evaluate, turn, settle, perft, ...")
    group.addoption("--fives-fixtures", metavar="PATH", action="append", default=[],
                    help="Fixture file or folder instead of the shipped suite (repeatable).")
    group.addoption("--fives-slow", action="store_true", default=False,
                    help="Include the slow cases (deep perft rows).")
    group.addoption("--fives-oneshot", action="store_true", default=False,
                    help="Start one engine process per case instead of one for the session.")
    group.addoption("--fives-timeout", metavar="S", type=_seconds, default=None,
                    help="Seconds per case (default 10; 0: no limit).")
    group.addoption("--fives-validate", action="store_true", default=False,
                    help="Check every protocol message against its schema (spec/protocol/).")
    group.addoption("--fives-rules", metavar="P", default=None,
                    help="Play under this rule profile, as `fives conformance run --rules P`: a shipped name "
                         "(spec/variants/) or a profile YAML file; the cases expect the reference's answers under P.")


class CaseFailed(Exception):
    """A case that failed or errored; the item shows its explanation."""

    def __init__(self, result: CaseResult) -> None:
        super().__init__(result.case.id)
        self.result = result


class EngineSession:
    """The engine under test for the whole pytest session, started at the first case run
    (so `--collect-only` starts nothing) and closed when the session ends."""

    def __init__(self, config: pytest.Config, plan: ProfilePlan | None = None) -> None:
        self.config = config
        self.plan = plan  # --fives-rules P: the cases carry their expectations under P
        self.command: str = config.getoption("fives_engine")
        self.engine: Engine | None = None
        self.handshake: Handshake | None = None
        self.start_error: str | None = None
        self.seq = 0
        self.results: list[CaseResult] = []  # every case run: a session that ran none of them exits 5
        self._clauses: dict[str, Any] | None = None

    def _start(self) -> Engine | None:
        if self.engine is None and self.start_error is None:
            from fives.conformance.engines.handle import EngineSpec, EngineStartError

            spec = EngineSpec(self.command, self.config.getoption("fives_oneshot"), self.config.getoption("fives_timeout"),
                              self.config.getoption("fives_validate"), self.plan.profile if self.plan else None)
            try:
                self.engine, self.handshake = spec.start()  # on failure nothing it started is left behind
            except EngineStartError as e:
                self.start_error = f"engine {self.command!r} could not be started: {e}"
                return None
        return self.engine

    def run(self, case: Case) -> CaseResult:
        from fives.conformance.engines.drivers import Outcome
        from fives.conformance.runner import CaseResult, run_one

        engine = self._start()
        if engine is None:
            return CaseResult(case, "errored", outcome=Outcome("error", message=self.start_error or ""))
        self.seq += 1
        # the runner's own case step: the plan's skips, the engine's declared scope, what it supports
        result = run_one(engine, case, self.seq, {}, self.plan)
        self.results.append(result)
        return result

    def explain(self, result: CaseResult) -> str:
        from fives.conformance.reports.failures import load_clause_book
        from fives.conformance.reports.formats import explain_lines

        if self._clauses is None:
            self._clauses = load_clause_book()
        head = f"{result.case.id} {result.status} ({result.case.kind}, {result.case.game}, {result.case.file})"
        return "\n".join([head, *explain_lines(result, self._clauses, indent="  ")])

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


class SuiteCollector(pytest.Collector):
    """The parent of every case item; it collects nothing itself (the items are made at once)."""

    def collect(self) -> list[pytest.Item]:
        return []


class CaseItem(pytest.Item):
    """One conformance case, named by its case ID."""

    def __init__(self, *, case: Case, session_engine: EngineSession, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.session_engine = session_engine

    def runtest(self) -> None:
        result = self.session_engine.run(self.case)
        if result.status == "skipped":
            message = result.outcome.message if result.outcome else None
            pytest.skip(message or "skipped")
        if result.status != "passed":
            raise CaseFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return self.session_engine.explain(excinfo.value.result)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.case.file, None, f"fives case {self.case.id}"


def _load(config: pytest.Config) -> tuple[list[Case], ProfilePlan | None]:
    from fives.conformance.cases.profile_pins import select_run
    from fives.conformance.cases.selection import CaseFilters
    from fives.profiles import load_profile
    from fives.support.errors import UserError

    filters = CaseFilters(ids=tuple(config.getoption("fives_id")), games=tuple(config.getoption("fives_game")),
                          kinds=tuple(config.getoption("fives_kind")), slow=config.getoption("fives_slow"))
    roots = [Path(p) for p in config.getoption("fives_fixtures")] or None
    try:
        rules = config.getoption("fives_rules")
        chosen, plan = select_run(roots, filters, load_profile(rules) if rules is not None else None)  # as `conformance run`
        return chosen.cases, plan
    except UserError as e:  # the selection names the CLI's options; say this plugin's
        raise pytest.UsageError("fives: error: " + re.sub(r"^--(id|game|kind|rules) ", r"--fives-\1 ", str(e))) from None


@pytest.hookimpl(tryfirst=True)  # before -k, -m and --lf deselect: the cases are items like any other
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("fives_engine", None) is None:
        return
    cases, plan = _load(config)
    engine = EngineSession(config, plan)
    config.stash[_ENGINE] = engine
    parent = SuiteCollector.from_parent(session, name=SUITE_NODE, nodeid=SUITE_NODE)
    made = [CaseItem.from_parent(parent, name=c.id, case=c, session_engine=engine) for c in cases]
    items.extend(made)
    # reported as collected, so the terminal's "collected N items" counts the cases too
    session.ihook.pytest_collectreport(report=pytest.CollectReport(SUITE_NODE, "passed", None, list(made)))


def pytest_report_header(config: pytest.Config) -> str | None:
    command = config.getoption("fives_engine", None)
    return None if command is None else f"fives conformance: engine {command!r}"


def pytest_sessionstart(session: pytest.Session) -> None:
    # SIGTERM (how CI cancels a job) stops the session as Ctrl-C does: pytest reports what ran,
    # pytest_sessionfinish kills the engine's whole process group, and the exit status is 143;
    # the one stop mechanism (fives/support/stop.py), installed for the session and restored after
    if session.config.getoption("fives_engine", None) is None:
        return
    from fives.support.stop import Stop

    session.config.stash[_STOP] = Stop().install()


def pytest_sessionfinish(session: pytest.Session) -> None:
    engine = session.config.stash.get(_ENGINE, None)
    if engine is not None:
        engine.close()
    stop = session.config.stash.get(_STOP, None)
    if stop is not None:
        stop.restore()
        if stop.terminated:
            from fives.support.errors import EXIT_TERMINATED
            session.exitstatus = EXIT_TERMINATED
    if engine is not None and engine.results and session.exitstatus == pytest.ExitCode.OK:
        from fives.conformance.sessions.run import nothing_ran

        # every case skipped (the engine's scope, its `skipped` replies) is not a pass: exit 5,
        # as `fives conformance run` (pytest's own 5 is for a session that collected no test)
        if why := nothing_ran(engine.results):
            session.config.stash[_NOTHING_RAN] = why
            session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    why = config.stash.get(_NOTHING_RAN, None)
    if why is not None:
        terminalreporter.write_line(f"fives: no case ran: {why}")


_ENGINE = pytest.StashKey[EngineSession]()
_STOP = pytest.StashKey["Stop"]()
_NOTHING_RAN = pytest.StashKey[str]()
