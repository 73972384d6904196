"""`fives serve`: expose the reference engine over spec/protocol.md."""
from __future__ import annotations

import sys

import click

from fives.conformance.drivers import ReferenceEngine
from fives.conformance.serve import serve


@click.command("serve")
@click.option("--mutant", metavar="NAME", help="Serve a mutant engine with one deliberate misreading (see `fives conformance mutants --list`).")
def serve_cmd(mutant: str | None) -> None:
    """Speak the fives engine protocol on stdin/stdout: a hello handshake, then one JSON
    request per line and one JSON reply per line, until end of input. Works for both the
    persistent and the one-process-per-case mode."""
    if mutant:
        from fives.conformance.mutants import mutant_engine
        engine = mutant_engine(mutant)
    else:
        engine = ReferenceEngine()
    sys.exit(serve(engine, sys.stdin, sys.stdout))


def register(main: click.Group) -> None:
    main.add_command(serve_cmd)
