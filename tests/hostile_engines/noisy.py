"""Answers correctly, except that a share of its replies (--rate, default 0.1), chosen at random
(--seed; default: a new draw each start), have 5 added to their first number: an engine that
answers the same request differently (issue 39 item 8, issue 40 item 3). With --after N it is
right for its first N requests and then adds 5 to every reply: wrong from then on, every time."""
import random

from _base import options, reply, serve


def _plus_five(value):
    """`value` with 5 added to its first integer (depth first), and whether there was one."""
    if isinstance(value, bool):
        return value, False
    if isinstance(value, int):
        return value + 5, True
    if isinstance(value, list):
        for i, v in enumerate(value):
            new, done = _plus_five(v)
            if done:
                return value[:i] + [new] + value[i + 1:], True
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("id", "type"):
                continue
            new, done = _plus_five(v)
            if done:
                return {**value, k: new}, True
    return value, False


args = options(lambda ap: (ap.add_argument("--rate", type=float, default=0.1), ap.add_argument("--seed", type=int),
                           ap.add_argument("--after", type=int)))
rng = random.Random(args.seed)
count = [0]


def sabotage(msg, answer, args):
    count[0] += 1
    wrong = count[0] > args.after if args.after is not None else rng.random() < args.rate
    reply(_plus_five(answer)[0] if wrong else answer)


serve(sabotage, args)
