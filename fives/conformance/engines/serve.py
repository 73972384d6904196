"""`fives serve`: the reference engine (or a mutant of it) over the line protocol, playing the
seeds' rules, a fixed profile (`--rules P`), or the profile each request names (`rules`)."""
from __future__ import annotations

import json
from typing import IO, Any

from fives.conformance.engines.drivers import PROTOCOL_VERSION, ReferenceEngine
from fives.support.errors import UserError
from fives.support.reading import JSON_BLANK, parse_json_line, read_lines
from fives.support.sanitize import quote
from fives.layout import IllegalPlacement
from fives.rules import game_ids


def handle(engine: ReferenceEngine, msg: Any) -> dict[str, Any]:
    """The reply to one decoded message."""
    if not isinstance(msg, dict):
        return {"id": None, "error": "a request is a JSON object"}
    rid = msg.get("id")
    kind = msg.get("type")
    if kind == "hello":
        hs = engine.handshake
        return {"id": rid, "type": "hello", "protocol": PROTOCOL_VERSION,
                "engine": {"name": hs.name, "version": hs.version, "language": hs.language},
                "games": hs.games, "capabilities": hs.capabilities}
    if not isinstance(rid, str):
        return {"id": None, "error": "request has no string id"}
    if kind not in engine.kinds:
        return {"id": rid, "skipped": f"unsupported request type {quote(kind)}"}
    game = msg.get("game")
    if game not in game_ids():
        return {"id": rid, "skipped": f"unsupported game {quote(game)}"}
    if not isinstance(msg.get("input"), dict):
        return {"id": rid, "error": "request has no input object"}
    try:
        # `rules` (the profile of the run) is honoured only by an engine that declares the
        # capability; `fives serve --rules P` plays P whatever a request says
        return {"id": rid, "result": engine.answer(kind, game, msg["input"], msg.get("rules"))}
    except (UserError, IllegalPlacement, ValueError, KeyError, TypeError) as e:
        return {"id": rid, "error": f"{type(e).__name__}: {quote(str(e), 300)[1:-1]}"}
    except Exception as e:  # noqa: BLE001 - any input the engine trips on is that request's error
        return {"id": rid, "error": f"internal error {type(e).__name__}: {quote(str(e), 300)[1:-1]}"}


def serve(engine: ReferenceEngine, stdin: IO[str], stdout: IO[str]) -> int:
    """Answer one reply line per request line until end of input."""
    for lineno, line, problem in read_lines(getattr(stdin, "buffer", None) or stdin):
        if line is not None and not line.strip(JSON_BLANK):  # \x0c, \u2028 ... alone: not blank, an error
            continue
        try:  # the one hardened reader: depth, size, long numbers, NaN, bad UTF-8
            if line is None:
                raise UserError(problem)
            msg = parse_json_line(line, "request")
        except UserError as e:
            reply: dict[str, Any] = {"id": None, "error": str(e).removeprefix("request: ")}
        else:
            reply = handle(engine, msg)
        try:
            stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        except UnicodeEncodeError:  # a lone surrogate echoed from the request: ASCII escapes instead
            stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0
