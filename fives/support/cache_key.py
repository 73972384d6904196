"""The per-user secret that binds cache entries to this user (the cache is untrusted input).

A cache folder can be written by others: CI systems restore caches saved by other branches
and jobs, and a shared or restored `~/.cache/fives` may hold anything. So every entry the
package reads back (fixture cache, schema memo) carries a keyed MAC over what it claims,
made with a 32-byte random key that lives *outside* the cache folder, in the user's
configuration folder: `$FIVES_CACHE_KEY` if set (a file path), else
`$XDG_CONFIG_HOME/fives/cache.key`, else `~/.config/fives/cache.key`. The key is created on
first use (mode 0600, in a folder made 0700) and trusted only while it is a regular file
owned by this user that nobody else can read or write. When no such key can be had (no home,
a read-only or foreign configuration folder, a key with loose permissions), `secret()` is
None and the caches are simply off: the run works uncached.
"""
from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path

KEY_BYTES = 32


def key_path() -> Path | None:
    """Where the key file is (or would be), or None when there is no configuration folder."""
    explicit = os.environ.get("FIVES_CACHE_KEY")
    if explicit:
        return Path(explicit)
    config = os.environ.get("XDG_CONFIG_HOME")
    if not config:
        home = os.path.expanduser("~")
        if not home or home == "~":
            return None
        config = os.path.join(home, ".config")
    return Path(config, "fives", "cache.key")


def secret() -> bytes | None:
    """The user's cache key (created when absent), or None: caches are then off."""
    path = key_path()
    return _secret(str(path)) if path is not None else None


@lru_cache(maxsize=4)
def _secret(path: str) -> bytes | None:
    # once per process and key path: every cache entry read checks a MAC made with it
    key = _read_key(path)
    if key is None:
        key = _create_key(path)
    return key


def _read_key(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        # a key others can read or write binds nothing: treat it as no key (never repair it)
        if (not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077
                or st.st_size != KEY_BYTES):
            return None
        data = os.read(fd, KEY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == KEY_BYTES else None


def _create_key(path: str) -> bytes | None:
    """A new key, written whole under a temporary name and linked into place: of two runs
    creating it at once, one link wins and both use the winner's key."""
    folder = os.path.dirname(path) or "."
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"  # (not `secrets`: it loads OpenSSL)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, os.urandom(KEY_BYTES))
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another run made it first: read theirs
    except OSError:
        return None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return _read_key(path)
