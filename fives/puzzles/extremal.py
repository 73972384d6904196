"""Extremal sums: the largest counted sum and the largest scoring sum of any layout play reaches.

Play lays at most `rules.most_tiles_laid` tiles (27 of the 28: a hand ends when a seat goes
out, and every other seat still holds a tile), so the search counts only layouts of that many
tiles or fewer, and every witness is one.

The proof (spec/puzzles.md, "Extremal results") is an exhaustive search over a relaxation:
for a layout of n >= 2 tiles, every non-double has at least one occupied half, and

    counted sum = sum of the open halves of non-doubles + 2v for each double of degree 1
                  (+ v per open branch side of the Sniff, in American Sniff)

while the tree has n - 1 edges, each pairing two occupied sides of equal value on two
tiles (never two doubles: there is one double per value). So, per value v, the occupied
v-halves of non-doubles, k_v, satisfy k_v >= deg([v|v]) and k_v = deg([v|v]) (mod 2), and
the number of non-doubles with an open half is 2 + sum over placed doubles of (deg - 2).
`relaxation` maximises the sum over every choice of non-double states (unplaced, low open,
high open, both occupied) and double degrees, with at most the cap placed, by dynamic
programming; no layout beats it.
Where it exceeds the witness, `cut` adds a connectivity fact for that degree vector: the
neighbour of a degree-1 double has both halves occupied, and two degree-1 doubles cannot
share that neighbour (they would form a separate 3-tile layout).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import permutations
from typing import Callable

from fives.evaluation import evaluate
from fives.layout import Placement
from fives.rules import GameRules, load_rules
from fives.tiles import ALL_TILES, MAX_PIP, parse_side, parse_tile

Degrees = tuple[tuple[int, bool], ...]  # per value: (degree of the double, 0 = unplaced; is it the spinner)

#: Witness layouts (play order). Sniff: the Sniff [2|2] with four arms ending in doubles, and
#: the same with [3|5] for [3|3]. Horse Race: 25 tiles (all but [0|1], [0|2], [1|2]): doubles
#: [0|0]..[4|4] with all four sides taken, [5|5] and [6|6] at ends; read off the capped
#: relaxation's optimum (one tile state at a time) and built into a tree, replayed by the
#: reference engine and proven optimal here. (The earlier witness laid all 28 tiles, which no
#: hand does: issue 26.)
WITNESSES: dict[str, dict[str, list[tuple[str, str | None, str | None]]]] = {
    "american-sniff": {
        "counted": [("[2|2]", None, None), ("[2|6]", "[2|2]", "line-a"), ("[2|5]", "[2|2]", "line-b"),
                    ("[2|4]", "[2|2]", "branch-a"), ("[2|3]", "[2|2]", "branch-b"), ("[6|6]", "[2|6]", "high"),
                    ("[5|5]", "[2|5]", "high"), ("[4|4]", "[2|4]", "high"), ("[3|3]", "[2|3]", "high")],
        "scoring": [("[2|2]", None, None), ("[2|6]", "[2|2]", "line-a"), ("[2|5]", "[2|2]", "line-b"),
                    ("[2|4]", "[2|2]", "branch-a"), ("[2|3]", "[2|2]", "branch-b"), ("[6|6]", "[2|6]", "high"),
                    ("[5|5]", "[2|5]", "high"), ("[4|4]", "[2|4]", "high"), ("[3|5]", "[2|3]", "high")],
    },
    "horse-race": {"counted": [
        ("[0|0]", None, None), ("[0|3]", "[0|0]", "line-a"), ("[0|4]", "[0|0]", "line-b"),
        ("[0|5]", "[0|0]", "branch-a"), ("[0|6]", "[0|0]", "branch-b"), ("[3|3]", "[0|3]", "high"),
        ("[1|3]", "[3|3]", "line-b"), ("[2|3]", "[3|3]", "branch-a"), ("[3|5]", "[3|3]", "branch-b"),
        ("[1|1]", "[1|3]", "low"), ("[2|2]", "[2|3]", "low"), ("[5|5]", "[3|5]", "high"),
        ("[1|4]", "[1|1]", "line-b"), ("[1|5]", "[1|1]", "branch-a"), ("[1|6]", "[1|1]", "branch-b"),
        ("[2|4]", "[2|2]", "line-b"), ("[2|5]", "[2|2]", "branch-a"), ("[2|6]", "[2|2]", "branch-b"),
        ("[4|4]", "[2|4]", "high"), ("[3|4]", "[4|4]", "line-b"), ("[4|5]", "[4|4]", "branch-a"),
        ("[4|6]", "[4|4]", "branch-b"), ("[3|6]", "[3|4]", "low"), ("[5|6]", "[4|5]", "high"),
        ("[6|6]", "[5|6]", "high")]},
}


def witness(game: str, what: str) -> list[Placement]:
    rows = WITNESSES[game].get(what) or WITNESSES[game]["counted"]  # 75 is itself a multiple of 5
    return [Placement(parse_tile(t)) if to is None else Placement(parse_tile(t), parse_tile(to), parse_side(s))
            for t, to, s in rows]


def _cap(k: int) -> int:
    """k_v only matters up to 4 (the largest degree) and by parity beyond."""
    return k if k < 4 else 4 + (k % 2)


def _degree_options(rules: GameRules, v: int, k: int, spinner_used: bool) -> list[tuple[int, bool]]:
    first = rules.spinner_policy == "first-double"
    out = [(0, False)]
    for d in range(1, 5):
        for spin in ((False, True) if first else (True,)):
            if (first and not spin and d > 2) or (first and spin and spinner_used):
                continue  # first-double: one spinner; the others have line sides only
            if d <= k and (k - d) % 2 == 0:
                out.append((d, spin))
    return out


def _double_value(rules: GameRules, v: int, d: int, spin: bool) -> int:
    if d <= 1:
        return 2 * v  # an end double (a lone double, n = 1, is excluded: n >= 2)
    if spin and rules.open_branch_side == "one-half":
        return v * (4 - d)  # the Sniff's open branch sides
    return 0


def relaxation(rules: GameRules, track: bool = False, fixed: Degrees | None = None,
               cut: bool = False, cap: int | None = None) -> dict[Degrees | None, int]:
    """Achievable relaxed sums as a bit mask (bit s set: sum s), per degree vector if `track`.

    Only layouts of at most `cap` tiles count (default: `rules.most_tiles_laid`, the most a
    hand can lay before a seat goes out; 27 of the 28). State: (k_v of values still open,
    capped; leaves - sum(deg - 2); spinner used; cut flags; tiles left unplaced, up to the
    number the cap needs; degrees so far if tracked). Non-doubles are processed value by
    value, so k_v is final when value v's double is chosen.
    """
    need = max(0, len(ALL_TILES) - (rules.most_tiles_laid if cap is None else cap))
    leaf_doubles = {v for v, (d, _) in enumerate(fixed) if d == 1} if fixed is not None else set()
    states: dict[tuple, int] = {((0,) * (MAX_PIP + 1), 0, False, 0, 0, ()): 1}
    for v in range(MAX_PIP + 1):
        for w in range(v + 1, MAX_PIP + 1):
            new: dict[tuple, int] = defaultdict(int)
            pair_bit = _flag_bit(v, w, leaf_doubles) if cut else 0
            for (ks, bal, sp, flags, u, ds), mask in states.items():
                new[(ks, bal, sp, flags, min(need, u + 1), ds)] |= mask  # [v|w] unplaced
                for occ_v, occ_w in ((1, 0), (0, 1), (1, 1)):
                    k = list(ks)
                    k[v], k[w] = _cap(k[v] + occ_v), _cap(k[w] + occ_w)
                    shown = w if occ_v and not occ_w else v if occ_w and not occ_v else None
                    f = flags | pair_bit if (occ_v and occ_w) else flags
                    m = mask << shown if shown is not None else mask
                    new[(tuple(k), bal + (shown is not None), sp, f, u, ds)] |= m
            states = new
        new = defaultdict(int)
        for (ks, bal, sp, flags, u, ds), mask in states.items():
            options = [fixed[v]] if fixed is not None else _degree_options(rules, v, ks[v], sp)
            for d, spin in options:
                if d > ks[v] or (ks[v] - d) % 2 or (spin and d > 0 and sp and rules.spinner_policy == "first-double"):
                    continue
                k = list(ks)
                k[v] = 0
                bal2 = bal - (d - 2) if d else bal
                m = mask << _double_value(rules, v, d, spin) if d else mask
                sp2 = sp or (d > 0 and spin and rules.spinner_policy == "first-double")
                u2 = u if d else min(need, u + 1)
                new[(tuple(k), bal2, sp2, flags, u2, ds + ((d, spin),) if track else ds)] |= m
        states = new
    out: dict[Degrees | None, int] = defaultdict(int)
    for (ks, bal, sp, flags, u, ds), mask in states.items():
        if bal == 2 and u == need and (not cut or _neighbours_ok(flags, leaf_doubles)):
            out[ds if track else None] |= mask
    return dict(out)


def _flag_bit(v: int, w: int, leaf: set[int]) -> int:
    """A non-double with both halves occupied that could neighbour a degree-1 double."""
    if v in leaf and w in leaf:
        return 1 << (8 + v * 7 + w)  # may neighbour [v|v] or [w|w], not both
    if v in leaf:
        return 1 << v  # may neighbour [v|v] only
    if w in leaf:
        return 1 << w
    return 0


def _neighbours_ok(flags: int, leaf: set[int]) -> bool:
    """Each degree-1 double gets its own neighbour with both halves occupied."""
    need = sorted(v for v in leaf if not flags >> v & 1)
    pairs = [(v, w) for v in range(MAX_PIP + 1) for w in range(v + 1, MAX_PIP + 1) if flags >> (8 + v * 7 + w) & 1]
    if len(pairs) < len(need):
        return False
    return any(all(v in p for v, p in zip(need, chosen)) for chosen in permutations(pairs, len(need)))


def best(mask: int, scoring: bool, multiple: int) -> int:
    vals = [s for s in range(mask.bit_length()) if mask >> s & 1 and (not scoring or (s > 0 and s % multiple == 0))]
    return max(vals, default=0)


@dataclass
class Extremum:
    game: str
    what: str  # "counted" or "scoring"
    value: int
    witness: list[Placement]
    relaxed: int  # the relaxation's bound before cuts
    cut_vectors: list[Degrees]  # degree vectors that needed the connectivity cut


def prove(game: str, what: str, progress: Callable[[str], None] | None = None) -> Extremum:
    """Replay the witness and prove nothing beats it; RuntimeError if the proof fails."""
    rules = load_rules(game)
    scoring = what == "scoring"
    w = witness(game, what)
    if len(w) > rules.most_tiles_laid:
        raise RuntimeError(f"the {game} {what} witness lays {len(w)} tiles: at most {rules.most_tiles_laid} "
                           "are laid before a seat goes out")
    result = evaluate(rules, [p.to_dict() for p in w])
    value = result["sum"]
    if "error" in result or (scoring and result["raw"] != value):
        raise RuntimeError(f"the {game} {what} witness does not replay as a scoring layout")
    m = rules.scoring_multiple
    relaxed = best(relaxation(rules)[None], scoring, m)
    cut_vectors: list[Degrees] = []
    if relaxed > value:
        if progress:
            progress(f"{game}: relaxation allows {relaxed} > {value}; splitting by degree vector")
        for ds, mask in sorted(relaxation(rules, track=True).items()):
            if best(mask, scoring, m) > value:
                cut_vectors.append(ds)
                after = best(relaxation(rules, fixed=ds, cut=True).get(None, 0), scoring, m)
                if after > value:
                    raise RuntimeError(f"{game}: degree vector {ds} still allows {after} > {value}")
    return Extremum(game, what, value, w, relaxed, cut_vectors)
