"""`fives puzzles`: generate, solve and verify puzzle sets; fixtures and extremal results."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Iterator

import click

from fives.cli._seconds import SecondsRange

from fives.cli._rules_option import check_recorded, rules_option
from fives.support.wording import plural
from fives.support.errors import EXIT_BAD_INPUT, EXIT_FAILURES, UserError
from fives.support.writing import write_output
from fives.support.progress import Progress
from fives.rules import game_ids


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
    """One line naming the extra to install, before any work, when z3 is missing (it is optional)."""
    try:
        import z3  # noqa: F401  (the solver these commands prove uniqueness with)
    except ImportError:
        ctx, words = click.get_current_context(), []
        while ctx.parent is not None:  # "fives puzzles verify", however fives was started
            words.append(ctx.info_name or "")
            ctx = ctx.parent
        command = " ".join(["fives", *reversed(words)])
        raise UserError(f"{command} needs the z3 solver, which is not installed: "
                        "pip install 'fives[puzzles]'", EXIT_BAD_INPUT) from None


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
                 theme: str | None, order: str, out: str, json_flag: bool, dask: str | None, profile: Any = None) -> None:
    """Generate COUNT puzzles, each proven unique by z3 and by brute-force count. With --rules
    P the puzzles of P's game are posed and solved under P, and the set records P."""
    from fives.puzzles.generate import Stats, generate_set
    from fives.puzzles.model import dumps

    if len(set(games)) != len(games):
        raise UserError("a --game is given twice")
    _require_z3()
    _prepare_out(out)
    stats = Stats()
    with _progress(count, "generating") as tick:
        pset = generate_set(list(games), kind, count, seed, difficulty, progress=tick, stats=stats, theme=theme,
                            dask=dask, profile=profile)
    if order == "difficulty":
        pset.puzzles.sort(key=lambda p: (p.difficulty.grade, p.difficulty.score))
    _write(dumps(pset.to_dict(), _as_json(out, json_flag)), out)
    if stats.fallback:
        click.echo(f"fives: warning: {plural(stats.fallback, 'puzzle')} could not reach grade {difficulty} and took the "
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
    from fives.puzzles.model import _flow, dumps, load_problems

    _require_z3()
    from fives.puzzles.z3model import PuzzleModel

    from fives.puzzles.z3model import DEFAULT_TIME_LIMIT, OverBudget

    problems, _ = load_problems(_sample(file))
    results, bad, undecided = [], 0, 0
    with _progress(len(problems), "solving") as tick:
        for label, problem, rec in problems:
            try:
                answers = _safe_solve(PuzzleModel, problem, limit, label, time_limit or DEFAULT_TIME_LIMIT)
            except OverBudget as e:
                bad += 1
                undecided += 1
                results.append({"puzzle": rec.get("id", label), "answers": "undecided", "unique": None,
                                "reason": str(e)})
                tick(1)
                continue
            bad += len(answers) != 1
            results.append({"puzzle": rec.get("id", label), "answers": len(answers) if len(answers) < limit else f">={limit}",
                            "unique": len(answers) == 1,
                            "solutions": [{"placements": [_flow(p.to_dict()) for p in pl], "points": _flow(list(pts))}
                                          for pl, pts in answers]})
            tick(1)
    click.echo(dumps({"results": results}, json_flag), nl=False)
    if bad:
        why = f" ({undecided} undecided within the time limit)" if undecided else ""
        click.echo(f"fives: {bad} of {plural(len(problems), 'puzzle')} {'does' if bad == 1 else 'do'} not have exactly one answer{why}", err=True)
        sys.exit(EXIT_FAILURES)


def _safe_solve(model: Any, problem: Any, limit: int, label: str, time_limit: float | None = None) -> list:
    from fives.layout import IllegalPlacement

    try:
        return model(problem).solve(limit, time_limit)
    except IllegalPlacement as e:
        raise UserError(f"{label}: layout placement {e.index}: {e.code}: {e.message}") from None


@puzzles.command("verify")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="Brute-force node budget per puzzle (default 400000); larger puzzles are proven by z3 alone.")
@click.option("--no-grade", is_flag=True, help="Skip recomputing difficulty features and themes.")
@click.option("--time-limit", "time_limit", type=SecondsRange(min=0, min_open=True), default=None,
              metavar="SECONDS", help="Seconds z3 may spend proving each puzzle unique (default 60); past it the "
              "puzzle fails verification (exit 2).")
@rules_option
def verify_cmd(file: str, budget: int | None, no_grade: bool, time_limit: float | None, profile: Any = None) -> None:
    """Re-prove every puzzle in FILE: schema, id, engine replay of the solution, z3 uniqueness
    (solve, block, unsat), brute-force count where small enough, grade and themes.

    Exits 0 when all pass, 2 naming the first bad puzzle, or a set made under other rules
    than the ones given (--rules P for a set made under P, none for the seeds').
    """
    from fives.puzzles.brute import DEFAULT_BUDGET
    from fives.puzzles.verify import BadPuzzle, check, check_set

    _require_z3()
    from fives.puzzles.z3model import DEFAULT_TIME_LIMIT

    data, puzzles, name = _load_set(file)
    check_recorded(data.get("rules"), profile, name, list(data.get("games", [])))
    try:
        check_set(data, puzzles)
    except BadPuzzle as e:
        raise UserError(f"{name}: {e}", EXIT_BAD_INPUT) from None
    agreed = large = 0
    with _progress(len(puzzles), "verifying") as tick:
        for label, pz in puzzles:
            try:
                report = check(pz, budget or DEFAULT_BUDGET, grade=not no_grade,
                               time_limit=time_limit or DEFAULT_TIME_LIMIT)
            except BadPuzzle as e:
                raise UserError(f"{name}: {label}: {e}", EXIT_BAD_INPUT) from None
            agreed += report.brute == "agrees"
            large += report.brute != "agrees"
            tick(1)
    click.echo(f"{name}: {plural(len(puzzles), 'puzzle')} verified: every solution replays through the engine, z3 proves "
               f"each unique; brute force agrees on {agreed}" + (f", {large} too large for it" if large else ""))


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
