# lines: ~425 because every input limit (size, depth, digits, nodes, surrogates, regular files) lives in this one reader, to audit in one place.
"""Reading user files (YAML or JSON) with one-line errors that name the file and line.

Every JSON or YAML document the package reads from outside (files, stdin, `--jsonl` lines,
protocol messages, records, manifests, puzzles, fixtures) goes through this module, which
bounds what a small hostile input can cost: the document size, the nesting depth (checked
before parsing, so no RecursionError), the number of nodes YAML aliases expand to, and the
length of numbers (no 4,300-digit ValueError); NaN and Infinity are refused. Limits are
documented in docs/errors-and-limits.md ("Limits") and spec/engine.md.
"""
from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:  # only an annotation here; importing jsonschema costs ~40 ms of start-up
    import jsonschema

import yaml

from fives.support.errors import UserError
from fives.support.sanitize import clean_name, quote

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Largest document (file, stdin, or one JSON line) we parse, in bytes.
MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
#: Deepest nesting of lists/mappings; every format of the package needs fewer than 10 levels.
MAX_DEPTH = 64
#: Most nodes a YAML document may expand to once its aliases are followed (billion laughs).
MAX_NODES = 2_000_000
#: Longest run of digits in a number: scores and counts fit in 18 digits (below 10**18).
MAX_DIGITS = 18
#: How much of an offending value an error message quotes.

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")
_LONG_DIGITS = re.compile(r"[0-9]{%d,}" % (MAX_DIGITS + 1))
# a cheap look at the text: without a match, no scalar can break the number limits
_SUSPECT_SCALAR = re.compile(r"\d[\d_]{%d,}|0x[\da-fA-F_]{%d,}|\.(?:nan|NaN|NAN|inf|Inf|INF)"
                             r"|[\d.][eE][-+]\d{3}" % (MAX_DIGITS, MAX_DIGITS - 2))
# a \\u escape of a UTF-16 surrogate (JSON, YAML) or YAML's \\U form: the only ways a strictly
# decoded text can yield a string that UTF-8 cannot encode
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\U0000[dD][89a-fA-F]")
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"


class _LimitError(Exception):
    """A document over one of the limits (raised from inside json.loads hooks)."""


# --------------------------------------------------------------------------- reading bytes


#: What a blank line (skipped, no answer) may hold: JSON's own white space only. Other
#: characters str.strip() would drop (\x0c, \x1c, \u2028, ...) make a line that is not
#: JSON, which gets its error object like any other bad line.
JSON_BLANK = " \t\r\n"

def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"{name}: not UTF-8 text ({e.reason} at byte {e.start})") from None


def _too_big(name: str) -> UserError:
    return UserError(f"{name}: input larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB")


def read_stdin() -> str:
    """All of standard input as text: bounded in size, strict UTF-8."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text-only stream (tests): the size bound still holds
        text = sys.stdin.read(MAX_DOCUMENT_BYTES + 1)
        if len(text) > MAX_DOCUMENT_BYTES:
            raise _too_big("<stdin>")
        return text
    data = buffer.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise _too_big("<stdin>")
    return _decode(data, "<stdin>")


def read_text(path: str | Path) -> tuple[str, str]:
    """(text, display name); `-` is standard input. Bounded in size, strict UTF-8; a regular
    file only (read_input_bytes)."""
    if str(path) == "-":
        return read_stdin(), "<stdin>"
    name = clean_name(str(path))
    data = read_input_bytes(path, MAX_DOCUMENT_BYTES)
    return _decode(data, name), name


def _kind_of(mode: int) -> str:
    return ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a socket"
            if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")


def read_input_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of a file the user named: the one rule for every input file. It is opened
    non-blocking and checked with fstat before a byte is read, so a FIFO, device, socket or
    folder is one line (UserError, exit 2) and never a hang; a symbolic link is followed (the
    user named it). Over `limit` bytes is refused too."""
    p = Path(path)
    name = clean_name(str(p))
    if "\x00" in str(p):
        raise UserError(f"{name}: no such file (a file name holds no NUL byte)")
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise UserError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{name}: is a directory, not a file") from None
    except OSError as e:
        try:  # a socket cannot be opened at all (ENXIO): say what it is
            mode = os.stat(p).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise UserError(f"{name}: is {_kind_of(mode)}, not a regular file") from None
        raise UserError(f"{name}: cannot read ({e.strerror})") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise UserError(f"{name}: is a directory, not a file")
        raise UserError(f"{name}: is {_kind_of(st.st_mode)}, not a regular file")
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise UserError(f"{name}: cannot read ({e.strerror})") from None
    if len(data) > limit:
        raise _too_big(name) if limit == MAX_DOCUMENT_BYTES else UserError(f"{name}: file too large")
    return data


