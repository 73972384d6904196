"""Writes ANSI colour codes, NUL, a carriage return, a bell and a bidi override to stderr
before every reply (real engines log in colour), and answers the targeted request with an
engine error whose text holds the same characters. Reports must stay valid (JUnit is XML,
JSON is strict) and show the characters escaped."""
import _base
from _base import log, serve

NASTY = "\x1b[31mred\x1b[0m nul:\x00 cr:\r bell:\x07 bidi:\u202e"
_plain_reply = _base.reply


def logged_reply(msg):
    log(f"controls.py: {NASTY} {msg.get('id')}")
    _plain_reply(msg)


def sabotage(msg, answer, args):
    logged_reply({"id": msg["id"], "error": f"broken {NASTY} end"})


_base.reply = logged_reply  # serve() answers through _base.reply
serve(sabotage)
