"""The case filter options shared by `fives conformance run` and `fives conformance list`
(not a command module: the leading underscore keeps it out of the command table)."""
from __future__ import annotations

from typing import Any, Callable

import click

F = Callable[..., Any]


def case_filter_options(f: F) -> F:
    """--id, --game, --kind, --capability, --deselect, --exclude, --slow; passed as ids, games,
    kinds_, caps, deselect, exclude, slow."""
    options = [
        click.option("--id", "ids", multiple=True, metavar="GLOB",
                     help="Only cases whose ID matches GLOB (repeatable), e.g. 'HR-SETTLE-*'. A glob that matches no case is an error (exit 2)."),
        click.option("--game", "games", multiple=True,
                     help="Only cases of this game (repeatable). A game the suite has no case of is an error (exit 2)."),
        click.option("--kind", "kinds_", multiple=True,
                     help="Only cases of this kind (repeatable): evaluate, legal-placements, turn, settle, match-end, perft, setup, next-leader, tally."),
        click.option("--capability", "caps", multiple=True,
                     help="Only cases needing this engine capability (repeatable)."),
        click.option("--deselect", "deselect", multiple=True, metavar="ID",
                     help="Leave out the case with this ID (repeatable), as pytest's --deselect. An ID the suite does not have is an error (exit 2)."),
        click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
                     help="Leave out the cases whose ID matches GLOB (repeatable), e.g. 'SN-PERFT-*'. A glob that matches no case is an error (exit 2)."),
        click.option("--slow", is_flag=True,
                     help="Also take the cases tagged slow (deep perft rows: above 200,000 sequences, or a big layout and depth)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f
