"""Answers the targeted request with a line that is not JSON."""
from _base import serve, write


def sabotage(msg, answer, args):
    write("this is not JSON {\n")


serve(sabotage)
