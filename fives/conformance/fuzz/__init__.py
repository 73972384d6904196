"""Differential fuzzing with shrinking (`fives conformance fuzz`, spec/fuzz.md).

Requests are drawn from the golden suites' generators (fives/conformance/golden/): draw i of game G is
made by `random.Random(f"fuzz:{seed}:{G}:{i}")`, so a run is a pure function of the seed
and the number of draws. Each request goes to the engine and to the in-process reference;
for every new way they disagree (a new signature, fives/conformance/fuzz/oracle.py) the request is
shrunk (fives/conformance/fuzz/shrink.py) and kept as a `Finding`, written as a fixture file.
"""
from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from fives.conformance.engines.drivers import Engine
from fives.conformance.golden.builders import builders
from fives.conformance.golden.cases import PREFIX
from fives.conformance.cases.kinds import canonical
from fives.rules import game_ids, load_rules
from fives.conformance.fuzz.attribute import broken_clause, tags
from fives.conformance.fuzz.oracle import ENGINE_ERROR, Oracle, Verdict
from fives.conformance.fuzz.recheck import Inconsistency, changed
from fives.conformance.fuzz.shrink import shrink, size
from fives.conformance.fuzz.lane import LANE_SHARE, high_sum, late_perft, tally_question, tie_settlement
from fives.conformance.fuzz.rare import rare_turn, refused_turn
from fives.conformance.fuzz.steer import steered_turn
from fives.conformance.fuzz.small import (input_forms, late_turn, next_leader_question, setup_question, small_legal,
                                         small_turn)
from fives.conformance.cases.reachable import problems, repair

if TYPE_CHECKING:
    from fives.profiles import Profile

GENERATOR_VERSION = "1"
RESHRINKS = 25  # later occurrences of one disagreement shrunk again, at most


def builder_kind(name: str) -> str:
    """The case kind a golden builder makes (by its name, without running it)."""
    if name in EXTRA_KINDS:
        return EXTRA_KINDS[name]
    if name.startswith("turn"):
        return "turn"
    if name.startswith("settle"):
        return "settle"
    if name == "match-end":
        return "match-end"
    return "evaluate"


#: Generators the fuzzer adds to the golden ones (name -> (weight, builder)), and their kinds.
EXTRA_BUILDERS = {"turn-small": (4, small_turn), "turn-late": (3, late_turn), "turn-rare": (3, rare_turn),
                  "turn-refused": (1, refused_turn),
                  "legal-small": (2, small_legal),
                  "setup": (1, setup_question),
                  "next-leader": (1, next_leader_question), "input-forms": (1, input_forms)}
#: The second lane's generators (fives/conformance/fuzz/lane.py): drawn apart, so that adding
#: them left every other draw as it was.
LANE_BUILDERS = {"perft-late": (2, late_perft), "tally": (2, tally_question), "turn-steered": (4, steered_turn),
                 "settle-tie": (2, tie_settlement), "high-sum": (1, high_sum), "leader": (3, next_leader_question),
                 "setup-lane": (1, setup_question)}
EXTRA_KINDS = {"turn-small": "turn", "turn-late": "turn", "turn-rare": "turn", "turn-refused": "turn", "legal-small": "legal-placements", "setup": "setup",
               "next-leader": "next-leader", "input-forms": "evaluate",
               "perft-late": "perft", "tally": "tally", "turn-steered": "turn", "settle-tie": "settle",
               "high-sum": "evaluate", "leader": "next-leader", "setup-lane": "setup"}
#: Engine errors kept per (game, kind, what failed): the first few, as examples.
ENGINE_ERRORS_KEPT = 3


def fuzz_kinds() -> list[str]:
    return sorted({builder_kind(n) for n in [*builders(), *EXTRA_BUILDERS, *LANE_BUILDERS]})


