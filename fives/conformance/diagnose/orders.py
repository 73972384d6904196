"""Orders of opening tiles read off the engine's answers (spec/diagnose.md, "Orders read off the
answers"), not only the orders rule books give (fives/profile_space.py OPENING_ORDERS): an engine
that opens with [5|5], then [1|1] up to [6|6], then [0|0] plays an order no book lists.

Every turn the engine answered that opens an empty layout with a double says that double comes
before every other double the leader held (the engine accepted it), or, refused beside one other
double, that the other comes first; a legal-placements answer on an empty layout that lets one
double open says it comes before the hand's other doubles. The orders offered are the
doubles sorted by those precedences, ties broken as each known order has them. Read only when the
engine refused an opening the base allows (its failures show an opening rule at all)."""
from __future__ import annotations

from typing import Any

from fives.conformance.runner import CaseResult
from fives.tiles import parse_tile

DOUBLES = [f"[{n}|{n}]" for n in range(7)]


def _allowed(r: CaseResult) -> tuple[list[str], list[str]] | None:
    """(the doubles the engine lets open, the doubles the hand holds) of a legal-placements case
    on an empty layout; None for any other case."""
    i, o = r.case.input, r.outcome
    if r.case.kind != "legal-placements" or not isinstance(i, dict) or i.get("layout") or o is None \
            or o.status != "ok" or not isinstance(o.answer, dict) or not isinstance(o.answer.get("placements"), list):
        return None
    try:
        held = [str(parse_tile(t)) for t in i.get("hand") or []]
        allowed = [str(parse_tile(p["tile"])) for p in o.answer["placements"] if isinstance(p, dict)]
    except (KeyError, TypeError, ValueError):
        return None
    return [t for t in allowed if t in DOUBLES], [t for t in held if t in DOUBLES]


def _opening(r: CaseResult) -> tuple[str, list[str], Any] | None:
    """(the double that opens, the leader's other doubles, the engine's answer) of a turn case
    that opens an empty layout with a double; None for any other case."""
    i, o = r.case.input, r.outcome
    if r.case.kind != "turn" or not isinstance(i, dict) or i.get("layout") or o is None:
        return None
    actions, hands, seat = i.get("actions"), i.get("hands"), i.get("seat", 0)
    if not (isinstance(actions, list) and actions and isinstance(actions[0], dict)
            and actions[0].get("action") == "place" and isinstance(hands, list)
            and isinstance(seat, int) and 0 <= seat < len(hands)):
        return None
    try:
        tile = str(parse_tile(actions[0]["tile"]))
        held = [str(parse_tile(t)) for t in hands[seat]]
    except (KeyError, TypeError, ValueError):
        return None
    if tile not in DOUBLES:
        return None
    answer = o.answer if o.status == "ok" else {"error": {"index": 0}}
    return tile, [t for t in held if t in DOUBLES and t != tile], answer


def _refused_first(answer: Any) -> bool:
    err = answer.get("error") if isinstance(answer, dict) else None
    return isinstance(err, dict) and err.get("index") == 0


def read_orders(failing: list[CaseResult], passing: list[CaseResult], known: list[list[str]]) -> list[list[str]]:
    """The orders of the doubles the engine's accepted openings allow, one per known order's way
    of breaking ties (deduplicated); [] when no failure refuses an opening or the precedences
    read contradict each other (the engine plays no order of doubles)."""
    if not any(((o := _opening(r)) is not None and _refused_first(o[2])) or _allowed(r) is not None
               for r in failing):
        return []
    before: dict[str, set[str]] = {d: set() for d in DOUBLES}  # d -> the doubles d comes before
    for r in failing + passing:
        o = _opening(r)
        if o is not None and not _refused_first(o[2]):
            before[o[0]].update(o[1])  # accepted: it comes first of the doubles held
        elif o is not None and len(o[1]) == 1 and r.outcome is not None and r.outcome.status == "ok":
            before[o[1][0]].add(o[0])  # refused beside one other double: that one comes first
        a = _allowed(r)
        if a is not None and len(a[0]) == 1:
            before[a[0][0]].update(t for t in a[1] if t != a[0][0])  # the one double it lets open
    out: list[list[str]] = []
    for tie in known:
        rank = {t: i for i, t in enumerate(t for t in tie if t in DOUBLES)}
        order = _sorted(before, lambda t: rank.get(t, len(rank) + DOUBLES.index(t)))
        if order is None:
            return []
        if order not in out:
            out.append(order)
    return out


