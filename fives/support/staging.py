"""An output folder written as one set: a hidden staging folder beside `--out`, renamed into
place once complete, so `--out` never holds half a set (a full disk, Ctrl-C, SIGTERM, an
error: the staging folder is removed and `--out` is as it was).

- A non-empty `--out` is refused unless `--force`, and `--force` replaces only a folder that
  holds nothing but what the command writes (`ours` lists those files, or raises UserError
  naming the first that is not); anything else is an error, never deleted.
- The old set is renamed aside, the new one renamed in, then the old files are deleted one by
  one (by name, never a recursive delete).
- Killed outright (SIGKILL), the staging folder stays as `.<out>.partial-XXXX` beside `--out`.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from fives.support.errors import UserError
from fives.support.sanitize import clean_name

STAGING_INFIX = ".partial-"

#: lists every file of a folder when all are the command's own; UserError naming the first that is not
Ours = Callable[[Path], list[Path]]


def check_out(out: Path, force: bool, ours: Ours, what: str) -> None:
    """Before any work: `out` is absent, an empty folder, or (with --force) a folder of `what`."""
    shown = clean_name(str(out))
    if out.name in ("", ".", "..") or out.resolve() in (Path.cwd().resolve(), Path(out.anchor or "/")):
        raise UserError(f"--out {shown}: give the {what} a folder of its own (it is renamed into place)")
    if out.is_symlink():
        raise UserError(f"--out {shown}: is a symbolic link; give the folder it points to")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {shown}: exists and is not a folder")
    if any(p.exists() and not p.is_dir() for p in out.parents):
        raise UserError(f"--out {shown}: a parent of it is not a folder")
    if out.is_dir() and any(out.iterdir()):
        if not force:
            raise UserError(f"--out {shown}: not empty; add --force to replace the {what} in it")
        ours(out)


def _remove_old(old: Path, ours: Ours) -> None:
    """Delete a replaced set file by file: only names the command writes, inside `old`."""
    try:
        files = ours(old)
    except UserError:
        return  # something appeared meanwhile: leave the hidden folder rather than guess
    for f in files:
        f.unlink(missing_ok=True)
    for d in sorted({f.parent for f in files if f.parent != old}, key=lambda p: len(p.parts), reverse=True):
        try:
            d.rmdir()
        except OSError:
            pass
    try:
        old.rmdir()
    except OSError:
        pass


@contextmanager
def staged_folder(out: Path, force: bool, ours: Ours, what: str) -> Iterator[Path]:
    """Yield an empty staging folder beside `out`; on success it becomes `out`."""
    check_out(out, force, ours, what)
    shown = clean_name(str(out))
    parent = out.parent if str(out.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(dir=parent, prefix=f".{out.name[:100]}{STAGING_INFIX}"))
    except OSError as e:
        raise UserError(f"--out {shown}: cannot write there ({e.strerror})") from None
    try:
        yield stage
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(stage, 0o777 & ~mask)  # mkdtemp made it private
        old = None
        if out.is_dir() and any(out.iterdir()):
            check_out(out, force, ours, what)  # again: it may have changed meanwhile
            old = Path(tempfile.mkdtemp(dir=parent, prefix=f".{out.name[:100]}.old-"))
            os.rename(out, old / "set")
        elif out.is_dir():
            out.rmdir()
        os.rename(stage, out)
        if old is not None:
            _remove_old(old / "set", ours)
            try:
                old.rmdir()
            except OSError:
                pass
    except OSError as e:
        raise UserError(f"--out {shown}: cannot write there ({e.strerror})") from None
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)  # our own mkdtemp folder, never anything else
