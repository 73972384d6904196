"""Reading user files (YAML or JSON) with one-line errors that name the file and line."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import UserError

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_text(path: str | Path) -> tuple[str, str]:
    """(text, display name); `-` is standard input."""
    if str(path) == "-":
        return sys.stdin.read(), "<stdin>"
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8"), str(p)
    except FileNotFoundError:
        raise UserError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{p}: is a directory, not a file") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{p}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise UserError(f"{p}: cannot read ({e.strerror})") from None


def parse_text(text: str, name: str) -> Any:
    """Parse JSON (if it looks like JSON) or YAML; UserError with the line on failure."""
    stripped = text.lstrip()
    if name.endswith(".json") or (stripped[:1] in "[{" and not name.endswith((".yaml", ".yml"))):
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            if name.endswith(".json"):
                raise UserError(f"{name}:{e.lineno}: malformed JSON: {e.msg}") from None
            # YAML flow style also starts with [ or {: let YAML have a go before giving up
    try:
        # the C build of the safe loader when libyaml is there: same documents, 3-4x faster
        return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - a SafeLoader, never the full one
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise UserError(f"{name}{line}: malformed YAML: {problem}") from None


def load_data(path: str | Path) -> tuple[Any, str]:
    text, name = read_text(path)
    return parse_text(text, name), name


def load_json_schema(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def schema_error(name: str, e: jsonschema.ValidationError, prefix: str = "") -> UserError:
    where = "/".join(str(p) for p in e.absolute_path) or "(top)"
    return UserError(f"{name}: {prefix}schema violation at {where}: {e.message}")


def dump_json(obj: Any) -> str:
    """Compact, key-order-preserving JSON for one output line."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def write_output(text: str, out: str | Path) -> None:
    """Write `text` to `out` (`-`: standard output); any failure is a one-line UserError."""
    if str(out) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(out).write_text(text, encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{out}: cannot write: its folder does not exist") from None
    except IsADirectoryError:
        raise UserError(f"{out}: is a directory") from None
    except OSError as e:
        raise UserError(f"{out}: cannot write ({e.strerror})") from None
