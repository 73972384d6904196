"""What `fives conformance diagnose` asks the engine after the suite (spec/diagnose.md):
the fuzzer's requests, whose disagreements join the failures, and the shrinking of each
cause's example and each unexplained cluster's smallest case to a minimal reachable fixture.

Every shrunk request is a state that play from a deal reaches under the base rules (the
oracle refuses any other, fives/conformance/cases/reachable.py), so the fixtures written are ones
a strict engine must accept.
"""
from __future__ import annotations

import hashlib
import time
from typing import TYPE_CHECKING, Any, Callable

from fives.conformance.diagnose.diagnosis import Diagnosis, _size, under_base
from fives.conformance.diagnose.search import stated
from fives.conformance.engines.drivers import Engine, Outcome
from fives.conformance.cases.fixtures import Case
from fives.conformance.fuzz.oracle import Oracle, Verdict
from fives.conformance.cases.kinds import canonical, kind_named
from fives.conformance.runner import CaseResult

if TYPE_CHECKING:
    from fives.profiles import Profile

#: engine requests one example's shrink may spend
SHRINK_BUDGET = 3000  # as `conformance fuzz --shrink-budget`
#: cases tried, smallest first, until one can be asked again and shrunk (reachable, same way)
TRIES = 16
#: a cause or cluster none of whose cases can be brought into reach: the fuzzer draws this
#: many requests of its kind (for at most this many seconds) to find a reachable one
HUNT_DRAWS, HUNT_SECONDS, SMALL = 3000, 15.0, 4


def fuzz_results(engine: Engine, games: list[str], seed: int, draws: int, seconds: float | None,
                 profile: Profile | None = None, on_draw: Callable[[int, Any], None] | None = None,
                 kinds: list[str] | None = None,
                 inconsistent: list[Any] | None = None) -> tuple[list[CaseResult], dict[str, Any]]:
    """The fuzzer's disagreements (shrunk) and refusals as results, and what it did. Crashes,
    hangs and garbage are engine errors, not rule findings: they are counted, not kept; a finding
    answered two ways when asked again (fuzz/recheck.py) goes to `inconsistent`, not the results."""
    from fives.conformance.fuzz import Fuzzer
    from fives.conformance.golden.cases import PREFIX

    fuzzer = Fuzzer(engine, games, kinds, seed, shrink_budget=SHRINK_BUDGET, profile=profile)
    report = fuzzer.run(cases=draws, seconds=seconds, on_draw=on_draw)
    if inconsistent is not None:
        inconsistent.extend(report.inconsistent)
    out: list[CaseResult] = []
    for f in report.findings:
        doc = f.case(seed)
        case = Case(doc["id"], f.kind, f.game, tuple(doc["clauses"]), doc["source"], f.input, f.expected, "fuzz",
                    doc["description"])
        out.append(CaseResult(case, "failed", list(f.diffs), Outcome("ok", f.actual)))
    refusals, seen = 0, set()
    for e in report.engine_errors:
        if e.what == "error reply":
            digest = hashlib.sha256(canonical(e.input).encode()).hexdigest()
            cid = f"FUZZ-{PREFIX[e.game]}-{e.kind}-refused-{digest[:12]}"
            if cid in seen:  # one request refused again (a small input space draws it twice): one case
                continue
            seen.add(cid)
            expected = fuzzer.oracle.reference.answer(e.kind, e.game, e.input)
            case = Case(cid, e.kind, e.game, (), {"derived": f"fives conformance fuzz: seed {seed}, draw {e.draw}"},
                        e.input, expected, "fuzz")
            out.append(CaseResult(case, "errored", [], Outcome("error", message=e.message)))
            refusals += 1
    stats = {"draws": report.draws, "requests": report.requests, "findings": len(report.findings),
             "refusals": refusals,
             "engine_errors": sum(e.count for e in report.engine_errors if e.what != "error reply"),
             "seconds": round(report.seconds, 3), "interrupted": report.interrupted, "seed": seed}
    return out, stats


def _spent(d: Diagnosis, oracle: Oracle) -> None:
    """Count the oracle's engine requests as the shrinking's, and start its count again."""
    d.requests["shrink"] = d.requests.get("shrink", 0) + oracle.requests
    oracle.requests = 0


