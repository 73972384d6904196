"""Which clause a disagreement breaks, and how its fixture is tagged.

Tags come from the golden suites' own tagging (fives/conformance/golden/cases.py, fives/conformance/golden/play.py)
applied to the shrunk request. The clause a disagreement *breaks* comes from what differs
(issue 37): the first key that differs and the rule that decides that key. A different
`spinners` list is SPIN-1; a contribution counted differently is the counting clause of that
end (fives/conformance/fuzz/localize.py); a turn whose placement scored differently, or a
perft count, is followed up with the engine's own `evaluate` of the layouts involved; a turn's
settlement as a settlement; a draw that blocks the hand END-2; a tally RECORD-1.
"""
from __future__ import annotations

from typing import Any

from fives.conformance.golden.cases import ILLEGAL_CLAUSE, PREFIX, layout_clauses
from fives.conformance.cases.kinds import canonical
from fives.conformance.fuzz.localize import Ask, count_clause, follow_up
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


#: Refusal codes that name the spinner rule the engine reads otherwise.
_SPIN_CODES = ("branch-of-non-spinner", "branch-before-lines")


def _refused(rules: GameRules, placements: Any, index: Any, code: Any = None) -> str | None:
    """The clause that makes placement `index` of `placements` legal, when the engine refused
    it: an opening -> LEAD-2 (the leader may open with any tile); a branch refused as one of a
    non-spinner, or before the lines, the spinner clause of that code; a branch otherwise ->
    SPIN-2; a line side -> PLACE-1. None when the index names no placement."""
    p = PREFIX[rules.id]
    if not isinstance(placements, list) or not isinstance(index, int) or not 0 <= index < len(placements):
        return None
    rec = placements[index]
    if index == 0:
        return f"{p}-LEAD-2"
    if code in _SPIN_CODES:
        return f"{p}-{_ILLEGAL[str(code)]}"
    side = rec.get("side") if isinstance(rec, dict) else None
    return f"{p}-SPIN-2" if isinstance(side, str) and side.startswith("branch") else f"{p}-PLACE-1"


def _pick(wanted: list[str], available: list[str]) -> str | None:
    return next((c for c in wanted if c in available), None)


def broken_clause(rules: GameRules, kind: str, input: dict[str, Any], expected: Any, actual: Any,
                  keys: tuple[str, ...], diffs: tuple[str, ...], case_tags: list[str], ask: Ask | None = None) -> str:
    """`ask` (the engine's answer to a follow-up question, fives/conformance/fuzz/localize.py):
    None asks nothing and files a turn's or a perft's layout difference by its tags."""
    p = PREFIX[rules.id]
    sn = p == "SN"
    fallback = case_tags[0]
    if kind == "tally":
        return f"{p}-RECORD-1"
    if kind == "perft":
        return _perft_clause(rules, input, expected, actual, keys, case_tags, ask)
    if kind == "legal-placements":
        return _legal_clause(rules, input, expected, actual, keys) or fallback
    if kind == "evaluate":
        if any(k.startswith("error") for k in keys):
            code = expected.get("error", {}).get("code") if "error" in expected else None
            got = actual.get("error") if isinstance(actual, dict) and isinstance(actual.get("error"), dict) else None
            if code is not None and got is not None:
                # both refuse: where the engine refuses earlier, the placement it refuses; where it
                # names a spinner rule the reference does not, that rule
                at, want_at = got.get("index"), expected["error"].get("index")
                if isinstance(at, int) and isinstance(want_at, int) and at < want_at:
                    refused = _refused(rules, input.get("placements"), at, got.get("code"))
                    if refused is not None:
                        return refused
                if "branch-of-non-spinner" in (code, got.get("code")) and got.get("code") != code:
                    return f"{p}-SPIN-1"  # one side reads the double as no spinner
            if code is None and got is not None:
                # the engine refuses a legal layout: the clause that allows the refused placement
                refused = _refused(rules, input.get("placements"), actual["error"].get("index"),
                                   actual["error"].get("code"))
                if refused is not None:
                    return refused
                code = actual["error"].get("code")
            return f"{p}-{_ILLEGAL.get(str(code), 'PLACE-1')}"
        if "spinners" in keys:
            return f"{p}-SPIN-1"
        if "positions" in keys:
            return _pick([f"{p}-SPIN-2", f"{p}-SPIN-1"], case_tags) or f"{p}-PLACE-1"
        placements = input.get("placements") if isinstance(input.get("placements"), list) else []
        counted = count_clause(rules, placements, expected, actual)
        if counted is not None:
            return counted
        if isinstance(actual, dict) and actual.get("sum") == expected.get("sum") and "raw" in actual:
            return f"{p}-SCORE-1" if expected.get("raw", 0) > 0 or actual.get("raw", 0) else f"{p}-SCORE-2"
        return _pick(_counts(sn), case_tags) or fallback
    if kind == "turn":
        return _turn_clause(rules, p, input, expected, actual, keys, ask) or fallback
    if kind == "settle":
        return _settle_clause(p, input, expected, keys) or fallback
    return fallback