def read_regular_file(path: str | Path, limit: int, owner: int | None = None) -> bytes:
    """The bytes of `path`, for files nobody vouches for (cache entries): only a regular file
    (a symbolic link is not followed, and a FIFO or device is refused without blocking on
    it) of at most `limit` bytes, owned by `owner` when given. OSError otherwise."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        why = ("not a regular file" if not stat.S_ISREG(st.st_mode) else "owned by another user"
               if owner is not None and st.st_uid != owner else "file too large" if st.st_size > limit else "")
        data = b"" if why else f.read(limit + 1)
    if why or len(data) > limit:  # (or it grew since fstat)
        raise OSError(errno.EINVAL, why or "file too large", str(path))
    return data


def read_lines(stream: IO[bytes] | IO[str] | None = None) -> Iterator[tuple[int, str | None, str]]:
    """(line number, text or None, why not) for each line of `stream` (default: stdin).

    A line over MAX_DOCUMENT_BYTES (its newline counted, as a file's last newline is) or not
    UTF-8 comes as (n, None, reason) so a streaming command reports it in place and goes on;
    nothing is held beyond one bounded line. Every line a caller gets is within the size
    limit, so the compiled and the pure-Python paths of `evaluate --jsonl` see the same lines."""
    if stream is None:
        stream = getattr(sys.stdin, "buffer", None) or sys.stdin
    lineno = 0
    while True:
        line = stream.readline(MAX_DOCUMENT_BYTES + 1)
        if not line:
            return
        lineno += 1
        newline = "\n" if isinstance(line, str) else b"\n"
        if len(line) > MAX_DOCUMENT_BYTES:
            while line and not line.endswith(newline):  # skip the rest of the long line
                line = stream.readline(1024 * 1024)
            yield lineno, None, f"line longer than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB"
            continue
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as e:
                yield lineno, None, f"not UTF-8 text ({e.reason} at byte {e.start})"
                continue
        yield lineno, line, ""


_ASCII_INT = re.compile(r"[+-]?[0-9]{1,%d}" % MAX_DIGITS)


def parse_ascii_int(text: str, what: str) -> int:
    """A whole number written in ASCII digits 0-9 (no Arabic-Indic or other Unicode digits,
    no underscores, at most MAX_DIGITS digits); UserError naming `what` otherwise."""
    if not _ASCII_INT.fullmatch(text):
        raise UserError(f"{what} {quote(text)} is not a whole number in ASCII digits 0-9 "
                        f"(at most {MAX_DIGITS} digits)")
    return int(text)


# --------------------------------------------------------------------------- JSON


def _json_depth_ok(bare: str) -> bool:
    """True when no list/object nests deeper than MAX_DEPTH (`bare`: the text, strings emptied)."""
    if bare.count("[") + bare.count("{") <= MAX_DEPTH:
        return True
    brackets = remainder = _NOT_BRACKET.sub("", bare)
    # each pass removes one level of balanced innermost pairs, in C: whatever survives
    # MAX_DEPTH passes is deeper than that, or malformed
    for _ in range(MAX_DEPTH):
        if not remainder:
            return True
        remainder, n = _EMPTY_PAIR.subn("", remainder)
        if n == 0:
            break
    if not remainder:
        return True
    depth = 0  # deep or malformed: walk the brackets, stopping at the first excess
    for c in brackets:
        depth += 1 if c in "[{" else -1
        if depth > MAX_DEPTH:
            return False
    return True


def _bad_constant(text: str) -> Any:
    raise _LimitError(f"{text} is not a number this format accepts")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _LimitError(f"number {quote(text)} is out of range")
    return value


# one decoder for every document: building one per call costs more than a short line's parse
_DECODER = json.JSONDecoder(parse_float=_finite_float, parse_constant=_bad_constant)


def _check_json_limits(text: str, name: str) -> None:
    if len(text) > MAX_DOCUMENT_BYTES:
        raise _too_big(name)
    if len(text) <= MAX_DIGITS:
        return
    bare = _JSON_STRING.sub('""', text)  # brackets and digits inside strings are data
    if not _json_depth_ok(bare):
        raise UserError(f"{name}: nested deeper than {MAX_DEPTH} levels")
    m = _LONG_DIGITS.search(bare)
    if m:
        raise UserError(f"{name}: number {quote(m.group())} has more than {MAX_DIGITS} digits")


def _lone_surrogate(value: Any) -> str | None:
    """The first string (key or value) in `value` that UTF-8 cannot encode, or None."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if not v.isascii() and not v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") == v:
                return v
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None


