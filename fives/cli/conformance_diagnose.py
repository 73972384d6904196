"""`fives conformance diagnose`: from an engine's failures to named causes (spec/diagnose.md).

Added to the `conformance` group by fives/cli/conformance_fuzz.py's `add_to` (no `register`
here: this module adds no top-level command)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

import click

from fives.cli._rules_option import rules_option
from fives.cli._seconds import Seconds, SecondsRange
from fives.conformance.engines.drivers import EngineStartError
from fives.rules import game_ids
from fives.support.errors import EXIT_ENGINE, EXIT_FAILURES, EXIT_INTERRUPTED, EXIT_TERMINATED, UserError
from fives.support.progress import Progress
from fives.support.sanitize import clean_name

#: the share of --seconds the fuzzer may take (the rest: the search and the shrinking)
FUZZ_SHARE = 0.3
#: the share of what the fuzzer leaves that the search may take: the shrinking has the rest
#: (and whatever the search does not use), so every example gets its turn (spec/diagnose.md)
SEARCH_SHARE = 0.6


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
def diagnose_cmd(command: str, games: tuple[str, ...], ids: tuple[str, ...], kinds_: tuple[str, ...],
                 caps: tuple[str, ...], seconds: float, fuzz_draws: int, seed: int, out: Path | None,
                 as_json: bool, timeout: float, no_mutants: bool, force: bool = False, profile: Any = None) -> None:
    """Run the suite and the fuzzer against an engine, then name the causes of its failures:
    rule variants (a dimension of spec/variants.md at another value) and shipped mutants, the
    fewest that explain the most failures without turning a passing case into a failure
    (spec/diagnose.md). Prints each cause with the clause it departs from, its seed quote,
    how many failures it explains and a minimal reachable example that shows it alone; then
    the failures no cause explains, clustered by difference pattern (the engine's likely
    bugs), each with a minimal case. With --rules BASE, causes are departures from BASE.

    Exit 0 when every failure is explained by a rule (or none), 1 when some are left or a
    known misreading explains some (a bug, named), 2 for bad
    options, 3 when the engine cannot be started, 130 on Ctrl-C and 143 on SIGTERM (what was
    found so far is printed and written first, and the engine's whole process group killed).
    Engine errors met by the fuzzer (a crash, a hang, a reply that is no answer) exit 1 too. The same --seed gives the same output when the time budget
    does not run out."""
    from fives.conformance.diagnose import diagnosis as dx
    from fives.conformance.diagnose.probe import fuzz_results, shrink_examples
    from fives.conformance.cases.kinds import load_kinds
    from fives.conformance.engines.process import make_engine
    from fives.conformance.runner import CaseResult, run_cases
    from fives.conformance.cases.selection import CaseFilters, load_selection

    for g in games:
        if g not in game_ids():
            raise UserError(f"--game {g}: unknown game (one of {', '.join(game_ids())})")
    if out is not None:  # before any work: a folder that cannot be written costs nothing
        from fives.support.staging import check_out
        if out.exists() and not out.is_dir():  # the wording of earlier versions, kept
            raise UserError(f"--out {out}: not a folder")
        if any(p.exists() and not p.is_dir() for p in out.parents):
            raise UserError(f"--out {out}: cannot create the folder (Not a directory)")
        check_out(out, force, diagnosis_files, "diagnosis")
    from fives.conformance.runner import sigterm_as_interrupt
    signals = sigterm_as_interrupt()  # SIGTERM (how CI cancels a job) stops like Ctrl-C
    click.get_current_context().call_on_close(signals.restore)
    kinds = load_kinds()
    chosen_cases = load_selection(None, CaseFilters(ids, games, kinds_, caps, False), kinds).cases
    # the seeds' own cases (or BASE's expectations of them), without the deep perft rows
    cases = [c for c in chosen_cases if c.rules is None and "slow" not in c.tags]
    if profile is not None:
        from fives.conformance.cases.expected_under import plan_under
        cases, plan = plan_under(profile, cases, kinds)
        cases = [c for c in cases if plan.skip_reason(c) is None]  # inputs BASE makes illegal
    engine = make_engine(command, False, timeout, False, profile)
    try:
        hs = engine.start()
    except EngineStartError as e:
        raise UserError(f"engine {command!r}: {e}", EXIT_ENGINE) from None
    chosen = [g for g in (games or game_ids()) if g in hs.games]
    cases = [c for c in cases if c.game in chosen]
    say: Callable[[str], None] | None = (lambda s: click.echo(s, err=True)) if sys.stderr.isatty() else None
    results: list[CaseResult] = []
    extra: list[CaseResult] = []
    fuzzed: dict[str, Any] = {}
    interrupted = False
    start = time.monotonic()
    try:
        try:
            with Progress(len(cases), "suite") as bar:
                run_cases(engine, cases, kinds, on_result=lambda r: (results.append(r), bar.advance()))
        except KeyboardInterrupt:
            interrupted = True
        deadline = time.monotonic() + seconds
        from fives.conformance.fuzz import fuzz_kinds
        fuzz_kinds_ = [k for k in kinds_ if k in fuzz_kinds()]  # of --kind, those the fuzzer makes
        if not interrupted and fuzz_draws and (fuzz_kinds_ or not kinds_):
            with Progress(fuzz_draws, "fuzz") as bar:
                extra, fuzzed = fuzz_results(engine, chosen, seed, fuzz_draws, seconds * FUZZ_SHARE, profile,
                                             on_draw=lambda i, r: bar.advance(note=f"{len(r.findings)} found"),
                                             kinds=fuzz_kinds_ or None)
            interrupted = bool(fuzzed.get("interrupted"))
            if not interrupted and fuzzed["draws"] < fuzz_draws:
                click.echo(f"fives: the fuzzer stopped at the time budget after {fuzzed['draws']} of {fuzz_draws} "
                           "draws: give more --seconds for the same output every time", err=True)
        now = time.monotonic()
        search_until = now + max(0.0, deadline - now) * SEARCH_SHARE
        try:
            d = dx.diagnose(results, kinds, chosen, note=say, deadline=search_until, mutants=not no_mutants,
                            base=profile, extra=extra)
        except KeyboardInterrupt:
            raise UserError("interrupted before any cause was found",
                            EXIT_TERMINATED if signals.terminated else EXIT_INTERRUPTED) from None
        d.fuzz = fuzzed
        if getattr(hs, "scope", None):  # the hello's scope: the cases outside it are the engine's scope
            d.scope = {"declared": hs.scope, "skipped": d.scope.get("skipped", 0),
                       "reasons": d.scope.get("reasons", {})}
        interrupted = interrupted or d.stopped == "interrupted"
        if not interrupted:
            try:
                with Progress(None, "shrinking the examples"):
                    shrink_examples(d, engine, kinds, deadline=deadline, note=say)
                    if d.stopped == "time" and deadline - time.monotonic() > 1.0:
                        # the examples had their share: the search goes on with what is left
                        d = _extended(d, results, extra, kinds, chosen, say, deadline, no_mutants, profile,
                                      engine)
                        interrupted = d.stopped == "interrupted"
            except KeyboardInterrupt:
                interrupted = True
    finally:
        engine.close()
    d.seconds = time.monotonic() - start
    if as_json:
        click.echo(json.dumps(dx.to_json(d), sort_keys=True))
    else:
        for line in dx.lines(d):
            click.echo(line)
    if out is not None:
        from fives.conformance.runner import signals_held
        with signals_held():  # a second signal must not leave half a set
            _write(d, out, chosen, command, force)
    if interrupted:
        click.echo("fives: interrupted: the diagnosis above is what was found so far", err=True)
        sys.exit(EXIT_TERMINATED if signals.terminated else EXIT_INTERRUPTED)
    if d.unexplained or d.misreadings or fuzzed.get("engine_errors"):
        sys.exit(EXIT_FAILURES)  # a known misreading named is still a bug: the engine does not conform


def _extended(d: Any, results: list[Any], extra: list[Any], kinds: Any, chosen: list[str],
              say: Callable[[str], None] | None, deadline: float, no_mutants: bool, profile: Any,
              engine: Any) -> Any:
    """The search run again to the deadline with every answer it has (the examples shrunk first,
    spec/diagnose.md "The budget"), then the examples of what it adds shrunk in what is left."""
    from fives.conformance.diagnose import diagnosis as dx
    from fives.conformance.diagnose.probe import shrink_examples

    if say:
        say("the examples had their share of the time: the search goes on with what is left")
    more = dx.diagnose(results, kinds, chosen, note=say, deadline=deadline, mutants=not no_mutants, base=profile,
                       extra=extra, scorers=d.scorers)
    more.fuzz, more.scope = d.fuzz, d.scope
    more.requests["shrink"] = d.requests.get("shrink", 0)
    shrink_examples(more, engine, kinds, deadline=deadline, note=say, earlier=d)
    return more


def profile_game(d: Any, chosen: list[str]) -> str | None:
    """The game whose inferred profile is DIR/profile.yaml: the one game with rule causes (or
    the one game diagnosed); None when two games have them (a profile is of one game)."""
    ruled = [g for g in chosen if d.combined.get(g)]
    if len(ruled) == 1:
        return ruled[0]
    if not ruled and len(chosen) == 1:
        return chosen[0]
    return None


def diagnosis_files(folder: Path) -> list[Path]:
    """Every file in `folder` when all are what diagnose writes (profile.yaml, profile-GAME.yaml,
    diagnosis.json, fixtures/*.yaml); UserError naming the first that is not (--force replaces
    only such a folder)."""
    shown = clean_name(str(folder))
    ours = {"profile.yaml", "diagnosis.json"} | {f"profile-{g}.yaml" for g in game_ids()}
    out: list[Path] = []
    for entry in sorted(folder.iterdir()):
        if entry.name == "fixtures" and entry.is_dir() and not entry.is_symlink():
            inner = sorted(entry.iterdir())
            bad = [f for f in inner if not (f.suffix == ".yaml" and f.is_file() and not f.is_symlink())]
            if not bad:
                out.extend(inner)
                continue
            entry = bad[0]
        elif entry.name in ours and entry.is_file() and not entry.is_symlink():
            out.append(entry)
            continue
        raise UserError(f"--out {shown}: holds {clean_name(str(entry))}, which diagnose does not write: --force "
                        "replaces only a diagnosis; move it away or choose another --out")
    return out


def _write(d: Any, final: Path, chosen: list[str], command: str, force: bool) -> None:
    from fives.support.staging import staged_folder

    with staged_folder(final, force, diagnosis_files, "diagnosis") as stage:
        _write_set(d, stage, final, chosen, command)


def _write_set(d: Any, out: Path, final: Path, chosen: list[str], command: str) -> None:
    """The diagnosis's files into `out` (the staging folder); the lines name `final`."""
    from fives.conformance.diagnose import diagnosis as dx
    from fives.support.writing import write_output

    (out / "fixtures").mkdir()
    game = profile_game(d, chosen)
    for g in chosen:
        if g in d.combined or g == game:
            write_output(dx.profile_yaml(d, g), out / f"profile-{g}.yaml")
    if game is not None:
        write_output(dx.profile_yaml(d, game), out / "profile.yaml")
    elif any(d.combined.get(g) for g in chosen):
        click.echo(f"fives: causes in {' and '.join(g for g in chosen if d.combined.get(g))}: a profile is of one "
                   f"game, run each with --game G --rules {final}/profile-G.yaml", err=True)
    write_output(json.dumps(dx.to_json(d), indent=1, sort_keys=True) + "\n", out / "diagnosis.json")
    # the fixtures in a folder of their own: `conformance run --fixtures DIR/fixtures` reads them all
    fixtures = out / "fixtures"
    for c in d.causes:
        if not dx.reachable_example(d, c):
            continue  # every fixture written is a state play reaches (the line above says why there is none)
        case = dx.example_case(d, c)
        write_output(dx.fixture_text(case, f"diagnose: {c.candidate.name}"), fixtures / f"{case['id']}.yaml")
    for key, case in sorted(d.clusters.items()):
        write_output(dx.fixture_text(case, f"diagnose: unexplained, {key}"), fixtures / f"{case['id']}.yaml")
    if d.causes or d.clusters:
        click.echo(f"the examples: fives conformance run --engine {command!r} --fixtures {final / 'fixtures'}",
                   err=True)
    if game is not None and any(c.candidate.mutant is None and c.candidate.game == game for c in d.causes):
        # the profile holds the rule causes only: it promises nothing about a bug (a misreading
        # named, a cluster), whose cases fail under it as under the seeds
        bugs = [c.candidate.name for c in d.misreadings if c.candidate.game == game]
        left = "" if not (bugs or d.unexplained) else (
            "; the profile holds the rules only: the cases of " + " and ".join(
                bugs + (["the unexplained clusters"] if d.unexplained else [])) + " still fail under it")
        click.echo(f"check: fives conformance run --engine {command!r} --rules {final / 'profile.yaml'}{left}",
                   err=True)
