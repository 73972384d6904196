"""A hello whose `capabilities` (or, with --games, `games`) list holds an object, a null and a
number besides the names: without a check every case would be skipped, a green run of 0 cases."""
from _base import options, reply, serve

args = options(lambda ap: ap.add_argument("--games", action="store_true"))


def on_hello(args, start, hello):
    key = "games" if args.games else "capabilities"
    return {key: [{"name": hello[key][0]}, None, 3]}


serve(lambda msg, answer, args: reply(answer), args, on_hello)
