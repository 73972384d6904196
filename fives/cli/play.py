"""`fives play`, `fives replay`, `fives tally`: self-play matches, their records, score records."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from fives.support.errors import UserError
from fives.support.writing import check_writable, write_output
from fives.support.wording import plural
from fives.match import DEFAULT_MAX_HANDS
from fives.rules import GameRules, game_ids, load_rules
from fives.cli._rules_option import rules_option

if TYPE_CHECKING:
    from fives.profiles import Profile


SEED_LIMIT = 10**18  # seeds are 0 .. 10^18-1 (spec/record.md)


def _config(rules: GameRules, players: int, partnerships: bool) -> Any:
    from fives.settlement import ConfigError, configure

    try:
        config = configure(rules, players, partnerships)
    except ConfigError as e:
        raise UserError(str(e)) from None
    if rules.profile is not None and not rules.profile.plays(players, partnerships):  # its book's setups (issue 38)
        raise UserError(f"{rules.profile.name}: its book plays {rules.profile.setup_text()}, not {players} players"
                        f"{' in partnerships' if partnerships else ''}")
    return config


def _side_names(config: Any) -> list[str]:
    return [config.describe_side(s) for s in range(len(config.sides))]


def _moves(counts: dict[str, int]) -> str:
    return f"{plural(counts['place'], 'placement')}, {plural(counts['draw'], 'draw')}, {plural(counts['pass'], 'pass')}"


def summary_lines(rules: GameRules, config: Any, events: list[dict[str, Any]]) -> list[str]:
    """A readable hand-by-hand account of a record."""
    names = _side_names(config)
    h = events[0]
    mode = "in two partnerships" if config.partnerships else "each for themselves"
    out = [f"{rules.name}: {config.players} players {mode}, seed {h['seed']}, {config.target} points to win",
           "strategies: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(h.get("strategies", [])))]
    counts = {"place": 0, "draw": 0, "pass": 0}
    gained = [0] * len(names)
    for ev in events[1:]:
        kind = ev["event"]
        if kind == "hand":
            counts = {"place": 0, "draw": 0, "pass": 0}
            gained = [0] * len(names)
            how = "by lot" if ev["lot"] is not None else "who played the last tile"
            out.append(f"hand {ev['hand']}: seat {ev['leader']} leads ({how})")
        elif kind in counts:
            counts[kind] += 1
            if kind == "place":
                gained[config.side_of[ev["seat"]]] += ev["display"]
        elif kind == "hand-end":
            end = f"seat {ev['seat']} went out" if ev["reason"] == "gone-out" else "blocked"
            out.append(f"  {_moves(counts)}; {end}")
            out.append("  placements scored: " + ", ".join(f"{n} {g:+d}" for n, g in zip(names, gained)))
        elif kind == "settle":
            out += _settlement_lines(ev, names)
        elif kind == "match-end":
            out += _match_end_lines(ev, names, counts)
    return out


def _settlement_lines(ev: dict[str, Any], names: list[str]) -> list[str]:
    """The account of one `settle` event: awards and deductions, then the scores."""
    parts = [f"{names[a['side']]} +{a['points']} (seats {', '.join(map(str, a['from_seats']))}: "
             f"{a['pips']} -> {a['rounded']})" for a in ev["awards"]]
    parts += [f"{names[d['side']]} -{d['points']}" for d in ev["deductions"] if d["points"]]
    return ["  settlement: " + ("; ".join(parts) or "nothing changes"),
            "  scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, ev["scores"]))]


def _match_end_lines(ev: dict[str, Any], names: list[str], counts: dict[str, int]) -> list[str]:
    """The account of the `match-end` event: abandoned, or who won and how."""
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, ev["scores"]))
    if ev["by"] == "abandoned":
        return [f"match abandoned after {plural(ev['hands'], 'hand')} with no winner (the --max-hands limit); "
                "final scores " + scores]
    out = [f"  {_moves(counts)}; a placement reached the target: no settlement"] if ev["by"] == "placement" else []
    won = " and ".join(names[w] for w in ev["winners"])
    verb = "share the win" if len(ev["winners"]) > 1 else "wins"
    return out + [f"match over after {plural(ev['hands'], 'hand')} ({ev['by']}): {won} {verb}; final scores " + scores]


@click.command("play")
@click.option("--game", required=True, help=f"Game id: {', '.join(game_ids())}.")
@click.option("--players", required=True, type=int, help="Number of players (2-4).")
@click.option("--partnerships", is_flag=True, help="Four players in two fixed partnerships (seats 0+2 v 1+3).")
@click.option("--seed", type=click.IntRange(min=0, max=SEED_LIMIT - 1),
              help="Seed of the shuffle, the lot and the strategies (0 to 10^18-1). Default: a random seed, "
                   "printed on stderr so the match can be replayed.")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME",
              help="random, greedy or first; once for every seat, once per side, or once per seat in seat order "
                   "(repeat the option or separate names with commas). Default: random.")
@click.option("--out", "out", type=click.Path(allow_dash=True),
              help="Write the game record (JSON Lines, spec/record.md) here; - for stdout.")
@click.option("--max-hands", "max_hands", type=click.IntRange(min=1, max=1_000_000), default=DEFAULT_MAX_HANDS,
              show_default=True,
              help="End a match still undecided after this many hands as abandoned: no winner, the scores as "
                   "they stand (American Sniff scores have no floor, so some matches never end).")
@click.option("--quiet", is_flag=True, help="Print only the result line.")
@rules_option
def play_cmd(game: str, players: int, partnerships: bool, seed: int | None, strategies: tuple[str, ...],
             out: str | None, quiet: bool, max_hands: int, profile: Profile | None) -> None:
    """Play one seeded self-play match and print a hand-by-hand summary.

    The same options always give a byte-identical record. A match with no winner after
    --max-hands hands ends abandoned (spec/play.md, "Abandoned matches"); the record's
    match-end line says so and `fives replay` accepts it. With --rules P the match is played
    under P and the record's header names P (`fives replay --rules P` replays it).
    """
    from fives.record import dumps
    from fives.strategies import play_match

    rules = load_rules(game)
    if profile is not None:
        from fives.profiles import rules_under
        rules = rules_under(profile, game)
    config = _config(rules, players, partnerships)
    names = [n.strip() for s in strategies for n in s.split(",") if n.strip()]
    if out and out != "-":
        check_writable(out)  # before the match, not after it
    if seed is None:
        import secrets

        seed = secrets.randbelow(SEED_LIMIT)  # a fresh match each time; the line below replays it
        click.echo(f"fives: no --seed given: seed {seed} (add --seed {seed} to play this match again)", err=True)
    try:
        events = play_match(rules, config, seed, names, max_hands=max_hands)
    except ValueError as e:
        raise UserError(str(e)) from None
    text = "".join(dumps(e) + "\n" for e in events)
    lines = summary_lines(rules, config, events)
    echo_err = out == "-"  # the record owns stdout then
    for line in (lines[-1:] if quiet else lines):
        click.echo(line, err=echo_err)
    if out:
        write_output(text, out)
    if out and out != "-":
        if not quiet:
            click.echo(f"record: {out} ({plural(len(events), 'line')})")


@click.command("replay")
@click.argument("record", type=click.Path(allow_dash=True))
@rules_option
def replay_cmd(record: str, profile: Profile | None) -> None:
    """Re-check a game record against the rules, event by event.

    Re-derives the deal and the lot from the header's seed, re-applies every placement,
    draw and pass, and compares every line with what the rules give. On the first illegal or
    wrong line prints `RECORD:LINE: reason-code: message` and exits 2. A record played under
    a rule profile (its header's `rules`) replays only with --rules naming that profile.
    """
    from fives.record import replay_file

    s = replay_file(record, profile)
    names = _side_names(s.config)
    won = " and ".join(names[w] for w in s.winners)
    verdict = ("abandoned, no winner" if not s.winners
               else f"{won} {'share the win' if len(s.winners) > 1 else 'wins'}")
    click.echo(f"{record}: ok: {plural(s.lines, 'line')}, {plural(s.hands, 'hand')} of {s.game}; {verdict} ("
               + ", ".join(f"{n} {p}" for n, p in zip(names, s.scores)) + ")")


@click.command("tally", context_settings={"ignore_unknown_options": True})
@click.option("--game", required=True, help=f"Game id: {', '.join(game_ids())}.")
@click.option("--previous", help="Horse Race: the score before, shown as the back peg.")
@click.option("--players", type=int, default=2, show_default=True, help="Number of players (sets the target).")
@click.argument("scores", nargs=-1, required=True)
def tally_cmd(game: str, previous: str | None, players: int, scores: tuple[str, ...]) -> None:
    """Print the score record the game's document describes for each SCORE.

    American Sniff: the paper tally in raw points (a stroke per 5 points; a 50-point symbol is
    a large X with a small x in each of the four spaces around it). Horse Race: the pegs on a
    cribbage board in displayed points. A negative Sniff score may be given as -15.
    """
    from fives.support.reading import parse_ascii_int
    from fives.draw.tally_text import tally_text

    rules = load_rules(game)
    config = _config(rules, players, players in rules.partnership_players and players not in rules.solo_players)
    back = parse_ascii_int(previous, "--previous") if previous is not None else None
    values = [parse_ascii_int(text, "score") for text in scores]
    blocks = []
    for v in values:
        try:
            blocks.append(tally_text(rules, v, config.target, back))
        except ValueError as e:
            raise UserError(f"score {v}: {e}") from None
    click.echo("\n\n".join(blocks))


def register(main: click.Group) -> None:
    main.add_command(play_cmd)
    main.add_command(replay_cmd)
    main.add_command(tally_cmd)
