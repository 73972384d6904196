"""Answers with an integer of 5,000 digits (`--digits N`): over Python's 4,300-digit limit for
int(), so json raises ValueError on it. In the targeted request's result, or with `--hello`
as the hello's protocol number."""
from _base import hang, options, serve, write

args = options(lambda ap: (ap.add_argument("--digits", type=int, default=5000),
                           ap.add_argument("--hello", action="store_true")))


def on_hello(args, start, hello):
    if args.hello:
        write('{"id": "hello", "type": "hello", "protocol": 1' + "0" * args.digits + "}\n")
        hang()


def sabotage(msg, answer, args):
    write(f'{{"id": "{msg["id"]}", "result": {{"sum": 1{"0" * args.digits}}}}}\n')


serve(sabotage, args, on_hello)
