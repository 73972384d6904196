"""Puzzles with exactly one answer: generation, z3 and brute-force solving, grading, verification.

Kinds (spec/puzzles.md): `single` (one placement scores N), `turn` (one Horse Race turn
with continuations scores N in total), `build` (place every tile so the placements score
a given sequence). z3 proves uniqueness; a plain search over `fives.layout.Layout`
cross-checks the count wherever it is small enough.

From Python, use `fives.puzzles.api` (`from fives.puzzles import api as puzzles`):
`generate`, `load`, `verify`, `solve` and `themes`, with typed results. It is not this
package's namespace because `generate`, `verify` and `themes` here are the modules behind it.
"""
from __future__ import annotations

#: Written into every puzzle and set; bump when generated content would change.
GENERATOR_VERSION = "fives-puzzles/1"
