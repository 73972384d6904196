"""Kind `perft`: how many legal placement sequences of a depth a layout has, and the raw
points of their last placements (spec/perft.md). Cases come from conformance/perft/perft.yaml.

Whether a case is slow (left out of a run without `--slow`) is decided from the case's
own layout and depth (`is_slow`: the first two plies counted, their branching factor
extrapolated), never from the `expect.nodes` it claims: a deep case claiming 1 node is
still slow.
"""
from __future__ import annotations

from typing import Any

from fives.layout import Layout
from fives.perft import estimate_nodes, perft
from fives.rules import GameRules, load_rules
from fives.conformance.cases.kinds import Kind, compare_fields

#: Perft cases counting (by estimate) more sequences than this are slow: run only with --slow.
SLOW_NODES = 200_000
#: Deeper than this a case is slow whatever its layout (the estimate itself stays cheap).
SLOW_DEPTH = 7
#: Sequences (expected nodes) one base time limit covers; a bigger row gets proportionally more
#: time. At the default 10 s that is 5,000 nodes a second: hundreds of times slower than the
#: reference (about 2 million a second) and slower than a plain engine in Python (about 18,000).
NODES_PER_BASE = 50_000


def is_slow(game: str, placements: Any, depth: Any) -> bool:
    """Whether a perft case is too big for a default run, judged from its layout and depth."""
    if not isinstance(depth, int) or depth > SLOW_DEPTH:
        return True
    if depth <= 2:
        return False
    try:
        return estimate_nodes(load_rules(game), depth, placements if isinstance(placements, list) else []) > SLOW_NODES
    except Exception:  # an illegal layout or unknown game fails at once when run: not slow
        return False


def run(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    layout_class = hooks.get("layout", Layout)
    result = perft(rules, int(input["depth"]), input.get("placements", []), layout_class=layout_class)
    return {"nodes": result.nodes, "points": result.points}


def scale(input: dict[str, Any], expect: dict[str, Any]) -> float:
    """A perft case's work is its expected node count (its time limit: spec/protocol.md, "Time
    limits"). A case that states none (a `perft --bisect` request) is ordinary work."""
    nodes = expect.get("nodes")
    if not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 0:
        return 1.0
    return nodes / NODES_PER_BASE


KINDS = [Kind("perft", "perft", run, lambda e, a: compare_fields(e, a), "perft-case.schema.json", "perft", scale)]
