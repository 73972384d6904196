"""Engines the conformance runner can drive: the reference engine in process, or any
executable speaking the line protocol of spec/protocol.md (persistent or one process per case).

Every failure of a third-party engine (crash, hang, garbage, wrong id, early exit) becomes an
`Outcome` with status "error" for that one case; the engine is restarted for the next case.
"""
from __future__ import annotations

import json
import os
import queue
import select
import shlex
import subprocess
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from .fixtures import Case
from .kinds import Kind, load_kinds
from .rules import game_ids, load_rules

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20  # a reply longer than 1 MiB is garbage, not an answer
RAW_KEEP = 400  # characters of a bad reply kept in the report
STDERR_KEEP = 4000  # characters of stderr tail kept in the report
OVERSIZED = b"... (line longer than 1 MiB)"  # ends the kept head of an oversized reply line


@dataclass
class Outcome:
    status: str  # "ok" | "skipped" | "error"
    answer: Any = None
    message: str = ""
    raw: str | None = None
    stderr: str | None = None
    seconds: float = 0.0


@dataclass
class Handshake:
    name: str
    version: str
    language: str
    games: list[str]
    capabilities: list[str]
    raw: dict[str, Any] = field(default_factory=dict)


class EngineStartError(Exception):
    pass


class Engine:
    """Base: `start()` once, `run(case)` per case, `close()` at the end."""

    handshake: Handshake

    def start(self) -> Handshake:
        raise NotImplementedError

    def run(self, case: Case) -> Outcome:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def supports(self, case: Case, kinds: dict[str, Kind]) -> str | None:
        """None if the engine takes `case`, else why it is skipped."""
        cap = kinds[case.kind].capability
        if case.game not in self.handshake.games:
            return f"engine does not declare game {case.game}"
        if cap not in self.handshake.capabilities:
            return f"engine does not declare capability {cap}"
        return None


def request_for(case: Case, request_id: str) -> dict[str, Any]:
    return {"id": request_id, "type": case.kind, "game": case.game, "input": case.input}


class ReferenceEngine(Engine):
    """The built-in engine, in process. `hooks` swap rule pieces (used by mutant engines)."""

    def __init__(self, hooks: dict[str, Any] | None = None, name: str = "fives-reference") -> None:
        self.hooks = hooks or {}
        self.kinds = load_kinds()
        from . import __version__
        self.handshake = Handshake(name, __version__, "python", game_ids(), sorted({k.capability for k in self.kinds.values()}))

    def start(self) -> Handshake:
        return self.handshake

    def answer(self, kind: str, game: str, input: dict[str, Any]) -> Any:
        return self.kinds[kind].run(load_rules(game), input, self.hooks)

    def run(self, case: Case) -> Outcome:
        t0 = time.perf_counter()
        try:
            answer = self.answer(case.kind, case.game, case.input)
        except Exception as e:  # an engine bug must not stop the run
            return Outcome("error", message=f"reference engine raised {type(e).__name__}: {e}",
                           stderr=traceback.format_exc()[-STDERR_KEEP:], seconds=time.perf_counter() - t0)
        return Outcome("ok", answer, seconds=time.perf_counter() - t0)


def parse_handshake(msg: Any) -> Handshake:
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        raise EngineStartError(f"expected a hello reply, got {json.dumps(msg)[:RAW_KEEP]}")
    if msg.get("protocol") != PROTOCOL_VERSION:
        raise EngineStartError(f"engine speaks protocol {msg.get('protocol')!r}, runner speaks {PROTOCOL_VERSION}")
    eng = msg.get("engine") or {}
    games, caps = msg.get("games"), msg.get("capabilities")
    if not isinstance(games, list) or not isinstance(caps, list):
        raise EngineStartError("hello reply lacks the lists games and capabilities")
    return Handshake(str(eng.get("name", "?")), str(eng.get("version", "?")), str(eng.get("language", "?")),
                     [str(g) for g in games], [str(c) for c in caps], msg)


def hello_request() -> dict[str, Any]:
    return {"id": "hello", "type": "hello", "protocol": PROTOCOL_VERSION}


def check_reply(msg: Any, request_id: str, raw: str) -> Outcome:
    """Turn one reply object into an Outcome (the wrong id or shape is an error)."""
    if not isinstance(msg, dict):
        return Outcome("error", message="reply is not a JSON object", raw=raw[:RAW_KEEP])
    if msg.get("id") != request_id:
        return Outcome("error", message=f"reply id {msg.get('id')!r} does not match request id {request_id!r}",
                       raw=raw[:RAW_KEEP])
    keys = [k for k in ("result", "skipped", "error") if k in msg]
    if len(keys) != 1:
        return Outcome("error", message="a reply has exactly one of result, skipped, error", raw=raw[:RAW_KEEP])
    if keys[0] == "result":
        return Outcome("ok", msg["result"])
    if keys[0] == "skipped":
        return Outcome("skipped", message=f"engine skipped: {msg['skipped']}")
    return Outcome("error", message=f"engine reported error: {msg['error']}", raw=raw[:RAW_KEEP])


