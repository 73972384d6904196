"""Run conformance cases through an engine and collect results as they arrive."""
from __future__ import annotations

import errno
import json
import os
import queue
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import yaml

from fives.conformance.engines.drivers import Engine, Outcome, case_players
from fives.conformance.cases.expected_under import ProfilePlan
from fives.support.errors import UserError
from fives.conformance.cases.fixtures import Case
from fives.support.writing import is_stream, write_output
from fives.support.reading import load_data
from fives.support.sanitize import quote
from fives.conformance.cases.kinds import Kind, kind_named


@dataclass
class CaseResult:
    case: Case
    status: str  # "passed" | "failed" | "errored" | "skipped"
    diffs: list[str] = field(default_factory=list)
    outcome: Outcome | None = None
    known: str | None = None  # the known-failures reason, if the case is listed
    expected_under: str | None = None  # the profile whose reference answer is the expectation (--rules)
    #: why a skipped case lies outside the scope the engine's hello declares (spec/protocol.md,
    #: "Engine scope"); None for any other result. The engine's scope, never a failure.
    out_of_scope: str | None = None

    @property
    def counts_as_failure(self) -> bool:
        return self.status in ("failed", "errored") and self.known is None

    def to_dict(self) -> dict[str, Any]:
        o = self.outcome
        d: dict[str, Any] = {
            "id": self.case.id, "file": self.case.file, "kind": self.case.kind, "game": self.case.game,
            "clauses": list(self.case.clauses), "status": self.status, "input": self.case.input,
            "expected": self.case.expect, "actual": o.answer if o else None, "diff": self.diffs,
        }
        if o and o.message:
            d["message"] = o.message
        if o and o.raw:
            d["raw"] = o.raw
        if o and o.stderr:
            d["stderr"] = o.stderr
        if self.known is not None:
            d["known_failure"] = self.known
        if self.expected_under is not None:
            d["expected_under"] = self.expected_under
        if self.out_of_scope is not None:
            d["out_of_scope"] = self.out_of_scope
        d["seconds"] = round(o.seconds, 6) if o else 0.0
        return d


def judge(case: Case, outcome: Outcome, kind: Kind) -> CaseResult:
    if outcome.status == "skipped":
        return CaseResult(case, "skipped", outcome=outcome)
    if outcome.status == "error":
        return CaseResult(case, "errored", outcome=outcome)
    try:
        diffs = kind.compare(case.expect, outcome.answer)
    except Exception as e:  # a malformed answer must not stop the run
        diffs = [f"answer could not be compared: {type(e).__name__}: {e}"]
    return CaseResult(case, "failed" if diffs else "passed", diffs, outcome)


def run_one(engine: Engine, case: Case, seq: int, known: dict[str, str],
            plan: ProfilePlan | None = None) -> CaseResult:
    """One case's result, whatever happens: a runner bug is that case's error, not the run's end.
    The one case loop step of every door (the CLI's run, the pytest plugin, fives.suite): the
    plan's skip (--rules P), the engine's declared scope, what it supports, then the judgement."""
    try:
        why = plan.skip_reason(case) if plan is not None else None
        scope = None if why else _profile_scope(plan, case)
        if scope is None and not why and hasattr(engine, "out_of_scope"):
            scope = engine.out_of_scope(case)
        why = why or scope or engine.supports(case)
        if why:
            result = CaseResult(case, "skipped", outcome=Outcome("skipped", message=why), out_of_scope=scope)
        else:
            result = judge(case, engine.run(case, seq), kind_named(case.kind))
    except Exception as e:  # noqa: BLE001 - every case gets a result line
        result = CaseResult(case, "errored", outcome=Outcome(
            "error", message=f"runner error: {type(e).__name__}: {quote(str(e), 200)[1:-1]}"))
    result.known = known.get(case.id)
    if plan is not None and case.id in plan.changed:
        result.expected_under = plan.profile.name
    return result


def _profile_scope(plan: ProfilePlan | None, case: Case) -> str | None:
    """Why `case` lies outside the player setups the --rules profile's book plays (its
    `players`), or None: skipped as scope, like an engine's declared scope."""
    if plan is None or plan.profile.players is None or case.game != plan.profile.extends:
        return None
    players, partnerships = case_players(case)
    if players is None or plan.profile.plays(players, partnerships):
        return None
    what = f"{players} players" + (" in partnerships" if partnerships else "")
    return f"outside {plan.profile.name}'s scope: {what} (its book plays {plan.profile.setup_text()})"


def run_cases(engine: Engine, cases: list[Case],
              on_result: Callable[[CaseResult], None] | None = None,
              known: dict[str, str] | None = None, jobs: int = 1,
              plan: ProfilePlan | None = None) -> list[CaseResult]:
    """Run every case; each result goes to `on_result` at once, in case order. Ctrl-C keeps
    what is done. `jobs` > 1 runs that many engine processes at once (engines that can be
    cloned: the protocol ones); the results and their order do not depend on `jobs`.
    `plan` (--rules P, fives/conformance/cases/expected_under.py): the cases already carry their
    expectations under P; the plan marks them and skips those P makes illegal."""
    known = known or {}
    if jobs > 1 and len(cases) > 1 and engine.clone() is not None:
        return _run_parallel(engine, cases, on_result, known, jobs, plan)
    results: list[CaseResult] = []
    for seq, case in enumerate(cases, 1):
        result = run_one(engine, case, seq, known, plan)
        results.append(result)
        if on_result:
            on_result(result)
    return results


