"""Whether seeded self-play under each shipped profile reaches each rule value it sets (issue 38).

For every shipped profile P and every parameter X it sets, B is P without X (the seeds' value
of X). P's matches are played with the project's self-play strategy (`fives play`'s default,
`random`), over the player setups P's book plays, one seed after another; a value is *reached*
when some question asked along the way is answered otherwise under P than under B:
- `setup` of each setup played (a deal of another size, another target);
- `next-leader` of the first hand, given its deal (`lead.first_hand`);
- `turn`: every action P's play took, from the state before it (what the action does, the
  scores, the hand's end, its settlement, the next leader, the match's end).
- `legal-placements` of every state: reached where P forbids an option B offers (P's play is
  changed); where P only offers more, it is counted apart ("options added"), reached only when
  play takes it. The strategies only place, so where P offers a draw beside placements
  (`drawing.while_playable: true`) the self-play is steered: it draws when no placement scores
  now (the book's reason: a playable tile kept back for a better score).
A value that play never reaches needs a fixture that does (spec/variants.md): the table says
`no` and the fixture that shows it. Deterministic: the same --matches gives the same table.

    python benchmarks/profiles_exercised.py [--matches N] [PROFILE ...]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from fives.conformance.cases.kinds import load_kinds
from fives.conformance.cases.match_state import action_input
from fives.match import DRAW, PASS, PLACE, Action, Match
from fives.profiles import load_profile, make_profile, rules_under, shipped_profiles
from fives.rules import GameRules
from fives.settlement import configure
from fives.strategies import make_strategies

KINDS = load_kinds()
MAX_HANDS = 40


def _answer(kind: str, rules: GameRules, input: dict[str, Any]) -> str:
    try:
        got = KINDS[kind].run(rules, input, {})
    except ValueError as e:  # refused under these rules: an answer too
        got = {"refused": str(e)}
    if isinstance(got, dict) and isinstance(got.get("error"), dict):
        got = {**got, "error": {k: v for k, v in got["error"].items() if k != "message"}}
    return json.dumps(got, sort_keys=True, default=str)


def _forbids(mine: str, other: str) -> bool:
    """Whether P's legal options (JSON) leave out one that B's offer: P's play is changed here."""
    a, b = json.loads(mine), json.loads(other)
    if "placements" not in a or "placements" not in b:
        return True
    ours = {json.dumps(x, sort_keys=True) for x in a["placements"]}
    return any(json.dumps(x, sort_keys=True) not in ours for x in b["placements"]) or \
        (b["draw"] and not a["draw"]) or (b["pass"] and not a["pass"])


def _state(m: Match) -> dict[str, Any]:
    """The state before the seat to act moves, as the `turn` kind takes it."""
    out: dict[str, Any] = {"players": m.config.players, "scores": list(m.scores),
                           "layout": [p.to_dict() for p in m.layout.history()],
                           "hands": [[str(t) for t in h] for h in m.hands], "boneyard": [str(t) for t in m.boneyard],
                           "seat": m.to_act, "leader": m.leader}
    if m.config.partnerships:
        out["partnerships"] = True
    for key, value in (("continuing", m.continuing), ("passes", m.passes), ("draws", m.draws)):
        if value:
            out[key] = value
    if m.drawn is not None:
        out["drawn"] = str(m.drawn)
    if m.hand_no > 1:
        out["hand_number"] = m.hand_no
    return out


def _keeps_for_later(m: Match, placements: list[Any]) -> bool:
    """Whether a seat that may draw while holding a playable tile (`drawing.while_playable:
    true`) draws: when no placement scores now, as digigamers' example keeps a tile back for a
    better score. The strategies only place, so without this steer play never takes the draw."""
    return not any(m.layout.score_move(p.code) for p in placements)


