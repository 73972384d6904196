"""The bundled suite, parsed and validated when the wheel is built, shipped in the package.

A fresh machine (every CI job) has no user cache, and parsing and validating more than 3,700
bundled cases costs seconds. So the build (setup.py, `build_py`) runs

    python -m fives.conformance.cases.prebuilt OUT

against the package it has just assembled: every bundled fixture file, golden suite and
perft table is parsed and validated from its source, and written as `OUT/<key>.json` (or
`OUT/<key>.pairs.json` for a document with YAML's integer keys, in the fixture cache's pairs form), where
the key is the fixture cache's (fives/conformance/cases/fixture_cache.py: the SHA-256 of the
file's bytes and of everything validation depends on). The build then loads the suite back
through these entries and checks it equals the suite loaded from the sources.

At run time the entries are looked up by the same key, computed from the file actually
read: an edited fixture (under FIVES_ROOT, or in the installed package) has another key,
misses, and is parsed and validated as usual. The entries sit inside the installed package,
as trusted as its code; a checkout (no `fives/_prebuilt/`) uses the user cache alone.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from fives.conformance.cases.fixture_cache import FixtureCache, json_safe, prebuilt_entry
from fives.conformance.cases.fixtures import Case, load_cases
from fives.support.errors import UserError
from fives.support.writing import write_output


def build(out: Path) -> int:
    """Write the entries of every bundled fixture file into `out`; how many files (a file
    JSON cannot hold even in pairs, e.g. with YAML's dates, is left to be parsed at run time)."""
    collector = _Collector()
    fresh = load_cases(cache=collector)  # parsed and validated from the sources (UserError)
    out.mkdir(parents=True, exist_ok=True)
    for key, data in sorted(collector.entries.items()):
        name, shape = prebuilt_entry(key, data)
        write_output(json.dumps(shape, ensure_ascii=False, separators=(",", ":")), out / name)
    check(out, fresh, len(collector.entries))
    return len(collector.entries)


def check(out: Path, fresh: list[Case], entries: int) -> None:
    """The suite read through the entries in `out` equals `fresh` (the suite read from the
    sources), and each of the `entries` written was found there."""
    store = FixtureCache(None, prebuilt=out)
    through = load_cases(cache=store)
    if [_whole(c) for c in through] != [_whole(c) for c in fresh]:
        raise SystemExit("prebuilt suite: cases read back differ from the sources")
    if store.prebuilt_hits != entries:
        raise SystemExit(f"prebuilt suite: {store.prebuilt_hits} of {entries} files found in {out}")


def _whole(case: Case) -> tuple[object, ...]:
    """Everything a case holds (its `rules` profile included, which Case's == leaves out)."""
    return case.to_dict(), case.file, case.tags


class _Collector(FixtureCache):
    """A FixtureCache that only keeps what load_file puts (nothing is ever read from it)."""

    def __init__(self) -> None:
        super().__init__(None)
        self.entries: dict[str, object] = {}
        self.skipped = 0
        self.folder = Path("-")  # load_file asks get/put only when a cache is given
        self.secret = b""

    def get(self, key: str) -> None:
        return None

    def put(self, key: str, data: object) -> None:
        if json_safe(data, int_keys=True):  # else (YAML's dates, ...) the file is parsed at run time
            self.entries[key] = data
        else:
            self.skipped += 1


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m fives.conformance.cases.prebuilt OUT", file=sys.stderr)
        return 2
    try:
        n = build(Path(argv[0]))
    except UserError as e:
        print(f"prebuilt suite: {e}", file=sys.stderr)
        return 1
    print(f"prebuilt suite: {n} files into {argv[0]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
