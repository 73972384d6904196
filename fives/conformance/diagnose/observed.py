"""Only what was observed (spec/diagnose.md, "Only what the answers showed"): a by-players value
(a hand size, a target, a reserve, the tiles set aside, for 2, 3 and 4 players) is stated in the inferred profile only
for the player counts of the cases its cause explains; every other count is left to the base
game (the base profile's value under --rules BASE, the seeds' otherwise), and the report says so.
A candidate gives a value for every count (one value for all, or a variant file's), but an
engine whose answers showed its 2- and 3-player hand sizes has said nothing of its 4-player one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fives.conformance.diagnose.diagnosis import Cause, Diagnosis


def _players(c: Cause) -> set[int]:
    out = set()
    for r in c.explained:
        n = r.case.input.get("players") if isinstance(r.case.input, dict) else None
        if isinstance(n, int) and not isinstance(n, bool):
            out.add(n)
    return out


def stated_rules(d: Diagnosis, game: str) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """(the game's inferred rules as the profile states them, path -> the player counts left to
    the base game because no answer showed them)."""
    from fives.profiles import parameters

    rules = dict(d.combined.get(game, {}))
    seeds = parameters(game)
    base = {**seeds, **(d.scorers[game].base if game in d.scorers else {})}
    left: dict[str, list[int]] = {}
    for c in d.causes:
        if c.candidate.game != game or c.candidate.mutant is not None:
            continue
        seen = _players(c)
        if not seen:
            continue  # its cases name no player count: nothing to tell the counts apart by
        for path, value in c.candidate.overrides.items():
            if not (isinstance(value, dict) and isinstance(seeds.get(path), dict)) or path not in rules:
                continue
            was = base[path]
            # a count no answer showed takes the base's value; the game's own value goes unstated
            stated = {n: (v if int(n) in seen else was.get(n, v)) for n, v in value.items()}
            reverted = sorted(int(n) for n, v in value.items() if int(n) not in seen and v != was.get(n, v))
            stated = {n: v for n, v in stated.items() if v != seeds[path].get(n)}
            if stated:
                rules[path] = stated
            else:
                rules.pop(path)
            if reverted:
                left[path] = reverted
    return rules, left


def stated_value(d: Diagnosis, c: Cause) -> str | None:
    """The cause's value as the profile states it, when that differs from the candidate's name."""
    from fives.conformance.reports.causes import show

    cand = c.candidate
    if cand.path is None or not isinstance(cand.overrides.get(cand.path), dict):
        return None
    rules, left = stated_rules(d, cand.game)
    if cand.path not in left:
        return None
    counts = ", ".join(map(str, left[cand.path]))
    return (f"  stated as {cand.path} = {show(rules[cand.path])}: {counts} players left to the base game "
            "(no answer showed them)")
