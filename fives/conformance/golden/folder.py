"""Where a golden suite is written: a hidden staging folder beside `--out`, renamed into place
once complete (manifest last), so `--out` never holds half a suite.

- A non-empty `--out` is refused unless `--force`, and `--force` replaces only a folder that holds
  nothing but what `fives golden generate` writes (`manifest.yaml` and `<game>/*.yaml`, with
  `<game>` a known game id); anything else in it is an error naming the file, never deleted.
  The old suite is renamed aside, the new one renamed in, then the old files are deleted one by one
  (by name, never a recursive delete).
- Interrupted (Ctrl-C, SIGTERM, an error) the staging folder is removed. Killed outright
  (SIGKILL), it stays as `.<out>.partial-XXXX` beside `--out`, with no manifest: `fives golden
  verify` and `fives conformance run` both reject it.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from fives.support.errors import UserError
from fives.support.sanitize import clean_name
from fives.conformance.golden.manifest import MANIFEST

STAGING_INFIX = ".partial-"


def _suite_files(folder: Path) -> list[Path]:
    """Every file in `folder`, if all are files a generation writes; UserError naming the first
    that is not."""
    from fives.rules import game_ids
    shown = clean_name(str(folder))
    out: list[Path] = []
    for entry in sorted(folder.iterdir()):
        ours = False
        if entry.name == MANIFEST:
            ours = entry.is_file() and not entry.is_symlink()
        elif entry.name in game_ids() and entry.is_dir() and not entry.is_symlink():
            for f in sorted(entry.iterdir()):
                if not (f.suffix == ".yaml" and f.is_file() and not f.is_symlink()):
                    raise UserError(f"{shown}: holds {clean_name(str(f))}, which fives golden generate does not "
                                    "write: --force replaces only a golden suite; move it away or choose another --out")
                out.append(f)
            ours = True
        if not ours:
            raise UserError(f"{shown}: holds {clean_name(str(entry))}, which fives golden generate does not write: "
                            "--force replaces only a golden suite; move it away or choose another --out")
        if entry.name == MANIFEST:
            out.append(entry)
    return out


def check_out(out: Path, force: bool) -> None:
    """Before any work: `out` is absent, an empty folder, or (with --force) a golden suite."""
    shown = clean_name(str(out))
    if out.name in ("", ".", "..") or out.resolve() in (Path.cwd().resolve(), Path(out.anchor or "/")):
        raise UserError(f"--out {shown}: give the suite a folder of its own (it is renamed into place)")
    if out.is_symlink():
        raise UserError(f"--out {shown}: is a symbolic link; give the folder it points to")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {shown}: exists and is not a folder")
    if any(p.exists() and not p.is_dir() for p in out.parents):
        raise UserError(f"--out {shown}: a parent of it is not a folder")
    if out.is_dir() and any(out.iterdir()):
        if not force:
            raise UserError(f"--out {shown}: not empty; add --force to replace the golden suite in it")
        _suite_files(out)


def _remove_old(old: Path) -> None:
    """Delete a replaced suite file by file: only names a generation writes, inside `old`."""
    try:
        files = _suite_files(old)
    except UserError:
        return  # something appeared meanwhile: leave the hidden folder rather than guess
    for f in files:
        f.unlink(missing_ok=True)
    for d in sorted({f.parent for f in files if f.parent != old}):
        try:
            d.rmdir()
        except OSError:
            pass
    try:
        old.rmdir()
    except OSError:
        pass


@contextmanager
def staged_folder(out: Path, force: bool) -> Iterator[Path]:
    """Yield an empty staging folder beside `out`; on success it becomes `out`."""
    check_out(out, force)
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
            check_out(out, force)  # again: it may have changed during the generation
            old = Path(tempfile.mkdtemp(dir=parent, prefix=f".{out.name[:100]}.old-"))
            os.rename(out, old / "suite")
        elif out.is_dir():
            out.rmdir()
        os.rename(stage, out)
        if old is not None:
            _remove_old(old / "suite")
            try:
                old.rmdir()
            except OSError:
                pass
    except OSError as e:
        raise UserError(f"--out {shown}: cannot write there ({e.strerror})") from None
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)  # our own mkdtemp folder, never anything else
