"""Kind `evaluate`: positions, contributions, sum and points of a layout, or its illegality."""
from __future__ import annotations

from typing import Any

from fives.evaluation import evaluate
from fives.layout import Layout
from fives.rules import GameRules
from fives.conformance.cases.kinds import Kind, by_length, compare_error, compare_fields

UNORDERED = frozenset({"positions", "contributions", "connections"})


def run(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    factory = hooks.get("layout", Layout)
    return evaluate(rules, input["placements"], factory)


def compare(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    err = compare_error(expected, actual)
    if err is not None:
        return err
    return compare_fields(expected, actual, UNORDERED)


KINDS = [Kind("evaluate", "evaluate", run, compare, "evaluate.schema.json", "layout", by_length("placements"))]
