"""Code as an engine author writes it, type-checked by `mypy` (pyproject.toml [tool.mypy] files).

It is never run by pytest (no test_ prefix). The `type: ignore` lines are mistakes mypy must
catch: under --strict an ignore that is not needed is itself an error, so if the package's
annotations or its explicit re-exports (`fives.Layout`, ...) were lost, this file would fail.
"""
from __future__ import annotations

import fives
import fives.suite
from fives.match import Match
from fives.puzzles import api as puzzles
from fives.settlement import configure


def first_kind(pset: puzzles.PuzzleSet) -> str:
    return pset[0].kind


def engine_authors_code() -> None:
    """Never called: importing this module runs nothing."""
    layout = fives.Layout("horse-race")
    points: int = layout.push("[1|4]") + layout.push("[1|1]>[1|4]:low")
    history: list[fives.Placement] = layout.history()
    result: dict[str, object] = fives.evaluate("horse-race", [p.to_dict() for p in history])
    tile: fives.Tile = fives.parse_tile("4-1")
    rules: fives.GameRules = fives.load_rules("american-sniff")
    match = Match(rules, configure(rules, players=2), seed=1)
    cases: list[fives.suite.Case] = fives.suite.load_suite(ids=["HR-FIG-1-3"])
    diffs: list[str] = fives.suite.compare(cases[0], fives.suite.reference_answer(cases[0]))
    names: list[str] = [t.name for t in puzzles.themes("horse-race")]
    layout.push(5)  # type: ignore[arg-type]  # a placement is a Placement, its text or its record
    wrong: int = first_kind(puzzles.load("set.yaml"))  # type: ignore[assignment]  # kind is a str
