"""Remember which documents already passed their schema, so start-up skips jsonschema.

Importing jsonschema alone costs about 40 ms, more than the rest of `fives evaluate`. A
game file (spec/games/*.yaml) changes rarely, so once it has been validated, a copy of the
exact bytes that passed (the schema's and the document's) is left in the cache folder
(`fives.support.paths.cache_dir("valid")`). A later run that finds a copy equal, byte for byte, to
what it is about to validate knows the result; any edit to either file misses. The entry's
name is a CRC of those bytes (zlib: no OpenSSL to load); the comparison is exact, so a CRC
collision only costs a validation. The folder is safe to delete; `FIVES_NO_CACHE=1` turns
the memo off; a cache that cannot be written only costs speed.
"""
from __future__ import annotations

import os
import zlib
from pathlib import Path

from fives.support import paths

#: bump to invalidate every entry (e.g. if validation itself changes)
VERSION = b"fives-schema-memo/1\n"


def _folder() -> Path | None:
    if os.environ.get("FIVES_NO_CACHE", "") not in ("", "0"):
        return None
    return paths.cache_dir("valid")


def record(schema: bytes, document: bytes) -> bytes:
    """What an entry holds: the exact bytes that were validated together."""
    return b"".join((VERSION, len(schema).to_bytes(8, "big"), schema, document))


def _entry(folder: Path, rec: bytes) -> Path:
    return folder / f"{zlib.crc32(rec):08x}-{len(rec)}"


def known_valid(schema: bytes, document: bytes) -> bool:
    folder = _folder()
    if folder is None:
        return False
    rec = record(schema, document)
    try:
        return _entry(folder, rec).read_bytes() == rec
    except OSError:
        return False


def remember_valid(schema: bytes, document: bytes) -> None:
    folder = _folder()
    if folder is None:
        return
    rec = record(schema, document)
    target = _entry(folder, rec)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(rec)
        os.replace(tmp, target)  # atomic: a reader sees a whole entry or none
    except OSError:
        tmp.unlink(missing_ok=True)
