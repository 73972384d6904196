"""The diagnosis session (`fives conformance diagnose`, spec/diagnose.md): from an engine's
failures to named causes, in named phases under one time budget.

    suite   the suite's cases (those the options select), run whole, every answer kept
    fuzz    the fuzzer's requests (its share of the budget), their disagreements kept too
    search  the fewest candidate causes that explain the most failures (its share of what is left)
    shrink  each cause's example and each cluster's smallest case shrunk to a minimal fixture
    extend  when the search ran out of time and the shrinking left some: the search again, to
            the end of the budget, with every answer it has, and the new examples shrunk
    verify  the engine fuzzed under each game's inferred profile: a disagreement joins the
            failures and the search runs again (diagnose/verify.py)
    recheck every cause's example and cluster's case asked again, of the engine and of one
            started afresh: one answered two ways is the engine's inconsistency, not a cause
            or a case written (diagnose/reproduce.py)

`diagnose(options)` runs them and returns a `DiagnoseOutcome`: the `Diagnosis`, which phases
ran, why it stopped and the notes it made. Ctrl-C (or SIGTERM, by the caller's
`fives.support.stop.Stop`) ends the phase it lands in: what was found so far is the outcome,
`stopped` "interrupted"; `NothingFound` when it lands before the search has anything. The
engine is closed (its whole process group killed) however the session ends."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal

if TYPE_CHECKING:
    from fives.conformance.cases.fixtures import Case
    from fives.conformance.diagnose.diagnosis import Diagnosis
    from fives.conformance.engines.drivers import Engine, Handshake
    from fives.conformance.engines.handle import EngineSpec
    from fives.conformance.runner import CaseResult
    from fives.profiles import Profile

__all__ = ["FUZZ_SHARE", "SEARCH_SHARE", "PHASES", "Budget", "DiagnoseOptions", "DiagnoseOutcome", "NothingFound",
           "check_out", "diagnose"]

#: the share of the budget the fuzzer may take (the rest: the search and the shrinking)
FUZZ_SHARE = 0.3
#: the share of what the fuzzer leaves that the search may take: the shrinking has the rest
#: (and whatever the search does not use), so every example gets its turn (spec/diagnose.md)
SEARCH_SHARE = 0.6
#: the phases, in the order they run
PHASES = ("suite", "fuzz", "search", "shrink", "extend", "verify", "recheck")

Note = Callable[[str], None]
Stopped = Literal["finished", "time", "interrupted"]


@dataclass(frozen=True)
class Budget:
    """The time for the fuzzer, the search and the shrinking (the suite always runs whole): it
    starts when the suite ends, and each phase's deadline is its share of what is left."""

    seconds: float = 170.0
    fuzz_share: float = FUZZ_SHARE
    search_share: float = SEARCH_SHARE
    #: the least time left worth extending the search for, once the examples had their share
    extend_least: float = 1.0

    @property
    def fuzz_seconds(self) -> float:
        return self.seconds * self.fuzz_share

    def end(self, start: float) -> float:
        """The deadline of the whole budget (monotonic), started at `start`."""
        return start + self.seconds

    def search_until(self, end: float, now: float) -> float:
        """The search's deadline: its share of what is left at `now`."""
        return now + max(0.0, end - now) * self.search_share

    def worth_extending(self, end: float, now: float) -> bool:
        return end - now > self.extend_least


@dataclass(frozen=True)
class DiagnoseOptions:
    """What to diagnose: `engine` (its profile is set to `profile`), the suite's cases selected
    as `conformance run` does (`games`, `ids` globs, `kinds`, `capabilities`; a glob that
    matches no case is a UserError), `profile` the rules the causes depart from (None: the
    seeds'), the `budget`, the fuzzer's `fuzz_draws` (0: none) and `seed`, and whether the
    shipped misreadings are candidates (`mutants`) beside the rule variants. `expect_seeds`: the
    engine means to play the base's rules (the seeds', or `profile`'s), so every cause found is a
    departure, its bug, and the diagnosis does not conform."""

    engine: EngineSpec
    games: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    profile: Profile | None = None
    budget: Budget = field(default_factory=Budget)
    fuzz_draws: int = 300
    seed: int = 0
    mutants: bool = True
    expect_seeds: bool = False


