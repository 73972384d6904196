"""The unexplained clusters of `fives conformance diagnose` (spec/diagnose.md, "Clusters").

They are formed from what the chosen causes leave: every failing case no chosen set explains.
A leftover case that one more candidate would explain (a rule the search met but could not
take, because it broke a passing case, or did not reach, because the time ran out) is not
mixed with the rest of its pattern: it forms a cluster of its own, named after that rule, so
no cluster mixes a rule difference with a bug. Each cluster is described in values
(fives/conformance/diagnose/describe.py: `hole: expected 61, got 64`, `got = 5 × expected in
58 of 58`), and a layout cluster names the first placement where the engine and the rules
part, as `fives perft --bisect` does (fives/conformance/bisect.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fives.conformance.cases.kinds import kind_named
from fives.conformance.diagnose.describe import relation, value_label
from fives.conformance.diagnose.search import Candidate, Scorer
from fives.conformance.engines.drivers import Engine
from fives.conformance.reports.failures import (Clause, Explanation, FailureGroup, failure_pattern,
                                                group_failures)
from fives.conformance.runner import CaseResult

if TYPE_CHECKING:
    from fives.profiles import Profile

#: kinds whose input is a layout (`placements`): their clusters are bisected
LAYOUT_KINDS = ("evaluate", "legal-placements", "perft")


def near_rules(scorer: Scorer, chosen: tuple[Candidate, ...], pool: list[Candidate]) -> dict[str, Candidate]:
    """Case id -> the first candidate (in the pool's order) that, added to `chosen`, answers the
    failing case as the engine did: read from the answers the search already has, never played
    anew (the search asked every candidate with the final set while looking for one more)."""
    out: dict[str, Candidate] = {}
    for c in pool:
        if c in chosen or any(x.path is not None and x.path == c.path for x in chosen):
            continue
        for r in scorer.failing:
            if r.case.id not in out and scorer.cached(chosen + (c,), r) is True:
                out[r.case.id] = c
    return out


def form(rest: list[CaseResult], clauses: dict[str, Clause], near: dict[str, Candidate]) -> list[FailureGroup]:
    """The clusters: by difference pattern, a case some other rule would explain apart, as
    `PATTERN, as RULE answers`."""
    def cause_of(ex: Explanation) -> str | None:
        c = near.get(ex.result.case.id)
        return f"{failure_pattern(ex)}, as {c.name} answers" if c is not None else None
    return group_failures(rest, clauses, cause_of=cause_of)


def describe_cluster(g: FailureGroup, near: dict[str, Candidate]) -> dict[str, Any]:
    """{"pattern", "label", "relation", "near"}: what the shrinking keeps (the first difference's
    pattern), the values and the relation across the cluster, and the rule that answers most of
    its cases as the engine does ({"rule", "cases"}), if one does."""
    from collections import Counter

    first = g.explanations[0]
    rules = Counter(near[ex.result.case.id].name for ex in g.explanations if ex.result.case.id in near)
    rule = min(rules.items(), key=lambda kv: (-kv[1], kv[0]), default=None)
    return {"pattern": failure_pattern(first), "label": value_label(g), "relation": relation(g),
            "near": {"rule": rule[0], "cases": rule[1]} if rule else None}


def layout_of(kind: str, input: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The placements a case's layout is built from: an evaluate/legal-placements/perft case's
    `placements`; a turn's `layout` and then the tiles its actions place. None for other kinds."""
    if kind in LAYOUT_KINDS:
        got = input.get("placements")
        return got if isinstance(got, list) else None
    if kind == "turn" and isinstance(input.get("layout"), list):
        placed = [{k: a[k] for k in ("tile", "to", "side") if k in a} for a in input.get("actions") or []
                  if isinstance(a, dict) and a.get("action") == "place"]
        return list(input["layout"]) + placed
    return None


def first_parting(engine: Engine, profile: Profile | None, game: str, kind: str, input: dict[str, Any],
                  perft_bisect: bool = True) -> dict[str, Any] | None:
    """{"placement": N, "tile": "[a|b]>[c|d]:side", "differs": [...], "root": PATTERN, "requests": K}:
    the fewest leading placements of the case's layout whose `evaluate` answers differ (the
    engine's against the rules'), as `perft --bisect` names them; for a perft case, the layout
    `perft --bisect` finds first, with its first differing placement. `root` is the pattern of
    that evaluate difference: clusters of one bug seen through other kinds share it. None when
    the engine cannot answer; placement None when no evaluate answer differs."""
    from fives.conformance.bisect import Asker, EngineFailed, _text, bisect
    from fives.conformance.engines.drivers import ReferenceEngine
    from fives.conformance.reports.explain import explain
    from fives.conformance.reports.failures import difference_pattern

    placements = layout_of(kind, input)
    if placements is None:
        return None
    ask = Asker(engine, game, reference=ReferenceEngine(profile=profile))
    compare = kind_named("evaluate").compare
    try:
        if kind == "perft" and perft_bisect and isinstance(input.get("depth"), int):
            found = bisect(ask, ask.reference.rules_for(game), placements, input["depth"])
            if found is not None and found.differing:
                placements = list(found.layout) + [found.differing[0].placement]
        for n in range(1, len(placements) + 1):
            want = ask.reference.answer("evaluate", game, {"placements": placements[:n]})
            got = ask.evaluate(placements[:n])
            how = compare(want, got) if isinstance(got, dict) else [f"answered {str(got)[:80]}"]
            if how:
                diffs = explain("evaluate", want, got, list(how)) if isinstance(got, dict) else []
                return {"placement": n, "tile": _text(placements[n - 1]), "differs": list(how)[:3],
                        "layout": placements[:n], "answer": got,
                        "root": difference_pattern(diffs[0]) if diffs else None, "requests": ask.requests}
    except (EngineFailed, ValueError, KeyError, TypeError, AssertionError):
        return None
    return {"placement": None, "requests": ask.requests}


def merge_by_root(groups: list[FailureGroup], described: dict[str, dict[str, Any]],
                  _: Any = None) -> tuple[list[FailureGroup], dict[str, str]]:
    """Clusters whose layouts part from the rules with the same evaluate difference (`root`) are
    one bug seen through several kinds (an evaluate's extra branch entry, a turn's sum, a perft's
    points): one cluster, keyed by the largest. (the groups, old key -> the key merged into)."""
    by: dict[str, list[FailureGroup]] = {}
    out: list[FailureGroup] = []
    for g in groups:
        # a cluster set apart as a rule the search did not reach joins too: its layouts part as
        # the bug's do, which says more than a rule that answers some of its cases
        root = (described.get(g.key, {}).get("parting") or {}).get("root")
        if root:
            by.setdefault(root, []).append(g)
        else:
            out.append(g)
    moved: dict[str, str] = {}
    for root, gs in by.items():
        if len(gs) == 1:
            out.append(gs[0])
            continue
        merged = _joined(gs, f"layouts part at {root}")
        out.append(merged)
        for g in gs:
            moved[g.key] = merged.key
    return sorted(out, key=lambda g: (-g.count, g.key)), moved


def parting_text(p: dict[str, Any] | None) -> str:
    if not p or p.get("placement") is None:
        return ""
    return (f"engine and rules part at placement {p['placement']} ({p['tile']}): "
            + "; ".join(str(x) for x in p["differs"])[:200])


def _core(rel: str | None) -> str | None:
    """A relation without its count (`got = 2 × expected in 30 of 30` -> `got = 2 × expected`)."""
    if not rel:
        return None
    head, sep, _ = rel.rpartition(" in ")
    return head if sep else rel


def merge_by_relation(groups: list[FailureGroup]) -> list[FailureGroup]:
    """Clusters whose one relation is the same (`got = 2 × expected` at `scores[]` and at
    `contributions[].value`: one doubled tile, seen first in one key or the other) are one
    bug: one cluster, keyed by the largest's pattern; largest first, then by key."""
    by: dict[str, list[FailureGroup]] = {}
    out: list[FailureGroup] = []
    for g in groups:
        core = _core(relation(g)) if ", as " not in g.key else None
        if core is None:
            out.append(g)
        else:
            by.setdefault(core, []).append(g)
    for core, gs in by.items():
        if len(gs) == 1:
            out.append(gs[0])
            continue
        gs = sorted(gs, key=lambda g: (-g.count, g.key))
        exs = [ex for g in gs for ex in g.explanations]
        cited: dict[str, int] = {}
        for g in gs:
            for c, k in g.clauses:
                cited[c] = cited.get(c, 0) + k
        clauses = sorted(cited.items(), key=lambda kv: (-kv[1], kv[0]))
        key = f"{gs[0].key} (and {', '.join(g.key.split(':')[0] for g in gs[1:])}): {core}"
        out.append(FailureGroup(key, exs, clauses))
    return sorted(out, key=lambda g: (-g.count, g.key))


#: cases of a cluster whose difference from the inferred rules is read (the first ones)
RESIDUAL_SAMPLE = 25


def residual_pattern(scorer: Scorer, chosen: tuple[Candidate, ...], r: CaseResult) -> str | None:
    """The pattern of a failing case's first difference from the *inferred rules* (the base
    with the chosen causes), not from the base: what the bug itself changes, once the rules
    the engine plays by are taken into account. None when that cannot be read (an error the
    engine sent, a set that does not answer, a perft row: its layout is bisected instead)."""
    from fives.conformance.diagnose.search import stated
    from fives.conformance.reports.explain import explain
    from fives.conformance.reports.failures import difference_pattern

    if r.status != "failed" or r.outcome is None or r.outcome.status != "ok" or r.case.kind == "perft":
        return None
    try:
        out = scorer.engine(chosen).run(r.case)
        if out.status != "ok":
            return None
        want = stated(r.case, out.answer)
        how = kind_named(r.case.kind).compare(want, r.outcome.answer)
        if not how:
            return None
        diffs = explain(r.case.kind, want, r.outcome.answer, list(how))
    except Exception:  # noqa: BLE001 - an answer the comparer chokes on has no pattern
        return None
    return difference_pattern(diffs[0]) if diffs else None


def residual_roots(groups: list[FailureGroup], scorers: dict[str, Scorer],
                   chosen: dict[str, tuple[Candidate, ...]]) -> dict[str, str]:
    """Cluster key -> its most common first difference from the inferred rules (of its first
    RESIDUAL_SAMPLE cases), for the clusters of a game with chosen causes; a cluster set apart
    as a rule's (`, as RULE answers`) has none."""
    from collections import Counter

    out: dict[str, str] = {}
    for g in groups:
        game = g.explanations[0].result.case.game
        if ", as " in g.key or not chosen.get(game) or game not in scorers:
            continue
        seen = Counter(p for ex in g.explanations[:RESIDUAL_SAMPLE]
                       if (p := residual_pattern(scorers[game], chosen[game], ex.result)) is not None)
        if seen:
            out[g.key] = min(seen.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    return out


def merge_by_residual(groups: list[FailureGroup], roots: dict[str, str]) -> list[FailureGroup]:
    """Clusters whose cases differ from the inferred rules first in the same way are one bug
    seen through the rules the engine plays by: a `continuation.enabled = false` engine whose
    blocked draw keeps the turn shows `results[].continues: true -> false` against the seeds
    in one case and `results[].turn_end: true -> false` in another, and a later action refused
    (`error: unexpected`) in a third; against the inferred rules each first differs at
    `results[].turn_end`. One cluster, keyed by the largest's pattern; largest first, then by key."""
    by: dict[tuple[str, str], list[FailureGroup]] = {}
    out: list[FailureGroup] = []
    for g in groups:
        root = roots.get(g.key)
        if root is None:
            out.append(g)
        else:
            by.setdefault((g.explanations[0].result.case.game, root), []).append(g)
    for (_, root), gs in by.items():
        if len(gs) == 1:
            out.append(gs[0])
            continue
        out.append(_joined(gs, f"under the inferred rules {root}"))
    return sorted(out, key=lambda g: (-g.count, g.key))


def _joined(gs: list[FailureGroup], why: str) -> FailureGroup:
    """Clusters of one bug as one: the largest's key first, the others named, then why they
    are one; their cases together and their clauses summed."""
    gs = sorted(gs, key=lambda g: (-g.count, g.key))
    cited: dict[str, int] = {}
    for g in gs:
        for c, k in g.clauses:
            cited[c] = cited.get(c, 0) + k
    key = f"{gs[0].key} (and {', '.join(g.key for g in gs[1:])}): {why}"
    return FailureGroup(key, [ex for g in gs for ex in g.explanations],
                        sorted(cited.items(), key=lambda kv: (-kv[1], kv[0])))
