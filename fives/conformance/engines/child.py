"""An engine child process that cannot hang the runner.

The child runs in its own session (so its own process group); its pipes are non-blocking and
read with `select` in the caller's thread, so there is no reader thread to join and no
buffered stream whose close could wait on one. Every wait has a deadline, and the whole
process group is killed at the end, including children the engine forked that still hold
its stdout or stderr open after the leader has exited.

On Linux the kill also sweeps /proc for what left the group: every process of the engine's
session, and every process started since the engine that carries the engine's token in its
environment (`FIVES_ENGINE_TOKEN`), such as a daemon that called `setsid` and forked again.
What survives (spec/protocol.md): a process that leaves the session and the group and also
drops the token from its environment (or is another user's); without /proc, all but the group.
"""
from __future__ import annotations

import os
import secrets
import select
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Iterator

MAX_LINE = 1 << 20  # a reply longer than 1 MiB is garbage, not an answer
RAW_KEEP = 400  # characters of a bad reply kept in the report
STDERR_KEEP = 4000  # characters of stderr tail kept in the report
_CHUNK = 65536
_SLICE = 0.1  # seconds between checks that the leader is still alive while we wait
_DRAIN_CHUNKS = 64  # a flooding engine cannot keep a non-blocking drain going for ever


TOKEN_VARIABLE = "FIVES_ENGINE_TOKEN"  # in the engine's environment: marks its descendants


class ChildStartError(Exception):
    pass


def _boot_ticks_now() -> int:
    """Now, in the clock of /proc/PID/stat's start time (clock ticks since boot); 0 if unknown."""
    try:
        with open("/proc/uptime", "rb") as f:
            return int(float(f.read().split()[0]) * os.sysconf("SC_CLK_TCK")) - 1
    except (OSError, ValueError, IndexError):
        return 0


