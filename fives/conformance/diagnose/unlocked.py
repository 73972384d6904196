"""Values a cause unlocks, probed before the causes are named (issue 39, item 3; spec/diagnose.md,
"Separating probes"). A dimension inert under the base's value of another (`opening.scope`
changes nothing while `opening.requires` is `any`) comes alive when a cause sets that other:
the suite's cases, written under the seeds, never tell its values apart, so the search never
needs it, and a profile that names the requirement without its scope passes every case.

So for each such dimension, the fuzzer's requests (seed --seed, drawn under the first other
value) are answered in process by the chosen set and by the chosen set with each other value
of the dimension; the first that answer apart (at most thin.PROBES) are asked of the engine.
When another value is nearer the engine's answers, the probes join the failures and the search
runs again with them; otherwise nothing changes, and nothing is printed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from fives.conformance.engines.drivers import Engine
from fives.conformance.runner import CaseResult

if TYPE_CHECKING:
    from fives.conformance.diagnose.diagnosis import Diagnosis

CHOSEN = "the chosen rules"


def unlocked(d: Diagnosis, game: str) -> list[str]:
    """The dimensions of `game` that the chosen set brings out of their inert value's shadow."""
    from fives.profile_space import dimensions

    now = d.chosen.get(game, ())
    chosen_paths = {p for c in now for p in c.overrides}
    out = []
    for dim in dimensions(game):
        if dim.inert_under is None or dim.path in chosen_paths:
            continue
        path, inert = dim.inert_under
        if any(c.overrides.get(path, inert) != inert for c in now):
            out.append(dim.path)
    return out


def probe_unlocked(d: Diagnosis, engine: Engine, seed: int, deadline: float | None = None,
                   note: Callable[[str], None] | None = None) -> list[CaseResult]:
    """The probes of every unlocked dimension not probed yet (`d.confirmed` records each under
    "unlocked PATH"), when some other value of it was nearer the engine; [] otherwise."""
    from fives.conformance.diagnose.search import candidates
    from fives.conformance.diagnose.thin import ask_separating, probe_seconds, rival_engines
    from fives.conformance.engines.drivers import ReferenceEngine
    from fives.conformance.fuzz import Fuzzer, fuzz_kinds

    say = note or (lambda s: None)
    contrary: list[CaseResult] = []
    base = ReferenceEngine(profile=d.profile)
    for game in list(d.chosen):
        scorer, now = d.scorers[game], d.chosen[game]
        for path in unlocked(d, game):
            key = f"unlocked {path}"
            if key in d.confirmed:
                continue
            d.confirmed[key] = ""  # probed once per diagnosis, whatever it finds
            engines = rival_engines(scorer, {CHOSEN: now, **{x.name: now + (x,) for x in candidates(
                game, scorer.base, mutants=False) if x.path == path}})
            rivals = [n for n in engines if n != CHOSEN]
            seconds = probe_seconds(deadline)
            if not rivals or CHOSEN not in engines or seconds <= 0:
                continue
            # drawn under a rival's rules: what it reads (a later hand's opening) is drawn there
            fuzzer = Fuzzer(engine, [game], list(fuzz_kinds()), seed,
                            profile=getattr(engines[rivals[0]], "profile", None) or d.profile)
            near, judged = ask_separating(fuzzer, engines, CHOSEN, game, base, (),
                                          f"fives conformance diagnose: a probe of {path}, which the chosen rules "
                                          "bring into play", seconds)
            results = [r for _, r in judged]
            d.requests["shrink"] = d.requests.get("shrink", 0) + fuzzer.oracle.requests
            top = max(near.values(), default=0)
            winner = next((n for n in rivals if near[n] == top), None) if top else None
            if winner is None or near[CHOSEN] >= top:
                continue  # the chosen rules answer nearest (or nothing told): as the search left it
            tally = ", ".join(f"{n} in {k}" for n, k in near.items() if k)
            d.confirmed[f"named {winner}"] = (f"  named by probes: {path} changes nothing under the seeds' rules and "
                                              f"the chosen ones bring it into play; of {len(results)} request(s) "
                                              f"telling its values apart the engine answered nearest {tally}")
            say(f"{game}: {path}: {len(results)} probe(s), the engine's answers nearest {winner}")
            contrary += results
    return contrary