_POINT_KEYS = (".sum", ".raw", ".display", ".score")
_POINTS = ("sum", "raw", "display", "score")


def _counts(sn: bool) -> list[str]:
    """The counting clauses, the most specific first (a layout's tags name several)."""
    return (["SN-COUNT-4", "SN-COUNT-3", "SN-COUNT-2", "SN-COUNT-1", "SN-SCORE-2", "SN-SCORE-1"] if sn else
            ["HR-COUNT-3", "HR-COUNT-2", "HR-COUNT-1", "HR-COUNT-4", "HR-SCORE-2", "HR-SCORE-1"])


def _followed(rules: GameRules, kind: str, input: dict[str, Any], ask: Ask | None) -> str | None:
    """The clause of the first follow-up question the engine answers differently."""
    if ask is None:
        return None
    found = follow_up(ask, rules, kind, input)
    if found is None:
        return None
    k, inp, v = found
    return broken_clause(rules, k, inp, v.expected, v.actual, v.keys, v.diffs,
                         tags(rules, k, inp, v.expected, v.actual))


def _perft_clause(rules: GameRules, input: dict[str, Any], expected: Any, actual: Any, keys: tuple[str, ...],
                  case_tags: list[str], ask: Ask | None) -> str:
    """A layout the engine evaluates differently one placement on; else a count of
    sequences (which placements are distinct: PLACE-1) or of points (the counting clauses)."""
    p = PREFIX[rules.id]
    followed = _followed(rules, "perft", input, ask)
    if followed is not None:
        return followed
    if "nodes" in keys:
        return f"{p}-PLACE-1"
    return _pick(_counts(p == "SN"), case_tags) or f"{p}-SCORE-1"


