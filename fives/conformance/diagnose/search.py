"""The search of `fives conformance diagnose` (spec/diagnose.md, "The search").

A *candidate* is one rule dimension at another value than the base's (the seeds', or
`--rules BASE`) or one shipped mutant. A *set* of candidates is played by the in-process
reference as one engine: the base profile with the set's overrides, and the set's mutant's
hooks. A set *explains* a failing case when the engine under test answered it as the set's
engine does, and *breaks* a passing case when the set's engine answers it otherwise.

Forward selection, per game: from the empty set, add the candidate that explains the most
failures while breaking no passing case; when no single one does, try pairs of the best
singles (two rules that only show together: per-five points with another dimension, a
target with `hand-end`) and of the values read off the engine's answers with each other (a
setup answer showing a hand size and a target at once); stop when nothing explains more. Then drop every member whose
removal explains as much and breaks nothing, so the set is the smallest found.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from fives.conformance.engines.drivers import Engine, ReferenceEngine
from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import kind_named
from fives.conformance.reports.causes import show
from fives.conformance.runner import CaseResult

#: how many of the best single candidates are tried in pairs when no single one is enough
PAIR_POOL = 6


@dataclass(frozen=True)
class Candidate:
    name: str  # "continuation.drawn_tile_ends_turn = false" or "mutant drawn-tile-continues"
    game: str
    clauses: tuple[str, ...]
    overrides: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)  # empty for a mutant
    mutant: str | None = None
    path: str | None = None  # the dimension it sets; None for a mutant
    #: a value read off the engine's answers (diagnose/inferred.py): tried jointly with the other
    #: values read, since one answer (a setup's hand size and target) may show two at once
    inferred: bool = field(default=False, compare=False)


def candidates(game: str, base: dict[str, Any] | None = None, mutants: bool = True) -> list[Candidate]:
    """Every other value of every dimension of `game` than the base's, then (with `mutants`)
    every shipped mutant."""
    from fives.conformance.golden.cases import PREFIX
    from fives.conformance.mutants.registry import all_mutants
    from fives.profile_space import alternative_overrides, alternatives, dimensions
    from fives.profiles import parameters

    base = base or {}
    known = parameters(game)
    clauses = {d.path: tuple(c for c in d.clauses if c.startswith(PREFIX[game] + "-")) for d in dimensions(game)}
    out = []
    for path, values in sorted(alternatives(game).items()):
        now = base.get(path, known[path])
        for v in [known[path], *values]:  # the seeds' value too: a base profile may have changed it
            if v == now:
                continue
            out.append(Candidate(f"{path} = {show(v)}", game, clauses.get(path, ()),
                                 dict(alternative_overrides(game, path, v)), path=path))
    # a mutant that is a rule variant (`Mutant.variant`) is a candidate as its parameters, with
    # or without --no-mutants: it is not a misreading but a way to play
    names = {c.name for c in out}
    for m in all_mutants():  # the clauses of a parameter no dimension lists: its mutants' of this game
        for path in m.variant.get(game) or {}:
            if path not in clauses or not clauses[path]:
                clauses[path] = tuple(sorted({x.clause for x in all_mutants() if path in (x.variant.get(game) or {})
                                              and x.clause.startswith(PREFIX[game] + "-")}))
    for m in all_mutants():
        overrides = m.variant.get(game)
        if overrides and len(overrides) == 1:
            ((path, v),) = overrides.items()
            name = f"{path} = {show(v)}"
            if name not in names and base.get(path, known[path]) != v:
                names.add(name)
                out.append(Candidate(name, game, clauses[path] or _counterpart(m.clause, game), dict(overrides),
                                     path=path))
    for m in all_mutants() if mutants else []:
        if game not in m.variant:  # a variant (or no change here) is a parameter above
            out.append(Candidate(f"mutant {m.name}", game, (m.clause,), mutant=m.name))
    return out


def _counterpart(clause: str, game: str) -> tuple[str, ...]:
    """The clause of the same number in `game` (HR-MATCH-1 for SN-MATCH-1), if the clause
    book has it; else the clause itself."""
    from fives.conformance.reports.failures import load_clause_book
    from fives.conformance.golden.cases import PREFIX

    other = PREFIX[game] + "-" + clause.split("-", 1)[1]
    return (other,) if other in load_clause_book() else (clause,)


def stated(case: Case, answer: Any) -> Any:
    """The set's answer cut to the top-level keys the case states (compared as the case's own
    expectation is); an error it answers is kept: an engine that errs where the base plays
    on is explained by a set that errs there the same way."""
    if isinstance(answer, dict) and isinstance(case.expect, dict):
        return {k: answer[k] for k in answer if k in case.expect or k == "error"}
    return answer


def refused(r: CaseResult) -> bool:
    """The engine answered the case with an error of its own (not a crash, hang or garbage)."""
    from fives.conformance.engines.process import REPORTED_ERROR
    return (r.status == "errored" and r.outcome is not None and r.outcome.status == "error"
            and (r.outcome.message or "").startswith(REPORTED_ERROR))


class Scorer:
    """Plays sets of candidates of one game and remembers every answer."""

    def __init__(self, game: str, base: dict[str, Any],
                 failing: list[CaseResult], passing: list[CaseResult]) -> None:
        self.game, self.base = game, base
        self.failing = [r for r in failing if r.case.game == game]
        self.passing = [r for r in passing if r.case.game == game]
        self._engines: dict[tuple[str, ...], Engine] = {}
        self._agree: dict[tuple[tuple[str, ...], str], bool | None] = {}
        self._neutral: dict[str, bool] = {}
        self._impossible: set[tuple[str, ...]] = set()  # sets no profile can hold
        self._layouts: list[tuple[Case, Any]] | None = None
        self.sets_tried = 0
        #: candidate name -> the candidates of the same dimension that explained as many when it
        #: was taken (the cases at hand do not tell them apart: diagnose/ties.py `separate`)
        self.ties: dict[str, list[Candidate]] = {}
        #: candidate name -> how many of the engine's answers to the requests that tell tied
        #: candidates apart it agrees with (ties.py `separate`): ranks a tie in a later search
        self.probed: dict[str, int] = {}

    def layout_neutral(self, c: Candidate) -> bool:
        """Does the rule leave every layout answer as the base's (each evaluate and legal-placements
        case of the suite answered alike)? Then a perft row, minutes of the search's time, is
        answered by a set with it as by the set without it: played once, not per candidate."""
        if c.mutant is not None:
            return False
        got = self._neutral.get(c.name)
        if got is None:
            if self._layouts is None:  # the base's answers, played once
                base = self.engine(())
                self._layouts = [(r.case, base.run(r.case)) for r in self.failing + self.passing
                                 if r.case.kind in ("evaluate", "legal-placements")]
            other = self.engine((c,))
            got = True
            for case, a in self._layouts:
                b = other.run(case)
                if (a.status, a.answer) != (b.status, b.answer):
                    got = False
                    break
            self._neutral[c.name] = got
        return got

    def engine(self, chosen: tuple[Candidate, ...]) -> Engine:
        key = tuple(sorted(c.name for c in chosen))
        got = self._engines.get(key)
        if got is None:
            from fives.conformance.mutants.registry import all_mutants
            from fives.profiles import make_profile

            overrides = dict(self.base)
            hooks: dict[str, Any] = {}
            by_name = {m.name: m for m in all_mutants()}
            for c in chosen:
                overrides.update(c.overrides)
                if c.mutant is not None:
                    hooks.update(by_name[c.mutant].hooks())
            profile = make_profile(self.game, overrides, source="fives conformance diagnose") if overrides else None
            got = self._engines[key] = ReferenceEngine(hooks, name="candidate " + " + ".join(key), profile=profile)
            self.sets_tried += 1
        return got

    def agrees(self, chosen: tuple[Candidate, ...], r: CaseResult) -> bool | None:
        """Does the set answer as the engine did? None: it cannot answer the case."""
        if r.case.kind == "perft":
            chosen = tuple(c for c in chosen if not self.layout_neutral(c))
        key = (tuple(sorted(c.name for c in chosen)), r.case.id)
        if key in self._agree:
            return self._agree[key]
        from fives.support.errors import UserError
        if key[0] in self._impossible:
            return None
        try:
            engine = self.engine(chosen)
        except UserError:  # values no profile holds together (a hand size with a reserve): no answer
            self._impossible.add(key[0])
            return None
        out = engine.run(r.case)
        if refused(r):  # an input the set makes illegal: the engine's refusal is explained
            got: bool | None = out.status == "error"
        elif out.status != "ok" or r.outcome is None or r.outcome.status != "ok":
            got = None
        else:
            try:
                got = not kind_named(r.case.kind).compare(stated(r.case, out.answer), r.outcome.answer)
            except Exception:  # noqa: BLE001 - an answer the comparer chokes on agrees with nothing
                got = False
        self._agree[key] = got
        return got

    def cached(self, chosen: tuple[Candidate, ...], r: CaseResult) -> bool | None:
        """What `agrees` said of the set and the case, if it was asked; None otherwise (never plays)."""
        if r.case.kind == "perft":
            chosen = tuple(c for c in chosen if not self._neutral.get(c.name, False))
        return self._agree.get((tuple(sorted(c.name for c in chosen)), r.case.id))

    def explained(self, chosen: tuple[Candidate, ...], skip: frozenset[str] = frozenset()) -> frozenset[str]:
        """The failing cases the set explains (of those not in `skip`)."""
        return frozenset(r.case.id for r in self.failing if r.case.id not in skip and self.agrees(chosen, r))

    def breaks(self, chosen: tuple[Candidate, ...]) -> bool:
        """Does the set answer a passing case otherwise? (It stops at the first: `broken` counts.)"""
        return any(self.agrees(chosen, r) is False for r in self.passing)

    def broken(self, chosen: tuple[Candidate, ...]) -> int:
        return sum(1 for r in self.passing if self.agrees(chosen, r) is False)


class OutOfTime(Exception):
    pass


def _rank(c: Candidate, e: frozenset[str], probed: dict[str, int] | None = None) -> tuple[int, bool, int, str]:
    # most explained first; a rule variant before a mutant; then the one the engine's answers
    # to the probes of a tie agree with most (ties.py `separate`); then by name (deterministic)
    return -len(e), c.mutant is not None, -(probed or {}).get(c.name, 0), c.name


def _compatible(chosen: tuple[Candidate, ...], c: Candidate) -> bool:
    return c not in chosen and (c.path is None or all(x.path != c.path for x in chosen)) \
        and (c.mutant is None or all(x.mutant is None for x in chosen))


def select(scorer: Scorer, pool: list[Candidate], say: Callable[[str], None],
           deadline: float | None = None) -> tuple[tuple[Candidate, ...], str | None]:
    """(the set chosen, in the order taken; None, or why the search stopped early: "time"
    when the deadline passed, "interrupted" on Ctrl-C)."""
    chosen: tuple[Candidate, ...] = ()
    explained: frozenset[str] = frozenset()

    def check() -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime

    try:
        while True:
            singles = []
            for c in pool:
                check()
                if _compatible(chosen, c):
                    # ranked by what it explains beyond the set (the cases the set explains are
                    # played only for the one taken: most candidates explain nothing new)
                    e = scorer.explained(chosen + (c,), skip=explained)
                    if e:
                        singles.append((c, e))
            singles.sort(key=lambda t: _rank(*t, scorer.probed))
            step = None
            for c, e in singles:
                check()
                whole = scorer.explained(chosen + (c,))
                if len(whole) > len(explained) and not scorer.breaks(chosen + (c,)):
                    step = ((c,), whole)
                    scorer.ties[c.name] = [x for x, f in singles if x is not c and x.path is not None
                                           and x.path == c.path and len(f) == len(e)]
                    break
            if step is None:  # no single rule is enough: two that only show together?
                # one of the best singles with any other candidate (whose effect may show only
                # with the first: a target under `hand-end`, anything under per-five points)
                pairs = []
                seen: set[frozenset[str]] = set()
                # and every value read off the answers with every other read (a setup answer that
                # shows a hand size and a target at once: neither explains it alone)
                read = [c for c in pool if c.inferred]
                firsts = [(a, pool) for a, _ in singles[:PAIR_POOL]] + [(a, read) for a in read]
                for a, others in firsts:
                    for b in others:
                        check()
                        if _compatible(chosen + (a,), b) and frozenset((a.name, b.name)) not in seen:
                            seen.add(frozenset((a.name, b.name)))
                            e = scorer.explained(chosen + (a, b), skip=explained)
                            if e:
                                pairs.append(((a, b), e))
                pairs.sort(key=lambda t: (-len(t[1]), t[0][0].mutant is not None or t[0][1].mutant is not None,
                                          t[0][0].name, t[0][1].name))
                for pair, e in pairs:
                    check()
                    whole = scorer.explained(chosen + pair)
                    if len(whole) > len(explained) and not scorer.breaks(chosen + pair):
                        step = (pair, whole)
                        break
            if step is None:
                break
            chosen, explained = chosen + step[0], step[1]
            say(f"{scorer.game}: took {' and '.join(c.name for c in step[0])}: explains {len(explained)} "
                f"of {len(scorer.failing)}")
        # the smallest set: a member whose removal explains as much and breaks nothing goes
        for c in reversed(chosen):
            rest = tuple(x for x in chosen if x is not c)
            if len(scorer.explained(rest)) >= len(explained) and not scorer.breaks(rest):
                chosen = rest
                say(f"{scorer.game}: dropped {c.name}: the others explain as much")
    except (OutOfTime, KeyboardInterrupt) as e:
        say(f"{scorer.game}: {'time is up' if isinstance(e, OutOfTime) else 'interrupted'}: "
            f"the search stops with {len(chosen)} cause(s)")
        return chosen, "time" if isinstance(e, OutOfTime) else "interrupted"
    return chosen, None


def attribute(scorer: Scorer, chosen: tuple[Candidate, ...]) -> list[frozenset[str]]:
    """The failures each member explains: those the set explains from the moment the member is
    added, in the order taken; a member that adds none there gets the failures the set
    explains only with it."""
    out = []
    seen: frozenset[str] = frozenset()
    full = scorer.explained(chosen)
    for i, c in enumerate(chosen):
        now = scorer.explained(chosen[:i + 1]) & full
        mine = now - seen
        if not mine:
            mine = full - scorer.explained(tuple(x for x in chosen if x is not c))
        out.append(mine)
        seen = seen | now
    return out
