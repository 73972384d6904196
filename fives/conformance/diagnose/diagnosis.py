"""`fives conformance diagnose`: from an engine's failures to named causes (spec/diagnose.md).

The suite (and, within the budget, the fuzzer) is run against the engine once and every
answer is kept. The search (fives/conformance/diagnose/search.py) finds, per game, the
smallest set of candidate causes (rule variants of fives/profiles.py, shipped mutants)
that explains the most failures without turning a passing case into a failure. Each cause
gets an example that shows it alone, shrunk to a minimal reachable fixture
(fives/conformance/diagnose/probe.py); what no cause explains is clustered by difference
pattern (fives/conformance/reports/failures.py): the engine's likely bugs.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from fives.conformance.diagnose.observed import stated_rules, stated_value
from fives.conformance.diagnose.search import Candidate, Scorer, attribute, candidates, refused, select
from fives.conformance.reports.failures import FailureGroup
from fives.conformance.cases.fixtures import Case
from fives.conformance.runner import CaseResult

if TYPE_CHECKING:
    from fives.profiles import Profile

__all__ = ["Candidate", "Cause", "Diagnosis", "diagnose", "lines", "to_json", "profile_yaml", "fixture_text"]


@dataclass
class Cause:
    candidate: Candidate
    explained: list[CaseResult]
    example: CaseResult  # the smallest explained case that shows this cause alone, reachable
    fixture: dict[str, Any] | None = None  # the example shrunk (a fixture case), once probed


@dataclass
class Diagnosis:
    causes: list[Cause]
    unexplained: list[FailureGroup]
    failing: int
    passing: int
    candidates: int  # candidate causes in the pool (over the games)
    seconds: float
    combined: dict[str, dict[str, Any]] = field(default_factory=dict)  # game -> the inferred profile's rules
    combined_explained: int = 0
    combined_broken: int = 0
    sets_tried: int = 0  # sets of candidates played
    stopped: str | None = None  # why the search stopped early: "time", "interrupted"; None
    profile: Profile | None = None  # the profile diagnosed against (--rules BASE), or None for the seeds'
    clusters: dict[str, dict[str, Any]] = field(default_factory=dict)  # group key -> its minimal case, once probed
    fuzz: dict[str, Any] = field(default_factory=dict)  # what the fuzzer did, when it ran
    requests: dict[str, int] = field(default_factory=dict)  # engine requests: suite, fuzz, shrink
    scorers: dict[str, Scorer] = field(default_factory=dict, repr=False)
    #: the cases skipped as outside the scope the engine's hello declares (spec/protocol.md,
    #: "Engine scope"): {"declared": the hello's scope, "skipped": N, "reasons": {reason: N}}; the
    #: engine's scope, never a failure, a cause or a cluster
    scope: dict[str, Any] = field(default_factory=dict)
    #: cluster key -> {"pattern", "label", "relation", "near", "parting"} (diagnose/clusters.py)
    described: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: "cause NAME" / "cluster KEY" -> why its example is not (wholly) shrunk (probe.NOT_SHRUNK)
    shrink_notes: dict[str, str] = field(default_factory=dict)
    #: game -> the causes chosen for it (the set, in the order taken)
    chosen: dict[str, tuple[Candidate, ...]] = field(default_factory=dict, repr=False)
    #: cluster key (before merging) -> (its minimal case, its description, its note), for each
    #: cluster whose turn came: an extended search's clusters take them instead of asking again
    done: dict[str, tuple[Any, Any, Any]] = field(default_factory=dict, repr=False)
    #: fixture id -> the engine's answer it was shrunk from: asked again before it is written
    replies: dict[str, Any] = field(default_factory=dict, repr=False)
    #: requests answered two ways (fuzz/recheck.py Inconsistency): never a cause or a bug
    inconsistent: list[Any] = field(default_factory=list)
    #: game -> its inferred profile's check against the engine (diagnose/verify.py)
    verified: dict[str, dict[str, Any]] = field(default_factory=dict)
    expect_seeds: bool = False  # --expect-seeds: every cause a departure (sessions/diagnose.py)
    #: cause name (or "named NAME") -> the line saying which probes confirmed it (diagnose/thin.py)
    confirmed: dict[str, str] = field(default_factory=dict)

    @property
    def explained(self) -> int:
        return sum(len(c.explained) for c in self.causes)

    @property
    def misreadings(self) -> list[Cause]:
        """The causes that are shipped misreadings (mutants no profile expresses): bugs, named."""
        return [c for c in self.causes if c.candidate.mutant is not None]


def _size(r: CaseResult) -> tuple[Any, ...]:
    from fives.conformance.fuzz.shrink import measure
    return measure(r.case.kind, r.case.input), len(json.dumps(r.case.input, sort_keys=True, default=str)), r.case.id


def _base_rules(profile: Profile | None, game: str) -> dict[str, Any]:
    return dict(profile.overrides) if profile is not None and profile.extends == game else {}


def diagnose(results: list[CaseResult], games: list[str],
             note: Callable[[str], None] | None = None, deadline: float | None = None,
             mutants: bool = True, profile: Profile | None = None, extra: list[CaseResult] | None = None,
             scorers: dict[str, Scorer] | None = None) -> Diagnosis:
    """`results`: the suite's, expectations under `base` (None: the seeds'); `extra`: the
    fuzzer's disagreements (and refusals) as results; `scorers`: an earlier diagnosis's of the
    same results (the search extended: every answer it has is kept)."""
    from fives.conformance.reports.failures import load_clause_book

    say = note or (lambda s: None)
    t0 = time.monotonic()
    outside = [r for r in results if r.out_of_scope and r.case.game in games]
    # the seeds' own cases only (a variant case already states its profile), without the deep
    # perft rows: every candidate set answers every case, and those take minutes each
    results = [r for r in results if r.case.profile is None and r.case.game in games and "slow" not in r.case.tags]
    results += [r for r in extra or [] if r.case.game in games]
    failing = [r for r in results if (r.status == "failed" or refused(r)) and r.known is None]
    passing = [r for r in results if r.status == "passed"]
    from fives.conformance.diagnose.clusters import (describe_cluster, form, merge_by_relation, merge_by_residual,
                                                     near_rules, residual_roots)
    from fives.conformance.diagnose.inferred import inferred_candidates

    causes: list[Cause] = []
    explained_ids: set[str] = set()
    near: dict[str, Candidate] = {}
    d = Diagnosis([], [], 0, len(passing), 0, 0.0, profile=profile)
    if outside:
        reasons: dict[str, int] = {}
        for r in outside:
            reasons[str(r.out_of_scope)] = reasons.get(str(r.out_of_scope), 0) + 1
        d.scope = {"declared": None, "skipped": len(outside), "reasons": dict(sorted(reasons.items()))}
    for game in games:
        scorer = d.scorers[game] = (scorers or {}).get(game) or Scorer(game, _base_rules(profile, game),
                                                                         failing, passing)
        if not scorer.failing:
            continue
        pool = candidates(game, scorer.base, mutants)
        # numeric values read off the engine's answers (a target, a hand size, a reserve, ...),
        # before the misreadings: checked by the search like any candidate
        rules = [c for c in pool if c.mutant is None]
        pool = rules + inferred_candidates(game, scorer.failing, scorer.base, pool, scorer.passing) + pool[len(rules):]
        d.candidates += len(pool)
        chosen, stopped = select(scorer, pool, say, deadline)
        d.stopped = d.stopped or stopped
        d.sets_tried += scorer.sets_tried
        near.update(near_rules(scorer, chosen, pool))
        if not chosen:
            continue
        d.chosen[game] = chosen
        causes += game_causes(d, scorer, chosen)
        together = scorer.explained(chosen)
        explained_ids |= together
        d.combined[game] = combined(scorer, chosen)
        d.combined_explained += len(together)
        d.combined_broken += scorer.broken(chosen)
    d.causes = causes
    clauses = load_clause_book()
    pooled = {r.case.id for r in failing}
    rest = [r for r in results if r.counts_as_failure and (r.case.id not in pooled or r.case.id not in explained_ids)]
    # a rule the search did not reach (the time ran out) forms clusters of its own; one it met
    # and left (it broke a passing case) is the engine's way only in part: a note on the cluster
    d.unexplained = merge_by_relation(form(rest, clauses, near if d.stopped == "time" else {}))
    # clusters that differ from the inferred rules first in the same way: one bug (a game
    # without causes has none to read: its clusters are by difference from the base already)
    d.unexplained = merge_by_residual(d.unexplained, residual_roots(d.unexplained, d.scorers, d.chosen))
    d.described = {g.key: describe_cluster(g, near) for g in d.unexplained}
    errored = sum(1 for r in results if r.status == "errored" and r.known is None and r.case.id not in pooled)
    d.failing = len(failing) + errored
    d.requests["suite"] = sum(1 for r in results if r.status != "skipped" and r.case.file != "fuzz")
    d.seconds = time.monotonic() - t0
    return d


def game_causes(d: Diagnosis, scorer: Scorer, chosen: tuple[Candidate, ...]) -> list[Cause]:
    """The causes of one game's chosen set: each member with the failures it explains
    (search.attribute) and the smallest reachable one it shows alone in."""
    out = []
    by_id = {r.case.id: r for r in scorer.failing}
    for cand, ids in zip(chosen, attribute(scorer, chosen)):
        taken = sorted((by_id[i] for i in ids), key=lambda r: r.case.id)
        if not taken:
            continue
        # the example shows this cause alone: the cause by itself answers as the engine did
        alone = [r for r in taken if scorer.agrees((cand,), r)] or taken
        fine = [r for r in alone if in_reach(d, r.case)] or alone
        out.append(Cause(cand, taken, min(fine, key=_size)))
    return out


def rechosen(d: Diagnosis, game: str, chosen: tuple[Candidate, ...]) -> None:
    """Take another set of causes for `game` that explains the same failures (a tie told apart
    by probing the engine, ties.separate): its causes replace the game's, in their place."""
    scorer = d.scorers[game]
    at = next((i for i, c in enumerate(d.causes) if c.candidate.game == game), len(d.causes))
    d.causes = ([c for c in d.causes[:at] if c.candidate.game != game] + game_causes(d, scorer, chosen)
                + [c for c in d.causes[at:] if c.candidate.game != game])
    d.chosen[game] = chosen
    d.combined[game] = combined(scorer, chosen)


