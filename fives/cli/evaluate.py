"""`fives evaluate`: score a layout given as a list of placements."""
from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click
from fives.support.wording import plural

from fives.support.errors import EXIT_BAD_INPUT, UserError
from fives.evaluation import evaluate
from fives.support.writing import dump_json
from fives.support.reading import load_data, parse_json_line, read_lines
from fives.rules import GameRules, game_ids, load_rules
from fives.cli._rules_option import rules_option
from fives.support.reading import JSON_BLANK

if TYPE_CHECKING:
    from fives.profiles import Profile


def _evaluate_jsonl(default_game: str | None, profile: Profile | None = None) -> int:
    """One request per stdin line, one result per stdout line, in order; bad lines inline."""
    bad = 0
    out = sys.stdout
    known: dict[str, GameRules] = {}
    # the compiled fast path (fives/accel.py) answers plain legal lines byte-identically;
    # it returns None for every other line, which takes the Python path below
    from fives.accel import line_evaluator
    fast = line_evaluator(game_ids()) if profile is None else None  # the fast path knows the seeds' rules only
    for lineno, line, problem in read_lines():
        if fast is not None and line is not None:
            answer = fast(line, default_game)
            if answer is not None:
                out.write(answer)
                out.write("\n")
                continue
        if line is not None and not line.strip(JSON_BLANK):
            continue
        result, malformed = _answer(line, problem, f"stdin line {lineno}", default_game, known, profile)
        bad += malformed
        try:
            out.write(dump_json(result) + "\n")
        except UnicodeEncodeError:  # stdout not UTF-8: the same JSON with ASCII escapes
            out.write(json.dumps(result, separators=(", ", ": ")) + "\n")
    out.flush()
    if bad:
        click.echo(f"fives: error: {plural(bad, 'malformed request line')}; see the error objects in the output", err=True)
    return EXIT_BAD_INPUT if bad else 0


def _answer(line: str | None, problem: str, where: str, default_game: str | None,
            known: dict[str, GameRules], profile: Profile | None) -> tuple[dict[str, Any], bool]:
    """(result, whether the line was malformed) of one request line; `known` caches rules per game."""
    try:
        if line is None:
            raise ValueError(problem)
        try:
            req = parse_json_line(line, where)
        except UserError as e:
            raise ValueError(str(e).removeprefix(f"{where}: ")) from None
        if not isinstance(req, dict) or "placements" not in req:
            raise ValueError('each line is {"game": GAME, "placements": [...]}')
        game = req.get("game", default_game)
        if game is None:
            raise ValueError("no game: give \"game\" on the line or --game")
        rules = known.get(game) if isinstance(game, str) else None
        if rules is None:  # once per game id in this stream: finding the rules is not free
            rules = known[game] = _rules(game, profile)  # a lookup among the known games, never a path
        return evaluate(rules, req["placements"]), False
    except (ValueError, UserError) as e:
        code = "unknown-game" if isinstance(e, UserError) else "malformed-request"
        return {"error": {"index": None, "code": code, "message": f"{where}: {e}"}}, True


def _rules(game: str, profile: Profile | None) -> GameRules:
    """`game`'s rules, under --rules PROFILE when given (the plain game for another game's profile)."""
    if profile is None:
        return load_rules(game)
    from fives.profiles import rules_under
    load_rules(game)  # an unknown game is the same one-line error as without --rules
    return rules_under(profile, game)


@click.command("evaluate")
@click.option("--game", "game", help=f"Game id: {', '.join(game_ids())}. With --jsonl, the default for lines without \"game\".")
@click.option("--jsonl", is_flag=True, help='Streaming batch mode: each stdin line {"game": G, "placements": [...]}, each stdout line its result.')
@click.option("--pretty", is_flag=True, help="Indent the JSON output.")
@click.argument("file", required=False, type=click.Path(allow_dash=True))
@rules_option
def evaluate_cmd(game: str | None, jsonl: bool, pretty: bool, file: str | None, profile: Profile | None) -> None:
    """Evaluate the layout in FILE (YAML or JSON; `-` for stdin): a list of placements.

    The first placement is {tile: "[1|4]"}; each later one is {tile: "[1|1]", to: "[1|4]",
    side: low}: the new tile joins side SIDE of the placed tile TO. Sides: low, high,
    line-a, line-b, branch-a, branch-b. Prints one JSON object with tiles, spinners,
    connections, positions, contributions, sum, raw, display and scores (raw points of
    every placement). An illegal placement exits 2 with one line naming its 0-based index,
    the reason code and the message.
    """
    if jsonl:
        if file not in (None, "-"):
            raise UserError("--jsonl reads standard input; give no FILE")
        if game is not None:
            load_rules(game)
        sys.exit(_evaluate_jsonl(game, profile))
    if game is None:
        raise UserError("missing --game (one of: " + ", ".join(game_ids()) + ")")
    if file is None:
        raise UserError("missing FILE (a placements file, or - for stdin)")
    load_rules(game)
    data, name = load_data(file)
    if isinstance(data, dict) and "placements" in data:
        data = data["placements"]  # accept a {placements: [...]} document too
    result = evaluate(_rules(game, profile), data)
    if "error" in result:
        err = result["error"]
        where = f"placement {err['index']}" if err["index"] is not None else "placements"
        raise UserError(f"{name}: {where}: {err['code']}: {err['message']}")
    click.echo(json.dumps(result, indent=2 if pretty else None, ensure_ascii=False))


def register(main: click.Group) -> None:
    main.add_command(evaluate_cmd)
