"""`fives conformance diagnose`: from an engine's failures to named causes (spec/diagnose.md).

Added to the `conformance` group by fives/cli/conformance_fuzz.py's `add_to` (no `register`
here: this module adds no top-level command)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fives.cli._rules_option import rules_option
from fives.cli._seconds import Seconds, SecondsRange
from fives.conformance.sessions.diagnose import FUZZ_SHARE
from fives.support.errors import EXIT_ENGINE, EXIT_FAILURES, EXIT_INTERRUPTED, UserError

if TYPE_CHECKING:
    from fives.conformance.sessions.diagnose import DiagnoseOutcome
    from fives.profiles import Profile


@click.command("diagnose")
@click.option("--engine", "command", metavar="CMD", required=True, help="Engine command speaking spec/protocol.md.")
@click.option("--game", "games", multiple=True,
              help="Only this game (repeatable). Default: every game the engine declares.")
@click.option("--id", "ids", multiple=True, metavar="GLOB",
              help="Only suite cases whose ID matches GLOB (repeatable). A glob that matches no case is an error.")
@click.option("--kind", "kinds_", multiple=True,
              help="Only suite cases of this kind (repeatable): evaluate, legal-placements, turn, settle, "
                   "match-end, perft, setup, next-leader, tally.")
@click.option("--capability", "caps", multiple=True, help="Only suite cases needing this engine capability (repeatable).")
@(lambda f: rules_option(f, help="Diagnose against this rule profile (a shipped name or a profile YAML file): "
                                  "its expectations, and every cause a departure from it. Default: the seeds' rules."))
@click.option("--seconds", type=SecondsRange(min=0, min_open=True), default=170.0, show_default=True,
              help="Time budget for the fuzzer, the search and the shrinking (the suite itself always runs whole).")
@click.option("--fuzz", "fuzz_draws", type=click.IntRange(min=0), default=300, show_default=True,
              help="Requests the fuzzer draws after the suite (0: no fuzzing), of the --kind given if any; it stops "
                   f"early at {int(FUZZ_SHARE * 100)}% of --seconds.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the fuzzer's requests.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for profile.yaml (the inferred profile), diagnosis.json and, in fixtures/, one minimal "
                   "fixture per cause and per unexplained cluster (created if missing). It must be new or empty, "
                   "unless --force; the files are written as one set, renamed into place.")
@click.option("--force", is_flag=True,
              help="Replace the diagnosis in a non-empty --out folder (only a folder holding nothing but what "
                   "diagnose writes).")
@click.option("--json", "as_json", is_flag=True, help="Print the diagnosis as JSON instead of lines.")
@click.option("--timeout", type=Seconds(), default=10.0, show_default=True, help="Seconds an engine may take per request.")
@click.option("--no-mutants", is_flag=True,
              help="Search the rule variants only: a misreading no variant expresses is then left as a cluster.")
@click.option("--expect-seeds", is_flag=True,
              help="The engine means to play the seeds' rules (with --rules BASE: BASE's): every cause found is "
                   "reported as a departure, the engine's bug, and the run exits 1 (for a CI gate).")
def diagnose_cmd(command: str, games: tuple[str, ...], ids: tuple[str, ...], kinds_: tuple[str, ...],
                 caps: tuple[str, ...], seconds: float, fuzz_draws: int, seed: int, out: Path | None,
                 as_json: bool, timeout: float, no_mutants: bool, expect_seeds: bool = False, force: bool = False,
                 profile: Profile | None = None) -> None:
    """Run the suite and the fuzzer against an engine, then name the causes of its failures:
    rule variants (a dimension of spec/variants.md at another value) and shipped mutants, the
    fewest that explain the most failures without turning a passing case into a failure
    (spec/diagnose.md). Prints each cause with the clause it departs from, its seed quote,
    how many failures it explains and a minimal reachable example that shows it alone; then
    the failures no cause explains, clustered by difference pattern (the engine's likely
    bugs), each with a minimal case. With --rules BASE, causes are departures from BASE.

    Exit 0 when every failure is explained by a rule (or none), 1 when some are left, a
    known misreading explains some (a bug, named), a rule explains some under --expect-seeds,
    or the engine answered a request two ways (each example is asked again before it is
    reported; the request and both replies are printed), 2 for bad
    options, 3 when the engine cannot be started, 130 on Ctrl-C and 143 on SIGTERM (what was
    found so far is printed and written first, and the engine's whole process group killed).
    Engine errors met by the fuzzer (a crash, a hang, a reply that is no answer) exit 1 too. The same --seed gives the same output when the time budget
    does not run out."""
    from fives.conformance.engines.handle import EngineSpec, EngineStartError
    from fives.conformance.sessions.diagnose import Budget, DiagnoseOptions, NothingFound, check_out, diagnose

    check_games(games)
    if out is not None:  # before any work: a folder that cannot be written costs nothing
        check_out(out, force)
    options = DiagnoseOptions(EngineSpec(command, timeout=timeout), games, ids, kinds_, caps, profile,
                              Budget(seconds), fuzz_draws, seed, mutants=not no_mutants, expect_seeds=expect_seeds)
    try:
        outcome = diagnose(options, note=_err, progress=_err if sys.stderr.isatty() else None)
    except EngineStartError as e:
        raise UserError(f"engine {command!r}: {e}", EXIT_ENGINE) from None
    except NothingFound as e:
        raise UserError(str(e), EXIT_INTERRUPTED) from None  # 143 after SIGTERM
    _report(outcome, as_json)
    if out is not None:
        outcome.write(out, force, note=_err)
    _exit(outcome)


def check_games(games: tuple[str, ...]) -> None:
    """UserError for a --game no game has (`conformance fuzz` and `conformance diagnose`)."""
    from fives.rules import game_ids

    for g in games:
        if g not in game_ids():
            raise UserError(f"--game {g}: unknown game (one of {', '.join(game_ids())})")


def _err(line: str) -> None:
    click.echo(line, err=True)


def _report(outcome: DiagnoseOutcome, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(outcome.to_json(), sort_keys=True))
    else:
        for line in outcome.lines():
            click.echo(line)


def _exit(outcome: DiagnoseOutcome) -> None:
    if outcome.interrupted:
        _err("fives: interrupted: the diagnosis above is what was found so far")
        sys.exit(EXIT_INTERRUPTED)  # 143 after SIGTERM (fives/cli/__init__.py)
    if not outcome.conforms:
        sys.exit(EXIT_FAILURES)  # a known misreading named is still a bug: the engine does not conform
