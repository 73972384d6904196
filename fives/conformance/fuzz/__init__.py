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
from typing import Any, Callable, Iterable, Iterator

from fives.conformance.drivers import Engine
from fives.conformance.golden.builders import builders
from fives.conformance.golden.cases import PREFIX
from fives.conformance.kinds import canonical, load_kinds
from fives.rules import game_ids, load_rules
from fives.conformance.fuzz.attribute import broken_clause, tags
from fives.conformance.fuzz.oracle import Oracle, Verdict
from fives.conformance.fuzz.shrink import shrink, size
from fives.conformance.fuzz.small import small_turn

GENERATOR_VERSION = "1"
RESHRINKS = 25  # later occurrences of one disagreement shrunk again, at most


def builder_kind(name: str) -> str:
    """The case kind a golden builder makes (by its name, without running it)."""
    if name.startswith("turn"):
        return "turn"
    if name.startswith("settle"):
        return "settle"
    if name == "match-end":
        return "match-end"
    return "evaluate"


#: Generators the fuzzer adds to the golden ones (name -> (weight, builder)).
EXTRA_BUILDERS = {"turn-small": (4, small_turn)}


def fuzz_kinds() -> list[str]:
    return sorted({builder_kind(n) for n in builders()})


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
            if self.kind != "evaluate" else "")
        return {"id": self.id, "kind": self.kind, "game": self.game, "clauses": clauses,
                "source": {"derived": f"fives conformance fuzz {GENERATOR_VERSION}: seed {seed}, draw {self.draw}, "
                                      f"generator {self.generator}; shrunk to {what}"},
                "description": f"An engine differed in {', '.join(self.keys)}: {self.diffs[0][:300]}",
                "input": self.input, "expect": self.expected}


@dataclass
class FuzzReport:
    findings: list[Finding] = field(default_factory=list)
    draws: int = 0  # requests generated
    requests: int = 0  # requests sent to the engine (fuzzing and shrinking)
    skipped: int = 0  # requests the engine does not declare
    seconds: float = 0.0
    interrupted: bool = False


class Fuzzer:
    """`Fuzzer(engine, games, kinds, seed).run(cases=N)` or `.run(seconds=S)`."""

    def __init__(self, engine: Engine, games: Iterable[str] | None = None, kinds: Iterable[str] | None = None,
                 seed: int = 0, shrink_budget: int = 3000) -> None:
        self.games = list(games or game_ids())
        for g in self.games:
            load_rules(g)
        self.kinds = list(kinds or fuzz_kinds())
        self.seed = seed
        self.shrink_budget = shrink_budget
        table = {**builders(), **EXTRA_BUILDERS}
        self.builders = {n: table[n] for n in sorted(table) if builder_kind(n) in self.kinds}
        if not self.builders:
            raise ValueError(f"no generator makes kind(s) {', '.join(self.kinds)}")
        self.oracle = Oracle(engine, load_kinds())

    def draw(self, index: int) -> tuple[str, str, dict[str, Any]]:
        """(game, generator name, golden-style case) for draw `index`: a pure function."""
        game = self.games[index % len(self.games)]
        rng = random.Random(f"fuzz:{self.seed}:{game}:{index}")
        rules = load_rules(game)
        names = list(self.builders)
        weights = [self.builders[n][0] for n in names]
        while True:
            name = rng.choices(names, weights)[0]
            case = self.builders[name][1](rng, rules)
            if case is not None:
                return game, name, case

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
        t0 = time.monotonic()
        try:
            for index, game, name, case in self.draws():
                if cases is not None and index >= cases:
                    break
                if seconds is not None and time.monotonic() - t0 >= seconds:
                    break
                report.draws = index + 1
                v = self.oracle.ask(game, case["kind"], case["input"])
                if v.status == "skipped":
                    report.skipped += 1
                elif v.status == "differ":
                    key = (game, case["kind"], v.keys)
                    old = best.get(key)
                    start = size(case["kind"], case["input"])
                    if old is None or (old.reshrinks < RESHRINKS and _weight(start) < _weight(old.size)):
                        found = self._shrink(game, name, index, case, v, time.monotonic() - t0, old)
                        if old is None or _weight(found.size) < _weight(old.size):
                            best[key] = found
                            report.findings = list(best.values())
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
        report.findings = list(best.values())
        report.requests = self.oracle.requests
        report.seconds = time.monotonic() - t0
        return report

    def _shrink(self, game: str, name: str, index: int, case: dict[str, Any], v: Verdict,
                found_at: float, old: Finding | None) -> Finding:
        t = time.monotonic()
        kind = case["kind"]
        before = size(kind, case["input"])
        small, sv, spent, interrupted = shrink(self.oracle, game, kind, case["input"], v.keys, v, self.shrink_budget)
        rules = load_rules(game)
        case_tags = tags(rules, kind, small, sv.expected, sv.actual)
        clause = broken_clause(rules, kind, small, sv.expected, sv.actual, sv.keys, sv.diffs, case_tags)
        found = Finding(game, kind, sv.keys, clause, small, sv.expected, sv.actual, sv.diffs, case_tags, index, name,
                        before, size(kind, small), old.seconds_to_find if old else found_at,
                        (old.seconds_to_shrink if old else 0.0) + time.monotonic() - t,
                        (old.shrink_requests if old else 0) + spent, (old.reshrinks + 1) if old else 0)
        if interrupted:
            raise Interrupted(found)
        return found


def _weight(s: dict[str, int]) -> tuple[int, int, int]:
    """Smaller is simpler: placements first, then tiles in hands and boneyard, then players."""
    return s["placements"], s["hand_tiles"] + s["boneyard"], s["players"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a shrink: carries the smallest request found so far."""

    def __init__(self, finding: Finding) -> None:
        super().__init__()
        self.finding = finding