@dataclass(frozen=True)
class DiagnoseOutcome:
    """A diagnosis and how it went: `games` diagnosed (asked for and declared by the engine),
    `phases` that ran, `stopped` ("finished", "time": the budget cut a phase short,
    "interrupted") and the `notes` made on the way (each also given to the `note` callback)."""

    diagnosis: Diagnosis
    options: DiagnoseOptions
    games: tuple[str, ...]
    phases: tuple[str, ...]
    stopped: Stopped
    notes: tuple[str, ...] = ()

    @property
    def interrupted(self) -> bool:
        return self.stopped == "interrupted"

    @property
    def conforms(self) -> bool:
        """Every failure explained by a rule (or none): no cluster, no misreading named (a bug,
        named, is still a bug), no engine error met by the fuzzer and no request answered two ways."""
        d = self.diagnosis
        if self.options.expect_seeds and d.causes:
            return False  # every cause a departure from the rules the engine means to play
        return not (d.unexplained or d.misreadings or d.fuzz.get("engine_errors") or d.inconsistent
                    or any(v["disagreements"] for v in d.verified.values()))

    def to_json(self) -> dict[str, Any]:
        """The diagnosis as `--json` prints it (format fives-diagnosis/1)."""
        from fives.conformance.diagnose.diagnosis import to_json

        return to_json(self.diagnosis)

    def lines(self) -> list[str]:
        """The human report, a line each."""
        from fives.conformance.diagnose.diagnosis import lines

        out = lines(self.diagnosis)
        if not self.options.expect_seeds:
            return out
        base = "the seeds'" if self.options.profile is None else f"{self.options.profile.name}'s"
        said = f"  a departure: the engine means to play {base} rules (--expect-seeds), so this is its bug"
        misread = {f"cause: {c.candidate.name} ({c.candidate.game}):" for c in self.diagnosis.misreadings}
        # a misreading already says it is a bug; a rule value, here, is one too
        return [x for line in out for x in ([line, said] if line.startswith("cause: ")
                                            and not any(line.startswith(m) for m in misread) else [line])]

    def write(self, out: Path | str, force: bool = False, note: Note | None = None) -> None:
        """The --out folder (new or empty; with `force`, one holding a diagnosis): profile.yaml,
        diagnosis.json and fixtures/ (diagnose/files.py); what to run next goes to `note`."""
        from fives.conformance.diagnose.files import write_diagnosis

        write_diagnosis(self.diagnosis, Path(out), list(self.games), self.options.engine.label, force,
                        note or (lambda s: None))


class NothingFound(KeyboardInterrupt):
    """Interrupted before the search had any cause to give: there is no diagnosis to report."""


@dataclass
class _Work:
    """One diagnosis under way: what the phases share."""

    options: DiagnoseOptions
    engine: Engine
    games: list[str]
    note: Note
    progress: Note | None
    results: list[CaseResult] = field(default_factory=list)
    extra: list[CaseResult] = field(default_factory=list)  # the fuzzer's disagreements and refusals
    fuzzed: dict[str, Any] = field(default_factory=dict)
    phases: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    interrupted: bool = False
    fuzz_cut: bool = False  # the fuzzer stopped at its share of the budget
    inconsistent: list[Any] = field(default_factory=list)  # the fuzzer's findings answered two ways
    probed: int = 0  # the separating probes of opening orders asked
    end: float = 0.0  # the budget's deadline (monotonic)

    def say(self, line: str) -> None:
        self.notes.append(line)
        self.note(line)


def diagnose(options: DiagnoseOptions, note: Note | None = None, progress: Note | None = None) -> DiagnoseOutcome:
    """Run the phases against `options.engine`. `note`: the lines for the user (the CLI's
    stderr); `progress`: the search's and the shrinking's running commentary (the CLI passes it
    on a terminal only). EngineStartError when the engine cannot be started; NothingFound
    (a KeyboardInterrupt) when interrupted before any cause was found."""
    cases = _suite_cases(options)
    engine, hello = options.engine.with_profile(options.profile).start()
    chosen = [g for g in (options.games or _all_games()) if g in hello.games]
    work = _Work(options, engine, chosen, note or (lambda s: None), progress)
    start = time.monotonic()
    try:
        d = _phases(work, [c for c in cases if c.game in chosen], hello)
    finally:
        engine.close()
    d.seconds = time.monotonic() - start
    stopped: Stopped = "interrupted" if work.interrupted else \
        "time" if d.stopped == "time" or work.fuzz_cut else "finished"
    return DiagnoseOutcome(d, options, tuple(chosen), tuple(work.phases), stopped, tuple(work.notes))


