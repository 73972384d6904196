"""Answers the targeted request with a result holding NaN (`--value nan`), Infinity, -Infinity
or 1e999 (which Python parses as infinity): not JSON, though Python's json writes and reads
them. The runner must call it an invalid reply and never write NaN into its own JSON."""
from _base import options, serve, write

args = options(lambda ap: ap.add_argument("--value", default="nan",
                                          choices=["nan", "inf", "minus-inf", "1e999"]))
LITERAL = {"nan": "NaN", "inf": "Infinity", "minus-inf": "-Infinity", "1e999": "1e999"}


def sabotage(msg, answer, args):
    write(f'{{"id": "{msg["id"]}", "result": {{"sum": {LITERAL[args.value]}}}}}\n')


serve(sabotage, args)
