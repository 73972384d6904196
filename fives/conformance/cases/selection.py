"""Choosing conformance cases by ID glob, game, kind and capability, with filters that cannot
lie: a value the suite does not have, a glob that matches no case, or filters that together
select nothing is a one-line error (exit 2), never a green run of zero cases."""
from __future__ import annotations

import difflib
import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, NoReturn

from fives.support.errors import UserError
from fives.conformance.cases.fixtures import Case, load_cases
from fives.conformance.cases.kinds import kind_named, load_kinds
from fives.rules import game_ids


def id_matches(case_id: str, glob: str) -> bool:
    """fnmatch, or the exact ID: perft divide IDs hold `[4|6]`, which fnmatch reads as a set."""
    return case_id == glob or fnmatch.fnmatchcase(case_id, glob)


@dataclass(frozen=True)
class CaseFilters:
    ids: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    slow: bool = False  # include cases tagged `slow` (deep perft rows)
    deselect: tuple[str, ...] = ()  # case IDs left out (--deselect, exact, as pytest's)
    exclude: tuple[str, ...] = ()  # ID globs left out (--exclude)

    def matches(self, case: Case, slow: bool | None = None) -> bool:
        if self.ids and not any(id_matches(case.id, g) for g in self.ids):
            return False
        if case.id in self.deselect or any(id_matches(case.id, g) for g in self.exclude):
            return False
        if self.games and case.game not in self.games:
            return False
        if self.kinds and case.kind not in self.kinds:
            return False
        if self.capabilities and kind_named(case.kind).capability not in self.capabilities:
            return False
        return (self.slow if slow is None else slow) or "slow" not in case.tags

    def describe(self) -> str:
        parts = [f"--id {g}" for g in self.ids] + [f"--game {g}" for g in self.games]
        parts += [f"--kind {k}" for k in self.kinds] + [f"--capability {c}" for c in self.capabilities]
        parts += [f"--deselect {i}" for i in self.deselect] + [f"--exclude {g}" for g in self.exclude]
        return " ".join(parts) or "(no filter)"


@dataclass(frozen=True)
class Selection:
    cases: list[Case]
    slow_left_out: int  # cases the filters match but left out for being slow (no --slow)


def check_filters(filters: CaseFilters, suite: list[Case]) -> None:
    """UserError (exit 2) for a game, kind or capability the suite has no case of, or an ID
    glob that matches no case of the suite."""
    def refuse(option: str, value: str, present: Iterable[str], known: Iterable[str], what: str) -> NoReturn:
        have = sorted(set(present))
        if value in set(known):
            raise UserError(f"{option} {value}: the suite has no case of this {what} (it has: {', '.join(have)})")
        from fives.support.suggest import did_you_mean
        raise UserError(f"{option} {value}: unknown {what}{did_you_mean(value, have)} (the suite has: {', '.join(have)})")

    games = {c.game for c in suite}
    for g in filters.games:
        if g not in games:
            refuse("--game", g, games, game_ids(), "game")
    kinds, present_kinds = load_kinds(), {c.kind for c in suite}
    for k in filters.kinds:
        if k not in present_kinds:
            refuse("--kind", k, present_kinds, kinds, "kind")
    caps = {kinds[k].capability for k in present_kinds}
    for cap in filters.capabilities:
        if cap not in caps:
            refuse("--capability", cap, caps, {k.capability for k in kinds.values()}, "capability")
    ids = [c.id for c in suite]
    known = set(ids)
    for option, globs in (("--id", filters.ids), ("--exclude", filters.exclude), ("--deselect", filters.deselect)):
        for glob in globs:  # a --deselect or --exclude that leaves nothing out is a typo, not a filter
            if glob not in known and (option == "--deselect" or not any(id_matches(i, glob) for i in ids)):
                close = difflib.get_close_matches(glob, ids, n=3, cutoff=0.8)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                raise UserError(f"{option} {glob}: {'is' if option == '--deselect' else 'matches'} no case of the suite{hint}")


def select(filters: CaseFilters, suite: list[Case]) -> Selection:
    """The cases the filters choose, in suite order; UserError if filters choose none (an empty
    suite with no filter is not an error of the filters)."""
    check_filters(filters, suite)
    cases: list[Case] = []
    slow = 0
    for c in suite:
        if filters.matches(c, slow=True):
            if filters.matches(c):
                cases.append(c)
            else:
                slow += 1
    if not cases and (filters.ids or filters.games or filters.kinds or filters.capabilities or filters.deselect
                      or filters.exclude or slow):
        if slow:
            raise UserError(f"{filters.describe()}: selects only slow cases ({slow}): add --slow to run them")
        raise UserError(f"{filters.describe()}: the filters together select no case")
    return Selection(cases, slow)


def load_selection(roots: list[Path] | None, filters: CaseFilters) -> Selection:
    """Load and select. With `--id`, only the files that can hold a matching case are read
    first (one case runs without parsing the whole suite on a cold cache); if that selection
    is refused, the whole suite is loaded so the error is judged against all of it."""
    if filters.ids:
        try:
            return select(filters, load_cases(roots, ids=filters.ids))
        except UserError:
            pass
    return select(filters, load_cases(roots))


def listing(cases: list[Case]) -> list[dict[str, Any]]:
    """`fives conformance list --json`: one object per case."""
    kinds = load_kinds()
    return [{"id": c.id, "kind": c.kind, "game": c.game, "clauses": list(c.clauses),
             "capability": kinds[c.kind].capability, "file": c.file, "tags": list(c.tags)} for c in cases]
