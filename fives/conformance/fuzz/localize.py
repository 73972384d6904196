"""Where a difference lies, so that a finding is filed under the clause it breaks (issue 37).

- `count_clause`: the first contribution an engine counts differently, and the counting
  clause that decides that contribution (a free or covered branch side of the spinner, a
  double's halves, a non-double end, a connection position);
- `follow_up`: for a `turn` whose placement scored differently, or a `perft` count that
  differs, the engine's own `evaluate` of the layouts involved (and, for a deep perft, its
  perft one ply down), asked until one differs: the clause is then that question's.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from fives.conformance.cases.kinds import canonical
from fives.conformance.fuzz.oracle import Verdict
from fives.conformance.golden.cases import PREFIX
from fives.evaluation import build_layout
from fives.layout import IllegalPlacement
from fives.moves import Placement
from fives.perft import legal_moves
from fives.rules import GameRules
from fives.tiles import ALL_TILES, Side, parse_tile

Ask = Callable[[str, dict[str, Any]], Verdict]
#: Follow-up questions one finding's attribution may ask the engine, at most.
PROBES = 150
_LINES = ("line-a", "line-b")


def _tile(text: Any) -> str | None:
    try:
        return str(parse_tile(text))
    except (TypeError, ValueError):
        return None


def count_clause(rules: GameRules, records: list[Any], expected: dict[str, Any], actual: Any) -> str | None:
    """The clause deciding the first contribution counted differently (None: the same ends)."""
    p = PREFIX[rules.id]
    sn = p == "SN"
    got = actual.get("contributions") if isinstance(actual, dict) else None
    want = expected.get("contributions")
    if not isinstance(got, list) or not isinstance(want, list):
        return None
    ce, ca = Counter(canonical(c) for c in want), Counter(canonical(c) for c in got if isinstance(c, dict))
    missing = [c for c in want if ce[canonical(c)] > ca[canonical(c)]]
    extra = [c for c in got if isinstance(c, dict) and ca[canonical(c)] > ce[canonical(c)]]
    if not missing and not extra:
        return None
    c = (missing or extra)[0]
    tile, side = _tile(c.get("tile")), c.get("side")
    if tile is None:
        return None
    parent = {_tile(r.get("tile")): (_tile(r.get("to")), r.get("side")) for r in records if isinstance(r, dict)}
    covered = {(to, s) for to, s in parent.values()}
    open_sides = {pos.get("side") for pos in expected.get("positions", []) if _tile(pos.get("tile")) == tile}
    double = parse_tile(tile).is_double
    if double and isinstance(side, str) and side.startswith("branch"):
        if (tile, side) in covered:
            return "SN-COUNT-4" if sn else "HR-COUNT-3"
        return "SN-COUNT-3" if sn else "HR-COUNT-2"
    if double:
        if sn:
            return "SN-COUNT-2"
        return "HR-COUNT-1" if open_sides & set(_LINES) else "HR-COUNT-2"
    if not open_sides and not missing:  # an end counted where no position is open: a connection
        return "SN-COUNT-5" if sn else "HR-COUNT-4"
    on_branch, at, seen = False, tile, set()
    while at in parent and at not in seen:
        seen.add(at)
        to, s = parent[at]
        on_branch = on_branch or (isinstance(s, str) and s.startswith("branch"))
        at = to
    if sn:
        return "SN-COUNT-4" if on_branch else "SN-COUNT-1"
    return "HR-COUNT-3"


def follow_up(ask: Ask, rules: GameRules, kind: str, input: dict[str, Any]) -> tuple[str, dict[str, Any], Verdict] | None:
    """The first follow-up question the engine answers differently: (kind, input, verdict)."""
    budget = [PROBES]

    def asked(k: str, inp: dict[str, Any]) -> Verdict | None:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        v = ask(k, inp)
        return v if v.status == "differ" else None

    if kind == "evaluate":
        v = asked("evaluate", input)
        return ("evaluate", input, v) if v else None
    if kind == "perft":
        return _perft_follow_up(asked, rules, list(input.get("placements", [])), int(input.get("depth", 1)))
    return None


def _perft_follow_up(asked: Callable[[str, dict[str, Any]], Verdict | None], rules: GameRules, records: list[Any],
                     depth: int) -> tuple[str, dict[str, Any], Verdict] | None:
    """The layout one legal (or nearly legal) placement on that the engine evaluates
    differently; failing that, the first placement whose perft one ply down differs, followed."""
    try:
        layout, _ = build_layout(rules, records)
    except (IllegalPlacement, ValueError, KeyError, TypeError):
        return None
    legal = legal_moves(layout)
    placed = set(layout.tiles)
    near: list[Placement] = []  # a branch of each placed double: legal or not, engines read them differently
    for d in sorted({t for t in placed if t.is_double}):
        free = next((t for t in ALL_TILES if t not in placed and d.low in (t.high, t.low)), None)
        for side in (Side.BRANCH_A, Side.BRANCH_B):
            if free is not None:
                near.append(Placement(free, d, side))
    for p in [*near, *legal]:
        inp = {"placements": [*records, p.to_dict()]}
        v = asked("evaluate", inp)
        if v is not None:
            return "evaluate", inp, v
    if depth > 1:
        for p in legal:
            inp = {"placements": [*records, p.to_dict()], "depth": depth - 1}
            if asked("perft", inp) is not None:
                return _perft_follow_up(asked, rules, inp["placements"], depth - 1)
    return None
