"""`fives puzzles`: generate, solve and verify puzzle sets; fixtures and extremal results."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, cast

import click

from fives.cli._seconds import SecondsRange

from fives.cli._rules_option import check_recorded, rules_option
from fives.support.wording import plural
from fives.support.errors import EXIT_BAD_INPUT, EXIT_FAILURES, UserError
from fives.support.writing import write_output
from fives.support.progress import Progress
from fives.rules import game_ids

if TYPE_CHECKING:
    from fives.profiles import Profile
    from fives.puzzles.api import Solved


@contextlib.contextmanager
def _progress(total: int, label: str) -> Iterator[Any]:
    """The package's progress bar (fives/support/progress.py), as a `tick(n=1)` callback."""
    with Progress(total, label) as bar:
        yield bar.advance


def _write(text: str, out: str) -> None:
    _prepare_out(out)
    write_output(text, out)


def _prepare_out(out: str | None, inputs: tuple[str, ...] = ()) -> None:
    """Create OUT's folder and check OUT can be written and is none of `inputs`, before any
    long work (one line on error)."""
    from fives.support.writing import check_outputs
    from fives.support.sanitize import clean_name

    if out is None or out == "-":
        return
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(f"{clean_name(out)}: cannot write: part of its folder path is a file") from None
    except OSError as e:
        raise UserError(f"{clean_name(out)}: cannot create its folder ({e.strerror})") from None
    check_outputs([out], inputs=inputs)


def _require_z3() -> None:
    """One line naming the extra to install, before any work, when z3 is missing (it is optional):
    the API's check, in the command's words."""
    from fives.puzzles.api import require_z3

    ctx, words = click.get_current_context(), []
    while ctx.parent is not None:  # "fives puzzles verify", however fives was started
        words.append(ctx.info_name or "")
        ctx = ctx.parent
    require_z3(" ".join(["fives", *reversed(words)]) + " needs")


def _sample(file: str) -> str:
    """FILE, or the bundled puzzle set of that name (`fives data list`)."""
    from fives.support.bundled import PUZZLE_SET, resolve

    return resolve(file, (PUZZLE_SET,))


def _as_json(out: str, json_flag: bool) -> bool:
    return json_flag or out.endswith(".json")


@click.group("puzzles")
def puzzles() -> None:
    """Puzzles with exactly one answer, proven by z3 and cross-checked by brute force.

    Kinds: single (one placement scores N), turn (Horse Race: one turn with continuations
    scores N in total), build (place every tile so the placements score a given sequence).
    See spec/puzzles.md.
    """


@puzzles.command("generate")
@click.option("--game", "games", multiple=True, required=True,
              help=f"Game id ({', '.join(game_ids())}); repeat it for a set that mixes games.")
@click.option("--kind", type=click.Choice(["single", "turn", "build"]),
              help="Puzzle kind; without it, the kinds of each game in turn.")
@click.option("--count", type=click.IntRange(min=0), required=True, help="Number of puzzles.")
@click.option("--seed", type=click.IntRange(min=0), required=True, help="Random seed: same seed, same bytes.")
@click.option("--difficulty", type=click.IntRange(1, 5), help="Target grade 1 (easy) .. 5 (fiendish).")
@click.option("--theme", metavar="THEME", help="Keep only puzzles with this theme tag (see spec/puzzles.md, "
              "'Themes'); a theme the games and kind can never show is refused.")
@click.option("--order", type=click.Choice(["generated", "difficulty"]), default="generated", show_default=True,
              help="Order of the puzzles in the file (difficulty: by grade, then score, stable).")
@click.option("--out", required=True, help="Output file (.yaml, or .json for JSON; - for stdout).")
@click.option("--json", "json_flag", is_flag=True, help="Write JSON whatever the file name.")
@click.option("--dask", metavar="ADDRESS",
              help="Make the puzzles on a Dask cluster: local:N starts N workers here, or a scheduler address "
                   "such as tcp://host:8786. Same bytes as without. Needs: pip install 'fives[dask]'.")
