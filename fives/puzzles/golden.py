"""Conformance fixtures (kind evaluate) from puzzles and from the extremal witnesses."""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

from fives.evaluation import build_layout, evaluate
from fives.layout import Layout, Placement
from fives.rules import load_rules
from fives.tiles import Side
from fives.puzzles.model import Puzzle, _flow

EXPECT_KEYS = ("tiles", "spinners", "positions", "contributions", "sum", "raw", "display")


def case_id(game: str, placements: list[dict[str, str]], prefix: str = "PZ") -> str:
    """Permanent: derived from the content, never from a position in a file."""
    text = json.dumps({"game": game, "placements": placements}, sort_keys=True, separators=(",", ":"))
    return f"{prefix}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def clauses(layout: Layout) -> list[str]:
    """The rule clauses (spec/rules.md) a layout's expected result exercises."""
    sniff = layout.rules.spinner_policy == "first-double"
    p = "SN" if sniff else "HR"
    out = [f"{p}-COUNT-1" if sniff else "HR-COUNT-3", f"{p}-SCORE-1" if layout.raw else f"{p}-SCORE-2"]
    doubles = [t for t in layout.tiles if t.is_double]
    if any(not layout.placed(d).lines_occupied() for d in doubles):
        out.append("SN-COUNT-2" if sniff else "HR-COUNT-1")
    if any(layout.placed(d).lines_occupied() for d in doubles):
        out.append("SN-COUNT-2" if sniff else "HR-COUNT-2")
    if sniff and len(doubles) > 1:
        out.append("SN-SPIN-1")
    if not sniff and doubles:
        out.append("HR-SPIN-1")
    for s in layout.spinners:
        pt = layout.placed(s)
        if pt.lines_occupied():
            out.append(f"{p}-SPIN-2")
            if sniff and any(b not in pt.occupied for b in (Side.BRANCH_A, Side.BRANCH_B)):
                out.append("SN-COUNT-3")
            if sniff and any(b in pt.occupied for b in (Side.BRANCH_A, Side.BRANCH_B)):
                out.append("SN-COUNT-4")
    return sorted(set(out), key=lambda c: (c.split("-")[1], int(c.split("-")[2])))


def evaluate_case(game: str, placements: list[Placement], cid: str, derived: str, description: str,
                  extra_clauses: Iterable[str] = ()) -> dict[str, Any]:
    records = [p.to_dict() for p in placements]
    result = evaluate(game, records)
    if "error" in result:
        raise RuntimeError(f"{cid}: the engine rejects the layout: {result['error']}")
    layout, _ = build_layout(game, records)
    return {
        "id": cid, "kind": "evaluate", "game": game,
        "clauses": sorted(set(clauses(layout)) | set(extra_clauses)),
        "source": {"derived": derived},
        "description": description,
        "input": {"placements": [_flow(r) for r in records]},
        "expect": {k: _compact(result[k]) for k in EXPECT_KEYS},
    }


def _compact(v: Any) -> Any:
    if isinstance(v, list):
        return _flow([_flow(x) if isinstance(x, dict) else x for x in v]) if v and not isinstance(v[0], dict) \
            else [_flow(x) for x in v]
    return v


def fixtures_from_set(puzzles: list[Puzzle], name: str) -> dict[str, Any]:
    cases, seen = [], set()
    for pz in puzzles:
        pr = pz.problem
        placements = list(pr.layout) + list(pz.solution)
        cid = case_id(pr.game, [p.to_dict() for p in placements])
        if cid in seen:
            continue
        seen.add(cid)
        unit = load_rules(pr.game).raw["points"]["unit"]
        cases.append(evaluate_case(
            pr.game, placements, cid,
            f"Puzzle {pz.id} ({pr.kind}): its table followed by its unique solution, evaluated by the reference engine.",
            f"{pr.kind} puzzle {pz.id}, target {list(pr.target) if isinstance(pr.target, tuple) else pr.target} "
            f"{unit}: the layout after the solution"))
    return {"format": "fives-fixtures/1", "title": f"Golden layouts from the puzzle set {name}", "cases": cases}


def extremal_fixtures(found: list[Any]) -> dict[str, Any]:
    cases = []
    for e in found:
        records = [p.to_dict() for p in e.witness]
        cid = case_id(e.game, records, "EX")
        if any(c["id"] == cid for c in cases):
            continue  # Horse Race: the largest counted sum is itself a scoring sum
        what = "counted sum" if e.what == "counted" else "scoring sum"
        extra = ["SN-SCORE-3"] if e.game == "american-sniff" else []
        cases.append(evaluate_case(
            e.game, e.witness, cid,
            f"Witness of the largest {what} ({e.value}), proven optimal by `fives puzzles extremal` "
            "(exhaustive relaxation search, spec/puzzles.md).",
            f"largest {what} of any {e.game} layout: {e.value}", extra))
    return {"format": "fives-fixtures/1", "title": "Extremal layouts: the largest counted and scoring sums",
            "cases": cases}
