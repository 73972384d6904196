"""Engines the conformance runner can drive: the reference engine in process, or any
executable speaking the line protocol of spec/protocol.md (persistent or one process per case).

Every failure of a third-party engine (crash, hang, garbage, a reply too deep, too long or
not UTF-8, NaN, wrong id, early exit, closed output) becomes an `Outcome` with status
"error" for that one case, and the engine is restarted for the next case. Nothing a reply
holds can raise out of here: it is parsed by the one hardened reader (fives.io) and any
other failure of the parse is caught too. Child processes live in fives/child.py.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .child import MAX_LINE, RAW_KEEP, STDERR_KEEP, Child, ChildStartError, Received
from .deadline import DeadlineRunner
from .errors import UserError
from .fixtures import Case
from .io import parse_json_line, quote
from .kinds import Kind, load_kinds
from .rules import game_ids, load_rules

__all__ = ["PROTOCOL_VERSION", "MAX_LINE", "RAW_KEEP", "STDERR_KEEP", "Outcome", "Handshake", "EngineStartError",
           "Engine", "ReferenceEngine", "ProcessEngine", "OneShotEngine", "parse_reply", "check_reply"]

PROTOCOL_VERSION = 1
MESSAGE_KEEP = 300  # characters of an engine's own error text (or a wrong id) kept in a message


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
    """Base: `start()` once, `run(case)` per case, `close()` at the end.

    `run(case, seq)`: `seq` is the case's 1-based place in the run, used in request ids so
    that messages do not depend on how cases are shared among parallel engines."""

    handshake: Handshake

    def start(self) -> Handshake:
        raise NotImplementedError

    def run(self, case: Case, seq: int | None = None) -> Outcome:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def abort(self) -> None:
        """Stop at once (Ctrl-C, SIGTERM): may be called from another thread than `run`'s."""
        self.close()

    def clone(self) -> Engine | None:
        """A fresh engine of the same command for a parallel worker, or None if it cannot be."""
        return None

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
    """The built-in engine, in process. `hooks` swap rule pieces (used by mutant engines).
    With `timeout` (seconds) a case over budget is an error and the run goes on."""

    def __init__(self, hooks: dict[str, Any] | None = None, name: str = "fives-reference",
                 timeout: float | None = None, slow_timeout: float | None = None) -> None:
        self.hooks = hooks or {}
        # a case tagged slow (deep perft, run only with --slow) may take minutes by design:
        # it gets its own budget (None or 0: no limit) unless --timeout was given
        self.slow_timeout = slow_timeout
        self.kinds = load_kinds()
        self.timeout = timeout
        self._deadline = DeadlineRunner()
        from . import __version__
        self.handshake = Handshake(name, __version__, "python", game_ids(), sorted({k.capability for k in self.kinds.values()}))

    def start(self) -> Handshake:
        return self.handshake

    def answer(self, kind: str, game: str, input: dict[str, Any]) -> Any:
        return self.kinds[kind].run(load_rules(game), input, self.hooks)

    def run(self, case: Case, seq: int | None = None) -> Outcome:
        t0 = time.perf_counter()
        limit = self.slow_timeout if "slow" in case.tags else self.timeout
        done = self._deadline.call(lambda: self.answer(case.kind, case.game, case.input), limit)
        seconds = time.perf_counter() - t0
        if done.status == "timeout":
            return Outcome("error", message=f"no answer within {limit:g}s (timeout; the case was stopped; --timeout 0: no limit)",
                           seconds=seconds)
        if done.status == "error":  # an engine bug must not stop the run
            e = done.error
            return Outcome("error", message=f"reference engine raised {type(e).__name__}: {quote(str(e), MESSAGE_KEEP)[1:-1]}",
                           stderr=done.trace[-STDERR_KEEP:], seconds=seconds)
        return Outcome("ok", done.value, seconds=seconds)

    def close(self) -> None:
        self._deadline.close()


# -- replies -------------------------------------------------------------------------------

class BadReply(Exception):
    """A reply line that is not one acceptable JSON value (the message says why, briefly)."""


