"""Numeric rule values read off the engine's answers (spec/diagnose.md, "Values inferred").

A numeric parameter (a target, a hand size, a reserve, a rounding multiple and the remainder
from which it rounds up, a display divisor) may take any value a rule book or an engine
chooses, so the search does not try a fixed list: the engine's failing answers say which
values to try. A `setup` answer states its hand size and target; a `match-end` or `settle`
answer that ends the match where the rules play on names a score at which the engine's target
lies; a `turn` whose draw the engine refuses leaves the boneyard's never-drawn reserve; a
`setup` answer whose boneyard is short of what its deal leaves sets those tiles aside; a
Sniff settlement's rounded pips show the multiple and the remainder that rounds up. Each
value read is a candidate like any other: the search checks it against every case.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any, Iterable

from fives.conformance.diagnose.search import Candidate
from fives.conformance.runner import CaseResult

#: at most this many values of one parameter are offered (the most often read first)
PER_PARAMETER = 4


def _answer(r: CaseResult) -> Any:
    o = r.outcome
    return o.answer if o is not None and o.status == "ok" else None


def _num(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _by_players(read: Iterable[tuple[int, int]], now: dict[int, int]) -> list[dict[int, int]]:
    """From (players, value) readings: the values read for every count at once (the rest kept),
    and each value most read for one count given to every count (one value for all, as a book
    that gives one target says it)."""
    read = list(read)
    if not read:
        return []
    by: dict[int, Counter[int]] = {}
    for n, v in read:
        by.setdefault(n, Counter())[v] += 1
    out = [{**now, **{n: c.most_common(1)[0][0] for n, c in by.items() if n in now}}]
    for v, _ in Counter(v for _, v in read).most_common(PER_PARAMETER):
        out.append({n: v for n in now})
    return out


def readings(game: str, failing: list[CaseResult], rules: dict[str, Any]) -> dict[str, list[Any]]:
    """parameter -> values to try, read off the failing cases' answers (the engine's), in the
    order read; `rules`: the base's value of every parameter."""
    divisor = int(rules.get("points.display_divisor", 1) or 1)
    displayed = rules.get("points.unit") == "displayed"
    hands: list[tuple[int, int]] = []
    targets: list[tuple[int, int]] = []  # stated by a setup answer
    bounds: list[tuple[int, int]] = []  # a match ended there: the target is at most that
    reserves: list[tuple[int, int]] = []
    dead: list[tuple[int, int]] = []  # a setup answer's boneyard short of what the deal leaves
    rounded: list[tuple[int, int]] = []
    divisors: Counter[int] = Counter()
    base_targets = {int(k): v for k, v in (rules.get("target.raw") or {}).items()}
    for r in failing:
        got, case = _answer(r), r.case
        if not isinstance(got, dict):
            continue
        n = case.input.get("players") if isinstance(case.input, dict) else None
        if case.kind == "setup" and _num(n):
            if _num(got.get("hand_size")):
                hands.append((n, got["hand_size"]))
                aside = 28 - n * got["hand_size"] - got["boneyard"] if _num(got.get("boneyard")) else 0
                if 0 < aside < 28:
                    dead.append((n, aside))  # set aside at the deal
            if _num(got.get("target_raw")):
                targets.append((n, got["target_raw"]))
            if _num(got.get("target_raw")) and _num(got.get("target_display")) and got["target_display"] > 0 \
                    and got["target_raw"] % got["target_display"] == 0:
                divisors[got["target_raw"] // got["target_display"]] += 1
        elif case.kind in ("match-end", "settle") and _num(n):
            ended = got.get("winners")
            want = case.expect.get("winners") if isinstance(case.expect, dict) else None
            scores = got.get("scores")
            if isinstance(ended, list) and ended and not want and isinstance(scores, list):
                won = [scores[i] for i in ended if isinstance(i, int) and 0 <= i < len(scores) and _num(scores[i])]
                # the engine's target is at most the lowest winning score; a bound at or above the
                # base's target says nothing of it (the match ended there by another rule: a settlement's)
                if won and min(won) * (divisor if displayed else 1) < base_targets.get(n, 0):
                    bounds.append((n, min(won) * (divisor if displayed else 1)))
            if case.kind == "settle" and isinstance(got.get("seats"), list):
                for s in got["seats"]:
                    if isinstance(s, dict) and _num(s.get("pips")) and _num(s.get("rounded")):
                        rounded.append((s["pips"], s["rounded"]))
        elif case.kind == "turn" and _num(n) and isinstance(got.get("error"), dict):
            i = got["error"].get("index")
            actions = case.input.get("actions") or []
            bone = case.input.get("boneyard")
            if _num(i) and 0 <= i < len(actions) and isinstance(actions[i], dict) \
                    and actions[i].get("action") == "draw" and isinstance(bone, list):
                drawn = sum(1 for a in actions[:i] if isinstance(a, dict) and a.get("action") == "draw")
                reserves.append((n, len(bone) - drawn))  # the engine keeps these undrawn
    out: dict[str, list[Any]] = {}
    # a target a setup answer states is the target for its player count; a match's end only
    # bounds it (a match ended at 245 is one of target 150 as well): read where none is stated
    stated = {n for n, _ in targets}
    targets += [(n, v) for n, v in bounds if n not in stated]
    for path, read in (("deal.hand_size", hands), ("target.raw", targets), ("deal.reserve", reserves),
                       ("deal.dead", dead)):
        now = rules.get(path)
        if isinstance(now, dict):
            out[path] = _by_players(read, {int(k): v for k, v in now.items()})
    if divisors:
        out["points.display_divisor"] = [v for v, _ in divisors.most_common(PER_PARAMETER)]
    multiple = math.gcd(*(x for _, x in rounded)) if rounded else 0
    if multiple > 1:
        out["settlement.rounding.multiple"] = [multiple]
        ups = [p % multiple for p, x in rounded if p % multiple and x > p]
        downs = [p % multiple for p, x in rounded if p % multiple and x < p]
        if ups and (not downs or max(downs) < min(ups)):  # the remainder from which the engine rounds up
            out["settlement.rounding.round_up_from_remainder"] = [min(ups)]
        elif downs and not ups:
            out["settlement.rounding.round_up_from_remainder"] = [multiple]
    return out


def inferred_candidates(game: str, failing: list[CaseResult], base: dict[str, Any],
                        offered: list[Candidate], passing: list[CaseResult] | None = None) -> list[Candidate]:
    """The values read (`readings`) as candidates, but those the pool already offers or that
    no profile can hold (a hand size the deal cannot give: make_profile refuses it)."""
    from fives.conformance.golden.cases import PREFIX
    from fives.conformance.reports.causes import show
    from fives.profile_space import alternative_overrides, dimensions
    from fives.profiles import make_profile, parameters
    from fives.support.errors import UserError

    known = parameters(game)
    rules = {**known, **base}
    have = {c.name for c in offered}
    clauses = {d.path: tuple(c for c in d.clauses if c.startswith(PREFIX[game] + "-")) for d in dimensions(game)}
    out: list[Candidate] = []
    read = readings(game, failing, rules)
    if "opening.order" in known:  # orders no book lists, from the openings the engine accepted
        from fives.conformance.diagnose.orders import read_orders
        from fives.profile_space import OPENING_ORDERS

        read["opening.order"] = read_orders(failing, passing or [], [rules["opening.order"], *OPENING_ORDERS])
    for path, values in read.items():
        if path not in known:
            continue
        for v in values[:PER_PARAMETER + 1]:
            if v == rules[path]:
                continue
            name = f"{path} = {show(v)}"
            if name in have:
                continue
            overrides = dict(alternative_overrides(game, path, v))
            try:
                make_profile(game, {**base, **overrides})
            except UserError:
                continue
            have.add(name)
            out.append(Candidate(name, game, clauses.get(path, ()), overrides, path=path, inferred=True))
    return out