def _run_parallel(engine: Engine, cases: list[Case],
                  on_result: Callable[[CaseResult], None] | None, known: dict[str, str],
                  jobs: int, plan: ProfilePlan | None = None) -> list[CaseResult]:
    """Worker threads, each with its own engine process, take the next case in turn; the
    main thread hands results on in case order. On Ctrl-C/SIGTERM every engine is killed and
    no thread is waited for (daemon threads), so nothing an engine does delays the stop."""
    engines = [engine] + [e for e in (engine.clone() for _ in range(min(jobs, len(cases)) - 1)) if e is not None]
    done: queue.SimpleQueue[tuple[int, CaseResult]] = queue.SimpleQueue()
    lock = threading.Lock()
    stop = threading.Event()
    taken = iter(range(len(cases)))

    def work(worker_engine: Engine) -> None:
        while not stop.is_set():
            with lock:
                i = next(taken, None)
            if i is None:
                return
            done.put((i, run_one(worker_engine, cases[i], i + 1, known, plan)))

    for e in engines:
        threading.Thread(target=work, args=(e,), daemon=True, name="fives-runner").start()
    results: list[CaseResult] = []
    waiting: dict[int, CaseResult] = {}
    try:
        while len(results) < len(cases):
            try:
                i, result = done.get(timeout=0.2)  # a timeout keeps signals prompt in this thread
            except queue.Empty:
                continue
            waiting[i] = result
            while len(results) in waiting:
                result = waiting.pop(len(results))
                results.append(result)
                if on_result:
                    on_result(result)
    except BaseException:
        stop.set()
        for e in engines:
            e.abort()
        raise
    finally:
        stop.set()
        for e in engines[1:]:
            e.close()
    return results


def not_started(cases: list[Case], why: str, known: dict[str, str] | None = None) -> list[CaseResult]:
    """Every case errored because the engine never completed its handshake: what the reports
    and --results say when a run ends with exit 3, so CI finds them and they are not green."""
    known = known or {}
    return [CaseResult(c, "errored", outcome=Outcome("error", message=f"engine did not start: {why}"),
                       known=known.get(c.id)) for c in cases]


def write_not_started(results: list[CaseResult], targets: list[tuple[str, str | None]], results_path: str | None,
                      formats: dict[str, Callable[..., str]], plan: Any = None) -> None:
    """A failed handshake (exit 3) still writes --results and every --report (`formats`: the
    report writers, fives.conformance.reports.formats.FORMATS; a target None is standard output)."""
    stream = ResultStream(results_path)
    try:
        for r in results:
            stream(r)
        for fmt, path in targets:
            text = formats[fmt](results, None, False, plan=plan)
            write_output(text if path else text + "\n", path or "-")
    finally:
        stream.close()


def load_known_failures(path: str) -> dict[str, str]:
    data, name = load_data(path)
    if data is None:
        return {}
    table = data.get("known_failures") if isinstance(data, dict) else None
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise UserError(f"{name}: expected a mapping `known_failures: {{CASE-ID: reason, ...}}`")
    return dict(table)


def write_known_failures(path: str, results: list[CaseResult]) -> int:
    table = {}
    for r in results:
        if r.status in ("failed", "errored"):
            reason = r.diffs[0] if r.diffs else (r.outcome.message if r.outcome else r.status)
            table[r.case.id] = f"{r.status}: {reason}"[:300]
    text = ("# Known failures: case ID -> reason. Listed cases do not fail the run; a listed case\n"
            "# that passes again is reported. Written by `fives conformance run --write-known-failures`.\n")
    text += yaml.safe_dump({"known_failures": dict(sorted(table.items()))}, allow_unicode=True, sort_keys=False, width=200)
    write_output(text, path)
    return len(table)


def result_line(result: CaseResult, engine: str | None = None) -> str:
    """One results-stream line: strict JSON (no NaN, no lone surrogates, bounded depth);
    `engine`: the label of a several-engines run, as the line's first key."""
    from fives.support.sanitize import json_safe
    d = result.to_dict() if engine is None else {"engine": engine, **result.to_dict()}
    return json.dumps(json_safe(d), ensure_ascii=False, allow_nan=False)


class ResultStream:
    """Appends each result as one JSON line the moment it arrives (survives Ctrl-C and crashes).
    A write that fails (a full disk) stops the stream, not the run: the file is cut back to its
    last complete line and the error is reported at close. Never opened through a symlink."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.error: str | None = None
        self.fd: int | None = None
        self.good = 0  # bytes of complete lines written
        self.lines = 0
        self.seekable = False
        if not path:
            return
        try:
            if is_stream(path):  # a FIFO, /dev/stdout: written in place
                self.fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC | os.O_NOCTTY)
            else:
                self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
                self.seekable = True
        except OSError as e:
            reason = "is a symbolic link" if e.errno == errno.ELOOP else f"cannot write ({e.strerror})"
            raise UserError(f"--results {quote(str(path), 200)[1:-1]}: {reason}") from None

    def __call__(self, result: CaseResult, engine: str | None = None) -> None:
        if self.fd is None or self.error is not None:
            return
        line = (result_line(result, engine) + "\n").encode("utf-8", "replace")
        data = memoryview(line)
        try:
            while data:
                data = data[os.write(self.fd, data):]
            self.good += len(line)
            self.lines += 1
        except OSError as e:  # a full disk stops the stream, not the run; reported at close
            self.error = e.strerror or str(e)
            if self.seekable:
                try:  # no half line left behind
                    os.ftruncate(self.fd, self.good)
                except OSError:
                    pass

    def close(self) -> None:
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError as e:
                self.error = self.error or e.strerror or str(e)
            self.fd = None
        if self.error:
            raise UserError(f"--results {quote(str(self.path), 200)[1:-1]}: cannot write ({self.error}); "
                            f"it holds the first {self.lines} result line{'' if self.lines == 1 else 's'}")
