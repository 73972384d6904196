"""Causes the cases at hand do not tell apart (spec/diagnose.md, "Ties"): values of one dimension
that explain the same failures and break no passing case. The fuzzer's requests are drawn until
the tied sets answer one differently, and the engine is asked it; the value its answers are
nearest is taken (fives/conformance/diagnose/probe.py runs this before the shrinking).
"""
from __future__ import annotations

import time
from typing import Any, Callable

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import Kind, kind_named
from fives.conformance.diagnose.diagnosis import Diagnosis, rechosen
from fives.conformance.engines.drivers import Engine, Outcome

#: a tie of causes (separate): the engine requests that tell the tied sets apart asked at
#: most, the draws and seconds spent looking for them at most
PROBES, PROBE_DRAWS, PROBE_SECONDS = 3, 2000, 10.0


def separate(d: Diagnosis, engine: Engine, deadline: float | None = None,
             note: Callable[[str], None] | None = None) -> None:
    """Tell apart causes that the cases at hand do not: when the search took a rule and another
    value of the same dimension explained as many failures (search.Scorer.ties: the opening
    orders `[6|6] [5|5] ... [5|6]` and `[5|5] [6|6] ...` agree unless a leader holds both
    doubles or the six-five alone), and the set with that value instead explains the same
    failures and breaks no passing case, the fuzzer's requests are drawn (seed --seed) until
    the sets answer one of them differently; the engine is asked it. Its answer counts for the
    set it agrees with or, when it agrees with none (a bug of its own shows too), for the one
    set it differs from least. The value with the most (of at most PROBES such requests,
    PROBE_DRAWS draws, PROBE_SECONDS) is taken; on a tie the one the search took stays. What the
    engine answered is kept (Scorer.probed) so a search extended later ranks the tie the same way."""
    from fives.conformance.fuzz import Fuzzer, fuzz_kinds

    say = note or (lambda s: None)
    for game, chosen in list(d.chosen.items()):
        scorer = d.scorers[game]
        for c in chosen:
            rivals = [x for x in scorer.ties.get(c.name, []) if x.name not in scorer.probed]
            if not rivals or c.name in scorer.probed:
                continue
            now = d.chosen[game]
            whole = scorer.explained(now)
            sets = {c.name: now}
            for x in rivals:
                swap = tuple(x if y is c else y for y in now)
                if scorer.explained(swap) == whole and not scorer.breaks(swap):
                    sets[x.name] = swap
            if len(sets) < 2:
                continue
            seconds = PROBE_SECONDS if deadline is None else min(PROBE_SECONDS, (deadline - time.monotonic()) / 4)
            if seconds <= 0:
                return
            agree = {name: 0 for name in sets}
            # requests of the kinds the rule shows in (the failures it alone explains), if the fuzzer makes them
            own = whole - scorer.explained(tuple(y for y in now if y is not c))
            shown = sorted({r.case.kind for r in scorer.failing if r.case.id in own} & set(fuzz_kinds()))
            fuzzer = Fuzzer(engine, [game], shown or None, int(d.fuzz.get("seed", 0)), profile=d.profile)
            engines = {name: scorer.engine(s) for name, s in sets.items()}
            asked, t0 = 0, time.monotonic()
            for i in range(PROBE_DRAWS):
                if asked >= PROBES or time.monotonic() - t0 > seconds:
                    break
                _, _, drawn = fuzzer.draw(i)
                case = Case("probe", drawn["kind"], game, (), {}, drawn["input"], None, "diagnose")
                outs = {name: e.run(case) for name, e in engines.items()}
                if not _apart(kind_named(case.kind), list(outs.values())):
                    continue
                v = fuzzer.oracle.ask(game, case.kind, case.input)
                asked += 1
                if v.status not in ("agree", "differ"):
                    continue
                # the set the engine agrees with; when it agrees with none (a bug of its own shows
                # too), the one set it differs from least, if one does
                far = {name: _distance(kind_named(case.kind), o, v.actual) for name, o in outs.items()}
                near = [name for name, n in far.items() if n == min(far.values())]
                if len(near) == 1 and far[near[0]] < float("inf"):
                    agree[near[0]] += 1
            d.requests["shrink"] = d.requests.get("shrink", 0) + fuzzer.oracle.requests
            scorer.probed.update(agree)
            best = max(agree, key=lambda name: (agree[name], name == c.name))
            say(f"{game}: {len(sets)} values of {c.path} explain as much; {asked} request(s) tell them apart, "
                "the engine's answers nearest: " + ", ".join(f"{name} in {n}" for name, n in agree.items()))
            if best != c.name:
                rechosen(d, game, sets[best])


def _apart(kind: Kind, outs: list[Outcome]) -> bool:
    """Do the sets answer a request differently (by the kind's own comparison)?"""
    a = outs[0]
    for b in outs[1:]:
        if (a.status == "ok") != (b.status == "ok"):
            return True
        if a.status == "ok" and _distance(kind, a, b.answer):
            return True
    return False


def _distance(kind: Kind, o: Outcome, actual: Any) -> float:
    """How many differences the kind's comparison finds between a set's answer and `actual`."""
    if o.status != "ok":
        return float("inf")
    try:
        return len(kind.compare(o.answer, actual))
    except Exception:  # noqa: BLE001 - an answer the comparer chokes on is as far as can be
        return float("inf")
