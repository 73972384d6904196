"""`fives conformance diagnose`: from an engine's failures to named causes (spec/diagnose.md).

The suite is run against the engine once and every answer is kept. Each *candidate cause*
is a way to play that is not the seeds' rules: one rule dimension set to another value (a
profile, fives/profiles.py) or a shipped mutant (fives/conformance/mutants.py). A candidate
*explains* a failing case when the engine's answer agrees with the candidate's answer on
every key the case states; it *breaks* a passing case when the candidate answers it
otherwise (the engine did what the seeds say there, the candidate would not have). The
search is greedy: the candidate that explains the most failures and breaks nothing is taken,
its failures are set aside, and so on until no candidate explains one. The parameters taken
are then checked together, as one profile. What no cause explains is clustered by
difference pattern (fives/conformance/failures.py): the engine's likely bugs.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from fives.conformance.drivers import Engine, ReferenceEngine
from fives.conformance.failures import FailureGroup, group_failures
from fives.conformance.fixtures import Case
from fives.conformance.kinds import Kind
from fives.conformance.runner import CaseResult


@dataclass
class Candidate:
    name: str  # "continuation.drawn_tile_ends_turn = false" or "mutant drawn-tile-continues"
    game: str | None  # the game it applies to (None: a mutant, either game)
    clauses: tuple[str, ...]
    engine: Engine
    overrides: dict[str, Any] = field(default_factory=dict)  # empty for a mutant
    mutant: str | None = None


@dataclass
class Cause:
    candidate: Candidate
    explained: list[CaseResult]
    example: CaseResult  # the smallest explained case whose state is reachable


@dataclass
class Diagnosis:
    causes: list[Cause]
    unexplained: list[FailureGroup]
    failing: int
    passing: int
    candidates: int
    seconds: float
    combined: dict[str, dict[str, Any]] = field(default_factory=dict)  # game -> overrides of the profile
    combined_explained: int = 0
    combined_broken: int = 0
    by_combination: int = 0  # failures only the parameters together explain

    @property
    def explained(self) -> int:
        return sum(len(c.explained) for c in self.causes) + self.by_combination


def candidates(games: list[str], mutants: bool = True) -> list[Candidate]:
    """Every one-dimension profile of every game, then (with `mutants`) every shipped mutant."""
    from fives.conformance.mutants import all_mutants
    from fives.profiles import alternative_overrides, alternatives, dimensions, make_profile

    out = []
    for game in games:
        from fives.conformance.golden.cases import PREFIX
        clauses = {d.path: tuple(c for c in d.clauses if c.startswith(PREFIX[game] + "-")) for d in dimensions(game)}
        for path, values in sorted(alternatives(game).items()):
            for v in values:
                overrides = alternative_overrides(game, path, v)
                profile = make_profile(game, overrides, source="fives conformance diagnose")
                out.append(Candidate(f"{path} = {_show(v)}", game, tuple(clauses.get(path, ())),
                                     ReferenceEngine(profile=profile, name=f"candidate {path}"), dict(overrides)))
    for m in all_mutants() if mutants else []:
        out.append(Candidate(f"mutant {m.name}", None, (m.clause,), ReferenceEngine(m.hooks(), name=m.name),
                             mutant=m.name))
    return out


def _show(v: Any) -> str:
    import json
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def _stated(case: Case, answer: Any) -> Any:
    """The candidate's answer cut to the top-level keys the case states (so it is compared as
    the case's own expectation is)."""
    if isinstance(answer, dict) and isinstance(case.expect, dict):
        # an error the candidate answers is stated too: an engine that errs where the seeds'
        # rules play on is explained by a candidate that errs there the same way
        return {k: answer[k] for k in answer if k in case.expect or k == "error"}
    return answer


def _refused(r: CaseResult) -> bool:
    """The engine answered the case with an error of its own (not a crash, hang or garbage)."""
    from fives.conformance.process import REPORTED_ERROR
    return (r.status == "errored" and r.outcome is not None and r.outcome.status == "error"
            and (r.outcome.message or "").startswith(REPORTED_ERROR))


