"""Which clauses a fuzz request exercises: the situations of each clause of spec/rules.md,
read off the request and the seeds' answer (issue 37: every clause's situations come up in the
default draws of every seed, at a rate benchmarks/fuzz_rare.py measures).

A layout's counting and spinner clauses are the golden tagging's (fives/conformance/golden/cases.py,
applied to an evaluate request and to the layout a turn leaves); the others are named
situations below (`SITUATIONS`: clause area and number -> what shows it), the same for both
games where both have the clause.
"""
from __future__ import annotations

from typing import Any, Callable

from fives.conformance.fuzz.attribute import tags
from fives.conformance.golden.cases import PREFIX
from fives.rules import GameRules
from fives.tiles import parse_tile

#: What shows each clause, as benchmarks/fuzz_rare.py prints it: by area and number where
#: both games' clauses mean the same, by full id where they do not (`situation_of`).
SITUATIONS = {
    "SET-1": "a setup's boneyard, a perft count over every unplaced tile, or a tile placed twice",
    "PLAYERS-1": "a configuration asked, or a state played in partnerships",
    "TARGET-1": "the target: a setup's, a match ended, a tally at or past it",
    "POINTS-1": "displayed points: a setup's target, a match ended, a tally",
    "MATCH-1": "a placement that reaches the target (the match ends at once)",
    "MATCH-2": "the target reached at a settlement, or a match-end question",
    "DEAL-1": "a setup's hand size and boneyard, an opening state, a boneyard drawn to its last tile",
    "DEAL-2": "who leads whatever is dealt (the first hand), or an opening turn of a dealt hand",
    "LEAD-1": "the first hand's leader (by lot)",
    "LEAD-2": "an opening turn, or a draw or pass refused before it",
    "LEAD-3": "the leader after a blocked hand or a seat gone out",
    "PLACE-1": "a placement joining the layout",
    "PLACE-2": "a double placed after the opening",
    "TURN-1": "a Sniff placement of a double or a score (one placement, still)",
    "SPIN-1": "a double in the layout (golden tagging)",
    "SPIN-2": "a spinner's branch sides (golden tagging)",
    "SN-COUNT-1": "a blank end or a zero sum (golden tagging)",
    "SN-COUNT-2": "a double's halves (golden tagging)",
    "SN-COUNT-3": "an open branch side of a full Sniff (golden tagging)",
    "SN-COUNT-4": "a started branch (golden tagging)",
    "SN-COUNT-5": "a Sniff whose lines are both occupied: a connection position, no counted end",
    "HR-COUNT-1": "a double in the layout (golden tagging)",
    "HR-COUNT-2": "a full spinner's branch sides (golden tagging)",
    "HR-COUNT-3": "a started branch (golden tagging)",
    "HR-COUNT-4": "a blank end, a zero sum, or a full spinner's connection position",
    "SCORE-1": "a placement that scores",
    "SCORE-2": "a sum that scores nothing",
    "SCORE-3": "a sum of 35 or more",
    "DRAW-1": "a seat that could place asked to, or refused a draw",
    "DRAW-2": "a draw",
    "DRAW-3": "a drawn tile that fits, placed at once",
    "DRAW-4": "a pass",
    "SN-END-1": "a seat going out",
    "SN-END-2": "a blocked hand",
    "HR-END-1": "a blocked hand",
    "SN-SETTLE-1": "a settlement",
    "SN-SETTLE-2": "a remainder rounded",
    "SN-SETTLE-3": "a partnership settlement",
    "SN-SETTLE-4": "a score below zero",
    "HR-SETTLE-1": "a seat going out wins the hand",
    "HR-SETTLE-2": "a blocked hand's winner",
    "HR-SETTLE-3": "an award",
    "HR-SETTLE-4": "an award's pips rounded",
    "SETTLE-5": "a partnership award",
    "SETTLE-6": "a solo tie for lowest",
    "SETTLE-7": "a team tie for lowest",
    "RECORD-1": "a score's record (tally), or a match result",
    "RECORD-2": "a match result",
    "CONT-1": "a placement that continues the turn",
    "CONT-2": "a scoring double",
    "CONT-3": "two or more placements in one turn",
    "CONT-4": "a placement that would continue ending the hand or the match",
    "CONT-5": "a drawn double or scoring tile placed (the turn ends all the same)",
    "CONT-6": "a draw or pass in a continuation",
}


