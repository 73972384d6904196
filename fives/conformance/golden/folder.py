"""Where a golden suite is written: a hidden staging folder beside `--out`, renamed into place
once complete (manifest last), so `--out` never holds half a suite (fives/support/staging.py).

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

from pathlib import Path
from typing import ContextManager

from fives.support import staging
from fives.support.errors import UserError
from fives.support.sanitize import clean_name
from fives.support.staging import STAGING_INFIX
from fives.conformance.golden.manifest import MANIFEST

__all__ = ["STAGING_INFIX", "check_out", "staged_folder"]


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
    staging.check_out(out, force, _suite_files, "golden suite")


def staged_folder(out: Path, force: bool) -> ContextManager[Path]:
    """Yield an empty staging folder beside `out`; on success it becomes `out`."""
    return staging.staged_folder(out, force, _suite_files, "golden suite")