def _hunt(engine: Engine, d: Diagnosis, oracle: KeepingOracle, game: str, kind: str,
          accept: Callable[[Any], bool]) -> Any:
    """A fuzzer finding of `kind` that `oracle` calls a disagreement and `accept` takes, drawn
    and shrunk within HUNT_SECONDS (and the oracle's share of the time); None if there is none by then."""
    from fives.conformance.fuzz import Fuzzer, fuzz_kinds

    seconds = HUNT_SECONDS if oracle.until is None else min(HUNT_SECONDS, oracle.until - time.monotonic())
    if kind not in fuzz_kinds() or seconds <= 0:
        return None
    fuzzer = Fuzzer(engine, [game], [kind], int(d.fuzz.get("seed", 0)), SHRINK_BUDGET, d.profile)
    fuzzer.oracle = oracle  # its questions, its reachable states, its idea of "disagrees"
    fuzzer.recheck = False  # the example it gives is asked again with the others (diagnose/reproduce.py)
    # not the first finding: a later, smaller start shrinks further (the fuzzer's reshrinks);
    # one of at most SMALL placements is small enough to stop for
    try:
        report = fuzzer.run(cases=HUNT_DRAWS, seconds=seconds,
                            until=lambda rep: any(accept(f) and f.size["placements"] <= SMALL for f in rep.findings))
    finally:
        _spent(d, oracle)
    if report.interrupted:
        raise KeyboardInterrupt
    from fives.conformance.fuzz.shrink import measure
    return min((f for f in report.findings if accept(f)), key=lambda f: measure(f.kind, f.input), default=None)


class KeepingOracle(Oracle):
    """Disagrees with the base only where `keeps(game, kind, input, verdict)` holds too: a
    shrunk example then still shows what it was chosen for."""

    def __init__(self, engine: Engine, profile: Profile | None,
                 keeps: Callable[[str, str, dict[str, Any], Verdict], bool]) -> None:
        super().__init__(engine, profile)
        self.keeps = keeps
        #: the end of this example's share of the time (monotonic): past it the oracle asks the
        #: engine nothing more and answers "agree", so a shrink stops with the smallest so far
        self.until: float | None = None
        self.ran_out = False

    def ask(self, game: str, kind: str, input: dict[str, Any]) -> Verdict:
        if self.until is not None and time.monotonic() > self.until:
            self.ran_out = True
            return Verdict("agree")
        v = super().ask(game, kind, input)
        if v.status != "differ" or self.keeps(game, kind, input, v):
            return v
        return Verdict("agree", v.expected, v.actual)


def cause_oracle(engine: Engine, profile: Profile | None, cause: Engine) -> KeepingOracle:
    """Only where the cause alone answers as the engine does: the example shows this cause, no other."""
    def keeps(game: str, kind: str, input: dict[str, Any], v: Verdict) -> bool:
        case = Case("cause", kind, game, (), {}, input, v.expected, "diagnose")
        out = cause.run(case)
        try:
            return out.status == "ok" and not kind_named(kind).compare(stated(case, out.answer), v.actual)
        except Exception:  # noqa: BLE001 - an answer the comparer chokes on shows nothing
            return False
    return KeepingOracle(engine, profile, keeps)


def pattern_oracle(engine: Engine, profile: Profile | None, pattern: str) -> KeepingOracle:
    """Only with the same first-difference pattern (spec/reports.md): a cluster's minimal case
    still shows what its cases show."""
    from fives.conformance.reports.explain import explain
    from fives.conformance.reports.failures import difference_pattern

    def keeps(game: str, kind: str, input: dict[str, Any], v: Verdict) -> bool:
        diffs = explain(kind, v.expected, v.actual, list(v.diffs))
        return bool(diffs) and difference_pattern(diffs[0]) == pattern
    return KeepingOracle(engine, profile, keeps)


def _case_doc(d: Diagnosis, game: str, kind: str, input: dict[str, Any], expected: Any, clauses: tuple[str, ...],
              derived: str, what: str) -> dict[str, Any]:
    """A fixture case (conformance/schema/fixtures.schema.json); under --rules BASE it states
    the base profile, whose answer it expects."""
    from fives.conformance.golden.cases import PREFIX
    digest = hashlib.sha256(canonical({"game": game, "kind": kind, "input": input}).encode()).hexdigest()
    doc = {"id": f"DX-{PREFIX[game]}-{kind}-{digest[:12]}", "kind": kind, "game": game, "clauses": list(clauses),
           "source": {"derived": derived}, "description": what, "input": input, "expect": expected}
    return under_base(d, doc)