def kill_session(sid: int, token: str, since: int) -> int:
    """SIGKILL every process of session `sid`, and every process started at or after `since`
    (boot ticks) whose environment holds `TOKEN_VARIABLE=token`. Linux /proc only; returns how
    many were signalled (0 without /proc)."""
    me = os.getpid()
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    killed = 0
    try:
        pids = [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return 0
    for pid in pids:
        if pid == me:
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            if fields[0] == b"Z":  # already dead, waiting to be reaped
                continue
            session, started = int(fields[3]), int(fields[19])
            ours = session == sid
            if not ours and started >= since:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    ours = needle in f.read().split(b"\0")
            if ours:
                os.kill(pid, signal.SIGKILL)
                killed += 1
        except (OSError, ValueError, IndexError):  # gone meanwhile, or another user's
            continue
    return killed


@dataclass
class Received:
    """What one wait for a reply line produced."""

    kind: str  # "line" | "timeout" | "oversized" | "eof" (stdout closed) | "exited" (leader gone)
    data: bytes = b""  # the line (with its newline), or the head of a partial/oversized line


class Child:
    """A started engine process: `send` a line, `receive` a line, `stderr_tail`, `kill`."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        self.token = secrets.token_hex(16)
        self._started = _boot_ticks_now()
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         cwd=cwd, start_new_session=True, bufsize=0,
                                         env={**os.environ, TOKEN_VARIABLE: self.token})
        except (OSError, ValueError) as e:
            raise ChildStartError(f"cannot start {shlex.join(argv)}: {getattr(e, 'strerror', None) or e}") from None
        self.pgid = self.proc.pid  # start_new_session: the leader's pid is the group id, and the session id
        self._in = self.proc.stdin.fileno()  # type: ignore[union-attr]
        self._out = self.proc.stdout.fileno()  # type: ignore[union-attr]
        self._err = self.proc.stderr.fileno()  # type: ignore[union-attr]
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._buf = bytearray()  # stdout not yet returned as a line
        self._out_eof = False
        self._err_eof = False
        self._tail = bytearray()  # the last STDERR_KEEP bytes of stderr
        self._killed = False

    # -- stdout / stderr --------------------------------------------------------------------

    @staticmethod
    def _chunks(fd: int) -> Iterator[bytes]:
        """What is ready on `fd` now, in at most _DRAIN_CHUNKS reads; b"" once at end of file."""
        for _ in range(_DRAIN_CHUNKS):
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            yield chunk
            if not chunk:
                return

    def _read_err(self) -> None:
        for chunk in self._chunks(self._err):
            if not chunk:
                self._err_eof = True
                return
            self._tail += chunk
            if len(self._tail) > 2 * STDERR_KEEP:
                del self._tail[:-STDERR_KEEP]

    def _read_out(self) -> None:
        for chunk in self._chunks(self._out):
            if not chunk:
                self._out_eof = True
                return
            self._buf += chunk
            if b"\n" in chunk or len(self._buf) > MAX_LINE:
                return

    def _take(self) -> Received | None:
        nl = self._buf.find(b"\n")
        if 0 <= nl <= MAX_LINE:
            line = bytes(self._buf[:nl + 1])
            del self._buf[:nl + 1]
            return Received("line", line)
        if len(self._buf) > MAX_LINE:  # no need to wait for the newline: it is garbage already
            return Received("oversized", bytes(self._buf[:RAW_KEEP]))
        return None

    def partial(self) -> bytes:
        """The head of a line the engine began but has not finished."""
        return bytes(self._buf[:RAW_KEEP])

    def receive(self, timeout: float) -> Received:
        """The next stdout line, or why there is none within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            got = self._take()
            if got is not None:
                return got
            if self._out_eof:
                return Received("eof", self.partial())
            left = deadline - time.monotonic()
            if left <= 0:
                return Received("timeout", self.partial())
            fds = [self._out] if self._err_eof else [self._out, self._err]
            try:
                ready = select.select(fds, [], [], min(left, _SLICE))[0]
            except (OSError, ValueError):
                return Received("eof", self.partial())
            if self._err in ready:
                self._read_err()
            if self._out in ready:
                self._read_out()
            elif not ready and self.proc.poll() is not None:
                # the leader is gone but stdout is still open: a child it forked holds the pipe
                self._read_out()
                got = self._take()
                return got or (Received("eof", self.partial()) if self._out_eof else Received("exited", self.partial()))

    def stderr_tail(self) -> str:
        """The last STDERR_KEEP characters the engine wrote to stderr, so far."""
        if not self._err_eof and not self._killed:
            self._read_err()
        return bytes(self._tail[-STDERR_KEEP:]).decode("utf-8", "replace")

    # -- stdin -------------------------------------------------------------------------------

    def send(self, data: bytes, timeout: float) -> str | None:
        """Write `data` within `timeout` seconds; None when done, else why not."""
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._in, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except OSError:  # BrokenPipeError and friends: the engine closed its input
                return "closed"
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            try:
                select.select([], [self._in], [], min(left, _SLICE))
            except (OSError, ValueError):
                return "closed"
            if not self._err_eof:
                self._read_err()  # an engine blocked on a full stderr pipe cannot read its input
        return None

    def close_input(self) -> None:
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass

    # -- the end -----------------------------------------------------------------------------

    def exit_code(self, wait: float = 0.0) -> int | None:
        """The leader's exit code, waiting up to `wait` seconds for it; None while it runs."""
        deadline = time.monotonic() + wait
        while (code := self.proc.poll()) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return code

    def signal_group(self) -> None:
        """SIGKILL to the whole process group (the leader may be gone: its children are not),
        then to what left it: the engine's session, and processes holding its token."""
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        for _ in range(2):  # a second pass for what was forking during the first
            if not kill_session(self.pgid, self.token, self._started):
                break

    def kill(self) -> None:
        """Kill the whole group now and release the pipes; never blocks for long."""
        self.signal_group()
        self.exit_code(wait=2.0)
        if not self._killed:
            self._killed = True
            if not self._err_eof:
                self._read_err()
            for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    if f:
                        f.close()  # raw, non-blocking FileIO: closing never waits on anything
                except OSError:
                    pass

    def close(self, grace: float = 2.0) -> None:
        """End of input, `grace` seconds to exit on its own, then the group is killed anyway."""
        self.close_input()
        self.exit_code(wait=grace)
        self.kill()
