"""Derive the variant fixtures (conformance/fixtures/variants/) from the reference engine.

For every non-default value of every rule dimension (fives.profile_space.DIMENSIONS) this plays
seeded matches under a profile P that sets that value (plus, for a few, a companion value
without which the difference never shows in play), and keeps the first states where P's
answer differs from the answer under the same profile without the value (B):
`setup` and `next-leader` questions, `legal-placements` and `turn` cases from states reached
by play, `settle` cases from hands that ended in play. Every case is therefore a state reached
by play from a deal under P, and its expectation is the reference's answer under P.

    python conformance/tools/make_variant_fixtures.py [--check]

The same is done for EXTRAS, game parameters that no dimension offers (written to
conformance/fixtures/parameters/): each value's cases fail an engine that ignores it.

`--check` exits 1 if the files on disk differ from what would be written (tests use it).
Deterministic: the same code writes the same bytes.
"""
from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any, Iterator

import yaml

from fives.conformance.cases.kinds import load_kinds
from fives.conformance.cases.match_state import action_input, legal_input, seeded_choice, turn_input
from fives.match import DRAW, PASS, PLACE, Action, Match
from fives.profile_space import OPENING_ORDERS, ORDER_COMPANIONS, alternatives, alternative_overrides, dimensions
from fives.profiles import Profile, make_profile, rules_under
from fives.rules import GameRules
from fives.settlement import configure

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "variants"
#: the cases of EXTRAS: parameters no rule dimension offers (tests/test_variants.py reads OUT
#: as the dimensions' cases; tests/test_parameter_fixtures.py reads this folder)
OUT_EXTRAS = Path(__file__).resolve().parents[1] / "fixtures" / "parameters"
PREFIX = {"horse-race": "HR", "american-sniff": "SN"}
def canonical(x: Any) -> str:
    return json.dumps(x, sort_keys=True, default=str)


#: values whose effect play never shows alone: the companion overrides both P and B carry
COMPANIONS: dict[tuple[str, Any], dict[str, Any]] = {
    ("match_end.simultaneous_winners", canonical("highest")): {"match_end.on_placement": "hand-end"},
    ("match_end.tie_break", canonical("lowest-seat")): {"match_end.on_placement": "hand-end"},
    # an award's details show only under an award (Sniff deducts): a no-op for Horse Race
    **{(path, canonical(v)): {"settlement.kind": "award-to-winner"} for path, v in (
        ("settlement.award_rounding", "per-opponent"), ("settlement.blocked_winner", "nobody"),
        ("settlement.subtract_winner_own", True), ("settlement.ties", "split"), ("settlement.ties", "nobody"),
        ("settlement.blocked_award", "others-minus-own"))},
    # a scope shows only where an opening is required: both P and B require the highest double,
    # so the cases show the scope itself (a later hand's leader opens with any tile)
    ("opening.scope", canonical("first-hand")): {"opening.requires": "highest-double"},
    # an order is read only by the rules that name it: both P and B play them, so the cases
    # show the order itself (under the default order they play as the highest double)
    **{("opening.order", canonical(v)): dict(zip(ORDER_COMPANIONS, ("fixed-order", "opening-order")))
       for v in OPENING_ORDERS},
}


def _winner_not_seat_0(kind: str, input: dict[str, Any], expect: Any) -> bool:
    """A partnership hand gone out by seat 2 or 3 whose partner holds pips: an engine that
    takes the winner's own seat to be seat 0, or its team's first seat, shows here."""
    s = expect if kind == "settle" else (expect.get("settlement") or {}) if kind == "turn" else {}
    end = s.get("end") or {}
    if not input.get("partnerships") or end.get("reason") != "gone-out" or end.get("seat") not in (2, 3):
        return False
    return bool(s["seats"][(end["seat"] + 2) % 4]["pips"])


#: Parameters of spec/games/*.yaml that no rule dimension offers (so `fives rules` and
#: diagnose never name them) but that the engine reads: each value below still gets variant
#: cases, kept only where the answer differs from the seeds' (issue 26: a value ignored must
#: fail a case). (path, value, clauses, what it does, which found cases to keep).
EXTRAS: dict[str, list[tuple[str, Any, tuple[str, ...], str, Any]]] = {
    "horse-race": [
        ("settlement.exclude_winner_partner", False, ("HR-SETTLE-5",),
         "the winner's partner's remaining pips count in the team's award", _winner_not_seat_0),
        ("continuation.max_per_placement", 2, ("HR-CONT-2",),
         "a scoring double from hand earns two continuations, not one", None),
        ("continuation.from_hand_double", False, ("HR-CONT-1",),
         "a double from hand that scores nothing earns no continuation", None),
        ("continuation.from_hand_scoring", False, ("HR-CONT-1",),
         "a scoring non-double from hand earns no continuation", None),
    ],
    "american-sniff": [
        ("settlement.merge_partners", True, ("SN-SETTLE-3",),
         "partners' remaining pips are added before rounding, not rounded seat by seat", None),
        ("settlement.floor", 0, ("SN-SETTLE-4",),
         "a deduction never takes a score below 0", None),
    ],
}
MAX_CASES = 3  # per value: at most one per kind
SEEDS = 120
MAX_HANDS = 40
KINDS = load_kinds()


