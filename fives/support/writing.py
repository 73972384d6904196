"""Writing outputs: atomically (a temporary file in the same folder, then a rename), with
one-line errors, so a failed or interrupted command never leaves a truncated file; never
through a symbolic link; and the one line for a standard output that cannot be written."""
from __future__ import annotations

import errno
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any, Iterable

from fives.support.errors import UserError
from fives.support.sanitize import clean_name, quote


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
    _refuse_link(p, name)
    if p.is_dir():
        raise UserError(f"{name}: is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"{name}: cannot write: its folder does not exist")
    if _read_only(parent):
        raise UserError(f"{name}: cannot write (Read-only file system)")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UserError(f"{name}: cannot write (Permission denied)")


def check_outputs(paths: Iterable[str | Path | None], inputs: Iterable[str | Path | None] = (),
                  run: bool = False) -> None:
    """Fail before any long work (one line, exit 2) when an output file cannot be written, when
    two outputs are one file, or when an output is an input of the command (`inputs`: the files
    it reads, fixture folders it reads from, a known-failures file): writing it would destroy
    what is being read. An output anywhere inside an input folder is refused too, a new name
    included: a fixture folder is read whole, so a report left in it would be read next time."""
    seen: dict[tuple[int, int] | str, str] = {}
    sources = [Path(i) for i in inputs if i and str(i) != "-"]
    for path in paths:
        if not path or str(path) == "-":
            continue
        check_writable(path)
        if is_stream(path):
            continue
        _probe_folder(Path(path))
        name = quote(str(path), 200)[1:-1]
        key = _file_key(str(path))
        if key in seen:
            raise UserError(f"{name}: named for two outputs ({seen[key]} and {path}): each needs its own file")
        seen[key] = str(path)
        for source in sources:
            if _same_or_inside(Path(path), source):
                if not Path(path).exists() and source.is_dir():  # a new name: no input yet, but would be one
                    raise UserError(f"{name}: is inside {quote(str(source), 200)[1:-1]}, which this "
                                    f"{'run' if run else 'command'} reads whole: write outputs elsewhere")
                raise UserError(f"{name}: is an input of this {'run' if run else 'command'} "
                                f"({quote(str(source), 200)[1:-1]}): an output never replaces what is being "
                                f"{'run' if run else 'read'}")


def _probe_folder(p: Path) -> None:
    """Create and remove a temporary file where `write_output` will make its own: a folder that
    refuses files (/proc, a full or read-only mount that `os.access` calls writable) is
    refused now, in the words the write would use, not after the long work."""
    import tempfile

    name = clean_name(str(p))
    try:
        fd, tmp = tempfile.mkstemp(dir=p.parent if str(p.parent) else ".", prefix=f".{p.name[:100]}.", suffix=".tmp")
    except FileNotFoundError:
        what = "its folder takes no new file" if p.parent.is_dir() else "its folder does not exist"
        raise UserError(f"{name}: cannot write: {what}") from None
    except OSError as e:
        raise UserError(f"{name}: cannot write ({e.strerror})") from None
    os.close(fd)
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _file_key(path: str) -> tuple[int, int] | str:
    """The same key for two names of one file (an existing file: device and inode)."""
    try:
        st = os.stat(path)
        return (st.st_dev, st.st_ino)
    except OSError:
        return os.path.realpath(path)


def _same_or_inside(out: Path, source: Path) -> bool:
    """`out` is the file `source` (any name of it), or lies inside the folder `source`."""
    try:
        if out.exists() and source.exists() and os.path.samefile(out, source):
            return True
    except OSError:
        pass
    if not source.is_dir():
        return os.path.realpath(out) == os.path.realpath(source)
    real_out, real_source = os.path.realpath(out), os.path.realpath(source)
    return os.path.commonpath([real_out, real_source]) == real_source


def is_stream(p: str | Path) -> bool:
    """A device, pipe or socket (/dev/null, a FIFO, /dev/stdout): written in place, never replaced."""
    try:
        mode = os.stat(p).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _refuse_link(p: Path, name: str) -> None:
    """An output is never written through a symbolic link (a dangling link would create its
    target; a link another user planted in a sticky /tmp would let us overwrite their choice of
    file). Only a link to a stream (/dev/stdout -> /proc/self/fd/1) is written, in place."""
    if p.is_symlink() and not is_stream(p):
        raise UserError(f"{name}: is a symbolic link: an output is never written through one "
                        "(name the file itself)")


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def write_output(text: str, out: str | Path) -> None:
    """Write `text` to `out` (`-`: standard output) atomically: a temporary file in the same
    folder, then a rename, so a failed or interrupted command never leaves a truncated file.
    Any failure is a one-line UserError."""
    if str(out) == "-":
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader is gone (`| head`): the CLI ends quietly, exit 0 (fives/cli)
            raise
        except OSError as e:
            discard_stdout()
            raise UserError(os_error_line(e, stdout_failed=True)) from None
        return
    write_bytes_atomic(text.encode("utf-8"), out)


_STREAM_ERRNOS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT, errno.EFBIG, errno.ECONNRESET})


def os_error_line(e: OSError, stdout_failed: bool = False) -> str:
    """The one line for an OSError no command turned into a UserError: standard output that
    cannot be written (a full disk, a closed pipe), or a file named by the error."""
    reason = e.strerror or str(e) or type(e).__name__
    if stdout_failed or (e.filename is None and e.errno in _STREAM_ERRNOS and _raised_writing_stdout(e)):
        return f"cannot write standard output ({reason})"
    if e.filename is not None:
        return f"{clean_name(os.fsdecode(e.filename) if isinstance(e.filename, bytes) else str(e.filename))}: {reason}"
    return f"cannot write an output ({reason})"


def _raised_writing_stdout(e: BaseException) -> bool:
    """Whether a frame the error passed through holds standard output (click.echo's `file`, a
    command's `out`): then it is standard output that failed, not some file."""
    import traceback

    streams = [s for s in (sys.stdout, sys.__stdout__) if s is not None]
    streams += [b for b in (getattr(s, "buffer", None) for s in streams) if b is not None]
    for frame, _ in traceback.walk_tb(e.__traceback__):
        if any(v is s for v in frame.f_locals.values() for s in streams):
            return True
    return False


def discard_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush of what could not be
    written succeeds quietly instead of printing a second error and exiting 120."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer)
        pass


def write_bytes_atomic(data: bytes, out: str | Path, streams: bool = True) -> None:
    """Atomic write of `data` to the file `out` (see write_output). With `streams=False` (cache
    entries) a FIFO or device at `out` is replaced by the new file, never opened."""
    p = Path(out)
    name = clean_name(str(p))
    check_writable(p)
    if streams and is_stream(p):  # a device or pipe (/dev/stdout, a FIFO): a stream, not a file
        try:  # no O_CREAT: should the name become a dangling link meanwhile, nothing is created
            fd = os.open(p, os.O_WRONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError as e:
            raise UserError(f"{name}: cannot write ({e.strerror})") from None
        return
    import tempfile  # here, not at the top: it costs every command's start-up a few ms

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=p.parent if str(p.parent) else ".",
                                   prefix=f".{p.name[:100]}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:  # lstat: the mode of the file being replaced, never of what a link points to
            st = os.lstat(p)
            mode = st.st_mode & 0o7777 if stat.S_ISREG(st.st_mode) else 0o666 & ~_umask()
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, p)  # a rename replaces the name itself: it never follows a link
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