@rules_option
def generate_cmd(games: tuple[str, ...], kind: str | None, count: int, seed: int, difficulty: int | None,
                 theme: str | None, order: str, out: str, json_flag: bool, dask: str | None, profile: Profile | None = None) -> None:
    """Generate COUNT puzzles, each proven unique by z3 and by brute-force count. With --rules
    P the puzzles of P's game are posed and solved under P, and the set records P. Says what it
    wrote in one line ("fives: wrote 6 puzzles to set.yaml"; nothing more with --out -)."""
    from fives.puzzles import api

    if len(set(games)) != len(games):
        raise UserError("a --game is given twice")
    _require_z3()
    _prepare_out(out)
    with _progress(count, "generating") as tick:
        pset = api.generate(games, count, seed, kind=kind, difficulty=difficulty, theme=theme,
                            order=cast("api.Order", order), progress=tick, dask=dask, profile=profile)
    _write(pset.dumps(_as_json(out, json_flag)), out)
    if out != "-":  # what was written, as new-engine says it (with --out - the set itself is stdout)
        from fives.support.sanitize import clean_name

        click.echo(f"fives: wrote {plural(len(pset), 'puzzle')} to {clean_name(out)}")
    if pset.fallback:
        click.echo(f"fives: warning: {plural(pset.fallback, 'puzzle')} could not reach grade {difficulty} and took the "
                   "nearest grade", err=True)


@puzzles.command("solve")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--limit", type=click.IntRange(min=1), default=10, show_default=True,
              help="Stop counting a puzzle's answers at this many.")
@click.option("--json", "json_flag", is_flag=True, help="Print JSON instead of YAML.")
@click.option("--time-limit", "time_limit", type=SecondsRange(min=0, min_open=True), default=None,
              metavar="SECONDS", help="Seconds z3 may spend on each puzzle (default 60); a puzzle not decided in "
              "time is reported as undecided.")
def solve_cmd(file: str, limit: int, json_flag: bool, time_limit: float | None) -> None:
    """Solve every puzzle in FILE (or a bundled set's name) with z3 (stated solutions are ignored).

    Prints each puzzle's answers (up to --limit) and whether it has exactly one. Exits 0 if
    every puzzle has exactly one answer, 1 otherwise (a puzzle z3 could not decide within
    --time-limit included), 2 on bad input.
    """
    from fives.puzzles import api
    from fives.puzzles.model import dumps, load_problems

    _require_z3()
    problems, name = load_problems(_sample(file))
    results, bad, undecided = [], 0, 0
    with _progress(len(problems), "solving") as tick:
        for label, problem, rec in problems:
            solved = api.solve(problem, limit=limit, time_limit=time_limit or api.DEFAULT_TIME_LIMIT,
                               name=f"{name}: {label}")
            bad += solved.unique is not True
            undecided += solved.undecided is not None
            results.append(_solved_record(rec.get("id", label), solved))
            tick(1)
    click.echo(dumps({"results": results}, json_flag), nl=False)
    if bad:
        why = f" ({undecided} undecided within the time limit)" if undecided else ""
        click.echo(f"fives: {bad} of {plural(len(problems), 'puzzle')} {'does' if bad == 1 else 'do'} not have exactly one answer{why}", err=True)
        sys.exit(EXIT_FAILURES)


def _solved_record(puzzle: object, solved: Solved) -> dict[str, Any]:
    """One entry of `fives puzzles solve`'s results: the answers z3 found, or why it did not decide."""
    from fives.puzzles.model import _flow

    if solved.undecided is not None:
        return {"puzzle": puzzle, "answers": "undecided", "unique": None, "reason": solved.undecided}
    n = len(solved.answers)
    return {"puzzle": puzzle, "answers": n if solved.complete else f">={n}", "unique": solved.unique,
            "solutions": [{"placements": [_flow(p.to_dict()) for p in a.placements], "points": _flow(list(a.points))}
                          for a in solved.answers]}


@puzzles.command("verify")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="Brute-force node budget per puzzle (default 400000); larger puzzles are proven by z3 alone.")
@click.option("--no-grade", is_flag=True, help="Skip recomputing difficulty features and themes.")
@click.option("--time-limit", "time_limit", type=SecondsRange(min=0, min_open=True), default=None,
              metavar="SECONDS", help="Seconds z3 may spend proving each puzzle unique (default 60); past it the "
              "puzzle fails verification (exit 2).")
