"""A cache of parsed, validated fixture files, keyed by content hash; untrusted input.

Parsing YAML and validating over 3,700 cases costs well over a second; reading the same data back
as JSON costs a few tens of milliseconds. An entry is keyed by the SHA-256 of the file's bytes
together with a fingerprint of everything validation depends on (the schemas, the kinds, the
games, the loader version), so an edit to a fixture, a schema or a game makes a new key and
nothing stale is ever served.

Two layers, looked up in this order:
- the **prebuilt suite** (`fives/_prebuilt/`, see fives/conformance/cases/prebuilt.py): the bundled
  fixtures, parsed and validated when the wheel was built and shipped inside the package, as
  trusted as the code beside them. A fresh machine's first run needs no user cache.
- the **user cache**, in `fixtures/` of the per-user cache folder
  (`fives.support.paths.cache_dir`), for every other file and for a checkout. Anyone may have
  written it (a CI cache restored from another branch), so an entry is believed only when it
  is a regular file owned by this user, read by the bounded reader without following links or
  blocking, within MAX_ENTRY_BYTES, and its HMAC-SHA256, made with the user's key
  (fives/support/cache_key.py, kept outside the cache folder), matches its key and body. Anything else is a miss: the
  file is parsed and validated again and the entry rewritten, so the cache can cost time but
  never change a verdict.

`FIVES_NO_CACHE=1` turns both layers off. Entries are written atomically (a temporary file
renamed into place); a cache that cannot be written (read-only home, a cache path that is a
file) only costs speed.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from fives.support import cache_key, paths
from fives.support.reading import MAX_DOCUMENT_BYTES, read_regular_file

FORMAT = "fives-fixture-cache/2"
#: The format of an entry whose document has integer keys (YAML's `hand_size: {2: 7}`, which
#: JSON lacks): each mapping holding one is written as {"\u0000": [[key, value], ...]}, so the
#: keys come back as the ints they were (issue 41: such files were parsed on every run). A
#: reader that knows only FORMAT takes it for a miss, as it never cached such a document.
KEYED_FORMAT = FORMAT + "+int-keys"
_PAIRS = "\0"
SUBDIR = "fixtures"
#: An entry larger than this is neither written nor read (a fixture file is at most
#: MAX_DOCUMENT_BYTES; its JSON is rarely larger than its YAML).
MAX_ENTRY_BYTES = 2 * MAX_DOCUMENT_BYTES
#: Entries written longer ago than this are removed whenever new ones are written, so edits
#: and regenerated suites do not pile up (a live entry removed this way is rebuilt once).
MAX_AGE_SECONDS = 30 * 24 * 3600


def caching_off() -> bool:
    return os.environ.get("FIVES_NO_CACHE", "") not in ("", "0")


def cache_dir() -> Path | None:
    """The folder entries go to, or None when caching is turned off."""
    if caching_off():
        return None
    return paths.cache_dir(SUBDIR)


def entry_key(fingerprint: str, content: bytes) -> str:
    h = hashlib.sha256(fingerprint.encode())
    h.update(b"\0")
    h.update(content)
    return h.hexdigest()


def entry_mac(secret: bytes, key: str, body: bytes, fmt: str = FORMAT) -> str:
    """What binds an entry to this user (the key file) and this source (`key` holds the
    source's hash): HMAC-SHA256 over the format, the key, the user id and the body."""
    m = hmac.new(secret, f"{fmt}\0{key}\0{os.geteuid()}\0".encode(), hashlib.sha256)
    m.update(body)
    return m.hexdigest()


class FixtureCache:
    """get/put of one parsed document per key; every failure degrades to a miss.

    `folder`: the user cache (None: none); `secret`: its MAC key (default: the user's key
    file; without a key the user cache is off); `prebuilt`: the folder of the prebuilt suite
    (read-only, trusted)."""

    def __init__(self, folder: Path | None, secret: bytes | None = None, prebuilt: Path | None = None) -> None:
        if folder is not None and secret is None:
            secret = cache_key.secret()
        self.folder = folder if secret is not None else None
        self.secret = secret
        self.prebuilt = prebuilt
        self.hits = 0
        self.misses = 0
        self.prebuilt_hits = 0
        self.rejected = 0  # entries present but not believed (tampered, foreign, not a file, ...)

    @property
    def active(self) -> bool:
        return self.folder is not None or self.prebuilt is not None

    def _path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Any | None:
        """The cached document, or None (absent, unreadable, forged, corrupted: all the same)."""
        if self.prebuilt is not None:
            data = _read_prebuilt(self.prebuilt, key)
            if data is not None:
                self.prebuilt_hits += 1
                return data
        if self.folder is None or self.secret is None:
            return None
        try:
            blob = read_regular_file(self._path(key), MAX_ENTRY_BYTES, owner=os.geteuid())
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError:  # there, but not a regular file of this user (a FIFO, a link, too large)
            self.misses += 1
            self.rejected += 1
            return None
        data = _decode(blob, key, self.secret)
        if data is None:
            self.misses += 1
            self.rejected += 1
        else:
            self.hits += 1
        return data

    def put(self, key: str, data: Any) -> None:
        if self.folder is None or self.secret is None:
            return
        fmt = FORMAT if json_safe(data) else KEYED_FORMAT if json_safe(data, int_keys=True) else None
        if fmt is None:
            return
        body = json.dumps(data if fmt == FORMAT else _pairs_of(data), ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8", "strict")
        if len(body) > MAX_ENTRY_BYTES - 1024:
            return
        header = json.dumps({"format": fmt, "key": key, "mac": entry_mac(self.secret, key, body, fmt)}).encode()
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(header + b"\n" + body)
                os.replace(tmp, self._path(key))
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            pass  # no cache today; the run itself is unaffected

    def prune(self, max_age: float = MAX_AGE_SECONDS) -> int:
        """Remove entries (and stray temporary files) older than `max_age` seconds; how many."""
        if self.folder is None:
            return 0
        limit, removed = time.time() - max_age, 0
        try:
            found = list(self.folder.glob("*.json"))
        except OSError:
            return 0
        for p in found:
            try:
                if p.lstat().st_mtime < limit:
                    p.unlink()
                    removed += 1
            except OSError:
                pass  # another process got there first, or not ours to remove
        return removed


def json_safe(value: Any, int_keys: bool = False) -> bool:
    """True if `value` survives a JSON round trip unchanged (YAML also yields dates, non-string
    keys and other values JSON lacks: such a document is simply not cached). `int_keys`: ints
    are allowed as keys too (the KEYED_FORMAT round trip), and the key "\\0" is not."""
    t = type(value)
    if t is dict:
        if int_keys:
            return all((type(k) is int or (type(k) is str and k != _PAIRS)) and json_safe(v, True)
                       for k, v in value.items())
        return all(type(k) is str and json_safe(v) for k, v in value.items())
    if t is list:
        return all(json_safe(v, int_keys) for v in value)
    if t is float:
        return value == value and value not in (float("inf"), float("-inf"))
    return t in (str, int, bool) or value is None


def _pairs_of(value: Any) -> Any:
    """`value` (json_safe with int_keys) with every mapping holding an int key as pairs."""
    if type(value) is dict:
        if all(type(k) is str for k in value):
            return {k: _pairs_of(v) for k, v in value.items()}
        return {_PAIRS: [[k, _pairs_of(v)] for k, v in value.items()]}
    if type(value) is list:
        return [_pairs_of(v) for v in value]
    return value


def _unpairs(value: Any) -> Any:
    """`_pairs_of` undone."""
    if type(value) is dict:
        if len(value) == 1 and _PAIRS in value:
            return {k: _unpairs(v) for k, v in value[_PAIRS]}
        return {k: _unpairs(v) for k, v in value.items()}
    if type(value) is list:
        return [_unpairs(v) for v in value]
    return value


def _decode(blob: bytes, key: str, secret: bytes) -> Any | None:
    head, sep, body = blob.partition(b"\n")
    if not sep or len(head) > 1024:
        return None
    try:
        header = json.loads(head)
        fmt = header.get("format") if isinstance(header, dict) else None
        if (fmt not in (FORMAT, KEYED_FORMAT) or header.get("key") != key
                or not isinstance(header.get("mac"), str)
                or not hmac.compare_digest(header["mac"], entry_mac(secret, key, body, fmt))):
            return None
        # the MAC says we wrote it, from a validated document: the bounded reader's regexes
        # (a third of a warm load) would only check again what validation checked
        return json.loads(body) if fmt == FORMAT else _unpairs(json.loads(body))
    except (ValueError, UnicodeDecodeError, RecursionError, TypeError):  # TypeError: pairs of another shape
        return None


#: The name ending of a prebuilt entry whose document has integer keys: its body is the pairs
#: form of KEYED_FORMAT (`<key>.json` holds a plain document, `<key>.pairs.json` a paired one).
PREBUILT_PAIRS_SUFFIX = ".pairs.json"


def prebuilt_entry(key: str, data: Any) -> tuple[str, Any]:
    """The file name and the JSON body of the prebuilt entry for `data` (json_safe, int keys
    allowed): a document with integer keys is written in pairs, under its own name ending."""
    if json_safe(data):
        return f"{key}.json", data
    return f"{key}{PREBUILT_PAIRS_SUFFIX}", _pairs_of(data)


def _read_prebuilt(folder: Path, key: str) -> Any | None:
    for name, paired in ((f"{key}.json", False), (f"{key}{PREBUILT_PAIRS_SUFFIX}", True)):
        try:
            blob = read_regular_file(folder / name, MAX_ENTRY_BYTES)
        except OSError:
            continue
        try:
            data = json.loads(blob)
            return _unpairs(data) if paired else data
        except (ValueError, RecursionError, TypeError):
            return None
    return None