def parse_reply(line: bytes) -> Any:
    """The JSON value of one reply line, or BadReply: not UTF-8, malformed, deeper than the
    reader's limit, a number too long, NaN or Infinity. Nothing else escapes."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadReply(f"not UTF-8 ({e.reason} at byte {e.start})") from None
    try:
        return parse_json_line(text, "reply")
    except UserError as e:
        raise BadReply(str(e).removeprefix("reply: ")) from None
    except Exception as e:  # RecursionError, ValueError, MemoryError...: never out of the runner
        raise BadReply(f"{type(e).__name__}: {quote(str(e), 100)[1:-1]}") from None


def _short(value: Any) -> str:
    return quote(value, MESSAGE_KEEP)


def parse_handshake(msg: Any) -> Handshake:
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        raise EngineStartError(f"expected a hello reply, got {_short(msg)}")
    if msg.get("protocol") != PROTOCOL_VERSION:
        raise EngineStartError(f"engine speaks protocol {_short(msg.get('protocol'))}, runner speaks {PROTOCOL_VERSION}")
    eng = msg.get("engine")
    eng = eng if isinstance(eng, dict) else {}
    games, caps = msg.get("games"), msg.get("capabilities")
    if not isinstance(games, list) or not isinstance(caps, list):
        raise EngineStartError("hello reply lacks the lists games and capabilities")
    name = lambda v: v if isinstance(v, str) else json.dumps(v)[:MESSAGE_KEEP]  # noqa: E731
    return Handshake(name(eng.get("name", "?")), name(eng.get("version", "?")), name(eng.get("language", "?")),
                     [name(g) for g in games], [name(c) for c in caps], msg)


def hello_request() -> dict[str, Any]:
    return {"id": "hello", "type": "hello", "protocol": PROTOCOL_VERSION}


def check_reply(msg: Any, request_id: str, raw: str) -> Outcome:
    """Turn one reply object into an Outcome (the wrong id or shape is an error)."""
    if not isinstance(msg, dict):
        return Outcome("error", message="reply is not a JSON object", raw=raw[:RAW_KEEP])
    if msg.get("id") != request_id:
        return Outcome("error", message=f"reply id {_short(msg.get('id'))} does not match request id {request_id!r}",
                       raw=raw[:RAW_KEEP])
    keys = [k for k in ("result", "skipped", "error") if k in msg]
    if len(keys) != 1:
        return Outcome("error", message="a reply has exactly one of result, skipped, error", raw=raw[:RAW_KEEP])
    if keys[0] == "result":
        return Outcome("ok", msg["result"])
    text = lambda v: quote(v if isinstance(v, str) else json.dumps(v), MESSAGE_KEEP)[1:-1]  # noqa: E731
    if keys[0] == "skipped":
        return Outcome("skipped", message=f"engine skipped: {text(msg['skipped'])}")
    return Outcome("error", message=f"engine reported error: {text(msg['error'])}", raw=raw[:RAW_KEEP])


# -- engines over the protocol -----------------------------------------------------------

Validator = Callable[[str, Any], str | None]  # (direction/message kind, message) -> problem or None
REPORTED_ERROR = "engine reported error"  # the one error after which the stream is still in step


class ProcessEngine(Engine):
    """A persistent engine process: one JSON object per line each way (spec/protocol.md)."""

    def __init__(self, command: str, timeout: float = 10.0, validator: Validator | None = None,
                 start_failures_allowed: int = 3) -> None:
        import shlex
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise EngineStartError(f"cannot parse the engine command: {e}") from None
        if not self.argv:
            raise EngineStartError("empty engine command")
        self.command = command
        self.timeout = timeout if timeout and timeout > 0 else 365 * 86400.0  # 0: no limit
        self.validator = validator
        self.proc: Child | None = None
        self.counter = 0
        self.start_failures = 0
        self.start_failures_allowed = start_failures_allowed
        self.last_start_error = ""
        self.aborted = False

    def clone(self) -> ProcessEngine:
        twin = type(self)(self.command, self.timeout, self.validator, self.start_failures_allowed)
        if hasattr(self, "handshake"):  # the twin starts its own process at its first case
            twin.handshake = self.handshake
        return twin

    def _validate(self, direction: str, msg: Any) -> str | None:
        if not self.validator:
            return None
        try:
            problem = self.validator(direction, msg)
            return None if problem is None else quote(problem, MESSAGE_KEEP)[1:-1]  # may quote the whole reply
        except Exception as e:  # a message odd enough to trip the validator is still just invalid
            return f"could not be checked ({type(e).__name__})"

    def _exchange(self, proc: Child, msg: dict[str, Any], request_id: str) -> Outcome:
        t0 = time.perf_counter()
        direction = "hello-request" if request_id == "hello" else "request"
        if problem := self._validate(direction, msg):
            return Outcome("error", message=f"runner built an invalid request: {problem}")
        data = (json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")
        why = proc.send(data, self.timeout)
        if why == "closed":
            code = proc.exit_code(wait=0.5)
            return Outcome("error", message=f"engine closed its input (exit code {code})",
                           stderr=proc.stderr_tail(), seconds=time.perf_counter() - t0)
        if why == "timeout":
            return Outcome("error", message=f"engine did not read its input within {self.timeout:g}s "
                           "(engine killed and restarted)", stderr=proc.stderr_tail(), seconds=time.perf_counter() - t0)
        got = proc.receive(self.timeout - (time.perf_counter() - t0))
        seconds = time.perf_counter() - t0
        out = self._judge_line(proc, got, request_id)
        out.seconds = seconds
        return out

    def _judge_line(self, proc: Child, got: Received, request_id: str) -> Outcome:
        partial = got.data.decode("utf-8", "replace")
        if got.kind == "timeout":
            return Outcome("error", message=f"no reply within {self.timeout:g}s (engine killed and restarted)"
                           + (" after a partial line" if partial else ""), raw=partial or None, stderr=proc.stderr_tail())
        if got.kind == "oversized":
            return Outcome("error", message=f"reply line longer than {MAX_LINE >> 20} MiB", raw=partial[:RAW_KEEP],
                           stderr=proc.stderr_tail())
        if got.kind in ("eof", "exited"):
            code = proc.exit_code(wait=0.5)
            if partial:  # the engine stopped mid-line
                message = "partial reply line (no newline before end of output)"
            elif code is None:
                message = "engine closed its output but is still running (engine killed and restarted)"
            elif got.kind == "exited":
                message = f"engine exited (code {code}) before replying; a process it started still held its output"
            else:
                message = f"engine exited (code {code}) before replying"
            return Outcome("error", message=message, raw=partial[:RAW_KEEP] or None, stderr=proc.stderr_tail())
        raw = got.data.decode("utf-8", "replace")
        try:
            msg_in = parse_reply(got.data)
        except BadReply as e:
            if "malformed JSON: " in str(e):
                message = f"garbage reply (not JSON: {str(e).split('malformed JSON: ', 1)[1]})"
            else:  # too deep, a number too long, NaN, Infinity, not UTF-8
                message = f"invalid reply: {e}"
            return Outcome("error", message=message, raw=raw[:RAW_KEEP], stderr=proc.stderr_tail())
        if request_id != "hello" and (problem := self._validate("reply", msg_in)):
            return Outcome("error", message=f"reply violates the protocol schema: {problem}", raw=raw[:RAW_KEEP])
        if request_id == "hello":
            return Outcome("ok", msg_in, raw=raw[:RAW_KEEP])
        return check_reply(msg_in, request_id, raw)

    def _handshake(self, proc: Child) -> Handshake:
        out = self._exchange(proc, hello_request(), "hello")
        if out.status != "ok":
            tail = (out.stderr or "").strip().splitlines()[-1:]
            raise EngineStartError(f"handshake failed: {out.message}" + (f" (stderr: {quote(tail[0], 200)[1:-1]})" if tail else ""))
        if problem := self._validate("hello", out.answer):
            raise EngineStartError(f"hello reply violates the protocol schema: {problem}")
        return parse_handshake(out.answer)

    def _spawn(self) -> Child:
        try:
            return Child(self.argv)
        except ChildStartError as e:
            raise EngineStartError(str(e)) from None

    def start(self) -> Handshake:
        proc = self._spawn()
        self.proc = proc  # visible to abort() during the handshake
        try:
            if self.aborted:
                raise EngineStartError("run stopped")
            self.handshake = self._handshake(proc)
        except BaseException:
            proc.kill()
            self.proc = None
            raise
        return self.handshake

    def _ensure(self) -> str | None:
        if self.proc is not None and self.proc.exit_code() is None:
            return None
        if self.proc is not None:
            self.proc.kill()
            self.proc = None
        if self.aborted:
            return "run stopped"
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

    def _request_id(self, case: Case, seq: int | None) -> str:
        self.counter += 1
        return f"{case.id}#{seq if seq is not None else self.counter}"

    def run(self, case: Case, seq: int | None = None) -> Outcome:
        problem = self._ensure()
        if problem:
            return Outcome("error", message=problem)
        proc = self.proc
        assert proc is not None
        rid = self._request_id(case, seq)
        out = self._exchange(proc, request_for(case, rid), rid)
        if out.status == "error":
            if out.stderr is None:
                out.stderr = proc.stderr_tail()
            if not out.message.startswith(REPORTED_ERROR):
                # after a hang, crash, garbage or wrong id the stream cannot be trusted: restart
                proc.kill()
                if self.proc is proc:
                    self.proc = None
        return out

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if self.aborted:  # a worker thread may still be reading its pipes: kill, leave the fds be
            proc.signal_group()
        else:
            proc.close(grace=2.0)

    def abort(self) -> None:
        self.aborted = True
        proc = self.proc
        if proc is not None:
            proc.signal_group()  # the worker using it sees end of output at once


class OneShotEngine(ProcessEngine):
    """One process per case: the request on stdin, the reply on stdout, then the process exits."""

    def start(self) -> Handshake:
        proc = self._spawn()
        self.proc = proc
        try:
            self.handshake = self._handshake(proc)
        finally:
            self.proc = None
            proc.close(grace=0.0 if self.aborted else min(self.timeout, 10.0))
        return self.handshake

    def run(self, case: Case, seq: int | None = None) -> Outcome:
        if self.aborted:
            return Outcome("error", message="run stopped")
        try:
            proc = self._spawn()
        except EngineStartError as e:
            return Outcome("error", message=str(e))
        self.proc = proc
        try:
            if self.aborted:  # abort() ran while this process was starting
                return Outcome("error", message="run stopped")
            rid = self._request_id(case, seq)
            out = self._exchange(proc, request_for(case, rid), rid)
            if out.status == "error" and out.stderr is None:
                out.stderr = proc.stderr_tail()
            return out
        finally:
            self.proc = None
            proc.close(grace=0.0 if self.aborted else 1.0)

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            proc.signal_group()
