"""Thin causes confirmed by probes before they are named (issue 39, item 2; spec/diagnose.md,
"Thin causes"). A rule variant the search took on fewer than a handful of failing cases may
rest on cases that cannot tell it from another value of its dimension, or from none: a match
ended on a tie, read from one case, says "highest score wins" as well as "the first seat wins".

So before the examples are shrunk, for each such cause, the fuzzer's requests of the kinds its
failures are (seed --seed) are drawn and answered in process by the chosen set, by the set with
each other value of the cause's dimension in its place, and by the set without it (the base's
value), until they answer one differently; the engine is asked it, and its answer counts for
the set it agrees with (or differs from least, if one alone). At most PROBES requests per cause.

- The cause's set nearest the most: **confirmed**, and the output says by which probe.
- Another set nearest: the probes join the failures (or the passing cases: an answer the base
  gives) and the search runs again with them, so what it names rests on them too.
- No request drawn tells them apart: the cause is named and the output says it is unconfirmed.
"""
from __future__ import annotations

import hashlib
import json
import time
from typing import TYPE_CHECKING, Any, Callable

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import canonical, kind_named
from fives.conformance.engines.drivers import Engine, Outcome
from fives.conformance.engines.process import REPORTED_ERROR
from fives.conformance.runner import CaseResult

if TYPE_CHECKING:
    from fives.conformance.diagnose.diagnosis import Diagnosis

#: a cause resting on fewer failing cases than this is probed before it is named
HANDFUL = 5
#: per thin cause: separating requests asked at most, draws looked through, seconds at most
PROBES, PROBE_DRAWS, PROBE_SECONDS = 3, 1500, 10.0
#: the name the set without the cause goes by in the output
BASE = "the base's value"


def _probe_id(game: str, kind: str, input: dict[str, Any]) -> str:
    from fives.conformance.golden.cases import PREFIX
    digest = hashlib.sha256(canonical({"game": game, "kind": kind, "input": input}).encode()).hexdigest()
    return f"PROBE-{PREFIX[game]}-{kind}-{digest[:12]}"


def probe_thin(d: Diagnosis, engine: Engine, seed: int, deadline: float | None = None,
               note: Callable[[str], None] | None = None) -> list[CaseResult]:
    """Probe every thin cause not probed yet (`d.confirmed` records each): the requests asked,
    judged against the base as the suite's cases are, when some set other than the chosen one
    was nearer the engine (the search must run again with them); [] when every probe confirmed."""
    from fives.conformance.diagnose.search import candidates
    from fives.conformance.engines.drivers import ReferenceEngine
    from fives.conformance.fuzz import Fuzzer, fuzz_kinds

    say = note or (lambda s: None)
    contrary: list[CaseResult] = []
    base = ReferenceEngine(profile=d.profile)
    for cause in list(d.causes):
        c = cause.candidate
        if c.path is None or c.mutant is not None or len(cause.explained) >= HANDFUL or c.name in d.confirmed:
            continue
        game, scorer = c.game, d.scorers[c.game]
        now = d.chosen.get(game, ())
        if c not in now:
            continue
        sets: dict[str, tuple[Any, ...]] = {c.name: now, BASE: tuple(y for y in now if y is not c)}
        for x in candidates(game, scorer.base, mutants=False):
            if x.path == c.path and x.name != c.name:
                sets[x.name] = tuple(x if y is c else y for y in now)
        engines = rival_engines(scorer, sets)
        kinds = sorted({r.case.kind for r in cause.explained} & set(fuzz_kinds()))
        seconds = probe_seconds(deadline)
        if seconds <= 0 or not kinds:
            d.confirmed[c.name] = (f"  unconfirmed: it rests on {len(cause.explained)} case(s) and no probe was made "
                                   + ("(the time budget was spent)" if kinds else "(the fuzzer makes no request of "
                                      "its kinds)"))
            continue
        # drawn under the cause's rules: a request its rules need more of (the previous hand's
        # leader, for a leader rule that reads it) is one the base's draws never make
        fuzzer = Fuzzer(engine, [game], kinds, seed, profile=getattr(engines.get(c.name), "profile", None) or d.profile)
        near, judged = ask_separating(fuzzer, engines, c.name, game, base, c.clauses,
                                      f"fives conformance diagnose: a probe of {c.name} (it rests on "
                                      f"{len(cause.explained)} case(s))", seconds)
        asked = [(r.case.id, won) for won, r in judged]  # (probe id, the set nearest the engine's answer)
        results = [r for _, r in judged]
        d.requests["shrink"] = d.requests.get("shrink", 0) + fuzzer.oracle.requests
        d.confirmed[c.name], named = _line(c.name, len(cause.explained), near, asked, results)
        if named:
            d.confirmed[f"named {named[0]}"] = named[1]
        say(f"{game}: {c.name} rests on {len(cause.explained)} case(s): {len(asked)} probe(s), the engine's "
            "answers nearest: " + ", ".join(f"{n} in {k}" for n, k in near.items() if k))
        top = max(near.values(), default=0)
        if top and near[c.name] < top:
            contrary += results  # another value, or none, is nearer: the search runs again with them
    return contrary


