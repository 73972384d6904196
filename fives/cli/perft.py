"""`fives perft`: count placement sequences; check or rewrite the committed perft table; compare
an engine's counts (the sessions: fives/perft_session.py and fives/conformance/sessions/perft.py)."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable

import click

from fives.cli._rules_option import rules_option
from fives.cli._samples import SamplePath
from fives.cli._seconds import SecondsRange
from fives.layout import IllegalPlacement, Placement
from fives.perft import PerftResult
from fives.perft_session import ENGINE_TIMEOUT, PerftOptions, TableOptions, illegal_error, rules_for
from fives.rules import GameRules, game_ids
from fives.support.bundled import PERFT
from fives.support.errors import EXIT_FAILURES, UserError
from fives.support.reading import load_data
from fives.support.wording import plural
from fives.support.writing import dump_json

if TYPE_CHECKING:
    from fives.profiles import Profile


def _load_from(path: str) -> tuple[list[Any], str]:
    data, name = load_data(path)
    if isinstance(data, dict) and "placements" in data:
        data = data["placements"]  # a {placements: [...]} document, as `fives evaluate` accepts
    if not isinstance(data, list):
        raise UserError(f"{name}: expected a list of placements (or a {{placements: [...]}} document)")
    return data, name


def _check(options: TableOptions) -> int:
    """--check [--update]: the table's rows as they are recomputed, then the verdict."""
    from fives.perft_session import check_perft_table

    result = check_perft_table(options, on_line=click.echo)
    if options.update:
        click.echo(f"{result.name}: rewritten ({plural(result.failed, 'value')} changed)")
        return 0
    if result.failed:
        click.echo(result.error(), err=True)
        return EXIT_FAILURES
    return 0


def _engine(command: str, rules: GameRules, depth: int, start: list[Any], do_bisect: bool,
            timeout: float | None) -> int:
    """--engine CMD [--bisect]: the comparison (or the bisection, its steps on a terminal's stderr)."""
    from fives.conformance.sessions.perft import EnginePerftOptions, engine_perft

    options = EnginePerftOptions(command, rules, depth, tuple(start), do_bisect,
                                 ENGINE_TIMEOUT if timeout is None else timeout)
    note = (lambda s: click.echo(s, err=True)) if do_bisect and sys.stderr.isatty() else None
    result = engine_perft(options, note=note)
    click.echo(result.text(), nl=False)
    return result.exit_code


def _print_move(as_json: bool) -> Callable[[Placement, PerftResult], None]:
    """--divide: one line per first placement, printed as soon as it is counted."""
    def show(placement: Placement, result: PerftResult) -> None:
        if as_json:
            click.echo(dump_json({"placement": placement.to_dict(), **result.to_dict()}))
        else:
            click.echo(f"{placement} {result.nodes} {result.points}")  # `[1|4]`, `[1|1]>[1|4]:low`
        sys.stdout.flush()
    return show


def _count(options: PerftOptions, name: str, as_json: bool) -> None:
    """The reference's count (and divide), printed."""
    from fives.perft_session import count

    try:
        result = count(options, on_move=_print_move(as_json) if options.divide else None)
    except IllegalPlacement as e:
        raise illegal_error(name, e) from None
    total = result.total
    if as_json:
        click.echo(dump_json({"game": result.game, "depth": result.depth, **total.to_dict()}))
    elif options.divide:
        click.echo(f"total {total.nodes} {total.points}")
    else:
        click.echo(f"{result.game} depth {result.depth}: nodes {total.nodes} points {total.points}")


def _check_alone(game: str | None, depth: int | None, from_file: str | None, divide: bool, as_json: bool,
                 engine_cmd: str | None, do_bisect: bool, engine_timeout: float | None) -> None:
    if game or depth is not None or from_file or divide or as_json or engine_cmd or do_bisect or engine_timeout is not None:
        raise UserError("--check takes only --jobs, --dask, --max-depth and --update")


def _position(game: str | None, depth: int | None, from_file: str | None, divide: bool,
              profile: Profile | None) -> tuple[GameRules, int, list[Any], str]:
    """The rules, depth and start layout counted from (and the start's name for an error)."""
    if game is None:
        raise UserError("missing --game (one of: " + ", ".join(game_ids()) + ")")
    if depth is None:
        raise UserError("missing --depth")
    rules = rules_for(game, profile)
    start, name = _load_from(from_file) if from_file is not None else ([], "--from")
    if divide and depth == 0:
        raise UserError("--divide needs --depth 1 or more")
    return rules, depth, start, name