def answer(kind: str, rules: GameRules, input: dict[str, Any]) -> Any:
    try:
        return KINDS[kind].run(rules, input, {})
    except ValueError as e:  # the reference refuses the input under these rules
        return {"refused": str(e)}


def candidates(rules: GameRules, base: GameRules, seed: int, players: int, partnerships: bool
               ) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(kind, input, where) of questions from one match played under `rules`."""
    config = configure(rules, players, partnerships)
    rng = random.Random(seed)
    m = Match(rules, config, seed)
    where = f"{players} players{' in partnerships' if partnerships else ''}, seed {seed}"
    while m.match_end is None and m.hand_no < MAX_HANDS:
        m.start_hand()
        steps: list[tuple[dict[str, Any], dict[str, Any]]] = []
        while m.in_hand:
            opts = m.legal_options()
            # without `draws`: these fixtures were written before it, and keep their bytes
            snap = turn_input(m, draws=False)
            legal = legal_input(snap)
            here = f"{where}, hand {m.hand_no}, action {len(steps)}"
            yield "legal-placements", legal, here
            # an action the rules without the value allow here, which these rules may not
            other = KINDS["legal-placements"].run(base, legal, {})
            mine = KINDS["legal-placements"].run(rules, legal, {})
            extra = [p for p in other.get("placements", []) if p not in mine.get("placements", [])]
            if extra:
                yield "turn", {**snap, "actions": [{"action": PLACE, **extra[0]}]}, here
            elif other.get("draw") and not mine.get("draw"):
                yield "turn", {**snap, "actions": [{"action": DRAW}]}, here
            elif mine.get("draw") and not other.get("draw") and mine.get("placements"):
                # a draw these rules allow beside a placement, which no strategy takes (issue 38:
                # self-play never reaches `drawing.while_playable: true`); a copy, so the YAML
                # shares nothing with the state's other cases (their anchors keep their bytes)
                yield "turn", copy.deepcopy({**snap, "actions": [{"action": DRAW}]}), here
            if opts.placements:
                a = Action(PLACE, opts.placements[0] if len(opts.placements) == 1 else seeded_choice(rng, m, opts.placements))
            else:
                a = Action(DRAW if opts.draw else PASS)
            leader = m.leader
            out = m.apply(a)
            steps.append((snap, action_input(a)))
            if out.settlement is not None:
                s = out.settlement
                yield "settle", {"players": players, **({"partnerships": True} if partnerships else {}),
                                 "scores": list(s.scores_before), "end": {k: v for k, v in s.end.to_dict().items()
                                                                           if v is not None},
                                 "remaining": [[str(t) for t in h] for h in (out.remaining or [])]}, here
            if out.hand_end is not None:
                prev: dict[str, Any] = {"ended": out.hand_end.reason, "leader": leader}
                if out.hand_end.seat is not None:
                    prev["last_tile_seat"] = out.hand_end.seat
                yield "next-leader", {"players": players, "previous": prev}, here
        hand_no = m.hand_no
        for i, (snap, _) in enumerate(steps):
            for k in range(1, min(8, len(steps) - i) + 1):
                acts = [act for _, act in steps[i:i + k]]
                yield "turn", {**snap, "actions": acts}, f"{where}, hand {hand_no}, actions {i}..{i + k - 1}"


def cases_for(game: str, path: str, value: Any, keep: Any = None) -> list[dict[str, Any]]:
    """Up to MAX_CASES cases (one per kind) whose answer under `path: value` differs from the
    answer without it; `keep(kind, input, expect)`, if given, must accept a case too."""
    companion = COMPANIONS.get((path, canonical(value)), {})
    offered = any(d.path == path for d in dimensions(game))
    own = alternative_overrides(game, path, value) if offered else {path: value}
    p = make_profile(game, {**companion, **own})
    b = make_profile(game, companion) if companion else None
    rules, base = rules_under(p, game), rules_under(b, game)
    found: dict[str, dict[str, Any]] = {}

    def differs(kind: str, input: dict[str, Any]) -> Any:
        got = answer(kind, rules, input)
        if "refused" in got or (isinstance(got, dict) and "error" in got and got["error"].get("code") == "malformed-input"):
            return None
        return got if canonical(got) != canonical(answer(kind, base, input)) else None

    configs = rules.configurations()
    for players, partnerships in configs:
        for kind, input in (("setup", {"players": players, **({"partnerships": True} if partnerships else {})}),
                            ("next-leader", {"players": players, "previous": None})):
            if kind not in found and (got := differs(kind, input)) is not None:
                found[kind] = {"kind": kind, "input": input, "expect": got,
                               "where": "the rules alone (no play needed)"}
    for seed in range(SEEDS):
        players, partnerships = configs[seed % len(configs)]
        for kind, input, where in candidates(rules, base, seed, players, partnerships):
            if kind in found:
                continue
            got = differs(kind, input)
            if got is not None and (keep is None or keep(kind, input, got)):
                found[kind] = {"kind": kind, "input": input, "expect": got, "where": where}
                if len(found) >= MAX_CASES:
                    break
        if len(found) >= MAX_CASES or (found and seed >= 20):
            break
    order = ["setup", "next-leader", "legal-placements", "turn", "settle"]
    out = [found[k] for k in order if k in found][:MAX_CASES]
    for c in out:
        c["profile"] = p
    return out


def slug(value: Any) -> str:
    if isinstance(value, dict):
        return "-".join(f"{k}-{v}" for k, v in value.items())
    if isinstance(value, list):  # an order of tiles: [5|5] [6|6] ... -> 55-66-...
        return "-".join(str(v).strip("[]").replace("|", "") for v in value)
    return str(value).lower()


def strip_messages(x: Any) -> Any:
    """Free-text messages are never compared: leave them out of the expectation."""
    if isinstance(x, dict):
        return {k: strip_messages(v) for k, v in x.items() if not (k == "message" and isinstance(v, str))}
    if isinstance(x, list):
        return [strip_messages(v) for v in x]
    return x


def document(game: str, extras: bool = False) -> dict[str, Any]:
    """The variant fixtures of `game`: one or more cases per non-default value of every rule
    dimension, or (`extras`) per value of EXTRAS."""
    values = EXTRAS.get(game, []) if extras else [
        (d.path, value, d.clauses, d.what, None) for d in dimensions(game) for value in alternatives(game).get(d.path, [])]
    cases = []
    for path, value, all_clauses, what, keep in values:
        found = cases_for(game, path, value, keep)
        if not found:
            print(f"warning: {game} {path}={value!r}: no case found", file=sys.stderr)
        for n, c in enumerate(found, 1):
            p: Profile = c["profile"]
            cid = f"{PREFIX[game]}-VAR-{path.replace('.', '-').replace('_', '-')}-{slug(value)}-{n}"
            clauses = [cl for cl in all_clauses if cl.startswith(PREFIX[game])]
            cases.append({
                "id": cid, "kind": c["kind"], "game": game, "clauses": clauses,
                "source": {"derived": f"reference under {p.name} ({', '.join(f'{k}: {v}' for k, v in p.overrides.items())}); "
                                      f"{c['where']} (conformance/tools/make_variant_fixtures.py)"},
                "description": f"{path} = {value}: {what}.",
                "rules": {"rules": {k: v for k, v in p.overrides.items()}},
                "input": c["input"], "expect": strip_messages(c["expect"])})
    if extras:
        return {"format": "fives-fixtures/1",
                "title": f"Rule parameters of {game} that no variant dimension offers: cases that fail when the value is ignored",
                "description": "Generated by conformance/tools/make_variant_fixtures.py (EXTRAS); each case plays under its own "
                               "rules (spec/fixtures.md, Variant cases), and the same rules without the value answer "
                               "otherwise.",
                "cases": cases}
    return {"format": "fives-fixtures/1",
            "title": f"Rule variants of {game}: one or more cases per non-default parameter value",
            "description": "Generated by conformance/tools/make_variant_fixtures.py; each case plays under its own "
                           "rules (spec/fixtures.md, Variant cases; spec/variants.md).",
            "cases": cases}


def render(doc: dict[str, Any]) -> str:
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=120, allow_unicode=True)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    OUT.mkdir(parents=True, exist_ok=True)
    OUT_EXTRAS.mkdir(parents=True, exist_ok=True)
    for game, extras in [(g, x) for x in (False, True) for g in PREFIX]:
        text = render(document(game, extras))
        path = (OUT_EXTRAS if extras else OUT) / f"{game}.yaml"
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                print(f"{path}: not current (run {Path(__file__).name})", file=sys.stderr)
                bad = 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