def _shrunk(oracle: Oracle, r: CaseResult, budget: int) -> tuple[dict[str, Any], Any, Any] | None:
    """(smallest input still disagreeing the same way, its expectation, the engine's answer to
    it), or None when the
    case cannot be asked again as it is (its kind has no shrinker, the engine now agrees)."""
    from fives.conformance.cases.reachable import repair
    from fives.conformance.fuzz.shrink import CANDIDATES, shrink

    input = r.case.input  # a kind without a shrinker (setup, tally, ...) is asked again as it is
    v = oracle.ask(r.case.game, r.case.kind, input)
    if v.status == "invalid":  # a hand-made or golden state out of reach: bring it into reach
        input = repair(oracle.reference.rules_for(r.case.game), r.case.kind, input)
        v = oracle.ask(r.case.game, r.case.kind, input)
    if v.status != "differ":
        return None
    if r.case.kind not in CANDIDATES:  # a tally or a setup: smaller by its own numbers
        from fives.conformance.diagnose.small_kinds import shrink_small
        small, sv, _ = shrink_small(oracle, r.case.game, r.case.kind, input, v, budget)
        return small, sv.expected, sv.actual
    small, sv, _, interrupted = shrink(oracle, r.case.game, r.case.kind, input, v.keys, v, budget)
    if interrupted:
        raise KeyboardInterrupt
    return small, sv.expected, sv.actual


def _minimal(d: Diagnosis, engine: Engine, oracle: KeepingOracle, tries: list[CaseResult], budget: int,
             accept: Callable[[Any], bool], what: str, about: str,
             clauses: tuple[str, ...]) -> tuple[CaseResult | None, dict[str, Any] | None]:
    """(the case shrunk, its fixture case): the first of `tries` (at most TRIES) that `oracle`
    can ask again and shrink; else a fuzzer finding `accept` takes, drawn against `oracle`
    (the case is then None); (None, None) when there is neither. `clauses`: for a case that
    cites none. The oracle's `until` bounds it all (`ran_out` then says so)."""
    from fives.conformance.diagnose.small_kinds import KINDS as SMALL_KINDS
    from fives.conformance.fuzz.shrink import CANDIDATES
    for r in tries[:TRIES]:
        if oracle.ran_out:
            return None, None
        if not (r.case.clauses or clauses):
            continue
        try:
            got = _shrunk(oracle, r, budget)
        finally:
            _spent(d, oracle)
        if got is not None:
            how = f"shrunk from {r.case.id}" if r.case.kind in CANDIDATES else \
                f"made smaller from {r.case.id} by its numbers (fewer players, a score nearer 0)" \
                if got[0] != r.case.input and r.case.kind in SMALL_KINDS else \
                f"{r.case.id} asked again as it is (none smaller of its kind disagrees the same way)" \
                if r.case.kind in SMALL_KINDS else \
                f"{r.case.id} asked again as it is (no shrinker makes a {r.case.kind} request smaller)"
            doc = _case_doc(d, r.case.game, r.case.kind, got[0], got[1], r.case.clauses or clauses,
                            f"fives conformance diagnose: {what}, {how}", about)
            d.replies[doc["id"]] = got[2]  # asked again before it is written (diagnose/reproduce.py)
            return r, doc
    # no case could be brought into reach: draw one that shows the same
    f = _hunt(engine, d, oracle, tries[0].case.game, tries[0].case.kind, accept)
    if f is None:
        return None, None
    doc = _case_doc(d, f.game, f.kind, f.input, f.expected, tuple(dict.fromkeys([f.clause, *f.tags])),
                    f"fives conformance diagnose: {what}, drawn by the fuzzer (seed {d.fuzz.get('seed', 0)}, "
                    f"draw {f.draw}) and shrunk", about)
    d.replies[doc["id"]] = f.actual
    return None, doc


#: what the report says of an example that is not (wholly) shrunk (spec/diagnose.md): never
#: "none smaller was found" when the search for one was not made
NOT_SHRUNK = {"time": "not shrunk: the time budget was spent before its turn",
              "share": "not shrunk: its share of the time budget ran out",
              "partly": "shrunk partly: its share of the time budget ran out",
              "errors": "not shrunk: its cases are engine errors, not answers to shrink",
              "none": "not shrunk: none of its cases could be asked again in reach, and the fuzzer drew none "
                      "like it within its share"}


