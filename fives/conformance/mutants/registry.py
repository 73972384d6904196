"""Mutant engines: the reference engine with exactly one classic misreading each.

`fives conformance mutants` runs the whole suite against every mutant through the protocol
(`fives serve --mutant NAME`) and proves each one is caught by at least one fixture. Each
mutant overrides one hook of the layout (`fives.layout.Layout`), the match
(`fives.match.Match`) or the settlement (`fives.settlement.Settlement`).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.mutants.kinds import KIND_MUTANTS
from fives.conformance.mutants.layout import LAYOUT_MUTANTS, Mutant
from fives.conformance.mutants.play import PLAY_MUTANTS
from fives.support.errors import UserError

if TYPE_CHECKING:
    from fives.conformance.cases.expected_under import ProfilePlan
    from fives.conformance.cases.fixtures import Case
    from fives.conformance.engines.drivers import Engine
    from fives.conformance.runner import CaseResult
    from fives.profiles import Profile

__all__ = ["KIND_MUTANTS", "LAYOUT_MUTANTS", "PLAY_MUTANTS", "Mutant", "MutantResult", "all_mutants", "mutant_engine", "mutant_spec",
           "run_mutant"]


def all_mutants() -> list[Mutant]:
    return LAYOUT_MUTANTS + PLAY_MUTANTS + KIND_MUTANTS


def mutant_engine(name: str, profile: Profile | None = None, honours_rules: bool = False) -> ReferenceEngine:
    """`fives serve --mutant NAME [--rules P]`: the misreading on top of P, or (`honours_rules`)
    on top of the profile each request names."""
    for m in all_mutants():
        if m.name == name:
            return ReferenceEngine(m.hooks(), name=f"fives-mutant-{name}", profile=profile, honours_rules=honours_rules)
    raise UserError(f"unknown mutant {name!r}: one of {', '.join(m.name for m in all_mutants())}")


#: Perft cases up to this many sequences run against mutants (their push/pop walk is slow).
MUTANT_PERFT_NODES = 5_000


@dataclass
class MutantResult:
    mutant: Mutant
    killers: list[CaseResult]  # every case the mutant fails or errors
    ran: int

    @property
    def killed(self) -> bool:
        return bool(self.killers)


def run_mutant(m: Mutant, cases: list[Case], via_protocol: bool, timeout: float, plan: ProfilePlan | None = None,
               stop: threading.Event | None = None, live: list[Engine] | None = None) -> MutantResult | None:
    """Run every case against one mutant; the cases it fails or errors are its killers.
    `plan` (--rules P, fives/conformance/cases/expected_under.py): the cases carry P's expectations
    and the mutant plays P (told through the protocol's `rules`) with its one misreading.
    `stop` set (Ctrl-C, SIGTERM in the main thread): the run ends after the case in hand and
    None is returned; the started engine is put in `live` so the main thread can kill it."""
    from fives.conformance.runner import run_cases
    from fives.conformance.stopping import StopRun

    # deep perft rows add nothing the shallow rows and divides do not already catch
    cases = [c for c in cases if c.kind != "perft" or c.expect["nodes"] <= MUTANT_PERFT_NODES]
    if stop is not None and stop.is_set():
        return None
    engine = mutant_spec(m, via_protocol, timeout, plan.profile if plan is not None else None).open()
    if live is not None:
        live.append(engine)
    engine.start()

    def halt(_: object) -> None:
        if stop is not None and stop.is_set():
            raise StopRun(0)

    try:
        results = run_cases(engine, cases, on_result=halt, plan=plan)
    except StopRun:
        return None
    finally:
        engine.close()
    return MutantResult(m, [r for r in results if r.status in ("failed", "errored")], len(results))


def mutant_spec(m: Mutant, via_protocol: bool, timeout: float, profile: Profile | None = None) -> EngineSpec:
    """The mutant as an engine under test: `fives serve --mutant NAME` through the protocol, or
    the reference engine with its hooks in process; `profile` is told to it (--rules P)."""
    import sys

    if via_protocol:
        return EngineSpec(f"{sys.executable} -m fives.cli serve --mutant {m.name}", timeout=timeout, profile=profile)
    return EngineSpec(hooks=m.hooks(), name=m.name, timeout=timeout, profile=profile)
