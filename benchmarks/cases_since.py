"""Compare every case (id -> input, expect, rules; perft rows) of conformance/fixtures, golden and
perft at a revision (default a45ae93, the last landed commit before issue 37) against HEAD:
"new cases are added, none changed" (issue 37), checked.

    python benchmarks/cases_since.py [REV]
"""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import yaml

ROOTS = ("conformance/fixtures", "conformance/golden", "conformance/perft")
#: the fields of a case or a perft row that say what it asks and answers
FIELDS = ("input", "expect", "rules", "nodes", "depth", "layout", "counts", "position", "game")


def files(rev: str) -> list[str]:
    out = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, *ROOTS], capture_output=True, text=True).stdout
    return [f for f in out.split() if f.endswith((".yaml", ".yml", ".json", ".jsonl"))]


def _documents(path: str, text: str) -> list[Any]:
    if path.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return [yaml.safe_load(text)]


def cases(rev: str) -> dict[str, str]:
    """Each case's (or row's) ID -> its fields as canonical JSON; a file of another shape is
    compared whole, under `<file PATH>`."""
    got: dict[str, str] = {}
    for f in files(rev):
        text = subprocess.run(["git", "show", f"{rev}:{f}"], capture_output=True, text=True).stdout
        try:
            docs = _documents(f, text)
        except (ValueError, yaml.YAMLError):  # not parsed: the file is compared as text
            got[f"<file {f}>"] = text
            continue
        for d in docs:
            items = next((d[k] for k in ("cases", "rows") if isinstance(d, dict) and k in d), None)
            if not isinstance(items, list):
                got[f"<file {f}>"] = text
                continue
            for i, c in enumerate(items):
                key = c.get("id", f"{f}#{i}") if isinstance(c, dict) else f"{f}#{i}"
                shown = {k: v for k, v in c.items() if k in FIELDS} if isinstance(c, dict) else c
                got[key] = json.dumps(shown, sort_keys=True, default=str)
    return got


def main() -> None:
    rev = sys.argv[1] if len(sys.argv) > 1 else "a45ae93"
    old, new = cases(rev), cases("HEAD")
    changed = [k for k in old if k in new and old[k] != new[k]]
    removed = [k for k in old if k not in new]
    print(f"cases/rows/files at {rev}: {len(old)}; at HEAD: {len(new)}; added: {len(set(new) - set(old))}; "
          f"changed: {len(changed)}; removed: {len(removed)}")
    for k in changed[:40]:
        print("CHANGED", k)
    for k in removed[:40]:
        print("REMOVED", k)


if __name__ == "__main__":
    main()