def _legal_clause(rules: GameRules, input: dict[str, Any], expected: Any, actual: Any,
                  keys: tuple[str, ...]) -> str | None:
    """A placement listed by one side only: the clause that refuses (the reference's code)
    or allows it; a draw or pass allowed differently: DRAW-1, DRAW-4, or in a continuation HR-CONT-6."""
    p = PREFIX[rules.id]
    if any(k.startswith("placements") for k in keys) and isinstance(actual, dict) \
            and isinstance(actual.get("placements"), list):
        want = {canonical(x) for x in expected.get("placements", [])}
        got = {canonical(x) for x in actual["placements"] if isinstance(x, dict)}
        layout = input.get("layout") if isinstance(input.get("layout"), list) else []
        for x in [x for x in actual["placements"] if isinstance(x, dict) and canonical(x) not in want]:
            from fives.evaluation import evaluate
            err = evaluate(rules, [*layout, x]).get("error")
            if isinstance(err, dict) and str(err.get("code")) in _ILLEGAL:
                return f"{p}-{_ILLEGAL[str(err['code'])]}"
        for x in [x for x in expected.get("placements", []) if canonical(x) not in got]:
            return _refused(rules, [*layout, x], len(layout)) or f"{p}-PLACE-1"
    if input.get("continuing") and any(k in ("draw", "pass") for k in keys):
        return "HR-CONT-6" if p == "HR" else f"{p}-TURN-1"
    if "draw" in keys:
        return f"{p}-DRAW-1"
    if "pass" in keys:
        return f"{p}-DRAW-4"
    return None


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
                 keys: tuple[str, ...], ask: Ask | None = None) -> str | None:
    results = expected.get("results", [])
    actions = input.get("actions", [])
    first = _first_difference(expected, actual)
    got_results = actual.get("results") if isinstance(actual, dict) and isinstance(actual.get("results"), list) else []
    at = results[first] if first < len(results) else {}
    got_at = got_results[first] if first < len(got_results) and isinstance(got_results[first], dict) else {}
    refused_state = _state_refused(p, expected, actual)
    if refused_state is not None:
        return refused_state
    points_differ = at.get("action") == "place" and got_at.get("action") == "place" and any(
        at.get(k) != got_at.get(k) for k in _POINTS)
    if points_differ or (not got_at and any(k.startswith("results[]") and k.endswith(_POINT_KEYS) for k in keys)):
        # the placement itself scored differently: a layout rule, as the layout's evaluate case
        placed = [a for a in actions[:first + 1] if a.get("action") == "place"]
        records = list(input.get("layout", [])) + [{k: a[k] for k in ("tile", "to", "side") if k in a} for a in placed]
        from fives.evaluation import evaluate
        result = evaluate(rules, records)
        if "error" not in result:
            followed = _followed(rules, "evaluate", {"placements": records}, ask)
            if followed is not None:
                return followed
            layout_tags = tags(rules, "evaluate", {"placements": records}, result, None)
            return broken_clause(rules, "evaluate", {"placements": records}, result, None, ("count",), (), layout_tags)
    error_clause = _turn_error_clause(rules, p, input, expected, actual, first, ask)
    if error_clause is not None:
        return error_clause
    if at.get("action") == "draw" and "playable" in got_at and at.get("playable") != got_at.get("playable"):
        followed = _followed(rules, "perft", {"placements": _layout_at(input, first), "depth": 1}, ask)
        if followed is not None:
            return followed
    ended = expected.get("match_end") or {}
    got_settles = isinstance(actual, dict) and actual.get("settlement") is not None
    last = first >= len(results) - 1  # the difference is at the result that ends the turn, or after it
    if ended.get("by") == "placement" and got_settles and expected.get("settlement") is None:
        return f"{p}-MATCH-1"  # a hand whose placement ended the match is not settled
    if first >= len(results) and (any(k.startswith("settlement") for k in keys) or (
            expected.get("settlement") and any(k.startswith("scores") for k in keys))):
        settled = _settle_clause(p, input, expected.get("settlement") or {},
                                 tuple(k.removeprefix("settlement.") for k in keys))
        if settled is not None:
            return settled
    end = expected.get("hand_end") or {}
    if end.get("reason") == "blocked" and at.get("action") == "draw" and first == len(results) - 1:
        return f"{p}-END-2" if p == "SN" else "HR-END-1"  # the draw that blocks the hand ends it, and the turn
    if last and (ended or any(k.startswith("match_end") for k in keys)):
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


def _state_refused(p: str, expected: dict[str, Any], actual: Any) -> str | None:
    """One side refuses the state itself (an error naming no action): the clause of the layout
    code its message names (an engine that reads a layout placement as illegal), if any."""
    for mine, other in ((actual, expected), (expected, actual)):
        err = mine.get("error") if isinstance(mine, dict) else None
        if not isinstance(err, dict) or err.get("index") is not None or (
                isinstance(other, dict) and isinstance(other.get("error"), dict)):
            continue
        message = str(err.get("message", ""))
        named = [code for code in _ILLEGAL if code in message]
        if named:
            return f"{p}-{_ILLEGAL[named[0]]}"
    return None