def _dask_ready(dask: str) -> None:
    """A malformed address or a missing Dask fails now, not after the count."""
    from fives.support.distribute import parse_dask_address, require_dask
    parse_dask_address(dask)
    require_dask()


# -- the command ----------------------------------------------------------------------------
@click.command("perft")
@click.option("--game", "game", help=f"Game id: {', '.join(game_ids())}.")
@click.option("--depth", type=click.IntRange(min=0), help="Number of placements in each counted sequence.")
@click.option("--from", "from_file", type=click.Path(allow_dash=True),
              help="Start from this layout (a placements list, as for `fives evaluate`); the tiles not in it are available.")
@click.option("--divide", is_flag=True, help="Also print the counts for each first placement.")
@click.option("--json", "as_json", is_flag=True, help='Print {"game", "depth", "nodes", "points"} (with --divide: JSON Lines, totals last).')
@click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0: one per CPU). Results do not depend on it.")
@click.option("--dask", "dask", metavar="ADDRESS",
              help="Run the work units on a Dask cluster: a scheduler address (tcp://host:8786) or local:N "
                   "(a LocalCluster of N workers here). Needs dask.distributed. Results do not depend on it.")
@click.option("--check", "check_file", type=SamplePath(PERFT, as_path=False),
              help="Recompute every value in a perft table (e.g. conformance/perft/perft.yaml); exit 1 on a difference.")
@click.option("--max-depth", type=click.IntRange(min=0), help="With --check: skip table rows deeper than this.")
@click.option("--update", is_flag=True, help="With --check: rewrite the table with the recomputed values.")
@click.option("--engine", "engine_cmd", metavar="CMD",
              help="Compare an engine's counts (the protocol's perft request) with the reference's; exit 1 on a difference.")
@click.option("--bisect", "do_bisect", is_flag=True,
              help="With --engine: descend into the first placement whose counts differ and print the shortest layout "
                   "whose immediate placements or points differ, as a placements file (spec/fuzz.md).")
@click.option("--timeout", "engine_timeout", type=SecondsRange(min=0), default=None, metavar="SECONDS",
              help="With --engine: seconds the engine may take per request before it is killed (default "
                   f"{ENGINE_TIMEOUT:g}: deep counts take long); 0: no limit.")
@rules_option
def perft_cmd(game: str | None, depth: int | None, from_file: str | None, divide: bool, as_json: bool,
              jobs: int, check_file: str | None, max_depth: int | None, update: bool, engine_cmd: str | None = None,
              do_bisect: bool = False, dask: str | None = None, engine_timeout: float | None = None,
              profile: Profile | None = None) -> None:
    """Count the distinct legal placement sequences of length DEPTH (perft).

    From the empty layout with all 28 tiles available, or from the layout in --from with
    the remaining tiles. Placements are distinct when their tile, target tile or side
    differ. Also reports POINTS: the sum, over those sequences, of the raw points scored
    by their last placement. --divide prints one line per first placement in canonical
    order, `PLACEMENT NODES POINTS` (PLACEMENT is `[1|4]` for an opening or
    `[1|1]>[1|4]:low` for [1|1] joining the low side of [1|4]), then `total NODES POINTS`.
    Exit 2 for bad input (unknown game, illegal --from layout). With --rules P the counts
    are P's; --check --update --rules P rewrites a table under P and records P in it, and
    --check refuses a table made under other rules than the ones given (exit 2).
    """
    if dask is not None:
        _dask_ready(dask)
    if check_file is not None:
        _check_alone(game, depth, from_file, divide, as_json, engine_cmd, do_bisect, engine_timeout)
        sys.exit(_check(TableOptions(check_file, jobs, max_depth, update, dask, profile)))
    if max_depth is not None or update:
        raise UserError("--max-depth and --update go with --check")
    rules, depth, start, name = _position(game, depth, from_file, divide, profile)
    if engine_cmd is not None:
        if divide or as_json:
            raise UserError("--engine takes --game, --depth, --from and --bisect")
        sys.exit(_engine(engine_cmd, rules, depth, start, do_bisect, engine_timeout))
    if do_bisect:
        raise UserError("--bisect needs --engine CMD")
    if engine_timeout is not None:
        raise UserError("--timeout goes with --engine CMD")
    _count(PerftOptions(rules, depth, tuple(start), divide, jobs, dask), name, as_json)


def register(main: click.Group) -> None:
    main.add_command(perft_cmd)
