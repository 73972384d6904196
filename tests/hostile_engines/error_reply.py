"""Answers the targeted request with {"id": ..., "error": ...} (the engine gives up on it)."""
from _base import log, reply, serve


def sabotage(msg, answer, args):
    log(f"error_reply.py: refusing {msg['id']}")
    reply({"id": msg["id"], "error": "deliberate failure for the test"})


serve(sabotage)
