"""Engine-supplied text made safe for terminals, XML, Markdown, HTML and strict JSON.

An engine's stderr, raw reply and error messages can hold anything: ANSI colour codes,
NUL, carriage returns, bidirectional overrides, lone surrogates from undecodable bytes.
Each is shown escaped (`\\x1b[31m`), never interpreted, so a report says what the engine
sent and cannot rewrite the terminal, break a JUnit parser or inject HTML.
"""
from __future__ import annotations

import math
import re
import reprlib
from typing import Any


#: Characters of a user's value quoted in an error message.
QUOTE_CHARS = 40


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """A short, single-line, escaped prefix of `value` for an error message."""
    text = value if isinstance(value, str) else reprlib.repr(value)  # bounded, even for a huge list
    shown = clean_name(text[:limit])
    return f"'{shown}…'" if len(text) > limit else f"'{shown}'"


#: The longest error line the CLI prints (a safety net: messages quote short prefixes anyway).
MAX_MESSAGE_CHARS = 1000


def message_line(message: str) -> str:
    """An error message as one bounded line (the CLI's `fives: error:` line): control
    characters escaped, long text cut to MAX_MESSAGE_CHARS."""
    text = clean_name(message[: MAX_MESSAGE_CHARS * 2])
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS] + "…"


def clean_name(name: str) -> str:
    """Text fit for a one-line message: control and other unprintable characters escaped
    (newlines, ANSI escapes, NUL, bidi controls), printable Unicode kept."""
    if name.isprintable():
        return name
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in name)


#: Nesting deeper than this is cut in reports (the answer is shown to a reader, not re-parsed).
MAX_DEPTH = 64
_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_controls(text: str) -> str:
    """Escape every unprintable character except newline (multi-line text: stderr).

    The escaping is clean_name's, the one the CLI's error lines use."""
    return "\n".join(clean_name(part) for part in text.split("\n"))


def one_line(text: str, limit: int | None = None) -> str:
    """Escape every unprintable character, newlines included; cut to `limit` characters."""
    out = clean_name(text if limit is None else text[:limit + 1])  # escaping only lengthens: cut first
    return out if limit is None or len(out) <= limit else out[:limit - 1] + "…"


def json_safe(value: Any, depth: int = 0) -> Any:
    """A copy strict JSON can hold: NaN and the infinities become strings, lone surrogates are
    escaped, non-string keys become strings and nesting past MAX_DEPTH is cut."""
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, str):
        return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if depth >= MAX_DEPTH:
        return "…(nested too deep)"
    if isinstance(value, dict):
        return {json_safe(k if isinstance(k, str) else str(k)): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v, depth + 1) for v in value]
    return one_line(repr(value), 200)


def html_text(text: str) -> str:
    """Escaped for HTML element content and attribute values, controls shown escaped."""
    return (escape_controls(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def markdown_cell(text: str, limit: int = 200) -> str:
    """One Markdown table cell: one line, no raw HTML, no column breaks, no stray code spans."""
    return (one_line(text, limit).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "\\|").replace("`", "\\`"))


def markdown_code(text: str) -> str:
    """A short identifier as an inline code span (backticks and bars cannot escape it)."""
    return "`" + one_line(text, 200).replace("`", "'").replace("|", "\\|") + "`"
