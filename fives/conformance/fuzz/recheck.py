"""Findings that reproduce (spec/fuzz.md, "Asked again"): before a case is written for an engine to
fail, its request is asked again, on the same engine and on one started afresh, and every reply
must be the one the case was made from. A reply that changes is the engine answering
inconsistently (an `Inconsistency`: the request and both replies), reported as such and never as
a rule finding, a cause or a stable bug; the case is not written.

Asking again on the same engine catches replies wrong at random; asking a freshly started one
catches an engine whose answers drift with the requests it has had (right for its first N, wrong
after): a case made late in a long run is then answered otherwise at the start of a re-run.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterable

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import canonical, kind_named
from fives.conformance.engines.drivers import Engine, Outcome
from fives.support.sanitize import one_line

#: times a request is asked again on the same engine (a reply wrong one time in ten shows
#: with odds 0.99 in two)
REASKS = 2
AGAIN = "asked again"
FRESH = "asked an engine started afresh"
#: characters of a request or reply a report line shows
SHOWN = 2000


@dataclass(frozen=True)
class Inconsistency:
    """The engine answered `input` (of `game`, `kind`) with `first`, then with `second` when it
    was `how` (AGAIN or FRESH); `about` says what the case would have been written as."""

    game: str
    kind: str
    input: dict[str, Any]
    first: Any
    second: Any
    how: str
    about: str

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "kind": self.kind, "about": self.about, "how": self.how, "input": self.input,
                "first": self.first, "second": self.second}


def reply_of(out: Outcome) -> Any:
    """What the engine replied, comparable: its answer, or what went wrong instead."""
    if out.status == "ok":
        return out.answer
    return {"engine " + out.status: one_line(out.message, 300)}


def same_reply(kind: str, a: Any, b: Any) -> bool:
    """The same answer both ways (the kind's own comparison, either way round)."""
    if canonical(a) == canonical(b):
        return True
    try:
        cmp = kind_named(kind).compare
        return not cmp(a, b) and not cmp(b, a)
    except Exception:  # noqa: BLE001 - replies the comparer cannot read are the same only if equal
        return False


_ids = itertools.count()


def ask(engine: Engine, game: str, kind: str, input: dict[str, Any], expected: Any) -> Any:
    case = Case(f"recheck-{next(_ids)}", kind, game, (), {}, input, expected, "recheck")
    return reply_of(engine.run(case))


def changed(engine: Engine, game: str, kind: str, input: dict[str, Any], expected: Any, first: Any, about: str,
            times: int = REASKS, how: str = AGAIN) -> tuple[Inconsistency | None, int]:
    """Ask `times` more times: (the first reply unlike `first`, as an Inconsistency, or None;
    the requests asked)."""
    for n in range(1, times + 1):
        again = ask(engine, game, kind, input, expected)
        if not same_reply(kind, first, again):
            return Inconsistency(game, kind, input, first, again, how, about), n
    return None, times


def lines(found: Iterable[Inconsistency]) -> list[str]:
    """The report: a line per inconsistency, then the request and both replies, indented."""
    out = []
    for i in found:
        out.append(f"inconsistent: the engine answered one {i.game} {i.kind} request two ways ({i.how}), so "
                   f"{i.about} is not written: an engine error, not a rule")
        out.append(f"  request: {one_line(canonical(i.input), SHOWN)}")
        out.append(f"  first reply: {one_line(canonical(i.first), SHOWN)}")
        out.append(f"  then: {one_line(canonical(i.second), SHOWN)}")
    return out
