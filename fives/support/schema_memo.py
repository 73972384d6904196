"""Remember which documents already passed their schema, so start-up skips jsonschema.

Importing jsonschema alone costs about 40 ms, more than the rest of `fives evaluate`. A
game file (spec/games/*.yaml) changes rarely, so once it has been validated, a note saying
so is left in the cache folder (`fives.support.paths.cache_dir("valid")`). The note is a keyed
BLAKE2b MAC of the exact bytes that passed (the schema's and the document's), made with the
user's cache key (fives/support/cache_key.py, kept outside the cache folder; BLAKE2b, not
HMAC-SHA256, because it needs no OpenSSL at start-up). A later run that finds a note equal to
the MAC of what it is about to validate knows the result; any edit to either file misses,
and a note written by anyone without the key (a cache restored from elsewhere) is never
believed. The note's name is a CRC of those bytes (a collision only costs a validation).
The folder is safe to delete; `FIVES_NO_CACHE=1` turns the memo off; a cache that cannot be
written, or no key, only costs speed.

Within one process, `first_error` validates against a schema file through one validator made
per schema (`jsonschema.validate` checks the schema against its meta-schema on every call:
about 0.15 s each for the game schema, 107 times in a settle run; issue 41), with the error
`jsonschema.validate` would raise. `check` is `first_error` with this memo in front, for
documents that are data, not files (a profile's rules): a document is keyed by its `repr`
(which tells 2 from "2" and True from 1) under the schema's bytes and a tag of its own, so a
note for a document never stands for a file's text, nor a file's for a document.
"""
from __future__ import annotations

import os
import zlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fives.support import cache_key, paths

try:  # the built-in BLAKE2 module: `hashlib` would load OpenSSL (~3 ms) for nothing here
    from _blake2 import blake2b
except ImportError:  # another Python implementation
    from hashlib import blake2b

if TYPE_CHECKING:
    import jsonschema

#: bump to invalidate every entry (e.g. if validation itself changes)
VERSION = b"fives-schema-memo/2\n"


def _folder() -> Path | None:
    if os.environ.get("FIVES_NO_CACHE", "") not in ("", "0"):
        return None
    return paths.cache_dir("valid")


def record(schema: bytes, document: bytes) -> bytes:
    """The exact bytes that were validated together."""
    return b"".join((VERSION, len(schema).to_bytes(8, "big"), schema, document))


def _note(secret: bytes, rec: bytes) -> bytes:
    """What an entry holds: the format line and a MAC binding `rec` to this user."""
    mac = blake2b(rec, key=secret, digest_size=32, person=os.geteuid().to_bytes(8, "big"))
    return VERSION + mac.hexdigest().encode()


def _entry(folder: Path, rec: bytes) -> Path:
    return folder / f"{zlib.crc32(rec):08x}-{len(rec)}"


def known_valid(schema: bytes, document: bytes) -> bool:
    folder = _folder()
    secret = cache_key.secret() if folder is not None else None
    if folder is None or secret is None:
        return False
    from fives.support.reading import read_regular_file  # (loads yaml: only when rules are read)

    rec = record(schema, document)
    expected = _note(secret, rec)
    try:
        found = read_regular_file(_entry(folder, rec), len(expected), owner=os.geteuid())
    except OSError:
        return False
    return found == expected


def remember_valid(schema: bytes, document: bytes) -> None:
    folder = _folder()
    secret = cache_key.secret() if folder is not None else None
    if folder is None or secret is None:
        return
    rec = record(schema, document)
    target = _entry(folder, rec)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(_note(secret, rec))
        os.replace(tmp, target)  # atomic: a reader sees a whole entry or none
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass  # never made, or the folder is not a folder


@lru_cache(maxsize=16)
def _validator(schema_path: Path) -> Any:
    """The validator of a schema file, the schema itself checked once (a cache of a pure
    function of the file, which ships with the package)."""
    import json

    import jsonschema

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def first_error(schema_path: Path, data: Any) -> "jsonschema.ValidationError | None":
    """None if `data` is valid under the schema at `schema_path`, else the error
    `jsonschema.validate(data, schema)` raises (its best match), so messages stay the same."""
    import jsonschema

    error: jsonschema.ValidationError | None = jsonschema.exceptions.best_match(
        _validator(schema_path).iter_errors(data))
    return error


_REPR_TAG = b"\0python-repr"


@lru_cache(maxsize=16)
def _schema_bytes(schema_path: Path) -> bytes:
    return schema_path.read_bytes()


def check(schema_path: Path, data: Any) -> "jsonschema.ValidationError | None":
    """`first_error`, skipped for a document this user's memo says passed this schema before."""
    schema = _schema_bytes(schema_path) + _REPR_TAG
    try:
        doc = repr(data).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):  # a lone surrogate, a deep document: no memo
        return first_error(schema_path, data)
    if known_valid(schema, doc):
        return None
    error = first_error(schema_path, data)
    if error is None:
        remember_valid(schema, doc)
    return error