def _sorted(before: dict[str, set[str]], key: Any) -> list[str] | None:
    """A topological order of the doubles (the lowest `key` first among those free); None on a cycle."""
    waiting = {d: sum(1 for x in before if d in before[x]) for d in before}
    free = sorted((d for d, n in waiting.items() if n == 0), key=key)
    out = []
    while free:
        d = free.pop(0)
        out.append(d)
        for e in before[d]:
            waiting[e] -= 1
            if waiting[e] == 0:
                free.append(e)
        free.sort(key=key)
    return out if len(out) == len(before) else None


#: the hand's other tiles in a probe: no double, so only the two doubles asked about compete
FILLER = ["[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]"]


def needs_probes(failing: list[CaseResult]) -> bool:
    return any(((o := _opening(r)) is not None and _refused_first(o[2])) or _allowed(r) is not None for r in failing)


def _closure(before: dict[str, set[str]]) -> dict[str, set[str]]:
    out = {d: set(s) for d, s in before.items()}
    for k in out:
        for i in out:
            if k in out[i]:
                out[i] |= out[k]
    return out


def probe_orders(engine: Any, game: str, failing: list[CaseResult], passing: list[CaseResult],
                 expected: Any) -> list[CaseResult]:
    """Separating probes (spec/diagnose.md, "Orders read off the answers"): for every two doubles
    whose order the answers at hand leave open, the engine is asked which of the two may open an
    empty layout from a hand holding both and no other double (a legal-placements request): the
    orders that tie on the cases at hand answer it differently. `expected(input)`: the base's
    answer. The requests and the engine's answers, as results."""
    import hashlib

    from fives.conformance.cases.fixtures import Case
    from fives.conformance.cases.kinds import canonical, kind_named
    from fives.conformance.golden.cases import PREFIX

    before: dict[str, set[str]] = {d: set() for d in DOUBLES}
    for r in failing + passing:
        a = _allowed(r)
        if a is not None and len(a[0]) == 1:
            before[a[0][0]].update(t for t in a[1] if t != a[0][0])
    out = []
    for i, a in enumerate(DOUBLES):
        for b in DOUBLES[i + 1:]:
            known = _closure(before)
            if b in known[a] or a in known[b]:
                continue
            input = {"layout": [], "hand": [a, b, *FILLER], "boneyard": 14}
            digest = hashlib.sha256(canonical({"game": game, "input": input}).encode()).hexdigest()[:12]
            case = Case(f"PROBE-{PREFIX[game]}-legal-placements-{digest}", "legal-placements", game,
                        (f"{PREFIX[game]}-LEAD-2",), {"derived": f"fives conformance diagnose: which of {a} and {b} "
                                                                   "opens (a separating probe)"},
                        input, expected(input), "fuzz")
            got = engine.run(case)
            if got.status != "ok":
                continue
            diffs = kind_named("legal-placements").compare(case.expect, got.answer)
            r = CaseResult(case, "failed" if diffs else "passed", list(diffs), got)
            out.append(r)
            allowed = _allowed(r)
            if allowed is not None and len(allowed[0]) == 1:
                before[allowed[0][0]].update(t for t in (a, b) if t != allowed[0][0])
    return out


def session_probes(engine: Any, game: str, results: list[CaseResult], profile: Any) -> list[CaseResult]:
    """The separating probes of `game` when its failures show an opening rule (needs_probes) and
    the game has an order of opening tiles; [] otherwise. `profile`: the base (None: the seeds')."""
    from fives.conformance.engines.drivers import ReferenceEngine
    from fives.profiles import parameters

    every = [r for r in results if r.case.game == game]
    failing = [r for r in every if r.status in ("failed", "errored")]
    if "opening.order" not in parameters(game) or not needs_probes(failing):
        return []
    base = ReferenceEngine(profile=profile)
    return probe_orders(engine, game, failing, [r for r in every if r.status == "passed"],
                        lambda i: base.answer("legal-placements", game, i))