def combined(scorer: Scorer, chosen: tuple[Candidate, ...]) -> dict[str, Any]:
    """The rules a game's chosen causes make of its base: every override of theirs on it."""
    return {**scorer.base, **{k: v for c in chosen for k, v in c.overrides.items()}}


def profile_yaml(d: Diagnosis, game: str) -> str:
    """The inferred profile of `game` (spec/variants.md): the base's rules and the causes'."""
    import yaml
    doc = {"extends": game, "name": f"{game}-diagnosed",
           "source": "fives conformance diagnose" + (f" against {d.profile.name}" if d.profile is not None else ""),
           "rules": stated_rules(d, game)[0]}  # by-players values for the counts shown only
    return yaml.safe_dump(doc, sort_keys=True, allow_unicode=True)


def _example_id(c: Cause) -> str:
    return str(c.fixture["id"]) if c.fixture else c.example.case.id


def _smallest(g: FailureGroup) -> Case:
    return min((ex.result for ex in g.explanations), key=_size).case


def _cluster_example(g: FailureGroup, d: Diagnosis) -> str:
    got = d.clusters.get(g.key)
    return str(got["id"]) if got else _smallest(g).id


def _suite_example(d: Diagnosis, g: FailureGroup) -> str:
    """A cluster's smallest suite case, when none was shrunk: said why (probe.NOT_SHRUNK), and
    whether it is out of reach (then it is not written: every fixture written is reachable)."""
    case = _smallest(g)
    far = "" if in_reach(d, case) else ", a state play cannot reach"
    why = d.shrink_notes.get(f"cluster {g.key}", "not shrunk: the shrinking did not run")
    return f"{case.id} (the suite's case{far}; {why})"


