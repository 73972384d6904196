"""Answers `skipped` to every request (or to the targeted ones): a run of it runs no case."""
from _base import options, reply, serve

args = options()


def sabotage(msg, answer, args):
    reply({"id": msg["id"], "skipped": "not implemented yet"})


serve(sabotage, args)
