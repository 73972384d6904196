"""Compare two folders written by `bash benchmarks/outputs.sh DIR` (before and after a change):
every file byte for byte, and where bytes differ, again with what differs from run to run set
aside (timing keys of JSON reports, JUnit `time=`, rates and seconds in text, the folder's own
path). Prints one line per file that still differs; exit 1 if any does.

    python benchmarks/outputs_compare.py OLD NEW
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

TIMING_KEYS = frozenset({"seconds", "time", "elapsed", "duration", "requests_per_second"})


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def normalised(path: Path, root: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".json":
        try:
            text = json.dumps(_strip(json.loads(text)), sort_keys=True, indent=1)
        except ValueError:
            pass
    text = text.replace(str(root), "OUT")
    text = re.sub(r'time="[0-9.]+"', 'time=""', text)
    return re.sub(r"[0-9.]+ ?(s|req/s|/s)\b", "N s", text)


def main(old: Path, new: Path) -> int:
    names = sorted({p.relative_to(old) for p in old.rglob("*") if p.is_file()}
                   | {p.relative_to(new) for p in new.rglob("*") if p.is_file()})
    same = timing_only = 0
    differ = []
    for name in names:
        a, b = old / name, new / name
        if not (a.is_file() and b.is_file()):
            differ.append(f"{name}: only in {'the old' if a.is_file() else 'the new'} folder")
        elif a.read_bytes() == b.read_bytes():
            same += 1
        elif normalised(a, old) == normalised(b, new):
            timing_only += 1
        else:
            differ.append(f"{name}: differs")
    print("\n".join(differ + [f"{same} files byte-identical, {timing_only} identical but for timings and paths, "
                              f"{len(differ)} different"]))
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python benchmarks/outputs_compare.py OLD NEW")
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
