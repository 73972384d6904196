"""Drivers for an engine under test that is an executable speaking spec/protocol.md: one
persistent process (`ProcessEngine`) or one process per case (`OneShotEngine`); `EngineSpec`
(engines/handle.py) is the one way to build either.

Every failure of the engine (crash, hang, garbage, wrong id, early exit) becomes that one
case's error `Outcome` and the engine is restarted for the next case (fives.conformance.engines.drivers).
"""
from __future__ import annotations

import json
import time
from typing import Any, Callable

from fives.conformance.engines.child import MAX_LINE, RAW_KEEP, Child, ChildStartError, Received
from fives.conformance.engines.drivers import MESSAGE_KEEP, BadReply, Engine, EngineStartError, Handshake, Outcome, check_reply, hello_request, parse_handshake, parse_reply, request_for
from fives.conformance.cases.fixtures import Case
from fives.conformance.engines.limits import NO_LIMIT, time_limit
from fives.support.sanitize import quote

__all__ = ["DEFAULT_TIMEOUT", "OneShotEngine", "ProcessEngine"]

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
        self.timeout = timeout if timeout and timeout > 0 else NO_LIMIT  # 0: no limit
        self.validator = validator
        self.proc: Child | None = None
        self.counter = 0
        self.start_failures = 0
        self.start_failures_allowed = start_failures_allowed
        self.last_start_error = ""
        self.aborted = False
        #: the first hello's reply: a restart (or a parallel twin) must say the same, or its
        #: scope would decide which cases run by when the engine crashed
        self.first_hello: dict[str, Any] | None = None

    def clone(self) -> ProcessEngine:
        twin = type(self)(self.command, self.timeout, self.validator, self.start_failures_allowed)
        twin.profile = self.profile
        twin.first_hello = self.first_hello
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

    def limit_for(self, case: Case) -> float:
        """The seconds `case` may take: --timeout scaled by the case's work (engines/limits.py)."""
        return time_limit(case, self.timeout) or self.timeout

    def _exchange(self, proc: Child, msg: dict[str, Any], request_id: str, limit: float | None = None) -> Outcome:
        """One request and its reply within `limit` seconds (the hello: --timeout itself)."""
        limit = self.timeout if limit is None else limit
        t0 = time.perf_counter()
        direction = "hello-request" if request_id == "hello" else "request"
        if problem := self._validate(direction, msg):
            return Outcome("error", message=f"runner built an invalid request: {problem}")
        data = (json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")
        why = proc.send(data, limit)
        if why == "closed":
            code = proc.exit_code(wait=0.5)
            return Outcome("error", message=f"engine closed its input (exit code {code})",
                           stderr=proc.stderr_tail(), seconds=time.perf_counter() - t0)
        if why == "timeout":
            return Outcome("error", message=f"engine did not read its input within {limit:g}s "
                           "(engine killed and restarted)", stderr=proc.stderr_tail(), seconds=time.perf_counter() - t0,
                           limit=limit if limit < NO_LIMIT else None)
        got = proc.receive(limit - (time.perf_counter() - t0))
        seconds = time.perf_counter() - t0
        out = self._judge_line(proc, got, request_id, limit)
        out.seconds = seconds
        out.limit = limit if limit < NO_LIMIT else None
        return out

    def _judge_line(self, proc: Child, got: Received, request_id: str, limit: float) -> Outcome:
        partial = got.data.decode("utf-8", "replace")
        if got.kind == "timeout":
            return Outcome("error", message=f"no reply within {limit:g}s (engine killed and restarted)"
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
        if problem := hello_problem(out.answer):  # with or without --validate
            raise EngineStartError(f"handshake failed: {problem}")
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
            hello = self._handshake(proc)
            if self.first_hello is not None and (change := hello_change(self.first_hello, hello.raw)):
                raise EngineStartError(f"its hello differs from its first hello: {change}")
            self.first_hello = self.first_hello if self.first_hello is not None else hello.raw
            self.handshake = hello
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
        out = self._exchange(proc, request_for(case, rid, self.rules_told(case)), rid, self.limit_for(case))
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


def hello_problem(msg: Any) -> str | None:
    """What makes a hello reply unusable whatever --validate says: a wrong id (the stream is
    out of step), or `games` / `capabilities` lists holding anything but names (a list of
    nulls and numbers would skip every case, a green run of nothing)."""
    if not isinstance(msg, dict):
        return None  # parse_handshake names it
    if msg.get("id") != "hello":
        return f"hello reply id {quote(json.dumps(msg.get('id')), 80)[1:-1]} is not \"hello\""
    for key in ("games", "capabilities"):
        items = msg.get(key)
        if isinstance(items, list) and not all(isinstance(v, str) and v for v in items):
            bad = next(v for v in items if not (isinstance(v, str) and v))
            return f"hello reply {key} must be a list of names, found {quote(json.dumps(bad), 80)[1:-1]}"
    return None


HELLO_DECLARATIONS = ("protocol", "engine", "games", "capabilities", "scope")


def hello_change(first: dict[str, Any], new: dict[str, Any]) -> str | None:
    """The first field of the hello's declarations (spec/protocol.md: the protocol, the engine,
    its games, capabilities and scope) in which a restarted engine's hello differs from its
    first one, said briefly, or None when they agree. Other fields an engine adds may vary."""
    for key in HELLO_DECLARATIONS:
        if first.get(key) != new.get(key):
            def said(value: Any) -> str:
                return "absent" if value is None else quote(json.dumps(value, sort_keys=True), 120)[1:-1]
            return f"{key} was {said(first.get(key))}, now {said(new.get(key))}"
    return None


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
            out = self._exchange(proc, request_for(case, rid, self.rules_told(case)), rid, self.limit_for(case))
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


#: --timeout when none is given; slow cases in process then have no limit (see handle.py EngineSpec).
DEFAULT_TIMEOUT = 10.0