def check_out(out: Path, force: bool) -> None:
    """UserError, before any work, for an --out folder that cannot take the diagnosis
    (diagnose/files.py): a folder that cannot be written costs nothing."""
    from fives.conformance.diagnose.files import check_out_folder

    check_out_folder(out, force)


def _all_games() -> list[str]:
    from fives.rules import game_ids

    return game_ids()


def _suite_cases(options: DiagnoseOptions) -> list[Case]:
    """The seeds' own cases the options select (or the profile's expectations of them), without
    the deep perft rows and the inputs the profile makes illegal."""
    from fives.conformance.cases.selection import CaseFilters, load_selection

    filters = CaseFilters(options.ids, options.games, options.kinds, options.capabilities, False)
    chosen = load_selection(None, filters).cases
    cases = [c for c in chosen if c.profile is None and "slow" not in c.tags]
    if options.profile is not None:
        from fives.conformance.cases.expected_under import plan_under

        cases, plan = plan_under(options.profile, cases)
        cases = [c for c in cases if plan.skip_reason(c) is None]
    return cases


def _phases(work: _Work, cases: list[Case], hello: Handshake) -> Diagnosis:
    """suite, fuzz, search, shrink (and extend): each phase ends where Ctrl-C lands in it."""
    _suite(work, cases)
    work.end = work.options.budget.end(time.monotonic())
    _fuzz(work)
    if not work.interrupted:
        _order_probes(work)
    d = _search(work, hello)
    d.inconsistent = work.inconsistent
    if not work.interrupted:
        d = _thin(work, d, hello)
    if not work.interrupted:
        d = _shrink(work, d)
    if not work.interrupted:
        d = _verify(work, d)
    if not work.interrupted:
        _recheck(work, d)
    return d


def _suite(work: _Work, cases: list[Case]) -> None:
    from fives.conformance.runner import run_cases
    from fives.support.progress import Progress

    work.phases.append("suite")
    try:
        with Progress(len(cases), "suite") as bar:
            run_cases(work.engine, cases, on_result=lambda r: (work.results.append(r), bar.advance()))
    except KeyboardInterrupt:
        work.interrupted = True


def _fuzz(work: _Work) -> None:
    """The fuzzer's requests, of the kinds asked for if any (those the fuzzer makes)."""
    from fives.conformance.diagnose.probe import fuzz_results
    from fives.conformance.fuzz import fuzz_kinds
    from fives.support.progress import Progress

    o = work.options
    kinds = [k for k in o.kinds if k in fuzz_kinds()]
    if work.interrupted or not o.fuzz_draws or not (kinds or not o.kinds):
        return
    work.phases.append("fuzz")
    with Progress(o.fuzz_draws, "fuzz") as bar:
        work.extra, work.fuzzed = fuzz_results(work.engine, work.games, o.seed, o.fuzz_draws, o.budget.fuzz_seconds,
                                               o.profile, kinds=kinds or None,
                                               on_draw=lambda i, r: bar.advance(note=f"{len(r.findings)} found"),
                                               inconsistent=work.inconsistent)
    work.interrupted = bool(work.fuzzed.get("interrupted"))
    if not work.interrupted and work.fuzzed["draws"] < o.fuzz_draws:
        work.fuzz_cut = True
        work.say(f"fives: the fuzzer stopped at the time budget after {work.fuzzed['draws']} of {o.fuzz_draws} "
                 "draws: give more --seconds for the same output every time")


def _search(work: _Work, hello: Handshake) -> Diagnosis:
    from fives.conformance.diagnose import diagnosis as dx

    work.phases.append("search")
    o = work.options
    try:
        d = dx.diagnose(work.results, work.games, note=work.progress, mutants=o.mutants, profile=o.profile,
                        deadline=o.budget.search_until(work.end, time.monotonic()), extra=work.extra)
    except KeyboardInterrupt:
        raise NothingFound("interrupted before any cause was found") from None
    d.fuzz, d.expect_seeds = work.fuzzed, o.expect_seeds
    if work.probed:
        d.requests["shrink"] = d.requests.get("shrink", 0) + work.probed
    if hello.scope:  # the hello's scope: the cases outside it are the engine's scope
        d.scope = {"declared": hello.scope, "skipped": d.scope.get("skipped", 0),
                   "reasons": d.scope.get("reasons", {})}
    work.interrupted = work.interrupted or d.stopped == "interrupted"
    return d


