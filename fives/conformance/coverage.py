"""Which fixtures exercise which rule clause (`fives conformance coverage`)."""
from __future__ import annotations

from dataclasses import dataclass

from fives.conformance.clauses import Clause, load_clauses
from fives.conformance.fixtures import Case


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
