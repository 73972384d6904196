"""`fives serve`: expose the reference engine over spec/protocol.md."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.engines.serve import MAX_PERFT_DEPTH, serve
from fives.cli._rules_option import rules_option

if TYPE_CHECKING:
    from fives.profiles import Profile


@click.command("serve")
@click.option("--mutant", metavar="NAME", help="Serve a mutant engine with one deliberate misreading (see `fives conformance mutants --list`).")
@click.option("--players", "players", type=click.IntRange(2, 4), multiple=True, metavar="N",
              help="Serve an engine of a narrower scope: it answers only N-player requests (repeatable; "
                   "no partnerships unless 4 is given) and declares that scope in its hello (spec/protocol.md).")
@click.option("--max-perft-depth", type=click.IntRange(min=0), default=MAX_PERFT_DEPTH, show_default=True,
              help="Answer a deeper perft request with an error at once instead of counting for hours "
                   "(the shipped table goes to depth 7).")
@click.option("--strict", is_flag=True,
              help="Refuse a state no play from a deal reaches (a 28-tile layout, a Sniff score off "
                   "the step of 5, ...) with an unreachable-state error answer (spec/protocol.md).")
@rules_option
def serve_cmd(mutant: str | None, players: tuple[int, ...], profile: Profile | None,
              max_perft_depth: int = MAX_PERFT_DEPTH, strict: bool = False) -> None:
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
    engine.strict = strict
    if players:
        engine.handshake.scope = {"players": sorted(set(players)), "partnerships": 4 in players}
    sys.exit(serve(engine, sys.stdin, sys.stdout, max_perft_depth))


def register(main: click.Group) -> None:
    main.add_command(serve_cmd)
