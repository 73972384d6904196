"""Puzzle themes: tags read off a puzzle's unique solution, as Lichess tags its puzzles.

Every tag is computed from the replayed solution, the first step's candidates and the
difficulty features, so `fives puzzles verify` can recompute and check them. `THEMES`
says what each tag means and in which games and kinds it can occur at all, so
`fives puzzles generate --theme T` can refuse a theme it can never reach instead of
searching in vain (spec/puzzles.md, "Themes").
"""
from __future__ import annotations

from dataclasses import dataclass

from fives.layout import Placement
from fives.tiles import Side
from fives.puzzles.model import Problem
from fives.puzzles.space import canonical_placements, grants_continuation, start

ALL_KINDS = ("single", "turn", "build")
BOTH_GAMES = ("american-sniff", "horse-race")


@dataclass(frozen=True)
class Theme:
    name: str
    meaning: str
    kinds: tuple[str, ...] = ALL_KINDS
    games: tuple[str, ...] = BOTH_GAMES
    why_not: str = ""  # why the kinds or games it cannot occur in rule it out


#: Every theme, in the order spec/puzzles.md lists them.
THEMES: dict[str, Theme] = {t.name: t for t in (
    Theme("branch", "the answer places a tile on a spinner branch"),
    Theme("closes-double", "the answer fills the second line side of a double"),
    Theme("plays-double", "the answer places a double from the hand (not as the opening)"),
    Theme("opening-double", "the answer opens the table with a double", kinds=("build",),
          why_not="only a build puzzle starts from an empty table"),
    Theme("end-double", "a placement of the answer scores with a double at an end of the line counted whole (2v)"),
    Theme("spinner-half", "after the answer a Sniff spinner's open branch counts one half",
          games=("american-sniff",), why_not="an open branch counts zero in Horse Race"),
    Theme("zero-end", "after the answer a tile from the hand counts 0 at an end"),
    Theme("zero-sum-trap", "a legal first placement brings the counted sum to 0: a multiple of five that scores "
          "nothing"),
    Theme("scoring-continuation", "a scoring tile lets the turn go on", kinds=("turn",), games=("horse-race",),
          why_not="only a Horse Race turn has continuations"),
    Theme("double-continuation", "a double that scores nothing lets the turn go on", kinds=("turn",),
          games=("horse-race",), why_not="only a Horse Race turn has continuations"),
    Theme("ends-no-score", "the turn ends on a placement that neither scores nor is a double", kinds=("turn",),
          games=("horse-race",), why_not="only turn puzzles have a turn end"),
    Theme("ends-empty-hand", "the turn ends with the hand empty", kinds=("turn",), games=("horse-race",),
          why_not="only turn puzzles have a turn end"),
    Theme("ends-blocked", "the turn could go on but no tile left in the hand fits", kinds=("turn",),
          games=("horse-race",), why_not="only turn puzzles have a turn end"),
    Theme("silent-placement", "a placement of the build scores nothing", kinds=("build",),
          why_not="only a build puzzle asks for placements that score nothing"),
    Theme("greedy-trap", "playing for the most points now (greedy) does not reach the target"),
    Theme("near-miss", "other answers miss the target by five raw points"),
    Theme("one-move", "the answer is one placement", kinds=("single", "turn"),
          why_not="a build puzzle places three tiles or more"),
    Theme("short", "the answer is two or three placements", kinds=("turn", "build"),
          why_not="a single puzzle's answer is one placement"),
    Theme("long", "the answer is four placements or more", kinds=("turn", "build"),
          why_not="a single puzzle's answer is one placement"),
)}


def reachable(theme: str, games: list[str], kind: str | None) -> str | None:
    """None if `theme` can occur in some puzzle of these games and kind; else why not (one line)."""
    t = THEMES.get(theme)
    if t is None:
        return f"unknown theme {theme!r}: one of {', '.join(THEMES)}"
    kinds = (kind,) if kind else ALL_KINDS
    if not any(g in t.games for g in games) or not any(k in t.kinds for k in kinds):
        where = f"{kind} " if kind else ""
        return f"theme {theme!r} cannot occur in {where}puzzles of {', '.join(games)}: {t.why_not}"
    return None


def _length_theme(n: int) -> str:
    return "one-move" if n == 1 else "short" if n <= 3 else "long"


def themes(problem: Problem, solution: tuple[Placement, ...], feats: dict[str, int]) -> tuple[str, ...]:
    """The theme tags of `solution` (sorted), read off the replayed answer."""
    rules, layout = problem.rules, start(problem)
    out: set[str] = {_length_theme(len(solution))}
    for p in canonical_placements(layout, problem.tiles):
        layout.push(p)
        zero = layout.sum == 0
        layout.pop()
        if zero:
            out.add("zero-sum-trap")
            break
    left = set(problem.tiles)
    for i, p in enumerate(solution):
        raw = layout.push(p)
        left.discard(p.tile)
        if p.side is not None and p.side.is_branch:
            out.add("branch")
        if p.to is not None and p.to.is_double and p.side in (Side.LINE_A, Side.LINE_B) \
                and layout.placed(p.to).lines_occupied():
            out.add("closes-double")
        if p.tile.is_double:
            out.add("opening-double" if p.to is None else "plays-double")
        if raw and any(c.side is None and c.value for c in layout.contributions()):
            out.add("end-double")
        if problem.kind == "turn" and i < len(solution) - 1:
            out.add("double-continuation" if p.tile.is_double and raw == 0 else "scoring-continuation")
        if problem.kind == "build" and raw == 0:
            out.add("silent-placement")
    for c in layout.contributions():
        if c.side is not None and c.side.is_branch:
            out.add("spinner-half")  # a Sniff branch side still open counts one half
        if c.value == 0 and c.tile in problem.tiles:
            out.add("zero-end")
    if problem.kind == "turn":
        last = solution[-1]
        if not left:
            out.add("ends-empty-hand")
        elif grants_continuation(rules, last.tile, layout.raw):
            out.add("ends-blocked")
        else:
            out.add("ends-no-score")
    if feats.get("greedy_fails"):
        out.add("greedy-trap")
    if feats.get("near_misses"):
        out.add("near-miss")
    return tuple(sorted(out))
