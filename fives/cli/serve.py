"""`fives serve`: expose the reference engine over spec/protocol.md."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.engines.serve import serve
from fives.cli._rules_option import rules_option

if TYPE_CHECKING:
    from fives.profiles import Profile


@click.command("serve")
@click.option("--mutant", metavar="NAME", help="Serve a mutant engine with one deliberate misreading (see `fives conformance mutants --list`).")
@rules_option
def serve_cmd(mutant: str | None, profile: Profile | None) -> None:
    """Speak the fives engine protocol on stdin/stdout: a hello handshake, then one JSON
    request per line and one JSON reply per line, until end of input. Works for both the
    persistent and the one-process-per-case mode.

    Without --rules the engine declares the `rules` capability and plays the profile each
    request names (spec/protocol.md); with --rules P it plays P whatever a request says and
    does not declare `rules`, like an engine whose house rules are P."""
    if mutant:
        from fives.conformance.mutants.registry import mutant_engine
        engine = mutant_engine(mutant, profile, honours_rules=profile is None)
    else:
        engine = ReferenceEngine(profile=profile, honours_rules=profile is None)
    sys.exit(serve(engine, sys.stdin, sys.stdout))


def register(main: click.Group) -> None:
    main.add_command(serve_cmd)
