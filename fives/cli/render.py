"""`fives render`, `fives book` and `fives score-svg`: pictures of layouts, puzzle books and scores."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from fives.cli._document import document_out
from fives.support.errors import EXIT_FAILURES, UserError
from fives.support.writing import check_outputs, write_output
from fives.rules import GameRules, game_ids, load_rules
from fives.cli._rules_option import check_recorded, rules_option

if TYPE_CHECKING:
    from fives.profiles import Profile
    from fives.draw.score_svg import SideScores

PAGE = re.compile(r"^(\d+)x(\d+)$")
OUT_HELP = ("Where to write the {what} (- for stdout). Default: standard output when it is piped or redirected; "
            "on a terminal the command asks for --out FILE (or --out - to force it).")


def _page(text: str | None) -> tuple[int, int]:
    from fives.draw.geometry import DEFAULT_PAGE, SHORT

    if text is None:
        return DEFAULT_PAGE
    m = PAGE.match(text.strip())
    if not m or int(m[1]) < 4 or int(m[2]) < 4:
        raise UserError(f"--page {text!r}: write WIDTHxHEIGHT in squares (half a tile), each at least 4, e.g. 32x22")
    return (int(m[1]) * SHORT, int(m[2]) * SHORT)


def find_fixture(case_id: str) -> tuple[str, list[Any], str]:
    """(game, placements, where) of the conformance case `case_id`: any case `fives conformance
    run` runs by default (fixtures, golden suites, perft table), so an ID a failing run prints
    can be drawn. A play case draws its `layout`."""
    from fives.conformance.cases.fixtures import default_roots, load_cases

    for case in load_cases(default_roots(), ids=[case_id]):  # reads only files that mention it
        if case.id == case_id:
            placements = case.input.get("placements", case.input.get("layout"))
            if not isinstance(placements, list):
                raise UserError(f"{case.file}: case {case_id}: its input has no placements to draw")
            return case.game, placements, f"{case.file}: case {case_id}"
    raise UserError(f"no fixture case {case_id!r} under {', '.join(str(r) for r in default_roots())}")


def find_puzzle(ref: str, solution: bool) -> tuple[str, list[Any], list[Any], str]:
    """(game, placements, placements the solution adds, where) of `FILE#ID`."""
    from fives.puzzles.model import load_problems

    if "#" not in ref:
        raise UserError(f"--puzzle {ref!r}: write FILE#ID (FILE: a puzzle set, or a bundled one's name), "
                        "e.g. book-sample#HR-S-42a407ed86")
    path, pid = ref.rsplit("#", 1)
    problems, name = load_problems(_puzzle_set(path))
    for label, problem, record in problems:
        if record.get("id") == pid:
            new: list[Any] = []
            if solution:
                if "solution" not in record:
                    raise UserError(f"{name}: {label}: has no solution to draw")
                new = list(record["solution"])
            return problem.game, [p.to_dict() for p in problem.layout], new, f"{name}: {label}"
    raise UserError(f"{name}: no puzzle with id {pid!r}")


def _puzzle_set(file: str) -> str:
    """FILE, or the bundled puzzle set of that name (`fives data list`: `book-sample`, ...)."""
    from fives.support.bundled import PUZZLE_SET, resolve

    return resolve(file, (PUZZLE_SET,))


@click.command("render")
@click.argument("file", required=False, type=click.Path(allow_dash=True))
@click.option("--game", help=f"Game id: {', '.join(game_ids())} (taken from the case with --fixture/--puzzle).")
@click.option("--fixture", "fixture_id", metavar="ID", help="Draw the layout of this conformance fixture case.")
@click.option("--puzzle", "puzzle_ref", metavar="FILE#ID", help="Draw the table of puzzle ID in a puzzle set (a file, or a bundled set's name: book-sample#ID).")
@click.option("--solution", is_flag=True, help="With --puzzle: draw the table after the answer (its tiles highlighted).")
@click.option("--out", "out", metavar="OUT.svg", help=OUT_HELP.format(what="SVG"))
@click.option("--page", "page", metavar="WxH", help="Page size in squares (half a tile); arms bend to stay on it. Default 32x22.")
@click.option("--no-legend", is_flag=True, help="Leave out the legend and the sum line.")
@rules_option
def render_cmd(file: str | None, game: str | None, fixture_id: str | None, puzzle_ref: str | None,
               solution: bool, out: str | None, page: str | None, no_legend: bool, profile: Profile | None = None) -> None:
    """Draw a layout as SVG: tiles with pips, doubles crosswise, spinner branches at right
    angles, arms bending to stay on the page, and the documents' marks: a filled number for
    each counted contribution, a hollow dot for each legal position that does not count, an
    orange frame for each spinner double.

    The layout is FILE (a placements list as for `fives evaluate`, `-` for stdin), a fixture
    case (--fixture ID) or a puzzle's table (--puzzle FILE#ID). Same input, same bytes.
    Exit 2 for bad input.
    """
    out = document_out(out, "an SVG picture")
    check_outputs([out], inputs=[file, puzzle_ref.rpartition("#")[0] if puzzle_ref else None])
    sources = [x for x in (file, fixture_id, puzzle_ref) if x is not None]
    if len(sources) != 1:
        raise UserError("give exactly one of FILE, --fixture ID or --puzzle FILE#ID")
    if solution and puzzle_ref is None:
        raise UserError("--solution goes with --puzzle")
    size = _page(page)
    case_game, data, new, where = _layout_source(file, game, fixture_id, puzzle_ref, solution)
    if game is not None and game != case_game:
        raise UserError(f"{where}: is a {case_game} layout, not {game}")
    rules = load_rules(case_game)
    if profile is not None:  # spinners, counting and scores as the profile has them
        from fives.profiles import rules_under
        rules = rules_under(profile, case_game)
    write_output(_draw_layout(rules, data, new, where, not no_legend, size), out)


def _layout_source(file: str | None, game: str | None, fixture_id: str | None, puzzle_ref: str | None,
                   solution: bool) -> tuple[str, Any, list[Any], str]:
    """(game, placements, placements the solution adds, where) of the one source given."""
    from fives.support.reading import load_data

    if file is not None:
        if game is None:
            raise UserError("missing --game (one of: " + ", ".join(game_ids()) + ")")
        data, where = load_data(file)
        if isinstance(data, dict) and "placements" in data:
            data = data["placements"]
        return game, data, [], where
    if fixture_id is not None:
        case_game, placements, where = find_fixture(fixture_id)
        return case_game, placements, [], where
    assert puzzle_ref is not None
    return find_puzzle(puzzle_ref, solution)


def _draw_layout(rules: GameRules, data: Any, new: list[Any], where: str, legend: bool, size: tuple[int, int]) -> str:
    """The SVG of the layout `data` (+ `new`, highlighted) builds; UserError naming `where`."""
    from fives.evaluation import build_layout
    from fives.draw.geometry import LayoutTooLarge
    from fives.layout import IllegalPlacement
    from fives.draw.svg import render_layout

    try:
        layout, _ = build_layout(rules, list(data) + new if isinstance(data, list) else data)
    except IllegalPlacement as e:
        at = f"placement {e.index}" if e.index is not None else "placements"
        raise UserError(f"{where}: {at}: {e.code}: {e.message}") from None
    fresh = frozenset(layout.tiles[len(layout) - len(new):]) if new else frozenset()
    try:
        return render_layout(layout, legend=legend, page=size, new=fresh)
    except LayoutTooLarge as e:  # never seen on legal layouts; a bug to report, not bad input
        raise UserError(f"{where}: cannot draw this layout: {e}", EXIT_FAILURES) from None


@click.command("book")
@click.argument("puzzleset", type=click.Path(allow_dash=True))
@click.option("--out", "out", metavar="book.html", help=OUT_HELP.format(what="HTML"))
@click.option("--title", default="Fives puzzle book", show_default=True, help="The book's title.")
@click.option("--interactive", is_flag=True,
              help="Make a playable page instead: click a hand tile, then a highlighted position; the page's "
                   "embedded JavaScript engine scores each placement, checks every stated answer on load "
                   "(data-verified on <body>) and plays the solution on request. Still one offline file that prints.")
@click.option("--theme", "theme_names", multiple=True, metavar="THEME",
              help="Only puzzles tagged with this theme (repeat for any of several); see spec/puzzles.md, 'Themes'.")
@rules_option
def book_cmd(puzzleset: str, out: str | None, title: str, interactive: bool, theme_names: tuple[str, ...],
             profile: Profile | None = None) -> None:
    """Make a printable HTML puzzle book from PUZZLESET (a `fives-puzzles/1` file): one card
    per puzzle with its diagram, hand, target and difficulty; solutions with their diagrams
    at the back; inline SVG, no external files; cards never split across printed pages.
    With --interactive, a page to play the puzzles in a browser (offline, from file://).
    Exit 2 for bad input (also for an unknown theme, or a theme no puzzle of the set has, or
    a set made under other rules than --rules names: none for the seeds', P for a set made under P).
    """
    from fives.draw.book import from_puzzles, render_book
    from fives.support.progress import Progress
    from fives.puzzles.model import load_set
    from fives.puzzles.themes import THEMES

    out = document_out(out, "an HTML book")
    source = _puzzle_set(puzzleset)
    check_outputs([out], inputs=[source])
    data, entries, name = load_set(source)
    check_recorded(data.get("rules"), profile, name, list(data.get("games", [])), "draw")
    puzzles = from_puzzles((pz for _, pz in entries), name)  # recomputes the points it prints
    for t in theme_names:
        if t not in THEMES:
            raise UserError(f"unknown theme {t!r}: one of {', '.join(THEMES)}")
    if theme_names:
        puzzles = [p for p in puzzles if set(theme_names) & set(p.themes)]
        if not puzzles:
            raise UserError(f"{name}: no puzzle has the theme {' or '.join(map(repr, theme_names))}")
    with Progress(2 * len(puzzles), "book") as bar:
        if interactive:
            from fives.draw.play_page import render_play_page

            html = render_play_page(puzzles, title, bar.advance, source=Path(name).name)
        else:
            html = render_book(puzzles, title, bar.advance, source=Path(name).name)
    write_output(html, out)


@click.command("score-svg")
@click.option("--game", help=f"Game id: {', '.join(game_ids())} (taken from the record with --record).")
@click.option("--score", "scores", multiple=True, metavar="SCORE",
              help="One side's score, repeat per side: a total (135) or its changes in order (5+10+3, 50-15), "
                   "in the game's unit (raw for Sniff, displayed for Horse Race).")
@click.option("--label", "labels", multiple=True, help="A name per side, in the order of --score.")
@click.option("--record", "record", type=click.Path(allow_dash=True),
              help="Take every side's score history from a game record (it is replayed and checked first).")
@click.option("--style", type=click.Choice(["tally", "board"]),
              help="tally: the Sniff paper tally; board: a cribbage-style pegging board. "
                   "Default: tally for a game shown in raw points, board for one shown in displayed points.")
@click.option("--players", type=click.IntRange(2, 4), help="Players at the table (for the board's target). Default: one per side.")
@click.option("--out", "out", metavar="OUT.svg", help=OUT_HELP.format(what="SVG"))
@click.option("--chart", is_flag=True,
              help="With --record: a chart of each side's score after every hand, with the target as a dashed line, "
                   "instead of the tally or board.")
def score_svg_cmd(game: str | None, scores: tuple[str, ...], labels: tuple[str, ...], record: str | None,
                  style: str | None, players: int | None, out: str | None, chart: bool) -> None:
    """Draw scores as SVG: the Sniff tally (a stroke per 5 raw points, 50 points as a large X
    with a small x in each of the four spaces around it) or a pegging board (a hole per 5 raw
    points up to the target, front peg at the score, back peg at the score before).
    With --record FILE --chart: a chart of each side's score after every hand, with the
    target line. Exit 2 for bad input.
    """
    from fives.draw.score_svg import board_svg, tally_svg

    out = document_out(out, "an SVG picture")
    check_outputs([out], inputs=[record])
    if (record is None) == (not scores):
        raise UserError("give either --score (once per side) or --record FILE")
    if chart:
        write_output(_chart(record, game, bool(style or labels or players)), out)
        return
    if record is not None:
        if labels or players:
            raise UserError("--label and --players come from the record; leave them out with --record")
        from fives.draw.score_svg import histories_from_record

        rules, target, sides = histories_from_record(record)
        _same_game(record, rules, game)
    else:
        rules, target, sides = _given_scores(game, scores, labels, players)
    kind = style or ("tally" if rules.display_divisor == 1 else "board")
    svg = tally_svg(rules, sides) if kind == "tally" else board_svg(rules, sides, target)
    write_output(svg, out)


def _same_game(record: str, rules: GameRules, game: str | None) -> None:
    if game is not None and game != rules.id:
        raise UserError(f"{record}: is a {rules.id} record, not {game}")


def _chart(record: str | None, game: str | None, other_options: bool) -> str:
    """`score-svg --chart`: each side's score after every hand of the record, as SVG."""
    if record is None:
        raise UserError("--chart draws a match hand by hand: give --record FILE")
    if other_options:
        raise UserError("--chart takes --record (and --game, --out) only: leave out --style, --label and --players")
    from fives.draw.score_chart import chart_svg, hand_scores_from_record

    rules, target, hands = hand_scores_from_record(record)
    _same_game(record, rules, game)
    return chart_svg(rules, hands, target)


def _given_scores(game: str | None, scores: tuple[str, ...], labels: tuple[str, ...], players: int | None
                  ) -> tuple[GameRules, int, list[SideScores]]:
    """(rules, target, sides) of scores given with --score (and --label, --players)."""
    from fives.draw.score_svg import parse_score

    if game is None:
        raise UserError("missing --game (one of: " + ", ".join(game_ids()) + ")")
    rules = load_rules(game)
    if labels and len(labels) != len(scores):
        raise UserError(f"{len(labels)} --label for {len(scores)} --score: give one per side or none")
    if len(scores) > 4:
        raise UserError(f"{len(scores)} sides: a table has at most 4")
    names = list(labels) or [f"Side {i + 1}" for i in range(len(scores))]
    sides = [parse_score(s, n) for s, n in zip(scores, names)]
    n = players or max(2, len(sides))
    if n not in rules.target_raw:
        raise UserError(f"{rules.id} is not played by {n} players")
    return rules, rules.display(rules.target_raw[n]), sides


def register(main: click.Group) -> None:
    main.add_command(render_cmd)
    main.add_command(book_cmd)
    main.add_command(score_svg_cmd)
