"""Answers with a reply nested 100,000 levels deep (`--depth N`), in the targeted request's
result or, with `--hello`, in place of the hello reply. Python's json raises RecursionError
on it; the runner must report it as that case's error (or a failed handshake, exit 3)."""
from _base import hang, options, serve, write

args = options(lambda ap: (ap.add_argument("--depth", type=int, default=100_000),
                           ap.add_argument("--hello", action="store_true")))


def deep(depth):
    return "[" * depth + "]" * depth


def on_hello(args, start, hello):
    if args.hello:
        write('{"id": "hello", "type": "hello", "protocol": 1, "engine": ' + deep(args.depth) + "}\n")
        hang()


def sabotage(msg, answer, args):
    write(f'{{"id": "{msg["id"]}", "result": {deep(args.depth)}}}\n')


serve(sabotage, args, on_hello)
