"""Perft through the protocol: ask an engine's counts beside the reference's, and bisect a
difference down to the shortest layout whose immediate placements or points differ (the
session behind `fives perft --engine CMD [--bisect]` is fives/conformance/sessions/perft.py).

The protocol's `perft` request has no divide (spec/protocol.md): a divide is asked as one
`perft` request per first placement, one ply shallower, from the layout with that placement
played. Which placements an engine accepts, and what each scores, is asked with `evaluate`
(the layout plus the placement: legal or an illegality, and `raw`, the points it scored).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from fives.conformance.engines.drivers import Engine, ReferenceEngine
from fives.evaluation import build_layout, parse_placement
from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import canonical, kind_named
from fives.layout import IllegalPlacement, Placement
from fives.rules import GameRules
from fives.tiles import ALL_TILES, Side

Records = list[dict[str, Any]]
Counts = tuple[int, int]  # (nodes, points)


class EngineFailed(Exception):
    """The engine could not answer a request at all (crash, timeout, protocol error)."""


@dataclass
class Asker:
    """One question at a time to the engine under test, and the same to the reference."""

    engine: Engine
    game: str
    requests: int = 0
    reference: ReferenceEngine = field(default_factory=ReferenceEngine)

    def _engine(self, kind: str, input: dict[str, Any]) -> Any:
        self.requests += 1
        out = self.engine.run(Case(f"bisect-{self.requests}", kind, self.game, (), {}, input, {}, "bisect"))
        if out.status == "skipped":
            raise EngineFailed(f"the engine skipped a {kind} request: {out.message}")
        if out.status != "ok":
            raise EngineFailed(f"{kind} request failed: {out.message}")
        return out.answer

    def perft(self, records: Records, depth: int) -> tuple[Counts | None, Counts | None, str]:
        """(engine counts or None if it calls the layout illegal, reference counts, engine's error code)."""
        input = {"placements": records, "depth": depth}
        ref = self.reference.answer("perft", self.game, input)
        got = self._engine("perft", input)
        want = (ref["nodes"], ref["points"]) if "nodes" in ref else None
        if isinstance(got, dict) and "nodes" in got and "points" in got:
            return (got["nodes"], got["points"]), want, ""
        code = got.get("error", {}).get("code", "?") if isinstance(got, dict) and isinstance(got.get("error"), dict) else "?"
        return None, want, str(code)

    def evaluate(self, records: Records) -> Any:
        return self._engine("evaluate", {"placements": records})

    def declares(self, capability: str) -> bool:
        hs = getattr(self.engine, "handshake", None)
        return hs is not None and capability in hs.capabilities and self.game in hs.games

    def legal(self, records: Records, hand: list[str]) -> Any:
        return self._engine("legal-placements", {"layout": records, "hand": hand, "boneyard": 0})


@dataclass
class PlacementDiff:
    placement: dict[str, str]
    engine: str  # "legal, N points" or "illegal (code)"
    reference: str

    def line(self) -> str:
        return f"{_text(self.placement)}: engine {self.engine}; reference {self.reference}"


@dataclass
class Step:
    placement: dict[str, str]
    depth: int  # the depth counted after it
    engine: Counts | None
    reference: Counts


@dataclass
class BisectResult:
    start_depth: int  # the shallowest depth at which the totals from the start differ
    engine_total: Counts | None
    reference_total: Counts
    path: list[Step]
    layout: Records  # the start plus the path: the shortest layout found
    immediate: Counts | None  # engine's depth-1 counts from `layout`
    reference_immediate: Counts
    differing: list[PlacementDiff]
    requests: int = 0
    #: how `differing` was found: "evaluate" (each candidate placement asked on its own) or
    #: "legal-placements" (the engine's own list, asked when no single evaluate differed)
    differing_by: str = "evaluate"
    #: the shortest prefix of `layout` whose whole `evaluate` answer already differs (a rule
    #: that changes no count, such as which doubles are spinners, shows here first), and how
    evaluate_prefix: int | None = None
    evaluate_diff: list[str] = field(default_factory=list)


def _text(p: dict[str, str]) -> str:
    return p["tile"] if "to" not in p else f"{p['tile']}>{p['to']}:{p['side']}"


def _flow_placement(record: dict[str, str]) -> str:
    """`{tile: "[1|4]", to: ..., side: low}`: a YAML flow mapping, as the docs write layouts."""
    return "{" + ", ".join(f"{k}: {json.dumps(v) if k != 'side' else v}" for k, v in record.items()) + "}"


def counts_text(c: Counts | None) -> str:
    """`nodes N points P`, or what an engine that refused the layout gave."""
    return "an illegal layout" if c is None else f"nodes {c[0]} points {c[1]}"


def reference_moves(rules: GameRules, records: Records) -> list[tuple[Placement, int]]:
    """The reference's legal first placements from `records`, in canonical order, with the raw
    points each scores."""
    layout, _ = build_layout(rules, records)
    out = []
    for p in layout.legal_placements([t for t in ALL_TILES if t not in layout]):
        out.append((p, layout.push(p)))
        layout.pop()
    return sorted(out, key=lambda m: (m[0].tile.index, -1 if m[0].to is None else m[0].to.index,
                                      -1 if m[0].side is None else m[0].side.index))


def immediate_differences(ask: Asker, rules: GameRules, records: Records) -> list[PlacementDiff]:
    """Every placement from `records` that one engine accepts and the other refuses, or that
    both accept but score differently. Candidates: every free tile on every side of every
    placed tile (or, on an empty layout, every opening)."""
    layout, _ = build_layout(rules, records)
    placed = list(layout.tiles)
    free = [t for t in ALL_TILES if t not in layout]
    candidates = [Placement(t) for t in free] if not placed else [
        Placement(t, to, side) for t in free for to in placed for side in Side]
    out = []
    for p in candidates:
        record = p.to_dict()
        try:
            raw = layout.push(p)
            layout.pop()
            ref = f"legal, {raw} points"
        except IllegalPlacement as e:
            ref = f"illegal ({e.code.value})"
        got = ask.evaluate(records + [record])
        if isinstance(got, dict) and isinstance(got.get("error"), dict):
            eng = f"illegal ({got['error'].get('code', '?')})"
        elif isinstance(got, dict) and isinstance(got.get("raw"), int):
            eng = f"legal, {got['raw']} points"
        else:
            eng = f"answered {canonical(got)[:80]}"
        if ref.startswith("illegal") and eng.startswith("illegal"):
            continue  # both refuse: the reason codes may differ, the placements do not
        if ref != eng:
            out.append(PlacementDiff(record, eng, ref))
    return out


def bisect(ask: Asker, rules: GameRules, start: Records, max_depth: int,
           note: Callable[[str], None] | None = None) -> BisectResult | None:
    """None if the engine's counts from `start` agree at every depth 1..max_depth."""
    say = note or (lambda s: None)
    depth = 0
    for d in range(1, max_depth + 1):
        got, want, _ = ask.perft(start, d)
        say(f"depth {d}: engine {counts_text(got)}, reference {counts_text(want)}")
        assert want is not None
        if got != want:
            first, depth, total, ref_total = d, d, got, want
            break
    else:
        return None
    layout, path = list(start), []
    while depth > 1:
        child = None
        for p, _ in reference_moves(rules, layout):
            rec = p.to_dict()
            got, want, code = ask.perft(layout + [rec], depth - 1)
            assert want is not None
            if got is None:
                say(f"{_text(rec)}: the engine calls it illegal ({code})")
                break  # the engine refuses a legal placement: the immediate placements differ here
            if got != want:
                child = (rec, got, want)
                break
        if child is None:
            break  # no child differs (or the engine refused one): the difference is at this layout
        rec, got, want = child
        # the shallowest depth at which this child differs keeps the final layout shortest
        for d in range(1, depth - 1):
            g, w, _ = ask.perft(layout + [rec], d)
            if g != w:
                got, want = g, w
                break
        else:
            d = depth - 1
        say(f"{_text(rec)}: depth {d}: engine {counts_text(got)}, reference {counts_text(want)}")
        path.append(Step(rec, d, got, want))
        layout.append(rec)
        depth = d
    got, want, _ = ask.perft(layout, 1)
    assert want is not None
    diffs = immediate_differences(ask, rules, layout)
    by = "evaluate"
    if not diffs and got != want and ask.declares("legal-placements"):
        # every placement evaluates alike, yet the counts differ: the engine's move list
        # itself differs (an engine whose house rule refuses some legal openings evaluates
        # them fine); its legal-placements names the placements
        diffs, by = legal_differences(ask, rules, layout), "legal-placements"
    prefix, how = first_evaluate_difference(ask, layout)
    return BisectResult(first, total, ref_total, path, layout, got, want, diffs, ask.requests, by, prefix, how)


def _key(rec: Any) -> tuple[str, str, str] | None:
    """A placement record as (tile, to, side), tiles in canonical spelling; None if malformed."""
    if not isinstance(rec, dict):
        return None
    try:
        p = parse_placement({k: v for k, v in rec.items() if k in ("tile", "to", "side")}, 0)
    except IllegalPlacement:
        return None
    d = p.to_dict()
    return d["tile"], d.get("to", ""), d.get("side", "")


def legal_differences(ask: Asker, rules: GameRules, records: Records) -> list[PlacementDiff]:
    """The placements from `records` one side lists as legal and the other does not, asking
    the engine's `legal-placements` once with every free tile in hand (and an empty boneyard).
    In the reference's canonical order, then the engine's extra placements in tile order."""
    layout, _ = build_layout(rules, records)
    hand = [str(t) for t in ALL_TILES if t not in layout]
    got = ask.legal(records, hand)
    if not isinstance(got, dict) or not isinstance(got.get("placements"), list):
        return [PlacementDiff({"tile": "(legal-placements)"}, f"answered {canonical(got)[:80]}", "a list of placements")]
    engine = {k for k in map(_key, got["placements"]) if k is not None}
    ref = {(p.to_dict()["tile"], p.to_dict().get("to", ""), p.to_dict().get("side", "")): (p, raw)
           for p, raw in reference_moves(rules, records)}
    out = [PlacementDiff(p.to_dict(), "refuses it (not among its legal placements)", f"legal, {raw} points")
           for k, (p, raw) in ref.items() if k not in engine]
    for k in sorted(engine - set(ref)):
        rec = {"tile": k[0], **({"to": k[1], "side": k[2]} if k[1] else {})}
        try:
            layout.check(parse_placement(rec, 0))
            why = "legal"
        except IllegalPlacement as e:
            why = f"illegal ({e.code.value})"
        out.append(PlacementDiff(rec, "allows it (among its legal placements)", why))
    return out


def first_evaluate_difference(ask: Asker, layout: Records) -> tuple[int | None, list[str]]:
    """The fewest leading placements of `layout` whose `evaluate` answers differ, with the
    differing keys (the evaluate kind's own comparison); (None, []) if none do."""
    compare = kind_named("evaluate").compare
    for n in range(1, len(layout) + 1):
        want = ask.reference.answer("evaluate", ask.game, {"placements": layout[:n]})
        got = ask.evaluate(layout[:n])
        how = compare(want, got) if isinstance(got, dict) else [f"answered {canonical(got)[:80]}"]
        if how:
            return n, how
    return None, []


def report(result: BisectResult, game: str, command: str) -> str:
    """A placements file (YAML): the layout as a list, everything else as comments."""
    lines = [f"# fives perft --bisect: {game}, engine {command!r}",
             f"# totals first differ at depth {result.start_depth}: engine {counts_text(result.engine_total)}, "
             f"reference {counts_text(result.reference_total)}"]
    for s in result.path:
        lines.append(f"#   then {_text(s.placement)}: depth {s.depth}: engine {counts_text(s.engine)}, "
                     f"reference {counts_text(s.reference)}")
    lines.append(f"# the shortest layout found ({len(result.layout)} placements): its immediate placements "
                 f"(depth 1: engine {counts_text(result.immediate)}, reference {counts_text(result.reference_immediate)}) "
                 "differ in:")
    if result.differing_by == "legal-placements":
        lines.append("#   (no placement evaluates differently; the engine's legal-placements for this layout, every "
                     "free tile in hand, differ from the reference's:)")
    lines += [f"#   {d.line()}" for d in result.differing] or ["#   (no single placement differs: only the counts)"]
    if result.evaluate_prefix is not None and result.evaluate_prefix < len(result.layout):
        lines.append(f"# but the evaluate answers already differ after the first {result.evaluate_prefix} "
                     f"placement(s): {'; '.join(result.evaluate_diff)[:300]}")
    lines.append(f"# {result.requests} engine requests")
    lines += [f"- {_flow_placement(r)}" for r in result.layout] or ["[]"]
    return "\n".join(lines) + "\n"