@dataclass
class Finding:
    game: str
    kind: str
    keys: tuple[str, ...]
    clause: str
    input: dict[str, Any]
    expected: Any
    actual: Any
    diffs: tuple[str, ...]
    tags: list[str]
    draw: int  # the draw that first showed it
    generator: str
    original_size: dict[str, int]
    size: dict[str, int]
    seconds_to_find: float  # from the start of the run
    seconds_to_shrink: float
    shrink_requests: int
    reshrinks: int = 0  # later requests shrunk again to find a smaller case
    requests_to_find: int = 0  # engine requests sent before the first disagreement, that one included
    merged: int = 0  # other signatures found to be this same cause

    @property
    def cause(self) -> tuple[str, str, str]:
        """What the finding is about, once shrunk: the game, the clause it breaks and the
        pattern of its first difference (fives/conformance/reports/failures.py). Two signatures that
        shrink to the same cause are one finding."""
        from fives.conformance.reports.explain import explain
        from fives.conformance.reports.failures import difference_pattern

        diffs = explain(self.kind, self.expected, self.actual, list(self.diffs))
        return self.game, self.clause, difference_pattern(diffs[0]) if diffs else ",".join(self.keys)

    @property
    def id(self) -> str:
        digest = hashlib.sha256(canonical({"game": self.game, "kind": self.kind, "input": self.input}).encode()).hexdigest()
        return f"FUZZ-{PREFIX[self.game]}-{self.kind}-{digest[:12]}"

    def case(self, seed: int) -> dict[str, Any]:
        """The fixture case: the shrunk request and the reference's answer."""
        clauses = list(dict.fromkeys([self.clause, *self.tags]))
        s = self.size
        what = f"{s['placements']} placement(s)" + (
            f", {s['hand_tiles']} hand tile(s), {s['boneyard']} boneyard tile(s), {s['players']} players"
            if self.kind not in ("evaluate", "perft", "tally") else "")
        return {"id": self.id, "kind": self.kind, "game": self.game, "clauses": clauses,
                "source": {"derived": f"fives conformance fuzz {GENERATOR_VERSION}: seed {seed}, draw {self.draw}, "
                                      f"generator {self.generator}, found after {self.requests_to_find} engine "
                                      f"requests; shrunk to {what}"},
                "description": f"An engine differed in {', '.join(self.keys)}: {self.diffs[0][:300]}",
                "input": self.input, "expect": self.expected}


@dataclass
class EngineError:
    """A request the engine crashed on, timed out on or answered with garbage: an engine
    error, reported as such and never as a rule finding (nothing to shrink toward a rule)."""
    game: str
    kind: str
    message: str
    input: dict[str, Any]
    draw: int
    seconds_to_find: float
    requests_to_find: int
    count: int = 1  # requests of this game and kind that failed the same way

    @property
    def what(self) -> str:
        """crash, timeout or garbage: the class of failure, from the runner's message."""
        m = self.message.lower()
        if "within" in m or "timeout" in m:
            return "timeout"
        if "reported error" in m:
            return "error reply"
        if any(w in m for w in ("cannot be compared", "not a json", "not json", "schema", "exactly one", "does not match",
                                "longer than")):
            return "garbage"
        return "crash"


@dataclass
class FuzzReport:
    findings: list[Finding] = field(default_factory=list)
    engine_errors: list[EngineError] = field(default_factory=list)
    draws: int = 0  # requests generated
    requests: int = 0  # requests sent to the engine (fuzzing and shrinking)
    skipped: int = 0  # requests the engine does not declare
    seconds: float = 0.0
    interrupted: bool = False
    #: findings whose request, asked again, got another reply (fuzz/recheck.py): not written
    inconsistent: list[Inconsistency] = field(default_factory=list)


