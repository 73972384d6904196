"""Answers the targeted request with neither result, skipped nor error (or --both: two of them)."""
from _base import options, reply, serve

args = options(lambda ap: ap.add_argument("--both", action="store_true"))


def sabotage(msg, answer, args):
    if args.both:
        reply({"id": msg["id"], "result": answer.get("result"), "error": "and also an error"})
    else:
        reply({"id": msg["id"], "answer": answer.get("result")})


serve(sabotage, args)
