"""`conformance run --rules P`: the suite's expectations under a rule profile.

Every case states its expectation under the seeds' rules. Under P, the reference engine
(the core, under `rules_under(P, game)`) answers each case of P's game again:
- the same answer as stated: P cannot change the case, it keeps its expectation;
- another answer: the case is "expected under P", its expectation that answer (restricted to
  the keys the case states, so an engine is held to what the fixture asks and no more);
- the reference refuses the input (a hand of the wrong size for P's deal, a player count P
  does not allow, ...): P makes the input illegal, and the case is skipped with the reason.
Cases of another game are never changed. The plan is computed once, before any engine runs.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import Kind, kind_named
from fives.support.sanitize import quote

if TYPE_CHECKING:
    from fives.profiles import Profile


@dataclass(frozen=True)
class ProfilePlan:
    """What P does to the suite: which cases it changes, which it makes illegal."""
    profile: Profile
    changed: frozenset[str] = frozenset()  # case IDs whose expectation is the reference's under P
    illegal: dict[str, str] = field(default_factory=dict)  # case ID -> why P makes its input illegal
    unchanged_only: bool = False  # run only the cases P does not change (an engine of the seeds' rules)
    #: case ID -> the parameter of P it pins, for the cases generated from P (profile_pins.py):
    #: every engine that plays another value of that parameter fails it. They are in `changed` too.
    pinned: dict[str, str] = field(default_factory=dict)
    unpinned: tuple[str, ...] = ()  # rival values no state play under P reaches separates from P

    @property
    def label(self) -> str:
        return f"{self.profile.name} ({self.profile.digest})"

    def pins_words(self) -> str:
        """` (K of them generated to pin the values it sets; ...)` for the reports, or "" (no pins)."""
        if not self.pinned and not self.unpinned:
            return ""
        left = f"; no state separates it from {', '.join(self.unpinned)}" if self.unpinned else ""
        return f" ({len(self.pinned)} of them generated to pin the values it sets{left})"

    def skip_reason(self, case: Case) -> str | None:
        """Why `case` is not run under the profile, or None."""
        why = self.illegal.get(case.id)
        if why is not None:
            return f"input illegal under {self.profile.name}: {why}"
        if self.unchanged_only and case.id in self.changed:
            return f"expected under {self.profile.name}: left out (--unchanged-only)"
        return None

    def to_dict(self) -> dict[str, Any]:
        """The `rules` entry of the JSON report."""
        p = self.profile
        return {"name": p.name, "extends": p.extends, "source": p.source, "digest": p.digest,
                "overrides": {k: p.overrides[k] for k in sorted(p.overrides)},
                "expected_under": len(self.changed), "illegal": len(self.illegal),
                "unchanged_only": self.unchanged_only, "pinned": len(self.pinned), "unpinned": list(self.unpinned)}


def expected_answer(stated: dict[str, Any], answer: Any, kind: Kind) -> Any:
    """The expectation under the profile: the reference's answer, on the keys the case states
    (an illegality by index and code, as errors compare). The whole answer when the restricted
    one would not compare equal to it (an error expected where there is now a result)."""
    if isinstance(answer, dict):
        if isinstance(answer.get("error"), dict):
            want: Any = {"error": {k: v for k, v in answer["error"].items() if k != "message"}}
        else:
            want = {k: answer[k] for k in stated if k in answer and k != "error"}
        try:
            if want and not kind.compare(want, answer):
                return want
        except Exception:  # noqa: BLE001 - a comparer that cannot take the part takes the whole
            pass
    return answer


def plan_under(profile: Profile, cases: list[Case],
               unchanged_only: bool = False) -> tuple[list[Case], ProfilePlan]:
    """The cases with their expectations under `profile`, and the plan the runner and the
    reports use. Cases of other games, and games the profile leaves as they are, are kept."""
    from fives.profiles import rules_under

    out: list[Case] = []
    changed: set[str] = set()
    illegal: dict[str, str] = {}
    for case in cases:
        if case.game != profile.extends or not profile.overrides or getattr(case, "profile", None) is not None:
            out.append(case)  # a case that names its own rules keeps them (and its expectation)
            continue
        kind = kind_named(case.kind)
        try:
            answer = kind.run(rules_under(profile, case.game), case.input, {})
        except Exception as e:  # noqa: BLE001 - whatever the reference refuses, P made illegal
            illegal[case.id] = f"{type(e).__name__}: {quote(str(e), 200)[1:-1]}"
            out.append(case)
            continue
        try:
            same = not kind.compare(case.expect, answer)
        except Exception:  # noqa: BLE001 - an answer of another shape is another answer
            same = False
        if same:
            out.append(case)
        else:
            changed.add(case.id)
            out.append(dataclasses.replace(case, expect=expected_answer(case.expect, answer, kind)))
    return out, ProfilePlan(profile, frozenset(changed), illegal, unchanged_only)