def shrink_examples(d: Diagnosis, engine: Engine, budget: int = SHRINK_BUDGET,
                    deadline: float | None = None, note: Callable[[str], None] | None = None,
                    earlier: Diagnosis | None = None) -> None:
    """Shrink every cause's example (still showing that cause alone) and every unexplained
    cluster's smallest case (still with the cluster's difference pattern) to a minimal reachable
    fixture; then name where each layout cluster's case parts from the rules. Each gets an equal
    share of the time left (`deadline`), one after the other, so every one gets its turn; what
    was not done is recorded in `d.shrink_notes` (NOT_SHRUNK). Ctrl-C leaves the rest as the
    suite's cases. `earlier`: the diagnosis before the search was extended; what it shrank is
    taken, not asked again."""
    from fives.conformance.diagnose.clusters import first_parting, layout_of
    from fives.conformance.diagnose.ties import separate

    say = note or (lambda s: None)
    separate(d, engine, deadline, note)  # causes the cases at hand do not tell apart
    items: list[tuple[str, Any]] = [("cause", c) for c in d.causes] + [("cluster", g) for g in d.unexplained]
    if earlier is not None:
        items = [(what, x) for what, x in items if not _taken(d, earlier, what, x)]
    for i, (what, x) in enumerate(items):
        key = f"cause {x.candidate.name}" if what == "cause" else f"cluster {x.key}"
        now = time.monotonic()
        if deadline is not None and now > deadline:
            say("time is up: the examples left are the suite's cases")
            for _, y in items[i:]:
                d.shrink_notes[f"cause {y.candidate.name}" if _ == "cause" else f"cluster {y.key}"] = NOT_SHRUNK["time"]
            return
        until = None if deadline is None else now + (deadline - now) / (len(items) - i)
        d.shrink_notes.pop(key, None)  # this turn's outcome, not an earlier one's
        if what == "cause":
            c = x
            scorer = d.scorers[c.candidate.game]
            oracle = cause_oracle(engine, d.profile, scorer.engine((c.candidate,)))
            oracle.until = until
            alone = [r for r in c.explained if scorer.agrees((c.candidate,), r)] or c.explained
            tries = [c.example, *sorted((r for r in alone if r is not c.example), key=_size)]
            r, c.fixture = _minimal(d, engine, oracle, tries, budget, lambda f: True, c.candidate.name,
                                    f"Shows {c.candidate.name} alone: the engine answers as that rule does",
                                    c.candidate.clauses)
            c.example = r or c.example
            got = c.fixture
        else:
            g = x
            answered = sorted((ex.result for ex in g.explanations if ex.result.status == "failed"), key=_size)
            if not answered:
                d.shrink_notes[key] = NOT_SHRUNK["errors"]
                continue
            pattern = d.described.get(g.key, {}).get("pattern", g.key)
            oracle = pattern_oracle(engine, d.profile, pattern)
            oracle.until = until
            _, got = _minimal(d, engine, oracle, answered, budget, lambda f, k=pattern: f.cause[2] == k,
                              f"cluster {g.key}", f"A minimal case of the cluster {g.key}: no cause explains it",
                              tuple(c for c, _ in g.clauses[:1]))
            if got is not None:
                d.clusters[g.key] = got
            case = got or {"kind": answered[0].case.kind, "game": answered[0].case.game,
                           "input": answered[0].case.input}
            if layout_of(case["kind"], case["input"]) is not None \
                    and (until is None or time.monotonic() < until + 1.0):
                parted = first_parting(engine, d.profile, case["game"], case["kind"], case["input"],
                                       perft_bisect=until is None or time.monotonic() < until)
                if parted is not None:
                    d.requests["shrink"] = d.requests.get("shrink", 0) + parted.pop("requests", 0)
                    layout, answer = parted.pop("layout", None), parted.pop("answer", None)
                    d.described.setdefault(g.key, {})["parting"] = parted
                    short = _parting_case(d, g, layout, got)
                    if short is not None:  # the layout up to where it parts: smaller than the shrink's
                        got = d.clusters[g.key] = short
                        d.replies[short["id"]] = answer
        if oracle.ran_out:
            d.shrink_notes[key] = NOT_SHRUNK["partly" if got is not None else "share"]
        elif got is None:
            d.shrink_notes[key] = NOT_SHRUNK["none"]
        if what == "cluster":
            d.done[x.key] = (d.clusters.get(x.key), d.described.get(x.key), d.shrink_notes.get(key))
    _merge(d)


