"""Perft through an engine under test, behind `fives perft --engine CMD [--bisect]`: the
engine's counts compared with the reference's, or (`bisect`) the difference bisected down to
the shortest layout whose immediate placements or points differ (fives/conformance/bisect.py).

`engine_perft(EnginePerftOptions(...))` starts the engine (an `EngineSpec` with the rules'
profile, told to an engine that declares `rules`), asks, closes it and returns an
`EnginePerft`; `text()` is what the CLI prints and `exit_code` its verdict. An engine that
cannot be started, does not declare what is asked or fails a request is a UserError with
exit code 3 (EXIT_ENGINE).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from fives.conformance.bisect import Asker, BisectResult, Counts, EngineFailed, bisect, counts_text, report
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.engines.handle import EngineSpec, EngineStartError
from fives.perft_session import ENGINE_TIMEOUT
from fives.rules import GameRules
from fives.support.errors import EXIT_ENGINE, EXIT_FAILURES, UserError

__all__ = ["EnginePerft", "EnginePerftOptions", "engine_perft"]


@dataclass(frozen=True)
class EnginePerftOptions:
    """The engine `command` asked for the counts of `depth` placements from `start` (placement
    records; empty: the empty layout) under `rules` (and their profile); `bisect`: descend to
    the shortest differing layout. `timeout`: seconds per request (0: no limit)."""

    command: str
    rules: GameRules
    depth: int
    start: tuple[dict[str, Any], ...] = ()
    bisect: bool = False
    timeout: float = ENGINE_TIMEOUT


@dataclass
class EnginePerft:
    """Without `bisect`: the engine's counts (None: it called the layout illegal, with its
    error `code`) and the reference's. With `bisect`: the bisection, None when the counts
    agree at every depth 1..depth."""

    options: EnginePerftOptions
    engine: Counts | None = None
    reference: Counts | None = None
    code: str = ""
    bisection: BisectResult | None = None

    @property
    def agrees(self) -> bool:
        if self.options.bisect:
            return self.bisection is None
        return self.engine == self.reference

    @property
    def exit_code(self) -> int:
        return 0 if self.agrees else EXIT_FAILURES

    def text(self) -> str:
        """What `fives perft --engine` prints: the two counts, or the bisection's placements file."""
        o, game = self.options, self.options.rules.id
        if not o.bisect:
            assert self.reference is not None
            got = counts_text(self.engine) if self.engine else "error " + self.code
            return f"{game} depth {o.depth}: engine {got}, reference {counts_text(self.reference)}\n"
        if self.bisection is None:
            return f"{game}: the engine's counts agree with the reference at every depth 1..{o.depth}\n"
        return report(self.bisection, game, o.command)


def engine_perft(options: EnginePerftOptions, note: Callable[[str], None] | None = None) -> EnginePerft:
    """Ask the engine (and the reference) and compare; `note` hears each step of a bisection."""
    rules, command = options.rules, options.command
    try:
        # perft --rules P: told to an engine that declares `rules`
        engine, hs = EngineSpec(command, timeout=options.timeout, profile=rules.profile).start()
    except EngineStartError as e:
        raise UserError(f"engine {command!r}: {e}", EXIT_ENGINE) from None
    try:
        if rules.id not in hs.games or "perft" not in hs.capabilities \
                or (options.bisect and "evaluate" not in hs.capabilities):
            need = "perft and evaluate" if options.bisect else "perft"
            raise UserError(f"engine {command!r} does not declare game {rules.id} and capability {need}", EXIT_ENGINE)
        ask = Asker(engine, rules.id, reference=ReferenceEngine(profile=rules.profile))  # --rules P: P's counts
        start = list(options.start)
        if options.bisect:
            return EnginePerft(options, bisection=bisect(ask, rules, start, options.depth, note=note))
        got, want, code = ask.perft(start, options.depth)
        assert want is not None
        return EnginePerft(options, got, want, code)
    except EngineFailed as e:
        raise UserError(f"engine {command!r}: {e}", EXIT_ENGINE) from None
    finally:
        engine.close()