def rival_engines(scorer: Any, sets: dict[str, tuple[Any, ...]]) -> dict[str, Engine]:
    """An in-process engine for each named set of candidates, but the sets no profile holds."""
    from fives.support.errors import UserError

    engines: dict[str, Engine] = {}
    for name, s in sets.items():
        try:
            engines[name] = scorer.engine(s)
        except UserError:  # values no profile holds together: not a rival
            pass
    return engines


def probe_seconds(deadline: float | None) -> float:
    """The seconds one dimension's probes may take: PROBE_SECONDS, or a quarter of the time left."""
    left = None if deadline is None else (deadline - time.monotonic()) / 4
    return PROBE_SECONDS if left is None else min(PROBE_SECONDS, left)


def ask_separating(fuzzer: Any, engines: dict[str, Engine], chosen: str, game: str, base: Engine,
                   clauses: tuple[str, ...], derived: str,
                   seconds: float) -> tuple[dict[str, int], list[tuple[str | None, CaseResult]]]:
    """The fuzzer's requests that `engines[chosen]` answers otherwise than some other of
    `engines`, asked of the engine (at most PROBES, PROBE_DRAWS draws, `seconds`): how often
    each set was nearest its answer, and each probe as (the set nearest alone or None, its result)."""
    from fives.conformance.diagnose.ties import _apart

    near = {name: 0 for name in engines}
    judged: list[tuple[str | None, CaseResult]] = []
    t0 = time.monotonic()
    for i in range(PROBE_DRAWS):
        if len(judged) >= PROBES or time.monotonic() - t0 > seconds:
            break
        _, _, drawn = fuzzer.draw(i)
        case = Case("probe", drawn["kind"], game, (), {}, drawn["input"], None, "diagnose")
        outs = {name: e.run(case) for name, e in engines.items()}
        if not _apart(kind_named(case.kind), [outs[chosen], *(o for n, o in outs.items() if n != chosen)]):
            continue  # the chosen set answers it as every rival does: it tells nothing
        got = _judge(game, case, outs, fuzzer.oracle, base, clauses, derived)
        if got is None:
            continue
        if got[0] is not None:
            near[got[0]] += 1
        judged.append(got)
    return near, judged


def _judge(game: str, case: Case, outs: dict[str, Outcome], oracle: Any, base: Engine,
           clauses: tuple[str, ...], derived: str) -> tuple[str | None, CaseResult] | None:
    """Ask the engine (through the fuzzer's `oracle`) a request the sets of `outs` answer apart:
    the set its answer is nearest, if one alone, and the probe as a result judged against
    `base`, as the suite's cases are; None when the engine's reply is no answer at all."""
    from fives.conformance.diagnose.ties import _distance

    v = oracle.ask(game, case.kind, case.input)
    # an error reply of the engine's own is an answer too: the sets that refuse the request
    # agree with it (a rule under which the input is illegal), the others do not
    said = next((x.removeprefix("engine error: ") for x in v.diffs if REPORTED_ERROR in x), None)
    if v.status not in ("agree", "differ") and said is None:
        return None
    far = {name: (0.0 if o.status == "error" else float("inf")) if said is not None
           else _distance(kind_named(case.kind), o, v.actual) for name, o in outs.items()}
    best = [name for name, n in far.items() if n == min(far.values())]
    won = best[0] if len(best) == 1 and far[best[0]] < float("inf") else None
    expected = base.answer(case.kind, game, case.input)
    diffs = [] if said is not None else kind_named(case.kind).compare(expected, v.actual)
    return won, CaseResult(
        Case(_probe_id(game, case.kind, case.input), case.kind, game, clauses, {"derived": derived}, case.input,
             expected, "fuzz"),
        "errored" if said is not None else "failed" if diffs else "passed", list(diffs),
        Outcome("error", message=said) if said is not None else Outcome("ok", v.actual))


def _line(name: str, rests: int, near: dict[str, int], asked: list[tuple[str, str | None]],
          results: list[CaseResult]) -> tuple[str, tuple[str, str] | None]:
    """The line under the cause (which probes decided, and how) and, when another value won,
    (its name, the line under it once the search names it)."""
    if not asked:
        return (f"  unconfirmed: it rests on {rests} case(s) and no request the fuzzer drew tells it from the "
                "other values of its dimension"), None
    top = max(near.values())
    if not top:
        return (f"  unconfirmed: it rests on {rests} case(s); of {len(asked)} request(s) telling it apart the engine "
                "answered none nearest one value alone"), None
    winner = next((n for n in [name, *near] if near[n] == top), None)
    decided = next(((pid, r) for (pid, won), r in zip(asked, results) if won == winner), None)
    shown = "" if decided is None else (f"; decided by {decided[0]} ({decided[1].case.kind} "
                                        f"{json.dumps(decided[1].case.input, sort_keys=True)[:160]})")
    tally = ", ".join(f"{n} in {k}" for n, k in near.items() if k) or "none"
    if winner == name:
        return (f"  confirmed by probes: it rests on {rests} case(s); of {len(asked)} request(s) the other values "
                f"of its dimension answer differently, the engine answered nearest {tally}{shown}"), None
    said = (f"  not confirmed by probes: it rests on {rests} case(s); of {len(asked)} request(s) telling it apart "
            f"the engine answered nearest {tally}{shown}")
    if winner is None or winner == BASE:
        return said, None
    return said, (winner, f"  named by probes: {name} rested on {rests} case(s); of {len(asked)} request(s) telling "
                          f"them apart the engine answered nearest {tally}{shown}")
