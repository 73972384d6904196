"""Puzzles with exactly one answer: generation, z3 and brute-force solving, grading, verification.

Kinds (spec/puzzles.md): `single` (one placement scores N), `turn` (one Horse Race turn
with continuations scores N in total), `build` (place every tile so the placements score
a given sequence). z3 proves uniqueness; a plain search over `fives.layout.Layout`
cross-checks the count wherever it is small enough.
"""
from __future__ import annotations

#: Written into every puzzle and set; bump when generated content would change.
GENERATOR_VERSION = "fives-puzzles/1"
