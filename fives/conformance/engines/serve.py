"""`fives serve`: the reference engine (or a mutant of it) over the line protocol, playing the
seeds' rules, a fixed profile (`--rules P`), or the profile each request names (`rules`)."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import IO, Any

from fives.conformance.engines.drivers import PROTOCOL_VERSION, ReferenceEngine
from fives.support.errors import UserError
from fives.support.reading import JSON_BLANK, parse_json_line, read_lines
from fives.support.sanitize import quote
from fives.layout import IllegalPlacement
from fives.rules import game_ids


#: The deepest perft request `fives serve` answers (`--max-perft-depth`): the shipped table's
#: deepest rows are depth 7, which take minutes; one deeper would take hours or years and hold
#: up every line after it, so it is answered with an error at once.
MAX_PERFT_DEPTH = 7


def handle(engine: ReferenceEngine, msg: Any, max_perft_depth: int = MAX_PERFT_DEPTH) -> dict[str, Any]:
    """The reply to one decoded message."""
    if not isinstance(msg, dict):
        return {"id": None, "error": "a request is a JSON object"}
    rid = msg.get("id")
    kind = msg.get("type")
    if kind == "hello":
        hs = engine.handshake
        hello = {"id": rid, "type": "hello", "protocol": PROTOCOL_VERSION,
                 "engine": {"name": hs.name, "version": hs.version, "language": hs.language},
                 "games": hs.games, "capabilities": hs.capabilities}
        if hs.scope is not None:  # `fives serve --players N`: what the engine answers at all
            hello["scope"] = hs.scope
        return hello
    if not isinstance(rid, str):
        return {"id": None, "error": "request has no string id"}
    # a field of the wrong JSON type is that request's error (an unknown name of the right type
    # is skipped): a list or an object is no name, and must not reach a lookup it cannot hash
    if not isinstance(kind, str):
        return {"id": rid, "error": f"request type is {json_type(kind)}, not a string"}
    if kind not in engine.kinds:
        return {"id": rid, "skipped": f"unsupported request type {quote(kind)}"}
    game = msg.get("game")
    if not isinstance(game, str):
        return {"id": rid, "error": f"request game is {json_type(game)}, not a string"}
    if game not in game_ids():
        return {"id": rid, "skipped": f"unsupported game {quote(game)}"}
    if not isinstance(msg.get("input"), dict):
        return {"id": rid, "error": "request has no input object"}
    if msg.get("rules") is not None and not isinstance(msg["rules"], dict):  # --rules P ignores it, but not its type
        return {"id": rid, "error": f"rules: expected an object {{name, extends, digest, overrides}}, not "
                                    f"{json_type(msg['rules'])}"}
    problem = wrong_type(kind, msg["input"])
    if problem is not None:  # before the scope: `"players": [2]` is malformed, not another scope
        return {"id": rid, "error": f"malformed input: {quote(problem, 300)[1:-1]}"}
    if (scope := engine.handshake.scope) is not None:  # an engine of a narrower scope declines the rest
        players, partnerships = msg["input"].get("players"), msg["input"].get("partnerships", False)
        if players is not None and players not in scope.get("players", [players]) \
                or partnerships and scope.get("partnerships") is False:
            return {"id": rid, "skipped": f"outside the engine's scope: {players} players"
                                          f"{' in partnerships' if partnerships else ''}"}
    depth = msg["input"].get("depth") if kind == "perft" else None
    if isinstance(depth, int) and not isinstance(depth, bool) and depth > max_perft_depth:
        return {"id": rid, "error": f"perft depth {depth} is over this engine's limit of {max_perft_depth} "
                                    "(fives serve --max-perft-depth)"}
    try:
        # `rules` (the profile of the run) is honoured only by an engine that declares the
        # capability; `fives serve --rules P` plays P whatever a request says
        return {"id": rid, "result": engine.answer(kind, game, msg["input"], msg.get("rules"))}
    except (UserError, IllegalPlacement, ValueError, KeyError, TypeError) as e:
        problem = input_problem(kind, msg["input"]) if isinstance(e, (KeyError, TypeError, ValueError)) else None
        if problem is not None:  # a malformed input says what is wrong with it, not where the engine tripped
            return {"id": rid, "error": f"malformed input: {quote(problem, 300)[1:-1]}"}
        return {"id": rid, "error": f"{type(e).__name__}: {quote(str(e), 300)[1:-1]}"}
    except Exception as e:  # noqa: BLE001 - any input the engine trips on is that request's error
        return {"id": rid, "error": f"internal error {type(e).__name__}: {quote(str(e), 300)[1:-1]}"}


def json_type(value: Any) -> str:
    """The JSON type of a decoded value, as a message names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {dict: "an object", list: "a list", str: "a string"}.get(type(value), type(value).__name__)


