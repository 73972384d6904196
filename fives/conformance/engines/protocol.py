"""Schema checks for protocol messages (`fives conformance run --validate`, `fives serve --validate`)."""
from __future__ import annotations

from typing import Any

import jsonschema

from fives.support import paths
from fives.support.reading import load_json_schema
from fives.conformance.cases.kinds import load_kinds


def _first(v: jsonschema.Draft202012Validator, data: Any) -> str | None:
    err = min(v.iter_errors(data), key=lambda e: list(e.absolute_path), default=None)
    if err is None:
        return None
    where = "/".join(str(p) for p in err.absolute_path) or "(top)"
    return f"at {where}: {err.message}"


class MessageValidator:
    """Callable (direction, message) -> problem or None; directions: request, reply, hello."""

    def __init__(self) -> None:
        base = paths.SPEC / "protocol"
        load = lambda name: jsonschema.Draft202012Validator(load_json_schema(base / name))  # noqa: E731
        self.hello_request = load("hello-request.schema.json")
        self.hello = load("hello-reply.schema.json")
        self.request = load("request.schema.json")
        self.reply = load("reply.schema.json")
        kinds = load_kinds()
        self.kinds = {name: load_json_schema(paths.CONFORMANCE_SCHEMAS / "kinds" / k.schema) for name, k in kinds.items()}
        self._pending: dict[str, str] = {}  # request id -> type, to check the answer's shape

    def _part(self, kind: str, part: str) -> jsonschema.Draft202012Validator | None:
        schema = self.kinds.get(kind)
        if schema is None:
            return None
        sub = dict(schema["properties"][part])
        sub["$defs"] = schema.get("$defs", {})
        return jsonschema.Draft202012Validator(sub)

    def __call__(self, direction: str, msg: Any) -> str | None:
        if direction == "hello":
            return _first(self.hello, msg)
        if direction == "hello-request":
            return _first(self.hello_request, msg)
        if direction == "request":
            problem = _first(self.request, msg)
            if problem:
                return problem
            self._pending[msg["id"]] = msg["type"]
            v = self._part(msg["type"], "input")
            return _first(v, msg["input"]) and f"input {_first(v, msg['input'])}" if v else None
        problem = _first(self.reply, msg)
        if problem:
            return problem
        kind = self._pending.pop(msg.get("id"), None)
        if kind and "result" in msg:
            v = self._part(kind, "expect")
            if v and (p := _first(v, msg["result"])):
                return f"result {p}"
        return None