def _agrees(kinds: dict[str, Kind], cand: Candidate, r: CaseResult) -> bool | None:
    """Does the candidate answer as the engine did? None: it cannot answer the case."""
    out = cand.engine.run(r.case)
    if _refused(r):  # the engine refused the input: explained by a candidate under which it is illegal
        return out.status == "error"
    if out.status != "ok" or r.outcome is None or r.outcome.status != "ok":
        return None
    try:
        return not kinds[r.case.kind].compare(_stated(r.case, out.answer), r.outcome.answer)
    except Exception:  # an answer the comparer chokes on agrees with nothing
        return False


def _size(r: CaseResult) -> tuple[int, int]:
    import json
    return len(json.dumps(r.case.input, sort_keys=True, default=str)), len(r.case.id)


def diagnose(results: list[CaseResult], kinds: dict[str, Kind], games: list[str],
             note: Callable[[str], None] | None = None, deadline: float | None = None,
             mutants: bool = True) -> Diagnosis:
    from fives.conformance.failures import load_clause_book
    from fives.conformance.reachable import problems
    from fives.profiles import make_profile, rules_under

    say = note or (lambda s: None)
    t0 = time.monotonic()
    # the seeds' own cases only: a variant case already states its profile
    # the seeds' own cases only (a variant case already states its profile), without the deep
    # perft rows: every candidate answers every case, and those take minutes each
    results = [r for r in results if r.case.rules is None and r.case.game in games and "slow" not in r.case.tags]
    # a failure, or the engine refusing an input (which a variant under which it is illegal explains)
    failing = [r for r in results if (r.status == "failed" or _refused(r)) and r.known is None]
    passing = [r for r in results if r.status == "passed"]
    pool = candidates(games, mutants)
    scored: list[tuple[Candidate, set[str], int]] = []
    for i, cand in enumerate(pool):
        if deadline is not None and time.monotonic() > deadline:
            say(f"time is up: {len(pool) - i} candidate(s) not tried")
            break
        mine = [r for r in failing if cand.game in (None, r.case.game)]
        explained = {r.case.id for r in mine if _agrees(kinds, cand, r)}
        if not explained:
            continue
        broken = sum(1 for r in passing if cand.game in (None, r.case.game) and _agrees(kinds, cand, r) is False)
        say(f"{cand.name}: explains {len(explained)}, breaks {broken}")
        scored.append((cand, explained, broken))
    causes: list[Cause] = []
    left = {r.case.id: r for r in failing}
    while True:
        best = max(((c, e & set(left), b) for c, e, b in scored if b == 0),
                   key=lambda t: (len(t[1]), t[0].mutant is None, [-ord(ch) for ch in t[0].name]), default=None)
        if best is None or not best[1]:
            break
        cand, ids, _ = best
        taken = sorted((left.pop(i) for i in ids), key=lambda r: r.case.id)
        rules_of = (lambda g: rules_under(make_profile(g, cand.overrides), g)) if cand.overrides else None
        reachable = [r for r in taken if not problems(rules_of(r.case.game) if rules_of else _rules(r.case.game),
                                                      r.case.kind, r.case.input)]
        causes.append(Cause(cand, taken, min(reachable or taken, key=_size)))
    clauses = load_clause_book()
    pooled = {r.case.id for r in failing}
    rest = [r for r in results if r.counts_as_failure and (r.case.id in left or r.case.id not in pooled)]
    unexplained = group_failures(rest, clauses)
    errored = sum(1 for r in results if r.status == "errored" and r.known is None and r.case.id not in pooled)
    d = Diagnosis(causes, unexplained, len(failing) + errored, len(passing), len(pool), time.monotonic() - t0)
    together = _combine(d, kinds, [left[i] for i in sorted(left)], passing, games)
    if together:  # parameters that only explain a case together (an interaction) explain it too
        d.unexplained = group_failures([r for r in rest if r.case.id not in together], clauses)
        d.by_combination = len(together)
    d.seconds = time.monotonic() - t0
    return d


def _rules(game: str) -> Any:
    from fives.rules import load_rules
    return load_rules(game)