def check_encodable(value: Any, text: str, name: str) -> None:
    """UserError when the document `text` parsed into `value` holds a lone surrogate (a
    `\\ud800` escape without its pair): such a string is not Unicode text, cannot be written
    out as UTF-8, and is refused here, in the reader, so no command meets it later."""
    if "\\" not in text or not _SURROGATE_ESCAPE.search(text):
        return  # strictly decoded text yields a surrogate only through an escape
    bad = _lone_surrogate(value)
    if bad is not None:
        raise UserError(f"{name}: string {quote(bad.encode('utf-8', 'backslashreplace').decode('ascii'), 60)} "
                        "holds a lone surrogate (half of a UTF-16 pair), which is not a Unicode character")


def json_loads_bounded(text: str, name: str) -> Any:
    """json.loads within the limits (UserError past one); JSONDecodeError passes through, for
    a caller with its own wording for plain bad JSON (records, YAML fallback)."""
    _check_json_limits(text, name)
    try:
        value = _DECODER.decode(text)
    except _LimitError as e:
        raise UserError(f"{name}: {e}") from None
    except RecursionError:  # cannot happen after the depth check; kept as a last guard
        raise UserError(f"{name}: nested too deeply") from None
    check_encodable(value, text, name)
    return value


def parse_json_line(text: str, name: str) -> Any:
    """One JSON document (a line of a stream, a protocol message, a .json file), hardened.

    UserError (one line, naming `name`) on malformed JSON or any limit: size, depth,
    numbers longer than MAX_DIGITS digits, NaN/Infinity.
    """
    try:
        return json_loads_bounded(text, name)
    except json.JSONDecodeError as e:
        where = f"{name}:{e.lineno}" if "\n" in text.strip() else name
        raise UserError(f"{where}: malformed JSON: {e.msg}") from None


# --------------------------------------------------------------------------- YAML


def _check_scalar(node: yaml.ScalarNode, name: str) -> None:
    if node.tag == _INT_TAG:
        digits = node.value.replace("_", "").lstrip("+-")
        if digits[:2] in ("0x", "0b", "0o"):
            digits = digits[2:]
        if len(digits) > MAX_DIGITS:
            raise UserError(f"{name}:{node.start_mark.line + 1}: number {quote(node.value)} "
                            f"has more than {MAX_DIGITS} digits")
    elif node.tag == _FLOAT_TAG:
        value = node.value.replace("_", "").lower()
        try:
            finite = math.isfinite(float(value)) and "nan" not in value and "inf" not in value
        except ValueError:  # YAML's .nan / .inf spellings; sexagesimal forms are finite
            finite = "nan" not in value and "inf" not in value
        if not finite or len(value) > 2 * MAX_DIGITS:
            raise UserError(f"{name}:{node.start_mark.line + 1}: number {quote(node.value)} "
                            "is not a finite number this format accepts")


