"""Where the project's data lives: spec/, conformance/, puzzles/ and seeds/.

The data folders stay at the top of the repository. The build (setup.py, `build_py`) copies
them into the package as `fives/_data/{spec,conformance,puzzles,seeds}`, so the wheel and
sdist carry them and `importlib.resources.files("fives") / "_data"` finds them. Where the
data is looked for, first match wins:

1. `FIVES_ROOT`, if set: a checkout (or any folder with the same layout), e.g. while editing
   fixtures.
2. `fives/_data` in the package: an installed wheel or sdist.
3. The folder above the package, if it holds `spec/games`: a checkout, or an editable install.
4. A zipped import (the package inside a .zip): the `_data` resource tree is extracted once,
   on first use, into a cache folder (`FIVES_CACHE_DIR`, else `$XDG_CACHE_HOME/fives`, else
   `~/.cache/fives`), keyed by the archive's size and time, sealed with the user's cache key
   and reused only while the seal matches; safe to delete.

The names below (`ROOT`, `SPEC`, `GAMES`, ...) are resolved on access (PEP 562), so nothing is
looked up, let alone extracted, until a command needs data.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

#: The data folders copied into the package by the build, relative to the repository root.
DATA_TREES: tuple[str, ...] = ("spec", "conformance", "puzzles", "seeds")
#: Where the build puts them inside the package.
DATA_PACKAGE_DIR = "_data"
#: Where the build puts the prebuilt suite inside the package (fives/conformance/cases/prebuilt.py).
PREBUILT_PACKAGE_DIR = "_prebuilt"

_HERE = Path(__file__).resolve().parent.parent  # the fives package folder (this file is fives/support/paths.py)

#: Public names and their place under the data root (a checkout's layout).
_LAYOUT: dict[str, tuple[str, ...]] = {
    "ROOT": (),
    "SPEC": ("spec",),
    "GAMES": ("spec", "games"),
    "SPEC_SCHEMAS": ("spec", "schema"),
    "PROTOCOL_SCHEMAS": ("spec", "protocol"),
    "CONFORMANCE": ("conformance",),
    "FIXTURES": ("conformance", "fixtures"),
    "CONFORMANCE_SCHEMAS": ("conformance", "schema"),
    "GOLDEN": ("conformance", "golden"),
    "PERFT": ("conformance", "perft"),
    "PUZZLES": ("puzzles",),
    "SEEDS": ("seeds",),
}

__all__ = ["DATA_TREES", "cache_dir", "data_root", "prebuilt_dir", *_LAYOUT]


def data_root() -> Path:
    """The folder holding spec/, conformance/, puzzles/ and seeds/ (see the module doc)."""
    return _resolve_root(os.environ.get("FIVES_ROOT"))


@lru_cache(maxsize=8)
def _resolve_root(env: str | None) -> Path:
    # resolved once per FIVES_ROOT value: every data path goes through here, on hot paths too
    if env:
        return Path(env)
    installed = _HERE / DATA_PACKAGE_DIR
    if installed.is_dir():
        return installed
    checkout = _HERE.parent
    if (checkout / "spec" / "games").is_dir():
        return checkout
    if not _HERE.is_dir():  # imported from a zip archive: no real folder to point at
        return _extracted()
    return checkout  # nothing found: later errors name the missing file under the checkout


def prebuilt_dir() -> Path | None:
    """The prebuilt suite shipped in the package (a built wheel), or None (a checkout)."""
    p = _HERE / PREBUILT_PACKAGE_DIR
    return p if p.is_dir() else None


def cache_dir(*parts: str) -> Path:
    """A per-user cache folder for derived files (never inside the package; safe to delete).

    Only a path: it may not exist, or not be a folder at all (`HOME=/dev/null`, a
    `FIVES_CACHE_DIR` that names a file), and may hold anything. Every user of it treats a
    failure as "no cache" and every entry read back as untrusted (fives/support/cache_key.py)."""
    base = os.environ.get("FIVES_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "fives")
    return Path(base, *parts)


@lru_cache(maxsize=1)
def _extracted() -> Path:
    """Copy the zipped `_data` resources to the cache once; later runs reuse the copy.

    The cache is untrusted (fives/support/cache_key.py): a copy is reused only when its
    `.complete` seal, an HMAC-SHA256 made with the user's key over every file it holds,
    matches what it holds now. Without a key, or with a cache path that cannot be used, the
    data is extracted into a private temporary folder for this run only."""
    import importlib.resources  # only zipped imports pay for these
    import tempfile

    from fives.support import cache_key

    source = importlib.resources.files("fives") / DATA_PACKAGE_DIR
    loader = getattr(__spec__, "loader", None)
    archive = getattr(loader, "archive", None)
    try:
        st = os.stat(archive) if archive else None
    except OSError:
        st = None
    from fives import __version__

    key = f"{__version__}-{st.st_size}-{st.st_mtime_ns}" if st else __version__
    secret = cache_key.secret()
    target = cache_dir(f"data-{key}")
    if secret is not None and _sealed(target, secret, key):
        return target
    try:
        if secret is None:
            raise OSError("no cache key: no copy to share")
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="data-tmp-", dir=target.parent))
    except OSError:
        return _private_copy(source)
    try:
        _copy_tree(source, tmp)
        (tmp / ".complete").write_text(_seal(tmp, secret, key), encoding="ascii")
        for _ in range(2):
            try:
                os.rename(tmp, target)  # atomic: a reader sees no copy or a whole one
                return target
            except OSError:
                if _sealed(target, secret, key):  # lost a race to a good copy: use it
                    _remove(tmp)
                    return target
                _remove(target)  # a damaged or foreign copy in the way: replace it once
        _forget_at_exit(tmp)  # could not replace it: this run uses its own copy
        return tmp
    except BaseException:
        _remove(tmp)
        raise


def _seal(tree: Path, secret: bytes, key: str) -> str:
    """HMAC-SHA256 over every file under `tree` (names and bytes; `.complete` left out), or
    "" when the tree holds anything but folders and regular files."""
    import hashlib
    import hmac

    mac = hmac.new(secret, f"fives-data/1\0{key}\0{os.geteuid()}\0".encode(), hashlib.sha256)
    for folder, dirs, files in os.walk(tree):
        dirs.sort()
        for name in sorted(files):
            p = Path(folder, name)
            rel = p.relative_to(tree).as_posix()
            if rel == ".complete":
                continue
            if p.is_symlink() or not p.is_file():
                return ""
            data = p.read_bytes()
            mac.update(f"{rel}\0{len(data)}\0".encode())
            mac.update(data)
        if any(Path(folder, d).is_symlink() for d in dirs):
            return ""
    return mac.hexdigest()


def _sealed(tree: Path, secret: bytes, key: str) -> bool:
    import hmac

    from fives.support.reading import read_regular_file

    try:
        if tree.is_symlink() or not tree.is_dir():
            return False
        seal = read_regular_file(tree / ".complete", 200, owner=os.geteuid()).decode("ascii", "replace")
        found = _seal(tree, secret, key)
    except OSError:
        return False
    return bool(found) and hmac.compare_digest(seal, found)


def _private_copy(source: object) -> Path:
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="fives-data-"))
    _forget_at_exit(tmp)
    _copy_tree(source, tmp)
    return tmp


def _forget_at_exit(folder: Path) -> None:
    import atexit

    atexit.register(_remove, folder)


def _remove(folder: Path) -> None:
    import shutil

    if folder.is_symlink():
        folder.unlink(missing_ok=True)
    else:
        shutil.rmtree(folder, ignore_errors=True)


def _copy_tree(source: object, dest: Path) -> None:
    for entry in source.iterdir():  # type: ignore[attr-defined]
        if entry.is_dir():
            (dest / entry.name).mkdir()
            _copy_tree(entry, dest / entry.name)
        else:
            (dest / entry.name).write_bytes(entry.read_bytes())


def __getattr__(name: str) -> Path:
    parts = _LAYOUT.get(name)
    if parts is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return data_root().joinpath(*parts)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAYOUT))
