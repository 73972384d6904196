"""What the check of an inferred profile against the engine says (diagnose/verify.py): which games
are checked, and the report's `checked:` lines. Apart from verify.py, which runs the search
again, so the report does not import the search's machinery."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fives.conformance.diagnose.diagnosis import Diagnosis


def checked_games(d: Diagnosis, games: list[str]) -> list[str]:
    """The games with a rule cause and no misreading (no profile holds a misreading's hooks, so a
    check would find its bug again, not the profile's fault)."""
    out = []
    for g in games:
        mine = [c for c in d.causes if c.candidate.game == g]
        if mine and all(c.candidate.mutant is None for c in mine) and d.combined.get(g):
            out.append(g)
    return out


def lines(d: Diagnosis) -> list[str]:
    """`checked: GAME's inferred profile against N requests drawn under it: ...`, a line a game."""
    out = [f"checked: the inferred {g} profile was not checked against the engine (--fuzz 0, or no time left)"
           for g in checked_games(d, sorted(d.combined)) if g not in d.verified]
    for game, v in sorted(d.verified.items()):
        how = ("none disagreed" if not v["disagreements"] else
               f"{v['disagreements']} disagreed with it in the last check: it does not explain the engine")
        out.append(f"checked: the inferred {game} profile against {v['draws']} request(s) drawn under it "
                   f"({v['requests']} sent, {v['rounds']} check(s)): {how}")
    return out