class _Process:
    """A child process with stdout lines on a queue and a rolling stderr tail."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=cwd, start_new_session=True)
        except OSError as e:
            raise EngineStartError(f"cannot start {shlex.join(argv)}: {e.strerror or e}") from None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[bytes] = deque()
        self._stderr_size = 0
        self._stderr_lock = threading.Lock()  # the tail is read while the reader thread appends
        self._partial = b""
        self._partial_lock = threading.Lock()
        self._stderr_busy = False  # the stderr reader holds a chunk it has not appended yet
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stdout(self) -> None:
        """Split stdout into lines by hand (not readline) so a partial line stays visible."""
        assert self.proc.stdout is not None
        out = self.proc.stdout
        buf = bytearray()
        oversized = False  # the current line passed MAX_LINE: keep its head, drop the rest
        while chunk := out.read1(65536):
            start = 0
            while (nl := chunk.find(b"\n", start)) >= 0:
                if not oversized:
                    buf += chunk[start:nl + 1]
                self.lines.put(bytes(buf[:RAW_KEEP]) + OVERSIZED if oversized or len(buf) > MAX_LINE + 1 else bytes(buf))
                buf.clear()
                oversized = False
                start = nl + 1
            if not oversized:
                buf += chunk[start:]
                if len(buf) > MAX_LINE:
                    del buf[RAW_KEEP:]
                    oversized = True
            with self._partial_lock:
                self._partial = bytes(buf[:RAW_KEEP])
        if buf:
            self.lines.put(bytes(buf) + (OVERSIZED if oversized else b""))  # a partial last line
        self.lines.put(None)

    def partial(self) -> str:
        """The start of a line the engine began but has not finished."""
        with self._partial_lock:
            return self._partial.decode("utf-8", "replace")

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        while chunk := self.proc.stderr.read1(65536) if hasattr(self.proc.stderr, "read1") else self.proc.stderr.read(65536):
            self._stderr_busy = True
            with self._stderr_lock:
                self._stderr.append(chunk)
                self._stderr_size += len(chunk)
                # drop old chunks, but always keep at least STDERR_KEEP bytes of tail
                while self._stderr_size - len(self._stderr[0]) >= STDERR_KEEP:
                    self._stderr_size -= len(self._stderr.popleft())
            self._stderr_busy = False

    def stderr_tail(self) -> str:
        # first let the reader thread take in what the engine wrote before it replied or exited
        if self.proc.poll() is not None:
            self._stderr_reader.join(timeout=1.0)
        else:
            deadline = time.monotonic() + 0.2
            try:
                while select.select([self.proc.stderr], [], [], 0)[0] and time.monotonic() < deadline:
                    time.sleep(0.005)
            except (ValueError, OSError):
                pass
            # the pipe is drained, but the reader may hold a chunk it has not appended yet
            time.sleep(0.01)
            while self._stderr_busy and time.monotonic() < deadline:
                time.sleep(0.002)
        with self._stderr_lock:
            tail = b"".join(self._stderr)
        return tail[-STDERR_KEEP:].decode("utf-8", "replace")

    def send(self, msg: dict[str, Any]) -> bool:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write((json.dumps(msg, ensure_ascii=False) + "\n").encode())
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def receive(self, timeout: float) -> bytes | None | str:
        """A line, None at end of output, or "timeout"."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return "timeout"

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if s:
                    s.close()
            except OSError:
                pass

    def close(self, grace: float = 2.0) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=grace)
        except (subprocess.TimeoutExpired, OSError):
            pass
        self.kill()


Validator = Callable[[str, Any], str | None]  # (direction/message kind, message) -> problem or None


