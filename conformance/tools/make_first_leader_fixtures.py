"""Derive the `next-leader` cases that give the first hand's deal
(conformance/fixtures/mutation/play/first-leader-deal.yaml) from seeded deals.

Each case is the deal `fives.match.Match.start_hand` makes from a seed under the case's rules,
and its answer is the leader that deal got there (its `_hook_first_leader`, or "lot" when a lot
was drawn): a state play reaches, answered by the match engine rather than by the kind's own
call of `first_leader`. Under the seeds a deal changes nothing (a lot decides); under a profile
whose first leader depends on the hands, the seat holding the highest double, or the earliest
tile of `opening.order`, leads, and a lot decides when nobody holds one.

    python conformance/tools/make_first_leader_fixtures.py [--check]

`--check` exits 1 if the file on disk differs from what would be written (tests use it).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from fives.match import HandStart, Match
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules
from fives.settlement import configure
from fives.tiles import Tile

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "mutation" / "play" / "first-leader-deal.yaml"
SEEDS = {"american-sniff": {"seed": "000_751b9fb83a3774b3.txt", "heading": "الإعداد والبدء",
                            "quote": "حدّد بادئ الجولة الأولى بقرعة محايدة، وكرّرها بين المتعادلين"},
         "horse-race": {"seed": "001_4a8ab5b829773601.txt", "heading": "بدء الجولة",
                        "quote": "اختر بادئ الجولة الأولى بقرعة محايدة"}}
PREFIX = {"horse-race": "HR", "american-sniff": "SN"}
CLAUSE = {"horse-race": "HR-LEAD-1", "american-sniff": "SN-LEAD-1"}
MOST_SEEDS = 20_000  # every wanted deal turns up well before this (a double-free deal of 14: ~1 in 350)
HIGHEST_DOUBLE = ("highest-double", "hoyle, indoor-outdoor, gambit (spec/variants.md, lead.first_hand): whoever holds "
                  "the highest double leads the first hand", {"lead.first_hand": "highest-double"})
SEAT_0 = ("seat-0", "engines only (spec/variants.md, lead.first_hand): seat 0 leads the first hand",
          {"lead.first_hand": "seat-0"})
ORDER = ("fixed-order-55-66-44", "engine B of issue 27 (spec/variants.md, opening.order): the holder of the earliest "
         "tile of the order leads the first hand",
         {"opening.requires": "fixed-order", "lead.first_hand": "opening-order",
          "opening.order": ["[5|5]", "[6|6]", "[4|4]"]})


def _holder(deal: list[list[Tile]], text: str) -> int | None:
    return next((s for s, h in enumerate(deal) if any(str(t) == text for t in h)), None)


def _doubles(deal: list[list[Tile]]) -> list[tuple[int, int]]:
    """(pips of the double, seat) for every double dealt."""
    return sorted(((t.low, s) for s, h in enumerate(deal) for t in h if t.is_double), reverse=True)


#: (game, players, partnerships, profile or None, what the deal shows, the condition on the deal)
WANTED: list[tuple[str, int, bool, Any, str, Callable[[list[list[Tile]]], bool]]] = []
for _g in ("american-sniff", "horse-race"):
    WANTED += [
        (_g, 3, False, None, "seat 2 holds [6|6], yet a lot decides",
         lambda d: _holder(d, "[6|6]") == 2),
        (_g, 3, False, HIGHEST_DOUBLE, "seat 2 holds [6|6] and leads", lambda d: _holder(d, "[6|6]") == 2),
        (_g, 2, False, HIGHEST_DOUBLE, "nobody holds [6|6]: seat 1 holds the highest double dealt and leads",
         lambda d: _holder(d, "[6|6]") is None and bool(_doubles(d)) and _doubles(d)[0][1] == 1),
        (_g, 2, False, HIGHEST_DOUBLE, "nobody holds a double: a lot decides", lambda d: not _doubles(d)),
        (_g, 4, True, HIGHEST_DOUBLE, "seat 3 holds the highest double dealt and leads",
         lambda d: bool(_doubles(d)) and _doubles(d)[0][1] == 3),
        (_g, 3, False, SEAT_0, "seat 1 holds [6|6], yet seat 0 leads", lambda d: _holder(d, "[6|6]") == 1),
        (_g, 3, False, ORDER, "seat 0 holds [6|6] and seat 1 [5|5]: [5|5] comes first, seat 1 leads",
         lambda d: _holder(d, "[6|6]") == 0 and _holder(d, "[5|5]") == 1),
        (_g, 2, False, ORDER, "nobody holds [5|5]; seat 1 holds [6|6] and leads",
         lambda d: _holder(d, "[5|5]") is None and _holder(d, "[6|6]") == 1),
        (_g, 2, False, ORDER, "nobody holds [5|5], [6|6] or [4|4]: a lot decides",
         lambda d: all(_holder(d, t) is None for t in ("[5|5]", "[6|6]", "[4|4]"))),
    ]


def _first_hands(game: str, players: int, partnerships: bool,
                 overrides: dict[str, Any] | None) -> Iterator[tuple[int, HandStart]]:
    """(seed, the first hand Match.start_hand deals from it), seed by seed."""
    rules = load_rules(game) if overrides is None else rules_under(make_profile(game, overrides), game)
    config = configure(rules, players, partnerships)
    for seed in range(MOST_SEEDS):
        yield seed, Match(rules, config, seed).start_hand()


def build() -> dict[str, Any]:
    cases = []
    for n, (game, players, partnerships, profile, shows, wanted) in enumerate(WANTED):
        overrides = None if profile is None else profile[2]
        seed, start = next((i, s) for i, s in _first_hands(game, players, partnerships, overrides) if wanted(s.deal))
        leader: Any = "lot" if start.lot is not None else start.leader
        name = "seeds" if profile is None else profile[0]
        case: dict[str, Any] = {
            "id": f"M-PLAY-{PREFIX[game]}-first-leader-{name}-{n % 9 + 1}",
            "kind": "next-leader", "game": game, "clauses": [CLAUSE[game]]}
        how = f"the deal of fives.match.Match.start_hand, seed {seed}, {players} players" + \
              (" in partnerships" if partnerships else "") + "; its leader as start_hand chose it"
        if profile is None:
            case["source"] = dict(SEEDS[game])
        else:
            case["source"] = {"derived": f"{how} (conformance/tools/make_first_leader_fixtures.py)"}
        case["description"] = f"The first hand, given its deal ({how.split(';')[0]}): {shows}."
        if profile is not None:
            case["rules"] = {"name": f"{PREFIX[game].lower()}-first-leader-{name}", "source": f"derived: {profile[1]}",
                             "rules": dict(profile[2])}
        case["input"] = {"players": players, **({"partnerships": True} if partnerships else {}),
                         "deal": [[str(t) for t in h] for h in start.deal], "previous": None}
        case["expect"] = {"leader": leader}
        cases.append(case)
    return {"format": "fives-fixtures/1",
            "title": "The first hand's leader, given its deal",
            "description": ("Written by conformance/tools/make_first_leader_fixtures.py. The next-leader kind with the "
                            "first hand's deal: under the seeds a lot decides whatever is dealt; under lead.first_hand "
                            "highest-double or opening-order the holder of that tile leads, a lot when nobody holds "
                            "one; under seat-0, seat 0."),
            "cases": cases}


def render() -> str:
    head = "# Derived for the mutation holes of issue 26 (area play): the first leader from a deal.\n"
    return head + yaml.safe_dump(build(), sort_keys=False, allow_unicode=True, width=120)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if OUT.is_file() and OUT.read_text(encoding="utf-8") == text:
            return 0
        print(f"{OUT}: not current (run {Path(__file__).name})", file=sys.stderr)
        return 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