def _cluster_lines(d: Diagnosis, g: FailureGroup) -> list[str]:
    """The values, the relation, where a layout parts from the rules and the rule that answers
    part of it: each an indented line under the cluster's."""
    from fives.conformance.diagnose.clusters import parting_text

    info = d.described.get(g.key, {})
    out = []
    values = "; ".join(x for x in (info.get("label"), info.get("relation")) if x)
    if values:
        out.append(f"    values: {values}")
    parted = parting_text(info.get("parting"))
    if parted:
        out.append(f"    {parted}")
    near = info.get("near")
    if near and ", as " not in g.key:
        out.append(f"    {near['rule']} answers {near['cases']} of these as the engine does, but breaks a passing "
                   "case: not the engine's rule")
    note = d.shrink_notes.get(f"cluster {g.key}")
    if note and g.key in d.clusters:  # shrunk, but not wholly
        out.append(f"    {note}")
    return out


def _size_text(case: dict[str, Any]) -> str:
    from fives.conformance.fuzz.shrink import size
    s = size(case["kind"], case["input"])
    return f"{s['placements']} placement(s)" + ("" if case["kind"] == "evaluate" else
                                                f", {s['hand_tiles']} hand tile(s), {s['players']} players")


def lines(d: Diagnosis) -> list[str]:
    """The human report: each cause in the rules' words, then the unexplained clusters."""
    from fives.conformance.reports.failures import load_clause_book

    book = load_clause_book()
    out = []
    if d.profile is not None:
        out.append(f"against rules profile {d.profile.name} ({d.profile.digest})")
    for c in d.causes:
        cand = c.candidate
        why = d.shrink_notes.get(f"cause {cand.name}", "not shrunk: the shrinking did not run")
        shown = (f"{_example_id(c)} ({_size_text(c.fixture)}" + (f"; {why}" if why.startswith("shrunk") else "")
                 + ")" if c.fixture else
                 f"{_example_id(c)} (the suite's case; {why})"
                 if reachable_example(d, c) else
                 f"{_example_id(c)} (a suite case play cannot reach; {why}: none is written)")
        out.append(f"cause: {cand.name} ({cand.game}): explains {len(c.explained)} failing case(s); e.g. {shown}")
        if cand.mutant is not None:
            out.append("  a known misreading of the rules, not a way to play: the engine's bug (no profile holds it)")
        out.extend(x for x in [stated_value(d, c), d.confirmed.get(cand.name) or d.confirmed.get(f"named {cand.name}")]
                   if x)
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
            small = d.clusters.get(g.key)
            shown = f"{small['id']} ({_size_text(small)})" if small else _suite_example(d, g)
            out.append(f"  {g.count} case(s): {g.key}; clauses {g.clause_text()}; e.g. {shown}")
            out.extend(_cluster_lines(d, g))
    from fives.conformance.diagnose.checked import lines as checked_lines
    from fives.conformance.fuzz.recheck import lines as inconsistency_lines
    out.extend(inconsistency_lines(d.inconsistent) + checked_lines(d))
    if d.scope:
        out.append(scope_line(d.scope))
    if d.fuzz:
        f = d.fuzz
        errors = f.get("engine_errors", 0)
        out.append(f"fuzz: {f['draws']} request(s) drawn, {f['requests']} sent, {f['findings']} disagreement(s) "
                   f"kept" + (f", {errors} engine error(s) (crashes, hangs, garbage: not rule findings)" if errors
                              else "") + f", in {f['seconds']:.1f} s")
    asked = sum(d.requests.get(k, 0) for k in ("suite", "shrink", "recheck")) + (d.fuzz or {}).get("requests", 0) \
        + sum(v["requests"] for v in d.verified.values())
    out.append(f"{d.failing} failing, {d.explained} explained by {len(d.causes)} cause(s), "
               f"{d.failing - d.explained} not; {d.candidates} candidates, {d.sets_tried} sets tried; "
               f"{asked} engine requests in {d.seconds:.1f} s"
               + (f"; the inferred profile breaks {d.combined_broken} passing case(s)" if d.combined_broken else "")
               + {"time": "; the time ran out (--seconds)", "interrupted": "; interrupted"}.get(d.stopped or "", ""))
    return out


