"""Regenerate conformance/fixtures/seed/ and conformance/fixtures/illegal/ from the seeds.

The figure cases are lifted from the seed text itself (fives.conformance.cases.seed_examples), not computed by
the engine; the prose examples and illegal placements are written out here by hand, each
with the passage it comes from. Run: python conformance/tools/make_seed_fixtures.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from fives.conformance.cases.clauses import load_clauses  # noqa: E402
from fives.conformance.cases.seed_examples import extract, sections  # noqa: E402

SEEDS = {"american-sniff": "000_751b9fb83a3774b3.txt", "horse-race": "001_4a8ab5b829773601.txt"}
PREFIX = {"american-sniff": "SN", "horse-race": "HR"}
CLAUSES = load_clauses(ROOT / "spec" / "rules.md")


def cite(game: str, quote: str) -> dict[str, str]:
    """Source for a verbatim quote: finds the heading it lies under."""
    seed = SEEDS[game]
    for heading, text in sections(ROOT / "seeds" / seed):
        if quote in text:
            return {"seed": seed, "heading": heading, "quote": quote}
    raise SystemExit(f"quote not found in {seed}: {quote}")


def clause_source(clause: str) -> dict[str, str]:
    c = CLAUSES[clause].sources[0]
    return {"seed": c.seed, "heading": c.heading, "quote": c.quote}


def figure_clauses(game: str, expect: dict) -> list[str]:
    p = PREFIX[game]
    tiles = expect["tiles"]
    doubles = [t for t in tiles if t[1] == t[3]]
    out = [f"{p}-COUNT-1" if p == "SN" else f"{p}-COUNT-4"]
    if p == "SN":
        out.append("SN-COUNT-5")
    if doubles:
        out += [f"{p}-SPIN-1"] + (["SN-PLACE-2", "SN-COUNT-2"] if p == "SN" else ["HR-COUNT-1"])
    if any(pos["side"].startswith("branch") for pos in expect["positions"]):
        out.append(f"{p}-SPIN-2")
        out.append("SN-COUNT-3" if p == "SN" else "HR-COUNT-2")
    if any(c["side"].startswith("branch") for c in expect["connections"]):
        out.append("SN-COUNT-4" if p == "SN" else "HR-COUNT-3")
    out.append(f"{p}-SCORE-1" if expect["raw"] > 0 else f"{p}-SCORE-2")
    if p == "HR":
        out.append("HR-POINTS-1")
    out.append(f"{p}-PLACE-1")  # last: the report groups a case by its first clause
    return list(dict.fromkeys(out))


def figure_cases(game: str) -> list[dict]:
    cases = []
    for fig in extract(ROOT / "seeds" / SEEDS[game]):
        low, high = fig.placed[1], fig.placed[3]
        cases.append({
            "id": f"{PREFIX[game]}-FIG-{low}-{high}",
            "kind": "evaluate",
            "game": game,
            "clauses": figure_clauses(game, fig.expect),
            "source": {"seed": fig.seed, "heading": fig.heading, "quote": fig.quote},
            "description": f"Seed figure 'placed tile {fig.placed}', lifted verbatim from the figure's listing.",
            "input": {"placements": fig.placements},
            "expect": fig.expect,
        })
    return cases


def ev(id_, game, clauses, source, description, placements, expect):
    return {"id": id_, "kind": "evaluate", "game": game, "clauses": clauses, "source": source,
            "description": description, "input": {"placements": placements}, "expect": expect}


def pl(tile, to=None, side=None):
    return {"tile": tile} if to is None else {"tile": tile, "to": to, "side": side}


SNIFF_20 = [pl("[6|6]"), pl("[3|6]", "[6|6]", "line-a"), pl("[5|6]", "[6|6]", "line-b")]
SNIFF_18 = SNIFF_20 + [pl("[4|6]", "[6|6]", "branch-a")]
WALK = [pl("[5|5]"), pl("[5|2]", "[5|5]", "line-a"), pl("[5|3]", "[5|5]", "line-b"), pl("[5|4]", "[5|5]", "branch-a")]


def prose_cases() -> list[dict]:
    sn, hr = "american-sniff", "horse-race"
    q20 = "فالمجموع 3 + 5 + 6 + 6 = 20"
    q18 = "يصبح المجموع 3 + 5 + 4 + 6 = 18"
    walk_q = "افتتاح [5|5] يعطي مجموع أطراف 10"
    cases = [
        ev("SN-EX-SNIFF-20", sn, ["SN-COUNT-3", "SN-COUNT-4", "SN-SPIN-2", "SN-SCORE-1"], cite(sn, q20),
           "Sniff [6|6] with line ends 3 and 5, no branch started: 3 + 5 + 6 + 6 = 20, which scores 20 "
           "(«يضيف المجموع 20 عشرين نقطة»). The seed omits the Sniff tile; 6 + 6 implies [6|6].",
           SNIFF_20, {"spinners": ["[6|6]"],
                      "contributions": [{"tile": "[3|6]", "value": 3}, {"tile": "[5|6]", "value": 5},
                                        {"tile": "[6|6]", "value": 6, "side": "branch-a"},
                                        {"tile": "[6|6]", "value": 6, "side": "branch-b"}],
                      "sum": 20, "raw": 20, "display": 20}),
        ev("SN-EX-SNIFF-18", sn, ["SN-COUNT-4", "SN-SCORE-2"], cite(sn, q18),
           "One branch of the Sniff started and ending in 4: 3 + 5 + 4 + 6 = 18, which scores nothing "
           "(«ولا يضيف المجموع 18 شيئاً»).",
           SNIFF_18, {"contributions": [{"tile": "[3|6]", "value": 3}, {"tile": "[5|6]", "value": 5},
                                        {"tile": "[4|6]", "value": 4},
                                        {"tile": "[6|6]", "value": 6, "side": "branch-b"}],
                      "sum": 18, "raw": 0, "display": 0}),
        ev("HR-EX-WALK-10", hr, ["HR-COUNT-1", "HR-SPIN-1", "HR-SCORE-1"], cite(hr, walk_q),
           "Opening [5|5]: end sum 10 (2 displayed points).", WALK[:1],
           {"spinners": ["[5|5]"], "contributions": [{"tile": "[5|5]", "value": 10}],
            "sum": 10, "raw": 10, "display": 2}),
        ev("HR-EX-WALK-12", hr, ["HR-COUNT-1", "HR-SCORE-2", "HR-SET-1"],
           cite(hr, "إضافة [5|2] إلى جانب طويل تغيّر المجموع إلى 12"),
           "[5|2] (written high value first, as the seed does) on one long side: sum 12, no points.", WALK[:2],
           {"tiles": ["[5|5]", "[2|5]"], "contributions": [{"tile": "[2|5]", "value": 2}, {"tile": "[5|5]", "value": 10}],
            "sum": 12, "raw": 0, "display": 0}),
        ev("HR-EX-WALK-5", hr, ["HR-COUNT-2", "HR-SPIN-2", "HR-SCORE-1"],
           cite(hr, "إضافة [5|3] إلى الجانب الآخر تغيّره إلى 5 وتفتح الفرعين الجانبيين"),
           "[5|3] on the other long side: the double becomes internal (0) and its open branches count 0: sum 5.",
           WALK[:3],
           {"positions": [{"tile": "[2|5]", "side": "low", "value": 2}, {"tile": "[3|5]", "side": "low", "value": 3},
                          {"tile": "[5|5]", "side": "branch-a", "value": 5},
                          {"tile": "[5|5]", "side": "branch-b", "value": 5}],
            "contributions": [{"tile": "[2|5]", "value": 2}, {"tile": "[3|5]", "value": 3}],
            "sum": 5, "raw": 5, "display": 1}),
        ev("HR-EX-WALK-9", hr, ["HR-COUNT-3", "HR-SPIN-2", "HR-SCORE-2"],
           cite(hr, "إضافة [5|4] إلى فرع جانبي تغيّره إلى 9"),
           "[5|4] on a branch: the branch's outer end counts: 2 + 3 + 4 = 9.", WALK,
           {"contributions": [{"tile": "[2|5]", "value": 2}, {"tile": "[3|5]", "value": 3}, {"tile": "[4|5]", "value": 4}],
            "sum": 9, "raw": 0, "display": 0}),
        # The same layouts under the other game's spinner rule: the contrast engines get wrong.
        ev("SN-EX-WALK-CONTRAST", sn, ["SN-COUNT-3", "SN-COUNT-4"],
           {"derived": "Seed 001's [5|5] walk-through under seed 000's counting: the Sniff's open branch "
                       "halves count (SN-COUNT-3), so 2 + 3 + 5 + 5 = 15, then 2 + 3 + 4 + 5 = 14."},
           "Sniff [5|5] with both lines occupied: open branches count one half each.", WALK,
           {"contributions": [{"tile": "[2|5]", "value": 2}, {"tile": "[3|5]", "value": 3}, {"tile": "[4|5]", "value": 4},
                              {"tile": "[5|5]", "value": 5, "side": "branch-b"}],
            "scores": [10, 0, 15, 0], "sum": 14, "raw": 0, "display": 0}),
        ev("HR-EX-SNIFF-CONTRAST", hr, ["HR-COUNT-2", "HR-COUNT-3"],
           {"derived": "Seed 000's Sniff 20 / 18 example under seed 001's counting: unused branches count 0 "
                       "(HR-COUNT-2): 3 + 5 = 8, then 3 + 5 + 4 = 12."},
           "Horse Race [6|6] with both lines occupied: its open branches add nothing.", SNIFF_18,
           {"contributions": [{"tile": "[3|6]", "value": 3}, {"tile": "[5|6]", "value": 5}, {"tile": "[4|6]", "value": 4}],
            "scores": [0, 15, 0, 0], "sum": 12, "raw": 0, "display": 0}),
    ]
    return cases


def illegal_cases(game: str) -> list[dict]:
    p = PREFIX[game]
    sn = game == "american-sniff"
    spin = "SN-SPIN-2" if sn else "HR-SPIN-2"
    place = f"{p}-PLACE-1"
    rows = [
        ("MALFORMED-PLACEMENT", "malformed-placement", 1, [place],
         {"derived": "spec/engine.md: a later placement names both `to` and `side`."},
         "`to` given without `side`.", [pl("[1|4]"), {"tile": "[4|4]", "to": "[1|4]"}]),
        ("MALFORMED-PLACEMENT-2", "malformed-placement", 1, [place],
         {"derived": "spec/engine.md: only the opening placement joins nothing."},
         "A second placement without `to`.", [pl("[1|4]"), pl("[4|4]")]),
        ("MALFORMED-TILE", "malformed-tile", 0, [f"{p}-SET-1"], clause_source(f"{p}-SET-1"),
         "[1|7] is not in the double-six set.", [pl("[1|7]")]),
        ("MALFORMED-TILE-2", "malformed-tile", 1, [f"{p}-SET-1"], clause_source(f"{p}-SET-1"),
         "\"1/4\" is not tile notation.", [pl("[1|1]"), pl("1/4", "[1|1]", "line-a")]),
        ("UNKNOWN-SIDE", "unknown-side", 1, [place],
         {"derived": "spec/engine.md: sides are low, high, line-a, line-b, branch-a, branch-b."},
         "'middle' is no side.", [pl("[1|4]"), pl("[4|4]", "[1|4]", "middle")]),
        ("TILE-ALREADY-PLACED", "tile-already-placed", 2, [f"{p}-SET-1"], clause_source(f"{p}-SET-1"),
         "The 28 tiles are distinct: [4|4] cannot be placed twice.",
         [pl("[1|4]"), pl("[4|4]", "[1|4]", "high"), pl("[4|4]", "[1|4]", "low")]),
        ("TARGET-NOT-IN-LAYOUT", "target-not-in-layout", 1, [place], clause_source(place),
         "[2|2] is not on the table.", [pl("[1|4]"), pl("[2|3]", "[2|2]", "line-b")]),
        ("NO-SUCH-SIDE", "no-such-side", 1, [place], clause_source(place),
         "A non-double has no line side.", [pl("[1|4]"), pl("[1|2]", "[1|4]", "line-a")]),
        ("NO-SUCH-SIDE-2", "no-such-side", 1, [f"{p}-SPIN-1"], clause_source(f"{p}-SPIN-1"),
         "A double has no low end.", [pl("[3|3]"), pl("[3|4]", "[3|3]", "low")]),
        ("SIDE-OCCUPIED", "side-occupied", 2, [place], clause_source(place),
         "[1|4]'s low end already holds [1|1].",
         [pl("[1|4]"), pl("[1|1]", "[1|4]", "low"), pl("[1|2]", "[1|4]", "low")]),
        ("BRANCH-BEFORE-LINES", "branch-before-lines", 1, [spin], clause_source(spin),
         "A branch before either line side is occupied.", [pl("[1|1]"), pl("[1|2]", "[1|1]", "branch-a")]),
        ("BRANCH-BEFORE-LINES-2", "branch-before-lines", 2, [spin], clause_source(spin),
         "A branch with only one line side occupied.",
         [pl("[1|1]"), pl("[1|3]", "[1|1]", "line-a"), pl("[1|2]", "[1|1]", "branch-b")]),
        ("VALUE-MISMATCH", "value-mismatch", 1, [place], clause_source(place),
         "[2|3] has no 4 for [1|4]'s high end.", [pl("[1|4]"), pl("[2|3]", "[1|4]", "high")]),
        ("VALUE-MISMATCH-2", "value-mismatch", 2, [place], clause_source(place),
         "Joining a double's line side needs the double's value.",
         [pl("[1|4]"), pl("[4|4]", "[1|4]", "high"), pl("[1|3]", "[4|4]", "line-b")]),
    ]
    if sn:
        rows.append(("BRANCH-OF-NON-SPINNER", "branch-of-non-spinner", 4, ["SN-SPIN-1"], clause_source("SN-SPIN-1"),
                     "[4|4] is a later double: in Sniff it opens no branches even with both lines occupied.",
                     [pl("[1|1]"), pl("[1|4]", "[1|1]", "line-a"), pl("[4|4]", "[1|4]", "high"),
                      pl("[4|6]", "[4|4]", "line-b"), pl("[2|4]", "[4|4]", "branch-a")]))
    else:
        rows.append(("BRANCH-OF-LATER-DOUBLE-LEGAL", None, None, ["HR-SPIN-1"], clause_source("HR-SPIN-1"),
                     "The Sniff illegality case under Horse Race: every double spins, so the branch is legal "
                     "(branch-of-non-spinner cannot arise in Horse Race).",
                     [pl("[1|1]"), pl("[1|4]", "[1|1]", "line-a"), pl("[4|4]", "[1|4]", "high"),
                      pl("[4|6]", "[4|4]", "line-b"), pl("[2|4]", "[4|4]", "branch-a")]))
    cases = []
    for suffix, code, index, clauses, source, desc, placements in rows:
        expect = {"error": {"index": index, "code": code}} if code else \
            {"spinners": ["[1|1]", "[4|4]"],
             "contributions": [{"tile": "[1|1]", "value": 2}, {"tile": "[4|6]", "value": 6, "side": "high"},
                               {"tile": "[2|4]", "value": 2, "side": "low"}],
             "sum": 10, "raw": 10, "display": 2}
        cases.append(ev(f"{p}-ILL-{suffix}", game, clauses, source, desc, placements, expect))
    return cases


def setup_cases(game: str) -> list[dict]:
    p = PREFIX[game]
    sn = game == "american-sniff"
    target = {2: 250, 3: 200, 4: 200} if sn else {2: 305, 3: 305, 4: 305}
    display = target if sn else {n: 61 for n in target}
    deal = {2: (7, 14), 3: (6, 10), 4: (5, 8)}
    clauses = [f"{p}-PLAYERS-1", f"{p}-DEAL-1", f"{p}-TARGET-1" if sn else f"{p}-POINTS-1"]
    src = clause_source(f"{p}-DEAL-1")
    rows = [(2, False), (3, False), (4, True)] + ([] if sn else [(4, False)])
    cases = []
    for n, partners in rows:
        hand, bone = deal[n]
        teams = [[0, 2], [1, 3]] if partners else [[s] for s in range(n)]
        cases.append({"id": f"{p}-SETUP-{n}{'P' if partners else ''}", "kind": "setup", "game": game,
                      "clauses": clauses, "source": src,
                      "description": f"{n} players{' in two partnerships (partners opposite)' if partners else ', each for themselves'}.",
                      "input": {"players": n, "partnerships": partners},
                      "expect": {"valid": True, "hand_size": hand, "boneyard": bone, "teams": teams,
                                 "target_raw": target[n], "target_display": display[n]}})
    invalid = [(5, False), (2, True), (3, True)] + ([(4, False)] if sn else [])
    for n, partners in invalid:
        cases.append({"id": f"{p}-SETUP-INVALID-{n}{'P' if partners else ''}", "kind": "setup", "game": game,
                      "clauses": [f"{p}-PLAYERS-1"], "source": clause_source(f"{p}-PLAYERS-1"),
                      "description": f"{n} players{' in partnerships' if partners else ' each for themselves'} is not a configuration of this game.",
                      "input": {"players": n, "partnerships": partners}, "expect": {"valid": False}})
    lead = [("FIRST", None, "lot", f"{p}-LEAD-1"), ("AFTER-OUT", {"ended": "gone-out", "last_tile_seat": 2}, 2, f"{p}-LEAD-3"),
            ("AFTER-BLOCKED", {"ended": "blocked"}, "lot", f"{p}-LEAD-3")]
    for name, prev, leader, clause in lead:
        cases.append({"id": f"{p}-LEAD-{name}", "kind": "next-leader", "game": game, "clauses": [clause],
                      "source": clause_source(clause), "description": f"Leader of the {'first hand' if prev is None else 'next hand'}.",
                      "input": {"players": 3, "previous": prev}, "expect": {"leader": leader}})
    return cases


def tally_cases(game: str) -> list[dict]:
    p = PREFIX[game]
    src = clause_source(f"{p}-RECORD-1")
    if game == "american-sniff":
        rows = [(135, {"fifties": 2, "strokes": 7, "negative": False}, "135 = two 50-point symbols and 7 strokes of 5"),
                (50, {"fifties": 1, "strokes": 0, "negative": False}, "50 is one complete symbol: X and four small x"),
                (45, {"fifties": 0, "strokes": 9, "negative": False}, "45 is one stroke short of a symbol"),
                (0, {"fifties": 0, "strokes": 0, "negative": False}, "nothing to draw"),
                (-15, {"fifties": 0, "strokes": 3, "negative": True}, "below zero (SN-SETTLE-4 ruling): 3 strokes of debt")]
    else:
        rows = [(37, {"hole": 37}, "37 displayed points: hole 37"), (61, {"hole": 61}, "61 is the game hole"),
                (64, {"hole": 61}, "past the target the peg stands in the game hole"), (0, {"hole": 0}, "not yet on the board")]
    return [{"id": f"{p}-TALLY-{'M' if s < 0 else ''}{abs(s)}", "kind": "tally", "game": game,
             "clauses": [f"{p}-RECORD-1"] + (["SN-SETTLE-4"] if s < 0 else []), "source": src, "description": d,
             "input": {"score": s}, "expect": e} for s, e, d in rows]


def dump(path: Path, title: str, cases: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump({"format": "fives-fixtures/1", "title": title, "cases": cases},
                          allow_unicode=True, sort_keys=False, default_flow_style=None, width=100)
    path.write_text("# Generated by conformance/tools/make_seed_fixtures.py from the seed text; edit the tool, not this file.\n" + text,
                    encoding="utf-8")


def main() -> None:
    out = ROOT / "conformance" / "fixtures"
    prose = prose_cases()
    for game in SEEDS:
        dump(out / "seed" / f"{game}-figures.yaml", f"{game}: every worked figure of seed {SEEDS[game]}",
             figure_cases(game))
        dump(out / "seed" / f"{game}-examples.yaml", f"{game}: the seed's worked sums in prose, and contrasts",
             [c for c in prose if c["game"] == game])
        dump(out / "setup" / f"{game}.yaml", f"{game}: configurations, deals, targets and leaders", setup_cases(game))
        dump(out / "record" / f"{game}.yaml", f"{game}: the score record the document describes", tally_cases(game))
        dump(out / "illegal" / f"{game}.yaml", f"{game}: one case per illegal-placement reason", illegal_cases(game))


if __name__ == "__main__":
    main()
