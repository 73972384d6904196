"""Which clause a disagreement breaks, and how its fixture is tagged.

Tags come from the golden suites' own tagging (fives/conformance/golden/cases.py, fives/conformance/golden/play.py)
applied to the shrunk request. The clause a disagreement *breaks* is chosen from the keys
that differ and the shape of the (small) request: a different `spinners` list is SPIN-1, a
turn that goes on after a drawn tile is HR-CONT-5, a different award base is HR-SETTLE-3.
"""
from __future__ import annotations

from typing import Any

from fives.conformance.golden.cases import ILLEGAL_CLAUSE, PREFIX, layout_clauses
from fives.conformance.cases.kinds import canonical
from fives.conformance.golden.play import _settle_case, _turn_case
from fives.layout import IllegalPlacement
from fives.evaluation import parse_placement
from fives.rules import GameRules

_ILLEGAL = {code.value: clause for code, clause in ILLEGAL_CLAUSE.items()}


def tags(rules: GameRules, kind: str, input: dict[str, Any], expected: Any, actual: Any) -> list[str]:
    """The clauses a golden case with this request would carry (for evaluate, the clauses
    the engine's answer touches too: an engine that opens branches early tests SPIN-2)."""
    p = PREFIX[rules.id]
    if kind == "evaluate":
        if "error" in expected:
            return [f"{p}-{_ILLEGAL.get(expected['error']['code'], 'PLACE-1')}"]
        try:
            placements = [parse_placement(r, i) for i, r in enumerate(input["placements"])]
        except IllegalPlacement:
            return [f"{p}-PLACE-1"]
        out = layout_clauses(rules, expected, placements)
        try:
            if isinstance(actual, dict) and "error" not in actual:
                out += layout_clauses(rules, {**expected, **actual}, placements)
        except (KeyError, TypeError, AttributeError):
            pass  # a malformed answer adds no clause
        return list(dict.fromkeys(out))
    if kind == "turn":
        return _turn_case(rules, {k: v for k, v in input.items() if k != "actions"}, input["actions"], "fuzz")["clauses"]
    if kind == "settle":
        return _settle_case(rules, input, "fuzz")["clauses"]
    if kind == "match-end":  # as fives/conformance/golden/play.py tags match-end cases
        return ["HR-MATCH-2", "HR-POINTS-1"] if p == "HR" else ["SN-MATCH-1", "SN-TARGET-1"]
    return [f"{p}-PLACE-1"]


#: Turn codes (fives/match.py PlayCode) -> the clause that decides them (prefix added).
_TURN_CODE = {"must-place": "DRAW-1", "cannot-pass": "DRAW-4", "cannot-draw": "DRAW-4",
              "must-place-drawn-tile": "DRAW-3", "tile-not-in-hand": "PLACE-1", "must-open-with": "LEAD-2"}


def _refused(rules: GameRules, placements: Any, index: Any) -> str | None:
    """The clause that makes placement `index` of `placements` legal, when the engine refused
    it: an opening -> LEAD-2 (the leader may open with any tile); a branch -> SPIN-2; a line
    side -> PLACE-1. None when the index names no placement."""
    p = PREFIX[rules.id]
    if not isinstance(placements, list) or not isinstance(index, int) or not 0 <= index < len(placements):
        return None
    rec = placements[index]
    if index == 0:
        return f"{p}-LEAD-2"
    side = rec.get("side") if isinstance(rec, dict) else None
    return f"{p}-SPIN-2" if isinstance(side, str) and side.startswith("branch") else f"{p}-PLACE-1"


def _pick(wanted: list[str], available: list[str]) -> str | None:
    return next((c for c in wanted if c in available), None)


