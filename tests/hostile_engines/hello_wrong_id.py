"""Answers the hello under another id (otherwise a valid hello), then like the reference."""
from _base import reply, serve


def on_hello(args, start, hello):
    return {"id": "not-hello"}


serve(lambda msg, answer, args: reply(answer), on_hello=on_hello)
