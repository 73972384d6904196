"""Check the answer before claiming it (spec/diagnose.md, "Checked against the engine"): before
the inferred profile of a game is reported as explaining the engine, the fuzzer asks the engine
requests drawn and answered under that profile (the same generators, every kind asked for, drawn
with the profile's own rules: its target, hand sizes, order). A stable disagreement means the
profile does not explain the engine: its request joins the failures (with the base's
expectation: a failure, or a passing case the profile broke) and the search runs again; what is
still unexplained at the end is reported as such, in clusters, and the run exits 1."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import kind_named
from fives.conformance.engines.drivers import Engine, Outcome, ReferenceEngine
from fives.conformance.runner import CaseResult

if TYPE_CHECKING:
    from fives.conformance.diagnose.diagnosis import Diagnosis

#: the searches a diagnosis may run again after a check found the profile wrong
ROUNDS = 2


def checked_games(d: Diagnosis, games: list[str]) -> list[str]:
    """The games with a rule cause and no misreading (no profile holds a misreading's hooks, so a
    check would find its bug again, not the profile's fault)."""
    out = []
    for g in games:
        mine = [c for c in d.causes if c.candidate.game == g]
        if mine and all(c.candidate.mutant is None for c in mine) and d.combined.get(g):
            out.append(g)
    return out


def check(d: Diagnosis, engine: Engine, games: list[str], seed: int, draws: int, seconds: float,
          kinds: list[str] | None = None) -> list[CaseResult]:
    """Fuzz the engine under each checked game's inferred profile: the stable disagreements as
    results with the base's expectations; what was done goes to `d.verified`, the requests
    answered two ways to `d.inconsistent`."""
    from fives.conformance.diagnose.observed import stated_rules
    from fives.conformance.diagnose.probe import SHRINK_BUDGET
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


def lines(d: Diagnosis) -> list[str]:
    """`checked: GAME's inferred profile against N requests drawn under it: ...`, a line a game."""
    out = [f"checked: the inferred {g} profile was not checked against the engine (--fuzz 0, or no time left)"
           for g in checked_games(d, sorted(d.combined)) if g not in d.verified]
    for game, v in sorted(d.verified.items()):
        how = ("none disagreed" if not v["disagreements"] else
               f"{v['disagreements']} disagreed with it in the last check: it does not explain the engine")
        out.append(f"checked: the inferred {game} profile against {v['draws']} request(s) drawn under it "
                   f"({v['requests']} sent, {v['rounds']} check(s)): {how}")
    return out
