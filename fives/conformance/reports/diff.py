"""`fives conformance diff OLD.json NEW.json`: what changed between two `--report json` files.

A case *fails* when its status is failed or errored and it is not a known failure. Newly
failing: fails in NEW and passed, was skipped or was absent in OLD. Newly passing: failed in
OLD and passes in NEW. Changed: any other change of status (failed <-> errored, passed <->
skipped), or a failing case whose differences or message changed. Reports of several
engines (`fives-conformance-engines/1`) are compared engine by engine, matched by command.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fives.support.errors import UserError
from fives.support.reading import load_data
from fives.conformance.reports.formats import MULTI_FORMAT
from fives.support.sanitize import one_line


@dataclass
class Change:
    engine: str  # "" for a one-engine report
    id: str
    old: str  # status in OLD, "absent" if the case was not there
    new: str  # status in NEW, "absent" if the case is gone
    detail: str  # the first difference or message in NEW (or OLD for a case gone)

    def line(self) -> str:
        where = f"[{self.engine}] " if self.engine else ""
        detail = f": {self.detail}" if self.detail else ""
        return one_line(f"  {where}{self.id}: {self.old} -> {self.new}{detail}", 300)


@dataclass
class DiffResult:
    newly_failing: list[Change] = field(default_factory=list)
    newly_passing: list[Change] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    unchanged: int = 0

    def text(self) -> str:
        out = []
        for title, items in (("newly failing", self.newly_failing), ("newly passing", self.newly_passing),
                             ("changed", self.changed)):
            if items:
                out.append(f"{title} ({len(items)}):")
                out += [c.line() for c in items]
        out.append(f"{len(self.newly_failing)} newly failing, {len(self.newly_passing)} newly passing, "
                   f"{len(self.changed)} changed, {self.unchanged} unchanged")
        return "\n".join(out)


def _engines(doc: Any, name: str) -> dict[str, dict[str, Any]]:
    if isinstance(doc, dict) and doc.get("format") == MULTI_FORMAT and isinstance(doc.get("engines"), list):
        out = {}
        for i, e in enumerate(doc["engines"]):
            if not isinstance(e, dict) or not isinstance(e.get("command"), str):
                raise UserError(f"{name}: engines[{i}] is not an engine report with a command")
            out[e["command"]] = _cases(e, f"{name}: engine {e['command']!r}")
        return out
    return {"": _cases(doc, name)}


def _cases(doc: Any, name: str) -> dict[str, Any]:
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list):
        raise UserError(f"{name}: not a `fives conformance run --report json` file (no list `cases`)")
    out: dict[str, Any] = {}
    for i, c in enumerate(cases):
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not isinstance(c.get("status"), str):
            raise UserError(f"{name}: cases[{i}] lacks a string id and status")
        out[c["id"]] = c
    if not out and cases:
        raise UserError(f"{name}: no case")
    return out


def _fails(c: dict[str, Any] | None) -> bool:
    return c is not None and c["status"] in ("failed", "errored") and c.get("known_failure") is None


def _status(c: dict[str, Any] | None) -> str:
    if c is None:
        return "absent"
    return c["status"] + (" (known)" if c.get("known_failure") is not None else "")


def _evidence(c: dict[str, Any] | None) -> Any:
    if c is None:
        return None
    return (c.get("diff"), c.get("message"))


def _detail(c: dict[str, Any] | None) -> str:
    if c is None:
        return ""
    diff = c.get("diff")
    if isinstance(diff, list) and diff:
        return str(diff[0])
    return str(c.get("message") or "")


def _names(engines: dict[str, Any]) -> str:
    return "(a one-engine report)" if list(engines) == [""] else ", ".join(map(repr, sorted(engines)))


def compare_reports(old: Any, new: Any, old_name: str, new_name: str) -> DiffResult:
    a, b = _engines(old, old_name), _engines(new, new_name)
    if set(a) != set(b):
        if len(a) == 1 and len(b) == 1:  # one engine each: compare whatever the commands were
            a, b = {"": next(iter(a.values()))}, {"": next(iter(b.values()))}
        else:
            raise UserError(f"{new_name}: engines {_names(b)} do not match {old_name}'s {_names(a)}")
    out = DiffResult()
    for engine in b:
        olds, news = a[engine], b[engine]
        for cid in list(news) + [k for k in olds if k not in news]:
            o, n = olds.get(cid), news.get(cid)
            change = Change(engine, cid, _status(o), _status(n), _detail(n if n is not None else o))
            if _fails(n) and not _fails(o):
                out.newly_failing.append(change)
            elif _fails(o) and n is not None and not _fails(n) and n["status"] == "passed":
                out.newly_passing.append(change)
            elif _status(o) != _status(n) or (_fails(n) and _evidence(o) != _evidence(n)):
                out.changed.append(change)
            else:
                out.unchanged += 1
    return out


def diff_files(old_path: str, new_path: str) -> DiffResult:
    old, old_name = load_data(old_path)
    new, new_name = load_data(new_path)
    return compare_reports(old, new, old_name, new_name)
