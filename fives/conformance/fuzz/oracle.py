"""Ask an engine and the reference the same question; name the way they disagree.

A disagreement's *signature* is the set of answer keys that differ, with list indices
dropped (`results[2].continues` -> `results[].continues`). For `evaluate` the keys are
grouped coarsely (`count` for contributions, sum, raw, display and scores; `positions`,
`spinners`, `error`) because one miscounted end moves all of them at once. Two
disagreements with the same signature are "the same way"; the shrinker keeps a smaller
request only if it still disagrees with the same signature.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fives.conformance.engines.drivers import Engine, ReferenceEngine
from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import canonical, kind_named
from fives.conformance.cases.reachable import problems

if TYPE_CHECKING:
    from fives.profiles import Profile


_INDEX = re.compile(r"\[\d+\]")
_EVALUATE_GROUPS = {"positions": "positions", "spinners": "spinners", "connections": "connections",
                    "tiles": "tiles", "answer": "answer"}
ENGINE_ERROR = "engine-error"


def diff_key(kind: str, line: str) -> str:
    """The normalized key a one-line difference is about."""
    if line.startswith("engine error"):
        return ENGINE_ERROR
    if line.startswith("unexpected error"):
        return "error:unexpected"
    if line.startswith("expected error"):
        return "error:missing"
    head = line.split(":", 1)[0].strip().split(" ")[0]
    key = _INDEX.sub("[]", head)
    if key.startswith("error"):
        return key
    if kind == "evaluate":
        top = key.split("[")[0].split(".")[0]
        return _EVALUATE_GROUPS.get(top, "count")
    return key


def signature(kind: str, diffs: list[str]) -> tuple[str, ...]:
    return tuple(sorted({diff_key(kind, d) for d in diffs}))


@dataclass
class Verdict:
    """One question asked of both: `status` is agree, differ, skipped, invalid (the
    request is not a well-formed question for the reference, or its state is not reachable
    by play, fives/conformance/cases/reachable.py: the shrinker drops it) or engine-error (the
    engine crashed, timed out or sent what is no answer: not a rule finding)."""

    status: str  # agree | differ | skipped | invalid | engine-error
    expected: Any = None
    actual: Any = None
    diffs: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()


class Oracle:
    """The engine under test and the in-process reference, side by side."""

    def __init__(self, engine: Engine, profile: Profile | None = None) -> None:
        self.engine = engine
        self.reference = ReferenceEngine(profile=profile)  # --rules P: the expectations are P's
        self.requests = 0  # requests sent to the engine

    def ask(self, game: str, kind: str, input: dict[str, Any]) -> Verdict:
        try:
            expected = self.reference.answer(kind, game, input)
        except Exception:  # a shrunk request the reference cannot read is no question at all
            return Verdict("invalid")
        if isinstance(expected, dict) and isinstance(expected.get("error"), dict) \
                and expected["error"].get("code") == "malformed-input":
            return Verdict("invalid", expected)
        if problems(self.reference.rules_for(game), kind, input):
            return Verdict("invalid", expected)
        case = Case(f"fuzz-{self.requests}", kind, game, (), {}, input, expected, "fuzz")
        if self.engine.supports(case) is not None:
            return Verdict("skipped", expected)
        self.requests += 1
        out = self.engine.run(case)
        if out.status == "skipped":
            return Verdict("skipped", expected)
        if out.status == "error":
            return Verdict(ENGINE_ERROR, expected, None, (f"engine error: {out.message}",), (ENGINE_ERROR,))
        try:
            diffs = kind_named(kind).compare(expected, out.answer)
        except Exception as e:  # garbage the comparer chokes on is an engine error, not a rule finding
            line = f"engine error: an answer that cannot be compared ({type(e).__name__}: {e}): {canonical(out.answer)[:200]}"
            return Verdict(ENGINE_ERROR, expected, out.answer, (line,), (ENGINE_ERROR,))
        if not diffs:
            return Verdict("agree", expected, out.answer)
        return Verdict("differ", expected, out.answer, tuple(diffs), signature(kind, diffs))