@rules_option
def verify_cmd(file: str, budget: int | None, no_grade: bool, time_limit: float | None, profile: Profile | None = None) -> None:
    """Re-prove every puzzle in FILE: schema, id, engine replay of the solution, z3 uniqueness
    (solve, block, unsat), brute-force count where small enough, grade and themes.

    Exits 0 when all pass, 2 naming the first bad puzzle, or a set made under other rules
    than the ones given (--rules P for a set made under P, none for the seeds').
    """
    from fives.puzzles import api

    _require_z3()
    files: list[api.PuzzleSet] = []  # the set as read, for the messages and the rules check

    def loaded(pset: api.PuzzleSet) -> None:
        files.append(pset)
        check_recorded(_recorded(pset.profile), profile, pset.file or "", list(pset.games))

    try:
        checks = api.verify_each(_sample(file), budget=budget or api.DEFAULT_BUDGET, grade=not no_grade,
                                 time_limit=time_limit or api.DEFAULT_TIME_LIMIT, loaded=loaded)
    except api.BadPuzzle as e:  # the set's own checks, named by the file
        raise UserError(str(e), EXIT_BAD_INPUT) from None
    name, count = files[0].file, len(files[0])
    agreed = 0
    with _progress(count, "verifying") as tick:
        for i, report in enumerate(checks, 1):
            if not report.ok:
                raise UserError(f"{name}: puzzle {i} ({report.id}): {report.reason}", EXIT_BAD_INPUT)
            agreed += report.brute == "agrees"
            tick(1)
    large = count - agreed
    click.echo(f"{name}: {plural(count, 'puzzle')} verified: every solution replays through the engine, z3 proves "
               f"each unique; brute force agrees on {agreed}" + (f", {large} too large for it" if large else ""))


def _recorded(profile: Profile | None) -> dict[str, str] | None:
    """The `rules` entry of a set made under `profile` as `check_recorded` reads it (its name and digest)."""
    return None if profile is None else {"name": profile.name, "digest": profile.digest}


def _load_set(file: str) -> Any:
    from fives.puzzles.model import load_set

    return load_set(_sample(file))


@puzzles.command("to-golden")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--out", required=True, help="Fixture file to write (YAML; .json for JSON; - for stdout).")
def to_golden_cmd(file: str, out: str) -> None:
    """Turn a puzzle set into conformance fixtures (kind evaluate): each puzzle's table
    followed by its solution, with the reference engine's result as the expectation."""
    from fives.puzzles.golden import fixtures_from_set
    from fives.puzzles.model import dumps

    from fives.puzzles.verify import BadPuzzle, replay

    _prepare_out(out, inputs=(file,))  # before reading: an output never replaces its own input
    data, puzzles, name = _load_set(file)
    for label, pz in puzzles:  # an illegal layout or solution is bad input, named, before any output
        try:
            replay(pz.problem, pz.solution)
        except BadPuzzle as e:
            raise UserError(f"{name}: {label}: {e}") from None
    doc = fixtures_from_set([pz for _, pz in puzzles], name)
    _write(dumps(doc, out.endswith(".json")), out)


@puzzles.command("extremal")
@click.option("--game", "games", multiple=True, help="Game id (default: every game).")
@click.option("--out", help="Also write the witnesses as a conformance fixture file.")
def extremal_cmd(games: tuple[str, ...], out: str | None) -> None:
    """Prove the largest counted and scoring sums of layouts play reaches (about a minute for Horse Race)."""
    from fives.puzzles.extremal import prove
    from fives.puzzles.golden import extremal_fixtures
    from fives.puzzles.model import dumps

    _prepare_out(out)
    found = []
    for g in games or tuple(game_ids()):
        for what in ("counted", "scoring"):
            e = prove(g, what)
            found.append(e)
            cut = f"; {plural(len(e.cut_vectors), 'degree vector')} closed by the connectivity cut" if e.cut_vectors else ""
            click.echo(f"{g}: largest {what} sum {e.value} (relaxation bound {e.relaxed}{cut})")
    if out:
        _write(dumps(extremal_fixtures(found)), out)


def register(main: click.Group) -> None:
    main.add_command(puzzles)
