"""Which fixtures exercise which rule clause (`fives conformance coverage`)."""
from __future__ import annotations

from dataclasses import dataclass

from fives.conformance.cases.clauses import Clause, load_clauses
from fives.conformance.cases.fixtures import Case


@dataclass(frozen=True)
class ClauseCoverage:
    clause: Clause
    seed_cases: tuple[str, ...]  # cases citing a seed passage
    derived_cases: tuple[str, ...]  # hand-written or generated cases

    @property
    def total(self) -> int:
        return len(self.seed_cases) + len(self.derived_cases)


def coverage(cases: list[Case]) -> list[ClauseCoverage]:
    """Every clause of spec/rules.md, in document order, with the cases that cite it."""
    seed: dict[str, list[str]] = {}
    derived: dict[str, list[str]] = {}
    for c in cases:
        bucket = seed if "seed" in c.source else derived
        for cl in c.clauses:
            bucket.setdefault(cl, []).append(c.id)
    return [ClauseCoverage(cl, tuple(seed.get(cid, ())), tuple(derived.get(cid, ())))
            for cid, cl in load_clauses().items()]


@dataclass(frozen=True)
class ValueCoverage:
    game: str
    parameter: str
    value: object  # a non-default value of a rule dimension (spec/variants.md)
    cases: tuple[str, ...]  # cases whose own rules set it


def parameter_coverage(cases: list[Case]) -> list[ValueCoverage]:
    """Every non-default value of every rule dimension, with the cases played under it."""
    from fives.profile_space import alternatives

    out = []
    from fives.rules import game_ids

    for game in game_ids():
        for path, values in alternatives(game).items():
            for v in values:
                hits = tuple(c.id for c in cases if c.game == game and c.profile is not None
                             and c.profile.overrides.get(path) == v)
                out.append(ValueCoverage(game, path, v, hits))
    return out


def parameter_lines(cases: list[Case], show_ids: int) -> tuple[list[str], list[str]]:
    """The `conformance coverage` lines of the parameter values, and the values without a case."""
    values = parameter_coverage(cases)
    bare = [f"{v.game} {v.parameter}={v.value}" for v in values if not v.cases]
    lines = []
    for v in values:
        more = f" +{len(v.cases) - show_ids}" if len(v.cases) > show_ids else ""
        lines.append(f"{'  ' if v.cases else '!!'} {v.game:<14} {v.parameter}={v.value}  "
                     f"{', '.join(v.cases[:show_ids])}{more}")
    lines.append(f"{len(values)} parameter values, {len(values) - len(bare)} covered, {len(bare)} without a case"
                 + (f": {', '.join(bare)}" if bare else ""))
    return lines, bare