class Fuzzer:
    """`Fuzzer(engine, games, kinds, seed).run(cases=N)` or `.run(seconds=S)`."""

    def __init__(self, engine: Engine, games: Iterable[str] | None = None, kinds: Iterable[str] | None = None,
                 seed: int = 0, shrink_budget: int = 3000, profile: Profile | None = None) -> None:
        self.games = list(games or game_ids())
        for g in self.games:
            load_rules(g)
        self.profile = profile  # --rules P: requests drawn and answered under P
        self.kinds = list(kinds or fuzz_kinds())
        self.seed = seed
        self.shrink_budget = shrink_budget
        table = {**builders(), **EXTRA_BUILDERS}
        self.builders = {n: table[n] for n in sorted(table) if builder_kind(n) in self.kinds}
        self.lane = {n: b for n, b in LANE_BUILDERS.items() if builder_kind(n) in self.kinds}
        if not self.builders and not self.lane:
            raise ValueError(f"no generator makes kind(s) {', '.join(self.kinds)}")
        self.oracle = Oracle(engine, profile)
        self.recheck = True  # every finding asked again before it is kept (fuzz/recheck.py)

    def draw(self, index: int) -> tuple[str, str, dict[str, Any]]:
        """(game, generator name, golden-style case) for draw `index`: a pure function."""
        game = self.games[index % len(self.games)]
        lane = random.Random(f"fuzz:{self.seed}:{game}:{index}:lane")
        # the second lane's own stream decides, so a draw left in the first is made as before
        if self.lane and (not self.builders or lane.random() < LANE_SHARE):
            table, rng = self.lane, lane
        else:
            table, rng = self.builders, random.Random(f"fuzz:{self.seed}:{game}:{index}")
        rules = self.oracle.reference.rules_for(game)
        names = list(table)
        weights = [table[n][0] for n in names]
        while True:
            name = rng.choices(names, weights)[0]
            case = table[name][1](rng, rules)
            if case is None:
                continue
            # every request is a reachable state (spec/fuzz.md): golden generators' scores
            # and turn states are brought into reach, what cannot be is drawn again
            kind = case["kind"]
            fixed = repair(rules, kind, case["input"])
            if not problems(rules, kind, fixed):
                return game, name, {**case, "input": fixed}

    def draws(self) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
        i = 0
        while True:
            yield (i, *self.draw(i))
            i += 1

    def run(self, cases: int | None = None, seconds: float | None = None,
            on_draw: Callable[[int, FuzzReport], None] | None = None,
            until: Callable[[FuzzReport], bool] | None = None) -> FuzzReport:
        """Fuzz until `cases` draws or `seconds` have passed (a shrink in progress completes,
        within its budget); Ctrl-C returns what was found so far.

        A later request that disagrees the same way is shrunk again if it starts smaller than
        the smallest case kept so far (at most `RESHRINKS` times per way), and replaces it if
        it ends smaller: shrinking only cuts, so a small start reaches a smaller minimum."""
        report = FuzzReport()
        best: dict[tuple[str, str, tuple[str, ...]], Finding] = {}
        errors: dict[tuple[str, str, str], list[EngineError]] = {}
        t0 = time.monotonic()
        try:
            for index, game, name, case in self.draws():
                if cases is not None and index >= cases:
                    break
                if seconds is not None and time.monotonic() - t0 >= seconds:
                    break
                report.draws = index + 1
                v = self.oracle.ask(game, case["kind"], case["input"])
                requests_then = self.oracle.requests
                if v.status == "skipped":
                    report.skipped += 1
                elif v.status == ENGINE_ERROR:
                    self._engine_error(errors, game, case, v, index, time.monotonic() - t0)
                elif v.status == "differ":
                    key = (game, case["kind"], v.keys)
                    old = best.get(key)
                    start = size(case["kind"], case["input"])
                    if old is None or (old.reshrinks < RESHRINKS and _weight(start) < _weight(old.size)):
                        found = self._shrink(game, name, index, case, v, time.monotonic() - t0, old,
                                             requests_then)
                        if old is None or _weight(found.size) < _weight(old.size):
                            best[key] = found
                            report.findings = by_cause(best.values())
                        else:
                            old.reshrinks, old.seconds_to_shrink = found.reshrinks, found.seconds_to_shrink
                if on_draw:
                    on_draw(index, report)
                if until is not None and until(report):
                    break
        except KeyboardInterrupt as e:
            report.interrupted = True
            if isinstance(e, Interrupted):
                key = (e.finding.game, e.finding.kind, e.finding.keys)
                if key not in best or _weight(e.finding.size) < _weight(best[key].size):
                    best[key] = e.finding
        report.findings = by_cause(best.values())
        if self.recheck:
            self._asked_again(report)
        report.engine_errors = [e for group in errors.values() for e in group]
        report.requests = self.oracle.requests
        report.seconds = time.monotonic() - t0
        return report

    def _asked_again(self, report: FuzzReport) -> None:
        """Each finding's shrunk request asked again (fuzz/recheck.py): one answered otherwise is
        the engine's inconsistency, not a finding. Ctrl-C here drops the findings not yet asked
        (a case written must fail every re-run)."""
        kept = []
        try:
            for f in report.findings:
                odd, asked = changed(self.oracle.engine, f.game, f.kind, f.input, f.expected, f.actual,
                                     f"finding {f.id}")
                self.oracle.requests += asked
                (report.inconsistent.append(odd) if odd else kept.append(f))
        except KeyboardInterrupt:
            report.interrupted = True
        report.findings = kept

    def _engine_error(self, errors: dict[tuple[str, str, str], list[EngineError]], game: str, case: dict[str, Any],
                      v: Verdict, index: int, at: float) -> None:
        """Keep the first few engine errors of each game, kind and class; count the rest."""
        e = EngineError(game, case["kind"], v.diffs[0].removeprefix("engine error: ")[:300], case["input"], index, at,
                        self.oracle.requests)
        group = errors.setdefault((game, e.kind, e.what), [])
        if len(group) < ENGINE_ERRORS_KEPT:
            group.append(e)
        else:
            group[0].count += 1

    def _shrink(self, game: str, name: str, index: int, case: dict[str, Any], v: Verdict,
                found_at: float, old: Finding | None, requests_then: int = 0) -> Finding:
        t = time.monotonic()
        kind = case["kind"]
        before = size(kind, case["input"])
        small, sv, spent, interrupted = shrink(self.oracle, game, kind, case["input"], v.keys, v, self.shrink_budget)
        rules = self.oracle.reference.rules_for(game)
        case_tags = tags(rules, kind, small, sv.expected, sv.actual)
        clause = broken_clause(rules, kind, small, sv.expected, sv.actual, sv.keys, sv.diffs, case_tags,
                               ask=lambda k, inp: self.oracle.ask(game, k, inp))
        found = Finding(game, kind, sv.keys, clause, small, sv.expected, sv.actual, sv.diffs, case_tags, index, name,
                        before, size(kind, small), old.seconds_to_find if old else found_at,
                        (old.seconds_to_shrink if old else 0.0) + time.monotonic() - t,
                        (old.shrink_requests if old else 0) + spent, (old.reshrinks + 1) if old else 0,
                        old.requests_to_find if old else requests_then)
        if interrupted:
            raise Interrupted(found)
        return found


def by_cause(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per cause (`Finding.cause`): the smallest case of each, the one found
    first on a tie; the others are counted in its `merged`. In the order first found."""
    kept: dict[tuple[str, str, str], Finding] = {}
    merged: dict[tuple[str, str, str], int] = {}
    for f in sorted(findings, key=lambda f: (f.draw, f.id)):
        c = f.cause
        if c in kept:
            merged[c] += 1
            first = kept[c]
            if _weight(f.size) < _weight(first.size):
                kept[c] = f
            # how long the cause took to find: its first sighting
            kept[c].seconds_to_find = min(first.seconds_to_find, f.seconds_to_find)
            kept[c].requests_to_find = min(first.requests_to_find, f.requests_to_find)
        else:
            kept[c], merged[c] = f, 0
    for c, f in kept.items():
        f.merged = merged[c]
    return list(kept.values())


def _weight(s: dict[str, int]) -> tuple[int, int, int]:
    """Smaller is simpler: placements first, then tiles in hands and boneyard, then players."""
    return s["placements"], s["hand_tiles"] + s["boneyard"], s["players"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a shrink: carries the smallest request found so far."""

    def __init__(self, finding: Finding) -> None:
        super().__init__()
        self.finding = finding
