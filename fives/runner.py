"""Run conformance cases through an engine and collect results as they arrive."""
from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, TextIO

import yaml

from .engine import Engine, Outcome
from .errors import UserError
from .fixtures import Case
from .io import load_data, write_output
from .kinds import Kind


@dataclass
class CaseResult:
    case: Case
    status: str  # "passed" | "failed" | "errored" | "skipped"
    diffs: list[str] = field(default_factory=list)
    outcome: Outcome | None = None
    known: str | None = None  # the known-failures reason, if the case is listed

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
        d["seconds"] = round(o.seconds, 6) if o else 0.0
        return d


@dataclass(frozen=True)
class Filters:
    ids: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    slow: bool = False  # include cases tagged `slow` (deep perft)

    def select(self, cases: Iterable[Case], kinds: dict[str, Kind]) -> list[Case]:
        out = []
        for c in cases:
            if self.ids and not any(fnmatch.fnmatchcase(c.id, g) for g in self.ids):
                continue
            if self.games and c.game not in self.games:
                continue
            if self.kinds and c.kind not in self.kinds:
                continue
            if self.capabilities and kinds[c.kind].capability not in self.capabilities:
                continue
            if "slow" in c.tags and not self.slow:
                continue
            out.append(c)
        return out


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


def run_cases(engine: Engine, cases: list[Case], kinds: dict[str, Kind],
              on_result: Callable[[CaseResult], None] | None = None,
              known: dict[str, str] | None = None) -> list[CaseResult]:
    """Run every case; each result goes to `on_result` at once. Ctrl-C keeps what is done."""
    results: list[CaseResult] = []
    known = known or {}
    for case in cases:
        why = engine.supports(case, kinds)
        if why:
            result = CaseResult(case, "skipped", outcome=Outcome("skipped", message=why))
        else:
            result = judge(case, engine.run(case), kinds[case.kind])
        result.known = known.get(case.id)
        results.append(result)
        if on_result:
            on_result(result)
    return results


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


class ResultStream:
    """Appends each result as one JSON line the moment it arrives (survives Ctrl-C and crashes)."""

    def __init__(self, path: str | None) -> None:
        self.file: TextIO | None = open(path, "w", encoding="utf-8") if path else None

    def __call__(self, result: CaseResult) -> None:
        if self.file:
            self.file.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file:
            self.file.close()