def _check_yaml_nodes(root: yaml.Node, name: str) -> None:
    """Depth, alias expansion and number limits over the composed node graph (iterative)."""
    size: dict[int, int] = {}  # id(node) -> expanded node count, once finished
    height: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if isinstance(node, yaml.ScalarNode):
            if key not in size:
                _check_scalar(node, name)
                size[key], height[key] = 1, 0
            continue
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        else:
            children = list(node.value)
        if children_done:
            on_path.discard(key)
            size[key] = min(MAX_NODES + 1, 1 + sum(size[id(c)] for c in children))
            height[key] = 1 + max((height[id(c)] for c in children), default=0)
            if height[key] > MAX_DEPTH:
                raise UserError(f"{name}: nested deeper than {MAX_DEPTH} levels")
            if size[key] > MAX_NODES:
                raise UserError(f"{name}: YAML aliases expand to more than {MAX_NODES:,} nodes")
            continue
        if key in size:
            continue
        if key in on_path:
            raise UserError(f"{name}:{node.start_mark.line + 1}: recursive YAML alias")
        if len(on_path) >= MAX_DEPTH:
            raise UserError(f"{name}: nested deeper than {MAX_DEPTH} levels")
        on_path.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)


def _check_tree_depth(root: yaml.Node, name: str) -> None:
    scalar = yaml.ScalarNode
    if isinstance(root, scalar):
        return
    stack: list[tuple[Any, int]] = [(root.value, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UserError(f"{name}: nested deeper than {MAX_DEPTH} levels")
        for item in value:
            if isinstance(item, tuple):  # a mapping's (key, value)
                for n in item:
                    if n.__class__ is not scalar:
                        stack.append((n.value, depth + 1))
            elif item.__class__ is not scalar:
                stack.append((item.value, depth + 1))


def _yaml_error(e: yaml.YAMLError, name: str) -> UserError:
    mark = getattr(e, "problem_mark", None)
    line = f":{mark.line + 1}" if mark is not None else ""
    problem = getattr(e, "problem", None) or str(e).splitlines()[0]
    return UserError(f"{name}{line}: malformed YAML: {clean_name(str(problem))[:200]}")


def parse_yaml(text: str, name: str) -> Any:
    """One YAML document with the safe loader, within the limits."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise _too_big(name)
    # the C build of the safe loader when libyaml is there: same documents, 3-4x faster
    loader = SAFE_LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "&" in text or _SUSPECT_SCALAR.search(text):
            _check_yaml_nodes(node, name)
        else:  # no anchors, so no aliases, and no long or non-finite number: depth only
            _check_tree_depth(node, name)
        value = loader.construct_document(node)
    except yaml.YAMLError as e:
        raise _yaml_error(e, name) from None
    except RecursionError:  # the pure-Python composer on very deep input (no libyaml)
        raise UserError(f"{name}: nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, OverflowError) as e:  # a construction the scalar checks missed
        raise UserError(f"{name}: bad value: {quote(str(e))}") from None
    finally:
        loader.dispose()
    check_encodable(value, text, name)
    return value


def parse_text(text: str, name: str) -> Any:
    """Parse JSON (if it looks like JSON) or YAML; UserError with the line on failure."""
    stripped = text.lstrip()
    if name.endswith(".json") or (stripped[:1] in "[{" and not name.endswith((".yaml", ".yml"))):
        try:
            return json_loads_bounded(text, name)
        except json.JSONDecodeError as e:
            if name.endswith(".json"):
                raise UserError(f"{name}:{e.lineno}: malformed JSON: {e.msg}") from None
            # YAML flow style also starts with [ or {: let YAML have a go before giving up
    return parse_yaml(text, name)


def load_data(path: str | Path) -> tuple[Any, str]:
    text, name = read_text(path)
    return parse_text(text, name), name


def load_json_schema(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def schema_error(name: str, e: jsonschema.ValidationError, prefix: str = "") -> UserError:
    where = "/".join(str(p) for p in e.absolute_path) or "(top)"
    message = e.message
    if len(message) > 200:  # jsonschema quotes the whole offending instance
        message = message[:200] + "…"
    return UserError(f"{name}: {prefix}schema violation at {quote(where, 80)[1:-1]}: "
                     f"{clean_name(message)}")
