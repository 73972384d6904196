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
   `~/.cache/fives`), keyed by the archive's size and time; safe to delete.

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

__all__ = ["DATA_TREES", "cache_dir", "data_root", *_LAYOUT]


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


def cache_dir(*parts: str) -> Path:
    """A per-user cache folder for derived files (never inside the package; safe to delete)."""
    base = os.environ.get("FIVES_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "fives")
    return Path(base, *parts)


@lru_cache(maxsize=1)
def _extracted() -> Path:
    """Copy the zipped `_data` resources to the cache once; later runs reuse the copy."""
    import importlib.resources  # only zipped imports pay for these
    import shutil
    import tempfile

    source = importlib.resources.files("fives") / DATA_PACKAGE_DIR
    loader = getattr(__spec__, "loader", None)
    archive = getattr(loader, "archive", None)
    try:
        st = os.stat(archive) if archive else None
    except OSError:
        st = None
    from fives import __version__

    key = f"{__version__}-{st.st_size}-{st.st_mtime_ns}" if st else __version__
    target = cache_dir(f"data-{key}")
    if (target / ".complete").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="data-tmp-", dir=target.parent))
    try:
        _copy_tree(source, tmp)
        (tmp / ".complete").write_text(key, encoding="utf-8")
        try:
            os.rename(tmp, target)  # atomic: a reader sees no copy or a whole one
        except OSError:
            if not (target / ".complete").is_file():  # lost a race to a complete copy: fine
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


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
