"""A cache of parsed, validated fixture files, keyed by content hash.

Parsing YAML and validating ~3,400 cases costs well over a second; reading the same data back
as JSON costs a few tens of milliseconds. An entry is keyed by the SHA-256 of the file's bytes
together with a fingerprint of everything validation depends on (the schemas, the kinds, the
games, the loader version), so an edit to a fixture, a schema or a game makes a new key and
nothing stale is ever served.

The cache lives outside the package, in `fixtures/` of the per-user cache folder
(`fives.support.paths.cache_dir`: `$FIVES_CACHE_DIR`, else `$XDG_CACHE_HOME/fives`, else
`~/.cache/fives`); `FIVES_NO_CACHE=1` turns it off. It is safe to delete at any time. Entries are
written atomically (a temporary file renamed into place), and an entry whose body does not
hash to the digest in its header, or does not parse, is ignored and rewritten: a corrupted or
truncated entry is never trusted. A cache that cannot be written (read-only home) only costs
speed.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from fives.support import paths

FORMAT = "fives-fixture-cache/1"
SUBDIR = "fixtures"
#: Entries written longer ago than this are removed whenever new ones are written, so edits
#: and regenerated suites do not pile up (a live entry removed this way is rebuilt once).
MAX_AGE_SECONDS = 30 * 24 * 3600


def cache_dir() -> Path | None:
    """The folder entries go to, or None when caching is turned off."""
    if os.environ.get("FIVES_NO_CACHE", "") not in ("", "0"):
        return None
    return paths.cache_dir(SUBDIR)


def entry_key(fingerprint: str, content: bytes) -> str:
    h = hashlib.sha256(fingerprint.encode())
    h.update(b"\0")
    h.update(content)
    return h.hexdigest()


class FixtureCache:
    """get/put of one parsed document per key; every failure degrades to a miss."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Any | None:
        """The cached document, or None (absent, unreadable, corrupted: all the same)."""
        if self.folder is None:
            return None
        try:
            blob = self._path(key).read_bytes()
        except OSError:
            self.misses += 1
            return None
        data = _decode(blob, key)
        if data is None:
            self.misses += 1
        else:
            self.hits += 1
        return data

    def put(self, key: str, data: Any) -> None:
        if self.folder is None or not json_safe(data):
            return
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        header = json.dumps({"format": FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()}).encode()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(header + b"\n" + body)
                os.replace(tmp, self._path(key))
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            pass  # no cache today; the run itself is unaffected

    def prune(self, max_age: float = MAX_AGE_SECONDS) -> int:
        """Remove entries (and stray temporary files) older than `max_age` seconds; how many."""
        if self.folder is None or not self.folder.is_dir():
            return 0
        limit, removed = time.time() - max_age, 0
        for p in self.folder.glob("*.json"):
            try:
                if p.stat().st_mtime < limit:
                    p.unlink()
                    removed += 1
            except OSError:
                pass  # another process got there first
        return removed


def json_safe(value: Any) -> bool:
    """True if `value` survives a JSON round trip unchanged (YAML also yields dates, non-string
    keys and other values JSON lacks: such a document is simply not cached)."""
    t = type(value)
    if t is dict:
        return all(type(k) is str and json_safe(v) for k, v in value.items())
    if t is list:
        return all(json_safe(v) for v in value)
    if t is float:
        return value == value and value not in (float("inf"), float("-inf"))
    return t in (str, int, bool) or value is None


def _decode(blob: bytes, key: str) -> Any | None:
    head, sep, body = blob.partition(b"\n")
    if not sep:
        return None
    try:
        header = json.loads(head)
        if (not isinstance(header, dict) or header.get("format") != FORMAT or header.get("key") != key
                or header.get("sha256") != hashlib.sha256(body).hexdigest()):
            return None
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
