"""Writing outputs: atomically (a temporary file in the same folder, then a rename), with
one-line errors, so a failed or interrupted command never leaves a truncated file."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from fives.support.errors import UserError
from fives.support.sanitize import clean_name


def dump_json(obj: Any) -> str:
    """Compact, key-order-preserving JSON for one output line."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def check_writable(out: str | Path) -> None:
    """Fail early (one line) when `out` cannot be written: before any long work."""
    if str(out) == "-":
        return
    p = Path(out)
    name = clean_name(str(p))
    if "\x00" in str(p):
        raise UserError(f"{name}: cannot write (a file name holds no NUL byte)")
    if p.is_dir():
        raise UserError(f"{name}: is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"{name}: cannot write: its folder does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UserError(f"{name}: cannot write (Permission denied)")


def write_output(text: str, out: str | Path) -> None:
    """Write `text` to `out` (`-`: standard output) atomically: a temporary file in the same
    folder, then a rename, so a failed or interrupted command never leaves a truncated file.
    Any failure is a one-line UserError."""
    if str(out) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_bytes_atomic(text.encode("utf-8"), out)


def write_bytes_atomic(data: bytes, out: str | Path) -> None:
    """Atomic write of `data` to the file `out` (see write_output)."""
    p = Path(out)
    name = clean_name(str(p))
    check_writable(p)
    if p.exists() and not p.is_file():  # a device or pipe (/dev/stdout, a FIFO): a stream, not a file
        try:
            with open(p, "wb") as f:
                f.write(data)
        except OSError as e:
            raise UserError(f"{name}: cannot write ({e.strerror})") from None
        return
    if p.is_symlink():  # write the file it points to and keep the link
        p = Path(os.path.realpath(p))
    import tempfile  # here, not at the top: it costs every command's start-up a few ms

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=p.parent if str(p.parent) else ".",
                                   prefix=f".{p.name[:100]}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mode = os.stat(p).st_mode & 0o7777 if p.exists() else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, p)
        tmp = None
    except FileNotFoundError:
        raise UserError(f"{name}: cannot write: its folder does not exist") from None
    except IsADirectoryError:
        raise UserError(f"{name}: is a directory") from None
    except OSError as e:
        raise UserError(f"{name}: cannot write ({e.strerror})") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
