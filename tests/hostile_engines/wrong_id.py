"""Answers the targeted request correctly but under another id."""
from _base import reply, serve


def sabotage(msg, answer, args):
    reply(answer | {"id": "not-" + msg["id"]})


serve(sabotage)
