"""Golden case builders: each turns a seeded generator's output into a fixture case."""
from __future__ import annotations

import hashlib
import random
from typing import Any, Callable

from fives.evaluation import evaluate
from fives.conformance.cases.kinds import canonical
from fives.layout import IllegalCode, IllegalPlacement, Placement
from fives.rules import GameRules
from fives.tiles import ALL_TILES, Side
from fives.conformance.golden.layouts import LAYOUT_GENERATORS, _play

CaseBuilder = Callable[[random.Random, GameRules], dict[str, Any] | None]
PREFIX = {"american-sniff": "SN", "horse-race": "HR"}
EVALUATE_KEYS = ("spinners", "positions", "contributions", "sum", "raw", "display", "scores")


def case_id(game: str, kind: str, input: dict[str, Any]) -> str:
    """Stable and derived from content: the same question always gets the same ID."""
    digest = hashlib.sha256(canonical({"game": game, "kind": kind, "input": input}).encode()).hexdigest()
    return f"G-{PREFIX[game]}-{kind}-{digest[:12]}"


def layout_clauses(rules: GameRules, result: dict[str, Any], placements: list[Placement]) -> list[str]:
    """The clauses an evaluate case exercises, from its structure."""
    p = PREFIX[rules.id]
    sn = p == "SN"
    out: list[str] = []
    spinner_full = any(c.get("side", "").startswith("branch") for c in result["contributions"]) or any(
        pos["side"].startswith("branch") for pos in result["positions"])
    branch_started = any(pl.side is not None and pl.side.is_branch for pl in placements)
    if branch_started:
        out.append("SN-COUNT-4" if sn else "HR-COUNT-3")
    if spinner_full:
        out += ["SN-COUNT-3", "SN-SPIN-2"] if sn else ["HR-COUNT-2", "HR-SPIN-2"]
    if any(pl.tile.is_double for pl in placements):
        out += ["SN-COUNT-2", "SN-SPIN-1"] if sn else ["HR-COUNT-1", "HR-SPIN-1"]
    if any(c["value"] == 0 for c in result["contributions"]) or result["sum"] == 0:
        out.append("SN-COUNT-1" if sn else "HR-COUNT-4")
    out.append(f"{p}-SCORE-1" if result["raw"] > 0 else f"{p}-SCORE-2")
    if sn and result["sum"] >= 35:
        out.append("SN-SCORE-3")
    out.append(f"{p}-PLACE-1")
    return list(dict.fromkeys(out))


def evaluate_case(rules: GameRules, placements: list[Placement], category: str) -> dict[str, Any]:
    records = [p.to_dict() for p in placements]
    result = evaluate(rules, records)
    return {"kind": "evaluate", "clauses": layout_clauses(rules, result, placements),
            "description": f"{category}: {len(placements)} tiles, sum {result['sum']}",
            "input": {"placements": records}, "expect": {k: result[k] for k in EVALUATE_KEYS}}


def layout_builder(name: str) -> CaseBuilder:
    gen = LAYOUT_GENERATORS[name]

    def build(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
        placements = gen(rng, rules)
        return None if not placements else evaluate_case(rules, placements, name)
    return build


ILLEGAL_CLAUSE = {
    IllegalCode.TILE_ALREADY_PLACED: "SET-1", IllegalCode.TARGET_NOT_IN_LAYOUT: "PLACE-1",
    IllegalCode.NO_SUCH_SIDE: "PLACE-1", IllegalCode.SIDE_OCCUPIED: "PLACE-1",
    IllegalCode.BRANCH_OF_NON_SPINNER: "SPIN-1", IllegalCode.BRANCH_BEFORE_LINES: "SPIN-2",
    IllegalCode.VALUE_MISMATCH: "PLACE-1",
}


def illegal_placement(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A random legal layout followed by one illegal placement of a chosen reason."""
    want = rng.choice(sorted(ILLEGAL_CLAUSE, key=lambda c: c.value))
    for _ in range(30):
        layout = _play(rng, rules, rng.randint(1, 18))
        for _ in range(60):
            p = Placement(rng.choice(ALL_TILES), rng.choice(ALL_TILES), rng.choice(list(Side)))
            try:
                layout.check(p)
            except IllegalPlacement as e:
                if e.code is want:
                    records = [q.to_dict() for q in layout.history()] + [p.to_dict()]
                    clause = f"{PREFIX[rules.id]}-{ILLEGAL_CLAUSE[want]}"
                    return {"kind": "evaluate", "clauses": [clause], "description": f"illegal: {want.value}",
                            "input": {"placements": records},
                            "expect": {"error": {"index": len(layout), "code": want.value}}}
    return None