def _layout_at(input: dict[str, Any], index: int) -> list[Any]:
    """The turn's layout before action `index`: the state's and the placements before it."""
    placed = [{k: a[k] for k in ("tile", "to", "side") if k in a} for a in input.get("actions", [])[:index]
              if isinstance(a, dict) and a.get("action") == "place"]
    return [*input.get("layout", []), *placed]


def _turn_error_clause(rules: GameRules, p: str, input: dict[str, Any], expected: dict[str, Any], actual: Any,
                       first: int, ask: Ask | None = None) -> str | None:
    """Where one side refuses an action with a layout code or a turn code the other performs,
    the clause is the one that decides that action, not the turn's flow: an engine that
    refuses legal openings breaks LEAD-2, one that lets a seat draw while it can place DRAW-1.
    A `not-your-turn` (or no code) is about whose turn it is, left to the flow clauses."""
    want = expected.get("error") if isinstance(expected.get("error"), dict) else None
    got = actual.get("error") if isinstance(actual, dict) and isinstance(actual.get("error"), dict) else None
    actions = input.get("actions", [])
    err = got if want is None else want
    if err is None:
        return None
    index = err.get("index")
    code = str(err.get("code"))
    if not isinstance(index, int) or not 0 <= index < len(actions) or index > first:
        return None
    action = actions[index] if isinstance(actions[index], dict) else {}
    opening = not input.get("layout") and not any(
        isinstance(a, dict) and a.get("action") == "place" for a in actions[:index])
    if opening and action.get("action") in ("draw", "pass") and (want is not None or got is not None) and (
            want is None or got is None or want.get("code") != got.get("code")):
        return f"{p}-LEAD-2"  # the leader opens: no draw or pass before the first placement
    if (want is None) == (got is None) and (want is None or want.get("index") == got.get("index")):
        return None
    if code in _ILLEGAL or (want is None and action.get("action") == "place" and code != "not-your-turn"):
        if want is None and action.get("action") == "place":
            placed_before = sum(1 for a in actions[:index] if isinstance(a, dict) and a.get("action") == "place")
            if not input.get("layout") and placed_before == 0:
                return f"{p}-LEAD-2"
            if code in _SPIN_CODES:
                return f"{p}-{_ILLEGAL[code]}"
            side = action.get("side")
            return f"{p}-SPIN-2" if isinstance(side, str) and side.startswith("branch") else f"{p}-PLACE-1"
        return f"{p}-{_ILLEGAL[code]}" if code in _ILLEGAL else None
    if want is None and action.get("action") in ("draw", "pass"):
        continuing = (index == 0 and input.get("continuing")) or (
            0 < index <= len(expected.get("results", [])) and expected["results"][index - 1].get("continues"))
        if continuing or code == "not-your-turn":
            return None  # a draw in a continuation: the flow clauses (HR-CONT-6)
        if code == "must-place":  # the engine sees a placement the reference does not: which one
            followed = _followed(rules, "perft", {"placements": _layout_at(input, index), "depth": 1}, ask)
            if followed is not None:
                return followed
        return f"{p}-DRAW-2" if action["action"] == "draw" else f"{p}-DRAW-4"
    if want is not None and code in _TURN_CODE:
        return f"{p}-{_TURN_CODE[code]}"
    return None


def _settle_clause(p: str, input: dict[str, Any], expected: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    partners = bool(input.get("partnerships"))
    if p == "SN":
        if any(k.endswith(".rounded") and k.startswith("seats") for k in keys):
            return "SN-SETTLE-2"  # a seat's own rounding
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