def _taken(d: Diagnosis, earlier: Diagnosis, what: str, x: Any) -> bool:
    """Take the earlier diagnosis's work on the same cause or cluster, if it had its turn."""
    if what == "cause":
        old = next((c for c in earlier.causes if c.candidate.name == x.candidate.name), None)
        note = earlier.shrink_notes.get(f"cause {x.candidate.name}")
        if old is None or (old.fixture is None and note in (None, NOT_SHRUNK["time"])):
            return False
        x.fixture, x.example = old.fixture, old.example
        if note is not None:
            d.shrink_notes[f"cause {x.candidate.name}"] = note
        return True
    got = earlier.done.get(x.key)
    if got is None:
        return False
    fixture, info, note = got
    d.done[x.key] = got
    if fixture is not None:
        d.clusters[x.key] = fixture
    if info and info.get("parting"):
        d.described.setdefault(x.key, {})["parting"] = info["parting"]
    if note is not None:
        d.shrink_notes[f"cluster {x.key}"] = note
    return True


def _parting_case(d: Diagnosis, g: Any, layout: list[dict[str, Any]] | None,
                  got: dict[str, Any] | None) -> dict[str, Any] | None:
    """An evaluate fixture of the layout's placements up to where the engine and the rules part
    (clusters.first_parting), when it is reachable and smaller than the shrunk case (or there is
    none): a layout bug's minimal case, as `perft --bisect` finds it."""
    from fives.conformance.cases.reachable import problems
    from fives.conformance.engines.drivers import ReferenceEngine
    from fives.conformance.fuzz.shrink import size

    if not layout:
        return None
    game = g.explanations[0].result.case.game
    if got is not None and got["kind"] == "evaluate" and size("evaluate", got["input"])["placements"] <= len(layout):
        return None
    ref = ReferenceEngine(profile=d.profile)
    input = {"placements": layout}
    if problems(ref.rules_for(game), "evaluate", input):
        return None
    clauses = tuple(c for c, _ in g.clauses[:1])
    return _case_doc(d, game, "evaluate", input, ref.answer("evaluate", game, input), clauses,
                     f"fives conformance diagnose: cluster {g.key}, its layout up to the first placement where the "
                     "engine and the rules part (as perft --bisect)",
                     f"A minimal case of the cluster {g.key}: no cause explains it")


def _merge(d: Diagnosis) -> None:
    """Clusters of one bug seen through several kinds become one (clusters.merge_by_root): its
    minimal case the smallest of theirs (an evaluate first: a layout shows the bug most directly)."""
    from fives.conformance.diagnose.clusters import merge_by_root
    from fives.conformance.fuzz.shrink import size

    groups, moved = merge_by_root(d.unexplained, d.described, None)
    if not moved:
        return
    counts = {g.key: g.count for g in d.unexplained}
    d.unexplained = groups
    for new in set(moved.values()):
        olds = [k for k, v in moved.items() if v == new]
        shrunk = [d.clusters[k] for k in olds if k in d.clusters]
        best = min(shrunk, key=lambda c: (c["kind"] != "evaluate", size(c["kind"], c["input"])["placements"],
                                          c["id"]), default=None)
        first = next((k for k in olds if k in d.clusters and d.clusters[k] is best), olds[0])
        # the values of the largest (what most of its cases show), where it parts: the example's
        largest = min(olds, key=lambda k: (-counts.get(k, 0), k))
        info = {**d.described.get(largest, {}), "parting": d.described.get(first, {}).get("parting"),
                "merged": sorted(olds)}
        partly = d.shrink_notes.get(f"cluster {first}") == NOT_SHRUNK["partly"]
        notes = [d.shrink_notes[f"cluster {k}"] for k in olds if f"cluster {k}" in d.shrink_notes]
        for k in olds:
            d.clusters.pop(k, None)
            d.described.pop(k, None)
            d.shrink_notes.pop(f"cluster {k}", None)
        d.described[new] = info
        if best is not None:
            d.clusters[new] = best
            if partly:
                d.shrink_notes[f"cluster {new}"] = NOT_SHRUNK["partly"]
        elif notes:
            d.shrink_notes[f"cluster {new}"] = notes[0]