def broken_clause(rules: GameRules, kind: str, input: dict[str, Any], expected: Any, actual: Any,
                  keys: tuple[str, ...], diffs: tuple[str, ...], case_tags: list[str]) -> str:
    p = PREFIX[rules.id]
    sn = p == "SN"
    fallback = case_tags[0]
    if kind == "evaluate":
        if any(k.startswith("error") for k in keys):
            code = expected.get("error", {}).get("code") if "error" in expected else None
            if code is None and isinstance(actual, dict) and isinstance(actual.get("error"), dict):
                # the engine refuses a legal layout: the clause that allows the refused placement
                refused = _refused(rules, input.get("placements"), actual["error"].get("index"))
                if refused is not None:
                    return refused
                code = actual["error"].get("code")
            return f"{p}-{_ILLEGAL.get(str(code), 'PLACE-1')}"
        if "spinners" in keys:
            return f"{p}-SPIN-1"
        if "positions" in keys:
            return _pick([f"{p}-SPIN-2", f"{p}-SPIN-1"], case_tags) or f"{p}-PLACE-1"
        counts = (["SN-COUNT-4", "SN-COUNT-3", "SN-COUNT-2", "SN-COUNT-1", "SN-SCORE-2", "SN-SCORE-1"] if sn else
                  ["HR-COUNT-3", "HR-COUNT-2", "HR-COUNT-1", "HR-COUNT-4", "HR-SCORE-2", "HR-SCORE-1"])
        return _pick(counts, case_tags) or fallback
    if kind == "turn":
        return _turn_clause(rules, p, input, expected, actual, keys) or fallback
    if kind == "settle":
        return _settle_clause(p, input, expected, keys) or fallback
    return fallback


_POINT_KEYS = (".sum", ".raw", ".display", ".score")


def _first_difference(expected: dict[str, Any], actual: Any) -> int:
    """The index of the first turn result the engine answered differently (or where it stopped)."""
    want = expected.get("results", [])
    got = actual.get("results", []) if isinstance(actual, dict) else []
    got = got if isinstance(got, list) else []
    for i, w in enumerate(want):
        if i >= len(got) or canonical(w) != canonical(got[i]):
            return i
    return len(want)


def _is_double(tile: object) -> bool:
    halves = str(tile).strip("[]").replace("-", "|").split("|")
    return len(halves) == 2 and halves[0] == halves[1]


def _turn_clause(rules: GameRules, p: str, input: dict[str, Any], expected: dict[str, Any], actual: Any,
                 keys: tuple[str, ...]) -> str | None:
    results = expected.get("results", [])
    actions = input.get("actions", [])
    first = _first_difference(expected, actual)
    if any(k.startswith("results[]") and k.endswith(_POINT_KEYS) for k in keys):
        # the placement itself scored differently: a layout rule, tagged as its evaluate case
        placed = [a for a in actions[:first + 1] if a.get("action") == "place"]
        records = list(input.get("layout", [])) + [{k: a[k] for k in ("tile", "to", "side") if k in a} for a in placed]
        from fives.evaluation import evaluate
        result = evaluate(rules, records)
        if "error" not in result:
            layout_tags = tags(rules, "evaluate", {"placements": records}, result, None)
            return broken_clause(rules, "evaluate", {"placements": records}, result, None, ("count",), (), layout_tags)
    error_clause = _turn_error_clause(rules, p, input, expected, actual, first)
    if error_clause is not None:
        return error_clause
    if expected.get("match_end") is not None or any(k.startswith("match_end") for k in keys):
        return f"{p}-MATCH-1"
    turn_keys = any("continues" in k or "turn_end" in k or k in ("next_seat", "results") or k.startswith("error")
                    for k in keys)
    if p == "SN":
        return "SN-TURN-1" if turn_keys else None
    if not turn_keys:
        return None
    at = results[first] if first < len(results) else {}
    earns = at.get("action") == "place" and (_is_double(at.get("tile")) or at.get("raw", 0) > 0)
    # the placement right after a scoring double (draws between) is that double's one continuation
    before = [r for r in results[:first] if r.get("action") == "place"]
    if at.get("action") == "place" and before and _is_double(before[-1].get("tile")) and before[-1].get("raw", 0) > 0:
        return "HR-CONT-2"
    if at.get("drawn") and earns:
        return "HR-CONT-5"
    # a draw during a continuation (a continuation is a full turn): the engine refuses the
    # draw, or ends the turn at the placement before it
    for j in (first, first + 1):
        if 0 <= j < len(actions) and actions[j].get("action") == "draw" and (
                (j == 0 and input.get("continuing")) or (0 < j <= len(results) and results[j - 1].get("continues"))):
            return "HR-CONT-6"
    if at.get("action") == "place" and not earns and at.get("sum") == 0:
        return "HR-SCORE-2"
    return "HR-CONT-3"