def situation_of(clause: str) -> str:
    """What shows `clause` (its id), in words."""
    return SITUATIONS.get(clause) or SITUATIONS.get(clause.split("-", 1)[1], "?")


def _double(tile: Any) -> bool:
    try:
        return parse_tile(tile).is_double
    except (TypeError, ValueError):
        return False


def _settlement(kind: str, answer: dict[str, Any]) -> dict[str, Any] | None:
    if kind == "settle":
        return answer
    s = answer.get("settlement") if kind == "turn" else None
    return s if isinstance(s, dict) else None


def exercised(rules: GameRules, kind: str, input: dict[str, Any], answer: Any) -> set[str]:
    """The clauses (ids) the request and the seeds' answer exercise."""
    if not isinstance(answer, dict):
        return set()
    p = PREFIX[rules.id]
    sn = p == "SN"
    out: set[str] = set()

    def add(*names: str) -> None:
        out.update(f"{p}-{n}" for n in names)

    try:
        golden = set(tags(rules, kind, input, answer, None)) if kind in ("evaluate", "turn") else set()
    except (KeyError, TypeError, ValueError):
        golden = set()
    out |= {c for c in golden if c.split("-")[1] in ("SPIN", "COUNT", "SCORE")}
    table: dict[str, Callable[[str, dict[str, Any], dict[str, Any], Callable[..., None], bool], None]] = {
        "setup": _setup, "next-leader": _next_leader, "tally": _tally, "perft": _perft, "evaluate": _evaluate,
        "legal-placements": _legal, "turn": _turn, "settle": _settle, "match-end": _match_end}
    if kind in table:
        table[kind](kind, input, answer, add, sn)
    settlement = _settlement(kind, answer)
    if settlement is not None and "error" not in answer:
        _settled(input, settlement, add, sn)
    return {c for c in out if c.startswith(p)}