def _combine(d: Diagnosis, kinds: dict[str, Kind], left: list[CaseResult], passing: list[CaseResult],
             games: list[str]) -> set[str]:
    """The parameters taken, per game, as one profile: which of the failures no single cause
    explained it explains, and how many passing cases it breaks."""
    from fives.profiles import make_profile

    together: set[str] = set()
    for game in games:
        overrides: dict[str, Any] = {}
        for c in d.causes:
            if c.candidate.game == game:
                overrides.update(c.candidate.overrides)
        if not overrides:
            continue
        d.combined[game] = overrides
        cand = Candidate("combined", game, (), ReferenceEngine(profile=make_profile(game, overrides)), overrides)
        together |= {r.case.id for r in left if r.case.game == game and _agrees(kinds, cand, r)}
        d.combined_broken += sum(1 for r in passing if r.case.game == game and _agrees(kinds, cand, r) is False)
    d.combined_explained = d.explained + len(together)
    return together


def profile_yaml(d: Diagnosis, game: str) -> str:
    import yaml
    doc = {"extends": game, "name": f"{game}-diagnosed", "source": "fives conformance diagnose",
           "rules": d.combined.get(game, {})}
    return yaml.safe_dump(doc, sort_keys=True, allow_unicode=True)


def lines(d: Diagnosis) -> list[str]:
    """The human report: each cause in the rules' words, then the unexplained clusters."""
    from fives.conformance.failures import load_clause_book

    book = load_clause_book()
    out = []
    for c in d.causes:
        cand = c.candidate
        out.append(f"cause: {cand.name}" + (f" ({cand.game})" if cand.game else "")
                   + f": explains {len(c.explained)} failing case(s); e.g. {c.example.case.id}")
        for cid in cand.clauses:
            cl = book.get(cid)
            if cl is None:
                continue
            out.append(f"  departs from {cid} ({cl.title})")
            for s in cl.sources[:1]:
                out.append(f"    {s.seed} «{s.heading}»: «{s.quote}»")
    if d.unexplained:
        n = sum(g.count for g in d.unexplained)
        out.append(f"unexplained: {n} failing case(s) no cause explains, in {len(d.unexplained)} cluster(s): "
                   "the engine's likely bugs")
        for g in d.unexplained:
            example = min(g.explanations, key=lambda ex: _size(ex.result)).result.case.id
            out.append(f"  {g.count} case(s): {g.key}; clauses {g.clause_text()}; e.g. {example}")
    if d.by_combination:
        out.append(f"the causes' parameters together also explain {d.by_combination} more failing case(s)")
    out.append(f"{d.failing} failing, {d.explained} explained by {len(d.causes)} cause(s), "
               f"{d.failing - d.explained} not; {d.candidates} candidates tried in {d.seconds:.1f} s"
               + (f"; the parameters together explain {d.combined_explained} and break {d.combined_broken}"
                  if d.combined else ""))
    return out


def to_json(d: Diagnosis) -> dict[str, Any]:
    return {"format": "fives-diagnosis/1",
            "causes": [{"cause": c.candidate.name, "game": c.candidate.game, "overrides": c.candidate.overrides,
                        "mutant": c.candidate.mutant, "clauses": list(c.candidate.clauses),
                        "explains": len(c.explained), "ids": [r.case.id for r in c.explained],
                        "example": c.example.case.id} for c in d.causes],
            "unexplained": [g.to_dict() for g in d.unexplained],
            "profile": d.combined, "failing": d.failing, "explained": d.explained,
            "combined": {"explains": d.combined_explained, "breaks": d.combined_broken}}


def fixture_text(c: Cause) -> str:
    """The cause's example as a one-case fixture file (the seeds' expectation kept)."""
    import yaml
    case = c.example.case
    doc = {"format": "fives-fixtures/1", "title": f"diagnose: {c.candidate.name}",
           "cases": [{"id": case.id, "kind": case.kind, "game": case.game, "clauses": list(case.clauses),
                      "source": {"derived": f"fives conformance diagnose: an example of {c.candidate.name}"},
                      "description": case.description or f"An example of {c.candidate.name}",
                      "input": case.input, "expect": case.expect}]}
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)
