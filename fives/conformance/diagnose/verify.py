"""Check the answer before claiming it (spec/diagnose.md, "Checked against the engine"): before
the inferred profile of a game is reported as explaining the engine, the fuzzer asks the engine
requests drawn and answered under that profile (the same generators, every kind asked for, drawn
with the profile's own rules: its target, hand sizes, order). A stable disagreement means the
profile does not explain the engine: its request joins the failures (with the base's
expectation: a failure, or a passing case the profile broke) and the search runs again; what is
still unexplained at the end is reported as such, in clusters, and the run exits 1."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import kind_named
from fives.conformance.engines.drivers import Engine, Outcome, ReferenceEngine
from fives.conformance.runner import CaseResult

if TYPE_CHECKING:
    from fives.conformance.diagnose.diagnosis import Diagnosis

#: the searches a diagnosis may run again after a check found the profile wrong
ROUNDS = 2
#: engine requests one finding's shrink may spend (as diagnose/probe.py's examples)
SHRINK_BUDGET = 3000


def check(d: Diagnosis, engine: Engine, games: list[str], seed: int, draws: int, seconds: float,
          kinds: list[str] | None = None) -> list[CaseResult]:
    """Fuzz the engine under each checked game's inferred profile: the stable disagreements as
    results with the base's expectations; what was done goes to `d.verified`, the requests
    answered two ways to `d.inconsistent`."""
    from fives.conformance.diagnose.checked import checked_games
    from fives.conformance.diagnose.observed import stated_rules
    from fives.conformance.fuzz import Fuzzer
    from fives.profiles import make_profile

    out: list[CaseResult] = []
    base = ReferenceEngine(profile=d.profile)
    t0 = time.monotonic()
    todo = checked_games(d, games)
    for i, game in enumerate(todo):
        left = seconds - (time.monotonic() - t0)
        if left <= 0:
            break
        profile = make_profile(game, stated_rules(d, game)[0], name=f"{game}-diagnosed",
                               source="fives conformance diagnose")
        fuzzer = Fuzzer(engine, [game], kinds, seed, SHRINK_BUDGET, profile)
        report = fuzzer.run(cases=draws, seconds=left / (len(todo) - i))
        d.inconsistent.extend(report.inconsistent)
        v = d.verified.setdefault(game, {"rounds": 0, "draws": 0, "requests": 0, "disagreements": 0})
        v["rounds"] += 1
        v["draws"] += report.draws
        v["requests"] += report.requests
        v["disagreements"] = len(report.findings)  # the last check's: 0 is the profile confirmed
        if report.interrupted:
            raise KeyboardInterrupt
        for f in report.findings:
            out.append(_as_result(base, f.id, f.game, f.kind, f.input, f.actual, tuple(dict.fromkeys([f.clause,
                                                                                                          *f.tags]))))
    return out


def _as_result(base: ReferenceEngine, cid: str, game: str, kind: str, input: dict[str, Any], actual: Any,
               clauses: tuple[str, ...]) -> CaseResult:
    """The engine's answer to a check's request, judged as the suite's cases are: against the base."""
    expected = base.answer(kind, game, input)
    case = Case(cid.replace("FUZZ-", "CHECK-", 1), kind, game, clauses,
                {"derived": "fives conformance diagnose: a check of the inferred profile"}, input, expected, "fuzz")
    diffs = kind_named(kind).compare(expected, actual)
    return CaseResult(case, "failed" if diffs else "passed", list(diffs), Outcome("ok", actual))


def carry(d: Diagnosis, more: Diagnosis) -> None:
    """What a search run again keeps of the one before: the fuzzer's, the scope, the answers
    kept, the inconsistencies, the checks and the answer to --expect-seeds."""
    more.fuzz, more.scope, more.replies, more.inconsistent = d.fuzz, d.scope, d.replies, d.inconsistent
    more.verified, more.expect_seeds, more.confirmed = d.verified, d.expect_seeds, d.confirmed


def check_and_search(d: Diagnosis, engine: Engine, results: list[CaseResult], extra: list[CaseResult],
                     games: list[str], o: Any, kinds: list[str] | None, end: float,
                     progress: Callable[[str], None] | None) -> Diagnosis:
    """Check, and while a check disagrees (at most ROUNDS times, within the budget `o.budget` up to
    `end`), search and shrink again with its requests in `extra` (the session's DiagnoseOptions `o`)."""
    from fives.conformance.diagnose import diagnosis as dx
    from fives.conformance.diagnose.probe import shrink_examples

    for round_ in range(ROUNDS + 1):
        now = time.monotonic()
        if not o.budget.worth_extending(end, now):
            break
        new = check(d, engine, games, o.seed, o.fuzz_draws, min(end - now, o.budget.fuzz_seconds), kinds)
        have = {r.case.id for r in extra}
        new = [r for r in new if r.case.id not in have]
        if not new or round_ == ROUNDS:
            break
        if progress:
            progress(f"the inferred profile disagrees with the engine in {len(new)} request(s): the search runs "
                     "again with them")
        extra += new
        more = dx.diagnose(results, games, note=progress, mutants=o.mutants, profile=o.profile,
                           deadline=o.budget.search_until(end, time.monotonic()), extra=extra)
        carry(d, more)
        more.requests["shrink"] = d.requests.get("shrink", 0)
        shrink_examples(more, engine, deadline=end, note=progress, earlier=d)
        d = more
    return d