def _turn_error_clause(rules: GameRules, p: str, input: dict[str, Any], expected: dict[str, Any], actual: Any,
                       first: int) -> str | None:
    """Where one side refuses an action with a layout code or a turn code the other performs,
    the clause is the one that decides that action, not the turn's flow: an engine that
    refuses legal openings breaks LEAD-2, one that lets a seat draw while it can place DRAW-1.
    A `not-your-turn` (or no code) is about whose turn it is, left to the flow clauses."""
    want = expected.get("error") if isinstance(expected.get("error"), dict) else None
    got = actual.get("error") if isinstance(actual, dict) and isinstance(actual.get("error"), dict) else None
    actions = input.get("actions", [])
    if (want is None) == (got is None) and (want is None or want.get("index") == got.get("index")):
        return None
    err = got if want is None else want
    index = err.get("index")
    code = str(err.get("code"))
    if not isinstance(index, int) or not 0 <= index < len(actions) or index > first:
        return None
    action = actions[index] if isinstance(actions[index], dict) else {}
    if code in _ILLEGAL or (want is None and action.get("action") == "place" and code != "not-your-turn"):
        if want is None and action.get("action") == "place":
            placed_before = sum(1 for a in actions[:index] if isinstance(a, dict) and a.get("action") == "place")
            if not input.get("layout") and placed_before == 0:
                return f"{p}-LEAD-2"
            side = action.get("side")
            return f"{p}-SPIN-2" if isinstance(side, str) and side.startswith("branch") else f"{p}-PLACE-1"
        return f"{p}-{_ILLEGAL[code]}" if code in _ILLEGAL else None
    if want is None and action.get("action") in ("draw", "pass"):
        continuing = (index == 0 and input.get("continuing")) or (
            0 < index <= len(expected.get("results", [])) and expected["results"][index - 1].get("continues"))
        if continuing or code == "not-your-turn":
            return None  # a draw in a continuation: the flow clauses (HR-CONT-6)
        return f"{p}-DRAW-2" if action["action"] == "draw" else f"{p}-DRAW-4"
    if want is not None and code in _TURN_CODE:
        return f"{p}-{_TURN_CODE[code]}"
    return None


def _settle_clause(p: str, input: dict[str, Any], expected: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    partners = bool(input.get("partnerships"))
    if p == "SN":
        if any("rounded" in k or k.startswith(("deductions", "seats", "changes", "scores")) for k in keys):
            return "SN-SETTLE-3" if partners else "SN-SETTLE-2"
        return None
    tied = len(expected.get("hand_winners", [])) > 1
    tie_clause = "HR-SETTLE-7" if partners else "HR-SETTLE-6"
    if any(k.startswith("hand_winners") for k in keys):
        return tie_clause if tied else "HR-SETTLE-2"
    if any(k.endswith("from_seats") for k in keys):
        return "HR-SETTLE-5"
    if any(k.endswith(".pips") and k.startswith("awards") for k in keys):
        return "HR-SETTLE-3"
    if any(k.endswith(".rounded") for k in keys):
        return "HR-SETTLE-4"
    if tied and any(k.startswith(("awards", "changes", "scores")) for k in keys):
        return tie_clause
    return None