def scope_line(scope: dict[str, Any]) -> str:
    """`scope: the engine declares players 2, partnerships false; 540 case(s) outside it skipped
    (its scope, not failures): 3 players 300, ...`"""
    said = ", ".join(f"{k} {str(v).lower() if isinstance(v, bool) else ' '.join(map(str, v))}"
                     for k, v in (scope.get("declared") or {}).items())
    why = "; ".join(f"{r.removeprefix(SCOPE_PREFIX)}: {n}" for r, n in scope.get("reasons", {}).items())
    return (f"scope: the engine declares {said or 'a scope'}; {scope.get('skipped', 0)} case(s) outside it skipped "
            f"(the engine's scope, not failures, causes or clusters)" + (f": {why}" if why else ""))


SCOPE_PREFIX = "outside the engine's scope: "


def _cluster_json(d: Diagnosis, g: FailureGroup) -> dict[str, Any]:
    info = d.described.get(g.key, {})
    return {"label": info.get("label"), "relation": info.get("relation"), "near": info.get("near"),
            "parting": info.get("parting"), "shrunk": d.shrink_notes.get(f"cluster {g.key}",
                                                                        "shrunk" if g.key in d.clusters else None)}


def to_json(d: Diagnosis) -> dict[str, Any]:
    return {"format": "fives-diagnosis/1",
            "base": ({"name": d.profile.name, "extends": d.profile.extends, "digest": d.profile.digest}
                     if d.profile is not None else None),
            "causes": [{"cause": c.candidate.name, "game": c.candidate.game, "overrides": c.candidate.overrides,
                        "mutant": c.candidate.mutant, "misreading": c.candidate.mutant is not None,
                        "clauses": list(c.candidate.clauses),
                        "explains": len(c.explained), "ids": [r.case.id for r in c.explained],
                        "example": _example_id(c), "example_from": c.example.case.id,
                        "example_reachable": reachable_example(d, c),
                        "shrunk": d.shrink_notes.get(f"cause {c.candidate.name}", "shrunk" if c.fixture else None),
                        **_probed(d, c.candidate.name)} for c in d.causes],
            "unexplained": [{**g.to_dict(), "example": _cluster_example(g, d), **_cluster_json(d, g)}
                            for g in d.unexplained],
            "profile": {g: stated_rules(d, g)[0] for g in d.combined}, "failing": d.failing, "explained": d.explained,
            "combined": {"explains": d.combined_explained, "breaks": d.combined_broken},
            "fuzz": d.fuzz or None, "stopped": d.stopped, "scope": d.scope or None, "seconds": round(d.seconds, 3),
            "requests": {"suite": d.requests.get("suite", 0), "fuzz": (d.fuzz or {}).get("requests", 0),
                         "shrink": d.requests.get("shrink", 0), "recheck": d.requests.get("recheck", 0),
                         "verify": sum(v["requests"] for v in d.verified.values())},
            "verified": d.verified, "expect_seeds": d.expect_seeds,
            "inconsistent": [i.to_dict() for i in d.inconsistent]}