def input_problem(kind: str, value: Any) -> str | None:
    """What makes `value` no input of `kind` by the kind's schema (conformance/schema/kinds/),
    as one line naming the path; None when it is one."""
    import jsonschema

    from fives.conformance.cases.kinds import load_kinds
    from fives.support import paths
    from fives.support.reading import load_json_schema

    info = load_kinds().get(kind)
    if info is None:
        return None
    case_schema = load_json_schema(paths.CONFORMANCE_SCHEMAS / "kinds" / info.schema)
    schema = {**case_schema["properties"]["input"], "$defs": case_schema.get("$defs", {})}
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(value))
    if error is None:
        return None
    where = "input" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{where}: {error.message}"


def wrong_type(kind: str, value: dict[str, Any]) -> str | None:
    """The first field of the input `value` whose JSON type its kind's schema does not allow
    (`"players": [2]`, `"score": 1.5`), as input_problem words it; None when every field's type
    is one the schema allows. Only the JSON types, read once per kind: cheap enough for every
    request, and jsonschema (40 ms to import) is asked only to word a refusal."""
    allowed = _field_types(kind)
    for field, item in value.items():
        accepted = allowed.get(field)
        if accepted is not None and not (isinstance(item, accepted[0]) and (accepted[1] or type(item) is not bool)):
            return input_problem(kind, value)  # the authority: to jsonschema, 2.0 is an integer
    return None


#: each JSON type's Python classes once decoded (a bool is an int to Python, never a JSON number)
PY_TYPES: dict[str, tuple[type, ...]] = {"integer": (int,), "number": (int, float), "boolean": (bool,),
                                         "string": (str,), "array": (list,), "object": (dict,), "null": (type(None),)}


@lru_cache(maxsize=None)
def _field_types(kind: str) -> dict[str, tuple[tuple[type, ...], bool]]:
    """Field -> (the Python classes of the JSON types the kind's input schema allows for it,
    through `$ref`, `oneOf` and `anyOf`; whether a boolean is one); a field whose schema names no
    type is left out (the engine reads it). Read once per process: the schemas are package data."""
    from fives.conformance.cases.kinds import kind_named
    from fives.support import paths
    from fives.support.reading import load_json_schema

    try:
        info = kind_named(kind)
    except KeyError:
        return {}
    case_schema = load_json_schema(paths.CONFORMANCE_SCHEMAS / "kinds" / info.schema)
    defs = case_schema.get("$defs", {})

    def types(node: Any, depth: int = 0) -> frozenset[str] | None:
        if not isinstance(node, dict) or depth > 8:
            return None
        if "type" in node:
            return frozenset([node["type"]] if isinstance(node["type"], str) else node["type"])
        if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
            return types(defs.get(node["$ref"].removeprefix("#/$defs/")), depth + 1)
        branches = node.get("oneOf") or node.get("anyOf")
        if isinstance(branches, list):
            found = [types(b, depth + 1) for b in branches]
            return None if any(f is None for f in found) else frozenset().union(*found)  # type: ignore[arg-type]
        return None

    props = case_schema["properties"]["input"].get("properties", {})
    return {field: (tuple(c for name in sorted(t) for c in PY_TYPES.get(name, (object,))), "boolean" in t)
            for field, node in props.items() if (t := types(node)) is not None}


def serve(engine: ReferenceEngine, stdin: IO[str], stdout: IO[str], max_perft_depth: int = MAX_PERFT_DEPTH) -> int:
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
            reply = handle(engine, msg, max_perft_depth)
        try:
            stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        except UnicodeEncodeError:  # a lone surrogate echoed from the request: ASCII escapes instead
            stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0
