"""`fives golden`: generate and verify golden suites."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import click

from ..errors import EXIT_FAILURES, UserError
from ..io import load_data
from ..progress import Progress
from ..rules import game_ids


@click.group("golden")
def golden() -> None:
    """Golden suites: large generated conformance fixtures, deterministic from a seed."""


@golden.command("generate")
@click.option("--game", "games", multiple=True, required=True, help=f"Game id ({', '.join(game_ids())}); repeatable.")
@click.option("--cases", type=click.IntRange(1), required=True, help="Unique cases per game.")
@click.option("--seed", type=int, required=True, help="The same seed gives byte-identical files.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Output folder.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Worker processes.")
def generate_cmd(games: tuple[str, ...], cases: int, seed: int, out: Path, jobs: int) -> None:
    """Generate CASES fixtures per game into OUT/<game>/<category>.yaml plus OUT/manifest.yaml
    (suite and generator versions, seed, each file's hash). Categories: random play, all four
    Sniff arms, doubles at arm ends, largest and zero sums, Horse Race spinner chains,
    illegal placements, and play: continuation chains, draws, blocked hands with ties,
    partnership settlements, targets crossed mid-hand and at settlement."""
    from ..golden.generate import generate, write_manifest
    for g in games:
        if g not in game_ids():
            raise UserError(f"unknown game {g!r}: one of {', '.join(game_ids())}")
    out.mkdir(parents=True, exist_ok=True)
    suites = []
    for g in games:
        with Progress(cases, f"golden {g}") as bar:
            suites.append(generate(g, cases, seed, out, jobs, bar.advance))
    path = write_manifest(out, suites)
    total = sum(sum(f["cases"] for f in s["files"].values()) for s in suites)
    click.echo(f"wrote {total} cases in {sum(len(s['files']) for s in suites)} files; manifest {path}")


@golden.command("verify")
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
def verify_cmd(folder: Path) -> None:
    """Check every file of a golden suite against the hashes in its manifest."""
    data, name = load_data(folder / "manifest.yaml")
    bad = 0
    for suite in data.get("suites", []):
        for rel, info in suite["files"].items():
            path = folder / rel
            if not path.is_file():
                click.echo(f"{path}: missing", err=True)
                bad += 1
            elif hashlib.sha256(path.read_bytes()).hexdigest() != info["sha256"]:
                click.echo(f"{path}: hash differs from {name}", err=True)
                bad += 1
    click.echo(f"{'ok' if not bad else f'{bad} problem(s)'}: {folder}")
    if bad:
        sys.exit(EXIT_FAILURES)


def register(main: click.Group) -> None:
    main.add_command(golden)