def _questions(rules: GameRules, players: int, partnerships: bool, seed: int):  # type: ignore[no-untyped-def]
    """(kind, input) of every question one self-play match under `rules` asks."""
    config = configure(rules, players, partnerships)
    base = {"players": players, **({"partnerships": True} if partnerships else {})}
    yield "setup", base
    strategies = make_strategies([], config, seed)
    m = Match(rules, config, seed)
    while m.match_end is None and m.hand_no < MAX_HANDS:
        start = m.start_hand()
        if start.hand == 1:
            yield "next-leader", {**base, "previous": None, "deal": [[str(t) for t in h] for h in start.deal]}
        while m.in_hand:
            opts = m.legal_options()
            state = _state(m)
            if opts.placements and opts.draw and _keeps_for_later(m, opts.placements):
                a = Action(DRAW, None, m.to_act)  # drawing.while_playable: the book's reason to draw
            elif opts.placements:
                p = opts.placements[0] if len(opts.placements) == 1 else strategies[m.to_act].choose(m, m.to_act, opts.placements)
                a = Action(PLACE, p, m.to_act)
            else:
                a = Action(DRAW if opts.draw else PASS, None, m.to_act)
            legal = {k: state[k] for k in ("players", "partnerships", "layout", "continuing", "drawn", "draws",
                                           "hand_number") if k in state}
            yield "legal-placements", {**legal, "hand": state["hands"][m.to_act], "boneyard": len(m.boneyard)}
            yield "turn", {**state, "actions": [action_input(a)]}
            m.apply(a)


def exercised(name: str, matches: int) -> list[dict[str, Any]]:
    """One row per parameter `name` sets: whether play reached it, where first, how often."""
    p = load_profile(name)
    rules = rules_under(p, p.extends)
    setups = [s for s in rules.configurations() if p.plays(*s)]
    bases = {x: rules_under(make_profile(p.extends, {k: v for k, v in p.overrides.items() if k != x}, "b"), p.extends)
             for x in p.overrides}
    rows = {x: {"profile": name, "parameter": x, "questions": 0, "differ": 0, "offered": 0, "first": None}
            for x in p.overrides}
    for seed in range(matches):
        players, partnerships = setups[seed % len(setups)]
        for kind, input in _questions(rules, players, partnerships, seed):
            mine = _answer(kind, rules, input)
            for x, b in bases.items():
                row = rows[x]
                row["questions"] += 1
                if _answer(kind, b, input) == mine:
                    continue
                if kind == "legal-placements" and not _forbids(mine, _answer(kind, b, input)):
                    row["offered"] += 1  # P allows more here: live, but reached only if play takes it
                    continue
                row["differ"] += 1
                row["first"] = row["first"] or f"{kind}, {players} players, seed {seed}"
    return list(rows.values())


def _plain(value: Any) -> Any:
    """A by-players value as the fixture files write it (string keys read back as ints by YAML)."""
    return {int(k): v for k, v in value.items()} if isinstance(value, dict) else value


def fixtures_setting(game: str, parameter: str, value: Any) -> list[str]:
    """The variant cases (conformance/fixtures/variants) whose rules set `parameter` to `value`."""
    import yaml

    from fives.support import paths

    doc = yaml.safe_load((paths.FIXTURES / "variants" / f"{game}.yaml").read_text(encoding="utf-8"))
    return [c["id"] for c in doc["cases"]
            if json.dumps(c.get("rules", {}).get("rules", {}).get(parameter), sort_keys=True, default=str)
            == json.dumps(value, sort_keys=True, default=str)]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=12, help="self-play matches per profile (default 12)")
    ap.add_argument("profiles", nargs="*", help="shipped profiles (default: all)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    print("| profile | parameter | reached | questions differing | options added | first | else the fixture |\n"
          "|---|---|---|---|---|---|---|")
    unreached = 0
    for name in args.profiles or shipped_profiles():
        p = load_profile(name)
        for row in exercised(name, args.matches):
            unreached += not row["differ"]
            shown = "-" if row["differ"] else ", ".join(fixtures_setting(p.extends, row["parameter"],
                                                                           _plain(p.overrides[row["parameter"]]))) or "(none)"
            print(f"| `{row['profile']}` | `{row['parameter']}` | {'yes' if row['differ'] else '**no**'} | "
                  f"{row['differ']} of {row['questions']} | {row['offered']} | {row['first'] or '-'} | {shown} |")
    print(f"\n{args.matches} matches per profile, {time.perf_counter() - t0:.1f} s; values not reached: {unreached}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
