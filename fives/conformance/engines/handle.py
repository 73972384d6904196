"""One engine under test, described once: `EngineSpec` (command, one-shot, timeout, validate,
profile), and the one way to open it.

Every caller that talks to an engine under test (a conformance run, the pytest plugin, the
fuzzer, diagnose, perft through the protocol, the mutants) builds an `EngineSpec` and calls
`open()` (a driver, not started) or `start()` (a started driver and its hello). The errors of
this layer speak of the engine, never of a command-line flag: the CLI words its own options.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Mapping

from fives.conformance.engines.drivers import Engine, EngineStartError, Handshake

if TYPE_CHECKING:
    from fives.profiles import Profile

__all__ = ["DEFAULT_TIMEOUT", "EngineSpec", "EngineStartError"]

from fives.conformance.engines.process import DEFAULT_TIMEOUT


@dataclass(frozen=True)
class EngineSpec:
    """An engine under test. `command` None is the built-in reference engine, in process.

    `timeout`: seconds per case of ordinary size (None: the default, 10, except that slow
    cases in process, deep perft rows that take minutes by design, then run to the end; 0: no
    limit). `validate`: check every message both ways against the protocol schemas. `profile`:
    the rule profile of the run, told to an engine that declares the `rules` capability (one
    that does not is taken to play it). `hooks` and `name`: the in-process reference engine
    with rule pieces swapped (a mutant engine, fives/conformance/mutants/) and its name.
    """

    command: str | None = None
    oneshot: bool = False
    timeout: float | None = None
    validate: bool = False
    profile: Profile | None = None
    hooks: Mapping[str, Any] | None = field(default=None, compare=False)
    name: str | None = None

    def __post_init__(self) -> None:
        if self.oneshot and self.command is None:
            raise EngineStartError("a one-shot engine needs a command to start once per case")
        if self.hooks is not None and self.command is not None:
            raise EngineStartError("hooks swap rule pieces of the in-process engine: an engine command takes none")

    @property
    def label(self) -> str:
        """How reports name the engine: its command, or the reference engine's (or mutant's) name."""
        if self.command is not None:
            return self.command
        return self.name or "fives-reference"

    def with_profile(self, profile: Profile | None) -> EngineSpec:
        return replace(self, profile=profile)

    def open(self) -> Engine:
        """The driver, not yet started; EngineStartError for a command that cannot be parsed."""
        budget = DEFAULT_TIMEOUT if self.timeout is None else self.timeout
        if self.command is None:
            from fives.conformance.engines.drivers import ReferenceEngine

            # an explicit timeout holds in process too (0: no limit)
            return ReferenceEngine(dict(self.hooks) if self.hooks else None, name=self.label, timeout=budget,
                                   slow_timeout=self.timeout, profile=self.profile)
        validator = None
        if self.validate:
            from fives.conformance.engines.protocol import MessageValidator

            validator = MessageValidator()
        from fives.conformance.engines.process import OneShotEngine, ProcessEngine

        cls = OneShotEngine if self.oneshot else ProcessEngine
        engine = cls(self.command, timeout=budget, validator=validator)
        engine.profile = self.profile  # told to an engine that declares `rules` (drivers.Engine.rules_told)
        return engine

    def start(self) -> tuple[Engine, Handshake]:
        """The driver, started, and its hello; on EngineStartError nothing it started is left."""
        engine = self.open()
        try:
            return engine, engine.start()
        except BaseException:
            engine.close()
            raise