def _thin(work: _Work, d: Diagnosis, hello: Handshake) -> Diagnosis:
    """Causes resting on fewer than a handful of cases, and values a cause brings into play, probed
    (diagnose/thin.py, unlocked.py): probes that find another value nearer join the failures, and the search
    runs again with them (at most twice)."""
    from fives.conformance.diagnose.thin import probe_thin
    from fives.conformance.diagnose.unlocked import probe_unlocked
    from fives.conformance.diagnose.verify import carry

    try:
        for _ in range(2):
            new = probe_thin(d, work.engine, work.options.seed, work.end, work.progress)
            new += probe_unlocked(d, work.engine, work.options.seed, work.end, work.progress)
            if not new:
                break
            work.extra += new
            more = _search(work, hello)
            carry(d, more)
            more.requests["shrink"] = d.requests.get("shrink", 0)
            d = more
    except (KeyboardInterrupt, NothingFound):
        work.interrupted = True
    return d


def _shrink(work: _Work, d: Diagnosis) -> Diagnosis:
    from fives.conformance.diagnose.probe import shrink_examples
    from fives.support.progress import Progress

    work.phases.append("shrink")
    try:
        with Progress(None, "shrinking the examples"):
            shrink_examples(d, work.engine, deadline=work.end, note=work.progress)
            if d.stopped == "time" and work.options.budget.worth_extending(work.end, time.monotonic()):
                # the examples had their share: the search goes on with what is left
                d = _extend(work, d)
                work.interrupted = d.stopped == "interrupted"
    except KeyboardInterrupt:
        work.interrupted = True
    return d


def _extend(work: _Work, d: Diagnosis) -> Diagnosis:
    """The search run again to the deadline with every answer it has (the examples shrunk first,
    spec/diagnose.md "The budget"), then the examples of what it adds shrunk in what is left."""
    from fives.conformance.diagnose import diagnosis as dx
    from fives.conformance.diagnose.probe import shrink_examples
    from fives.conformance.diagnose.verify import carry

    work.phases.append("extend")
    o = work.options
    if work.progress:
        work.progress("the examples had their share of the time: the search goes on with what is left")
    more = dx.diagnose(work.results, work.games, note=work.progress, deadline=work.end, mutants=o.mutants,
                       profile=o.profile, extra=work.extra, scorers=d.scorers)
    carry(d, more)
    more.requests["shrink"] = d.requests.get("shrink", 0)
    shrink_examples(more, work.engine, deadline=work.end, note=work.progress, earlier=d)
    return more


def _recheck(work: _Work, d: Diagnosis) -> None:
    """Every example asked again before it is reported (diagnose/reproduce.py)."""
    from fives.conformance.diagnose.reproduce import reproduce
    from fives.conformance.engines.handle import EngineStartError

    def fresh() -> Engine | None:
        try:
            return work.options.engine.with_profile(work.options.profile).start()[0]
        except EngineStartError:
            return None  # it started once: the examples stay as asked again of the first

    work.phases.append("recheck")
    try:
        reproduce(d, work.engine, fresh)
    except KeyboardInterrupt:
        work.interrupted = True


def _verify(work: _Work, d: Diagnosis) -> Diagnosis:
    """Each inferred profile checked against the engine before it is claimed (diagnose/verify.py):
    a disagreement joins the failures and the search runs again, at most ROUNDS times."""
    from fives.conformance.diagnose.checked import checked_games
    from fives.conformance.diagnose.verify import check_and_search
    from fives.conformance.fuzz import fuzz_kinds

    o = work.options
    kinds = [k for k in o.kinds if k in fuzz_kinds()]
    if not o.fuzz_draws or (o.kinds and not kinds) or not checked_games(d, work.games):
        return d
    work.phases.append("verify")
    try:
        return check_and_search(d, work.engine, work.results, work.extra, work.games, o, kinds or None, work.end,
                                work.progress)
    except KeyboardInterrupt:
        work.interrupted = True
        return d


def _order_probes(work: _Work) -> None:
    """The requests that tell opening orders apart (diagnose/orders.py), before the search reads
    the orders off the answers: they join the fuzzer's results."""
    from fives.conformance.diagnose.orders import session_probes

    for game in work.games:
        got = session_probes(work.engine, game, work.results + work.extra, work.options.profile)
        work.extra += got
        work.probed += len(got)  # counted as the shrinking's, as a tie's probes are
        if got:
            work.say(f"fives: {game}: {len(got)} separating probe(s) asked which of two doubles opens (legal-placements "
                     "on an empty layout, the two held and no other double): the order is read with them")
