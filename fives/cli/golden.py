"""`fives golden`: generate and verify golden suites."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING
from pathlib import Path

import click
from fives.support.wording import plural

from fives.cli._samples import SamplePath
from fives.support.bundled import GOLDEN
from fives.support.errors import EXIT_FAILURES, UserError
from fives.support.sanitize import clean_name
from fives.support.progress import Progress
from fives.rules import game_ids
from fives.cli._rules_option import rules_option

if TYPE_CHECKING:
    from fives.profiles import Profile


@click.group("golden")
def golden() -> None:
    """Golden suites: large generated conformance fixtures, deterministic from a seed."""


@golden.command("generate")
@click.option("--game", "games", multiple=True, required=True, help=f"Game id ({', '.join(game_ids())}); repeatable.")
@click.option("--cases", type=click.IntRange(1, 100_000_000), required=True, help="Unique cases per game.")
@click.option("--seed", type=int, required=True, help="The same seed gives byte-identical files.")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Output folder: must be absent or empty, unless --force.")
@click.option("--force", is_flag=True,
              help="Replace the golden suite in a non-empty OUT. Refused if OUT holds anything else than "
                   "manifest.yaml and <game>/*.yaml files (nothing else is ever deleted).")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes on this machine (same files for any value; ignored with --dask).")
@click.option("--dask", metavar="ADDRESS",
              help="Run the work on a Dask cluster: local:N starts N workers here, or a scheduler address "
                   "such as tcp://host:8786. Same files as without. Needs: pip install 'fives[dask]'.")
@rules_option
def generate_cmd(games: tuple[str, ...], cases: int, seed: int, out: Path, force: bool, jobs: int,
                 dask: str | None, profile: Profile | None) -> None:
    """Generate CASES fixtures per game into OUT/<game>/<category>.yaml plus OUT/manifest.yaml
    (suite and generator versions, the command, each file's case count, size and SHA-256).
    Categories: random play, all four Sniff arms, doubles at arm ends, largest and zero sums,
    Horse Race spinner chains, illegal placements, and play: continuation chains, draws,
    blocked hands with ties, partnership settlements, targets crossed mid-hand and at settlement.

    The suite is written into a hidden folder beside OUT and renamed into place when complete
    (manifest last): an interrupted run leaves OUT as it was. With --rules P every expectation
    is the reference's under P; the files of P's game and the manifest name P.
    """
    from fives.support.distribute import parse_dask_address, require_dask
    from fives.conformance.golden.folder import staged_folder
    from fives.conformance.golden.generate import finish, generate
    for g in games:
        if g not in game_ids():
            raise UserError(f"unknown game {clean_name(g)[:40]!r}: one of {', '.join(game_ids())}")
    games = tuple(dict.fromkeys(games))
    if dask is not None:
        parse_dask_address(dask)
        require_dask()
    suites = []
    with staged_folder(out, force) as stage:  # the CLI's Stop turns SIGTERM into an interrupt
        for g in games:
            with Progress(cases, f"golden {g}") as bar:
                suites.append(generate(g, cases, seed, stage, jobs, bar.advance, dask=dask,
                                       **({"profile": profile} if profile is not None else {})))
        finish(stage, suites, games, cases, seed, **({"profile": profile} if profile is not None else {}))
    total = sum(s["cases"] for s in suites)
    click.echo(f"wrote {plural(total, 'case')} in {plural(sum(len(s['files']) for s in suites), 'file')}; "
               f"manifest {clean_name(str(out / 'manifest.yaml'))}")


@golden.command("verify")
@click.argument("folder", type=SamplePath(GOLDEN))
@rules_option
def verify_cmd(folder: Path, profile: Profile | None) -> None:
    """Check a golden suite against its manifest: every listed file present with its size and
    SHA-256, no file the manifest does not list. Exit 0 ok, 1 with one line per problem,
    2 for a missing, malformed or incomplete manifest, or a suite made under other rules than
    the ones given (--rules P for a suite made under P, none for the seeds')."""
    from fives.conformance.golden.manifest import check_suite_rules, verify_suite
    if not folder.is_dir():
        raise UserError(f"{clean_name(str(folder))}: no such folder")
    problems = verify_suite(folder)
    check_suite_rules(folder, profile)
    for p in problems:
        click.echo(p, err=True)
    click.echo(f"{'ok' if not problems else plural(len(problems), 'problem')}: {clean_name(str(folder))}")
    if problems:
        sys.exit(EXIT_FAILURES)


def register(main: click.Group) -> None:
    main.add_command(golden)
