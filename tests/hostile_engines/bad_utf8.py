"""Answers the targeted request with a line that is not UTF-8 (a lone 0xff byte inside a
string); `--surrogate` sends valid UTF-8 JSON holding an unpaired surrogate escape instead."""
import sys

from _base import options, serve, write

args = options(lambda ap: ap.add_argument("--surrogate", action="store_true"))


def sabotage(msg, answer, args):
    if args.surrogate:
        write(f'{{"id": "{msg["id"]}", "result": {{"error": {{"code": "\\ud800"}}}}}}\n')
        return
    sys.stdout.buffer.write(b'{"id": "' + msg["id"].encode() + b'", "result": "\xff\xfe"}\n')
    sys.stdout.buffer.flush()


serve(sabotage, args)
