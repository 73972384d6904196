"""`conformance run --lf`: the cases that failed or errored last time, kept per engine command.

One small JSON file per engine command under the user's cache folder
(`fives.support.paths.cache_dir("last-failed")`, safe to delete):
`{"format": "fives-last-failed/2", "engine": CMD, "rules": DIGEST|null, "suite": VERSION,
"failed": [CASE-ID, ...], "mac": ...}`. The record vouches for one triple, the engine command,
the rules profile (its digest) and the suite version, and the seal binds all three: a record
copied from another engine, or written under another profile or suite version, is not used
(the run says so in one line and runs every selected case). Every single-engine
run updates it for the cases it ran (a case that ran and passed leaves the list, one that
failed or errored joins it; cases the run did not reach keep their entry), so a filtered or
stopped run does not forget the rest. A missing or unreadable file means "run everything".

The file is untrusted like every cache entry (spec/fixtures.md): it carries an HMAC-SHA256 under
the user's cache key (`fives.support.cache_key`), so a list planted or edited by anyone else
cannot narrow `--lf` to cases that pass; an unsealed or badly sealed file means "run everything".
"""
from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Iterable

from fives.conformance.runner import CaseResult
from fives.support.cache_key import secret
from fives.support.errors import UserError
from fives.support.paths import cache_dir
from fives.support.reading import MAX_DOCUMENT_BYTES, parse_text, read_regular_file
from fives.support.writing import write_bytes_atomic

FORMAT = "fives-last-failed/2"
IN_PROCESS = "(in-process reference engine)"  # the key of a run without --engine


def store_path(command: str | None) -> Path:
    key = IN_PROCESS if command is None else command
    return cache_dir("last-failed", hashlib.sha256(key.encode("utf-8")).hexdigest()[:24] + ".json")


def scope(command: str | None, rules: str | None = None) -> dict[str, str | None]:
    """What a record vouches for: the engine command, the rules profile's digest (None: the
    seeds' rules) and the suite version."""
    from fives.conformance.golden import SUITE_VERSION

    return {"engine": IN_PROCESS if command is None else command, "rules": rules, "suite": SUITE_VERSION}


def load(command: str | None, rules: str | None = None) -> tuple[list[str] | None, str]:
    """(the case IDs that failed last time, or None when there is no usable record; why not)."""
    path = store_path(command)
    want = scope(command, rules)
    try:  # the cache is untrusted: a regular file only, never a FIFO or device (issue 21)
        raw = read_regular_file(path, MAX_DOCUMENT_BYTES)
    except FileNotFoundError:
        return None, "no earlier run of this engine is recorded"
    except OSError as e:
        return None, f"the record of the last run is unreadable ({e.strerror or e}): it will be rebuilt"
    try:
        data = parse_text(raw.decode("utf-8"), str(path))
    except (UserError, UnicodeDecodeError) as e:
        return None, f"the record of the last run is unreadable ({e}): it will be rebuilt"
    if (not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("failed"), list)
            or not all(isinstance(i, str) for i in data["failed"])):
        return None, f"the record of the last run is not a {FORMAT} file: it will be rebuilt"
    seal = _seal(want, list(data["failed"]))
    if seal is None or not isinstance(data.get("mac"), str) or not hmac.compare_digest(seal, data["mac"]):
        if any(data.get(k) != v for k, v in want.items()):
            return None, ("the record of the last run was made for another engine, rules profile or suite version: "
                          "it will be rebuilt")
        return None, "the record of the last run is not sealed by this user's cache key: it will be rebuilt"
    return list(data["failed"]), ""


def _seal(what: dict[str, str | None], failed: list[str]) -> str | None:
    key = secret()
    if key is None:
        return None
    body = json.dumps([FORMAT, what["engine"], what["rules"], what["suite"], failed], ensure_ascii=False,
                      separators=(",", ":"))
    return hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()


def failed_ids(results: Iterable[CaseResult]) -> set[str]:
    return {r.case.id for r in results if r.status in ("failed", "errored")}


def update(command: str | None, results: list[CaseResult], rules: str | None = None) -> str | None:
    """Record this run's failures (see the module doc); a note when the cache cannot be written."""
    before, _ = load(command, rules)
    ran = {r.case.id for r in results}
    failed = sorted((set(before or []) - ran) | failed_ids(results))
    path = store_path(command)
    what = scope(command, rules)
    mac = _seal(what, failed)
    if mac is None:
        return "could not record this run's failures for --lf: no usable cache key (caches are off)"
    doc = {"format": FORMAT, **what, "failed": failed, "mac": mac}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # replaced by a rename, never opened: a FIFO or device planted at the path cannot block the run
        write_bytes_atomic((json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), path,
                           streams=False)
    except (OSError, UserError) as e:
        return f"could not record this run's failures for --lf: {e}"
    return None
