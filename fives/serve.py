"""`fives serve`: the reference engine (or a mutant of it) over the line protocol."""
from __future__ import annotations

import json
from typing import IO, Any

from .engine import PROTOCOL_VERSION, ReferenceEngine
from .errors import UserError
from .layout import IllegalPlacement
from .rules import game_ids


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
        return {"id": rid, "skipped": f"unsupported request type {kind!r}"}
    game = msg.get("game")
    if game not in game_ids():
        return {"id": rid, "skipped": f"unsupported game {game!r}"}
    if not isinstance(msg.get("input"), dict):
        return {"id": rid, "error": "request has no input object"}
    try:
        return {"id": rid, "result": engine.answer(kind, game, msg["input"])}
    except (UserError, IllegalPlacement, ValueError, KeyError, TypeError) as e:
        return {"id": rid, "error": f"{type(e).__name__}: {e}"}


def serve(engine: ReferenceEngine, stdin: IO[str], stdout: IO[str]) -> int:
    """Answer one reply line per request line until end of input."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as e:
            reply: dict[str, Any] = {"id": None, "error": f"malformed JSON: {e.msg}"}
        else:
            reply = handle(engine, msg)
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
