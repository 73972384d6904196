"""Declares a capability the protocol does not know in its hello (a schema violation only
--validate catches), then answers like the reference engine."""
from _base import reply, serve


def on_hello(args, start, hello):
    return {"capabilities": hello["capabilities"] + ["teleport"]}


serve(lambda msg, answer, args: reply(answer), on_hello=on_hello)