def _setup(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    add("PLAYERS-1")
    if answer.get("valid"):
        add("SET-1", "DEAL-1", "TARGET-1" if sn else "POINTS-1")


def _next_leader(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    if input.get("previous") is None:
        add("LEAD-1", "DEAL-2")
    else:
        add("LEAD-3")


def _tally(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    add("RECORD-1")
    if not sn:
        add("POINTS-1")
    elif answer.get("fifties", 0) >= 5:
        add("TARGET-1")
    if sn and answer.get("negative"):
        add("SETTLE-4")


def _perft(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    add("SET-1", "PLACE-1")


def _evaluate(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    err = answer.get("error")
    if isinstance(err, dict):
        if err.get("code") == "tile-already-placed":
            add("SET-1")
        add("PLACE-1")
        return
    placements = input.get("placements") if isinstance(input.get("placements"), list) else []
    add("PLACE-1")
    if any(isinstance(r, dict) and _double(r.get("tile")) for r in placements[1:]):
        add("PLACE-2")
    _layout_situations(answer, add, sn)


def _layout_situations(result: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    spinners = result.get("spinners") or []
    ends = {c.get("tile") for c in result.get("contributions", []) if isinstance(c, dict)}
    if any(s not in ends for s in spinners):
        add("COUNT-5" if sn else "COUNT-4")
    if result.get("sum", 0) >= 35:
        add("SCORE-3") if sn else None


def _legal(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    if answer.get("placements"):
        add("PLACE-1", "DRAW-1")
    elif answer.get("draw"):
        add("DRAW-2")
    elif answer.get("pass"):
        add("DRAW-4")
    if not input.get("layout"):
        add("LEAD-2")
    if input.get("continuing") and not sn:
        add("CONT-6")


def _turn(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    actions = [a for a in input.get("actions", []) if isinstance(a, dict)]
    if input.get("partnerships"):
        add("PLAYERS-1")
    if not input.get("layout"):
        add("LEAD-2", "DEAL-1", "DEAL-2")  # an opening state is a fresh deal
    err = answer.get("error")
    if isinstance(err, dict):
        code = err.get("code")
        if code == "must-place":
            add("DRAW-1")
        if code in ("cannot-pass", "cannot-draw"):
            add("DRAW-4")
        if code == "must-place-drawn-tile":
            add("DRAW-3")
        return
    results = [r for r in answer.get("results", []) if isinstance(r, dict)]
    kinds = [r.get("action") for r in results]
    if "place" in kinds:
        add("PLACE-1")
    if any(r.get("action") == "place" and _double(r.get("tile")) for r in results) and input.get("layout"):
        add("PLACE-2")
    if "draw" in kinds:
        add("DRAW-2")
        if kinds.count("draw") >= len(input.get("boneyard", [])) > 0:
            add("DEAL-1")  # the boneyard drawn to its last tile: none of it is held back
    if "pass" in kinds:
        add("DRAW-4")
    for i, r in enumerate(results):
        earns = r.get("action") == "place" and (_double(r.get("tile")) or r.get("raw", 0) > 0)
        drawn = i > 0 and results[i - 1].get("action") == "draw"
        if drawn and r.get("action") == "place":
            add("DRAW-3")
            if earns and not sn:
                add("CONT-5")
        if sn and earns:
            add("TURN-1")
        if not sn and r.get("continues"):
            add("CONT-1")
        if not sn and r.get("action") == "place" and _double(r.get("tile")) and r.get("raw", 0) > 0:
            add("CONT-2")
        if not sn and r.get("action") in ("draw", "pass") and (
                (i == 0 and input.get("continuing")) or (i > 0 and results[i - 1].get("continues"))):
            add("CONT-6")
    if not sn and kinds.count("place") > 1:
        add("CONT-3")
    end, match_end = answer.get("hand_end"), answer.get("match_end")
    last = results[-1] if results else {}
    if not sn and last.get("action") == "place" and (_double(last.get("tile")) or last.get("raw", 0) > 0) and (
            end is not None or (match_end or {}).get("by") == "placement"):
        add("CONT-4")
    if isinstance(end, dict):
        if end.get("reason") == "gone-out":
            add("END-1" if sn else "SETTLE-1")
        if end.get("reason") == "blocked":
            add("END-2" if sn else "END-1")
    if isinstance(match_end, dict):
        add("RECORD-2" if sn else "RECORD-1", "TARGET-1" if sn else "POINTS-1")
        add("MATCH-1" if match_end.get("by") == "placement" else ("MATCH-1" if sn else "MATCH-2"))
    if any(isinstance(r.get("sum"), int) and r["sum"] >= 35 for r in results) and sn:
        add("SCORE-3")


def _settle(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    if input.get("partnerships"):
        add("PLAYERS-1")
    reason = (input.get("end") or {}).get("reason")
    if reason == "blocked":
        add("END-2" if sn else "END-1")
    if reason == "gone-out":
        add("END-1" if sn else "SETTLE-1")
    if answer.get("winners"):
        add("TARGET-1" if sn else "MATCH-2")


def _settled(input: dict[str, Any], s: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    """A settlement's situations (the settle kind's answer, or a turn's `settlement`)."""
    partners = bool(input.get("partnerships"))
    seats = [x for x in s.get("seats", []) if isinstance(x, dict)]
    if sn:
        add("SETTLE-1")
        if any(x.get("pips", 0) % 5 for x in seats):
            add("SETTLE-2")
        if partners:
            add("SETTLE-3")
        if any(isinstance(v, int) and v < 0 for v in s.get("scores", [])):
            add("SETTLE-4")
        return
    end = s.get("end") or {}
    awards = [a for a in s.get("awards", []) if isinstance(a, dict)]
    if end.get("reason") == "blocked":
        add("SETTLE-2")
        if len(s.get("hand_winners", [])) > 1:
            add("SETTLE-7" if partners else "SETTLE-6")
    if any(a.get("points", 0) > 0 for a in awards):
        add("SETTLE-3")
    if any(a.get("pips", 0) % 5 for a in awards):
        add("SETTLE-4")
    if partners and awards:
        add("SETTLE-5")
    if s.get("winners"):
        add("MATCH-2")


def _match_end(kind: str, input: dict[str, Any], answer: dict[str, Any], add: Callable[..., None], sn: bool) -> None:
    add("RECORD-2" if sn else "RECORD-1")
    if answer.get("winners"):
        add("TARGET-1" if sn else "MATCH-2")
    if not sn:
        add("MATCH-2", "POINTS-1")