class ProcessEngine(Engine):
    """A persistent engine process: one JSON object per line each way (spec/protocol.md)."""

    def __init__(self, command: str, timeout: float = 10.0, validator: Validator | None = None,
                 start_failures_allowed: int = 3) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise EngineStartError("empty engine command")
        self.command = command
        self.timeout = timeout
        self.validator = validator
        self.proc: _Process | None = None
        self.counter = 0
        self.start_failures = 0
        self.start_failures_allowed = start_failures_allowed
        self.last_start_error = ""

    def _exchange(self, proc: _Process, msg: dict[str, Any], request_id: str) -> Outcome:
        t0 = time.perf_counter()
        direction = "hello-request" if request_id == "hello" else "request"
        if self.validator and (problem := self.validator(direction, msg)):
            return Outcome("error", message=f"runner built an invalid request: {problem}")
        if not proc.send(msg):
            time.sleep(0.05)
            return Outcome("error", message=f"engine closed its input (exit code {proc.proc.poll()})",
                           stderr=proc.stderr_tail(), seconds=time.perf_counter() - t0)
        line = proc.receive(self.timeout)
        seconds = time.perf_counter() - t0
        if line == "timeout":
            partial = proc.partial()
            return Outcome("error", message=f"no reply within {self.timeout:g}s (engine killed and restarted)"
                           + (" after a partial line" if partial else ""),
                           raw=partial or None, stderr=proc.stderr_tail(), seconds=seconds)
        if line is None:
            proc.proc.wait(timeout=5) if proc.proc.poll() is None else None
            return Outcome("error", message=f"engine exited (code {proc.proc.poll()}) before replying",
                           stderr=proc.stderr_tail(), seconds=seconds)
        assert isinstance(line, bytes)
        raw = line.decode("utf-8", "replace")
        if line.endswith(OVERSIZED):
            return Outcome("error", message=f"reply line longer than {MAX_LINE >> 20} MiB",
                           raw=raw[:RAW_KEEP], stderr=proc.stderr_tail(), seconds=seconds)
        if not raw.endswith("\n"):
            # a partial line: the engine stopped mid-line (EOF) or it was cut
            return Outcome("error", message="partial reply line (no newline before end of output)",
                           raw=raw[:RAW_KEEP], stderr=proc.stderr_tail(), seconds=seconds)
        try:
            msg_in = json.loads(raw)
        except json.JSONDecodeError as e:
            return Outcome("error", message=f"garbage reply (not JSON: {e.msg})", raw=raw[:RAW_KEEP],
                           stderr=proc.stderr_tail(), seconds=seconds)
        if self.validator and request_id != "hello" and (problem := self.validator("reply", msg_in)):
            out = Outcome("error", message=f"reply violates the protocol schema: {problem}", raw=raw[:RAW_KEEP])
        elif request_id == "hello":
            out = Outcome("ok", msg_in, raw=raw[:RAW_KEEP])
        else:
            out = check_reply(msg_in, request_id, raw)
        out.seconds = seconds
        return out

    def start(self) -> Handshake:
        proc = _Process(self.argv)
        out = self._exchange(proc, hello_request(), "hello")
        if out.status != "ok":
            proc.kill()
            tail = (out.stderr or "").strip().splitlines()[-1:] if out.stderr else []
            raise EngineStartError(f"handshake failed: {out.message}" + (f" (stderr: {tail[0][:200]})" if tail else ""))
        if self.validator and (problem := self.validator("hello", out.answer)):
            proc.kill()
            raise EngineStartError(f"hello reply violates the protocol schema: {problem}")
        try:
            self.handshake = parse_handshake(out.answer)
        except EngineStartError:
            proc.kill()
            raise
        self.proc = proc
        return self.handshake

    def _ensure(self) -> str | None:
        if self.proc is not None and self.proc.proc.poll() is None:
            return None
        if self.proc is not None:
            self.proc.kill()
            self.proc = None
        if self.start_failures >= self.start_failures_allowed:
            return f"engine failed to start {self.start_failures} times in a row; last: {self.last_start_error}"
        try:
            self.start()
            self.start_failures = 0
            return None
        except EngineStartError as e:
            self.start_failures += 1
            self.last_start_error = str(e)
            return f"engine restart failed: {e}"

    def run(self, case: Case) -> Outcome:
        problem = self._ensure()
        if problem:
            return Outcome("error", message=problem)
        assert self.proc is not None
        self.counter += 1
        rid = f"{case.id}#{self.counter}"
        out = self._exchange(self.proc, request_for(case, rid), rid)
        if out.status == "error":
            if out.stderr is None:
                out.stderr = self.proc.stderr_tail()
            if not out.message.startswith("engine reported error"):
                # after a hang, crash, garbage or wrong id the stream cannot be trusted: restart
                self.proc.kill()
                self.proc = None
        return out

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None


class OneShotEngine(ProcessEngine):
    """One process per case: the request on stdin, the reply on stdout, then the process exits."""

    def start(self) -> Handshake:
        proc = _Process(self.argv)
        try:
            out = self._exchange(proc, hello_request(), "hello")
        finally:
            proc.close(grace=self.timeout)
        if out.status != "ok":
            raise EngineStartError(f"handshake failed: {out.message}")
        if self.validator and (problem := self.validator("hello", out.answer)):
            raise EngineStartError(f"hello reply violates the protocol schema: {problem}")
        self.handshake = parse_handshake(out.answer)
        return self.handshake

    def run(self, case: Case) -> Outcome:
        try:
            proc = _Process(self.argv)
        except EngineStartError as e:
            return Outcome("error", message=str(e))
        try:
            self.counter += 1
            rid = f"{case.id}#{self.counter}"
            out = self._exchange(proc, request_for(case, rid), rid)
            if out.status == "error" and out.stderr is None:
                out.stderr = proc.stderr_tail()
            return out
        finally:
            proc.close(grace=1.0)
