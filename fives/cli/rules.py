"""`fives rules show|compare`: rule profiles side by side (spec/variants.md)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from fives.support.writing import dump_json


@click.group("rules")
def rules_group() -> None:
    """Rule profiles: what each says per rule dimension, and which shipped cases they answer differently."""


@rules_group.command("show")
@click.argument("profiles", nargs=-1, required=True, metavar="PROFILE...")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True,
              help="text: a table, changed values marked *; markdown: the table of spec/variants.md; json.")
def show_cmd(profiles: tuple[str, ...], fmt: str) -> None:
    """Per rule dimension, what each PROFILE says (a game id for the seeds' rules, a shipped
    profile's name, or a profile file). `fives rules show --format markdown horse-race
    american-sniff` followed by every shipped profile is the table in spec/variants.md."""
    from fives.conformance.diagnose.variant_compare import resolve, show_json, show_markdown, show_text

    refs = [resolve(p) for p in profiles]
    if fmt == "json":
        sys.stdout.write(dump_json(show_json(refs)))
    else:
        sys.stdout.write(show_markdown(refs) if fmt == "markdown" else show_text(refs))


@rules_group.command("compare")
@click.argument("profiles", nargs=-1, required=True, metavar="PROFILE...")
@click.option("--fixtures", "roots", multiple=True, type=click.Path(path_type=Path),
              help="Fixture file or folder (repeatable). Default: conformance/fixtures.")
@click.option("--limit", type=int, default=20, show_default=True, help="Case IDs listed per pair; 0: all.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: every pair with every differing case ID.")
def compare_cmd(profiles: tuple[str, ...], roots: tuple[Path, ...], limit: int, as_json: bool) -> None:
    """For each pair of PROFILEs (at least two) of the same game, the shipped fixtures whose
    answers differ: every case is answered by the reference engine under each profile."""
    from fives.conformance.cases.fixtures import load_cases
    from fives.conformance.diagnose.variant_compare import compare, compare_text, resolve
    from fives.support import paths
    from fives.support.errors import UserError

    if len(profiles) < 2:
        raise UserError("rules compare: give at least two profiles")
    refs = [resolve(p) for p in profiles]
    cases = load_cases(list(roots) or [paths.FIXTURES])
    pairs = compare(refs, cases)
    if as_json:
        sys.stdout.write(dump_json({"pairs": pairs}))
    else:
        sys.stdout.write(compare_text(pairs, limit))


def register(main: click.Group) -> None:
    main.add_command(rules_group)