def _probed(d: Diagnosis, name: str) -> dict[str, str]:
    """`probed`: the line of the probes that confirmed a thin cause (diagnose/thin.py), if any."""
    got = d.confirmed.get(name) or d.confirmed.get(f"named {name}")
    return {"probed": got.strip()} if got else {}


def fixture_text(case: dict[str, Any], title: str) -> str:
    """A one-case fixture file (the base's expectation kept, so the engine fails it)."""
    import yaml
    doc = {"format": "fives-fixtures/1", "title": title, "cases": [case]}
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)


def in_reach(d: Diagnosis, case: Case) -> bool:
    """Is the case's state one play reaches under the base rules (spec/fuzz.md)?"""
    from fives.conformance.cases.reachable import problems
    from fives.profiles import rules_under

    return not problems(rules_under(d.profile, case.game), case.kind, case.input)


def reachable_example(d: Diagnosis, c: Cause) -> bool:
    """Is the cause's example a state play reaches under the base rules (a shrunk one always is)?"""
    return c.fixture is not None or in_reach(d, c.example.case)


def under_base(d: Diagnosis, doc: dict[str, Any]) -> dict[str, Any]:
    """A fixture case expecting the base profile's answer states that profile (spec/fixtures.md)."""
    base = d.profile
    if base is not None and base.extends == doc["game"] and base.overrides:
        doc["rules"] = {"name": base.name, "source": base.source, "rules": dict(base.overrides)}
    return doc


def example_case(d: Diagnosis, c: Cause) -> dict[str, Any]:
    """The fixture case of a cause's example: the shrunk one, or the suite's case as it is."""
    if c.fixture:
        return c.fixture
    case = c.example.case
    return under_base(d, {"id": case.id, "kind": case.kind, "game": case.game,
                          "clauses": list(case.clauses or c.candidate.clauses),
                          "source": {"derived": f"fives conformance diagnose: an example of {c.candidate.name}"},
                          "description": case.description or f"An example of {c.candidate.name}",
                          "input": case.input, "expect": case.expect})
