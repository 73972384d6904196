"""`fives golden generate`: a deterministic, streamed, parallel golden suite.

Case i of a suite is drawn from its own generator `random.Random(f"{seed}:{game}:{i}")`, so
cases can be made on any core (or any machine) in any order and merged by index: the output
only depends on (game, cases, seed, generator version). Work goes out in blocks of BLOCK
indices (`fives.support.distribute.map_ordered`: in process, a process pool, or Dask); blocks come back
in index order, repeated IDs are dropped (the first is kept) and cases stream to one file per
category, hashed as they are written. Memory stays flat: only the 48-bit IDs seen are kept, in
a compact table (`fives.conformance.golden.idset`: 12-24 bytes per case).
"""
from __future__ import annotations

import functools
import hashlib
import random
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, Callable, Sequence

import yaml

from fives.support.distribute import map_ordered
from fives.support.errors import UserError
from fives.rules import GameRules, load_rules
from fives.conformance.golden import SUITE_VERSION  # defined there, read by runs without this module
from fives.conformance.golden.builders import golden_builders
from fives.conformance.golden.cases import CaseBuilder, case_id
from fives.conformance.golden.idset import IdSet
from fives.conformance.golden.manifest import FILE_HEADER, write_manifest

if TYPE_CHECKING:
    from fives.profiles import Profile

#: 2 (suite_version 2, issue 26): every play state from whole seeded self-play matches
GENERATOR_VERSION = "2"
BLOCK = 64  # most case indices per work unit: about half a second of work, one message each way
MIN_BLOCK = 8
#: Draws allowed per requested case before giving up (repeats: 0.5% at 1,500 cases, 4% at 100,000).
MAX_DRAWS_PER_CASE = 4


@functools.lru_cache(maxsize=None)
def _table() -> tuple[tuple[str, ...], tuple[int, ...], tuple[CaseBuilder, ...]]:
    table = golden_builders()
    names = tuple(sorted(table))
    return names, tuple(table[n][0] for n in names), tuple(table[n][1] for n in names)


def _draw(game: str, seed: int, index: int, rules: GameRules) -> tuple[str, dict[str, Any]]:
    names, weights, build = _table()
    rng = random.Random(f"{seed}:{game}:{index}")
    while True:
        k = rng.choices(range(len(names)), weights)[0]
        case = build[k](rng, rules)
        if case is not None:
            break
    name = names[k]
    full = {"id": case_id(game, case["kind"], case["input"]), "kind": case["kind"], "game": game,
            "clauses": case["clauses"],
            "source": {"derived": f"fives golden generate {GENERATOR_VERSION}: seed {seed}, case {index}, generator {name}"},
            "description": case["description"], "input": case["input"], "expect": case["expect"]}
    return name, full


def make_case(args: tuple[str, int, int]) -> tuple[str, dict[str, Any]]:
    """(category, case) for case `index` of a suite: a pure function of (game, seed, index)."""
    game, seed, index = args
    return _draw(game, seed, index, load_rules(game))


def dump_case(case: dict[str, Any]) -> str:
    return yaml.safe_dump([case], allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)


def make_case_text(args: tuple[str, int, int]) -> tuple[str, int, str]:
    """(category, ID as a 48-bit number, YAML text): the worker does the dumping too."""
    category, case = make_case(args)
    return category, int(case["id"].rsplit("-", 1)[1], 16), dump_case(case)


def _rules(game: str, profile: Profile | None) -> GameRules:
    if profile is None:
        return load_rules(game)
    from fives.profiles import rules_under
    return rules_under(profile, game)


def make_block(game: str, seed: int, start: int, count: int = BLOCK, profile: Profile | None = None) -> list[tuple[str, int, str]]:
    """Cases start .. start+count-1 as `make_case_text` gives them: one work unit (under
    `profile`, a fives.profiles.Profile, when the suite is made with --rules)."""
    rules = _rules(game, profile)
    out = []
    for index in range(start, start + count):
        category, case = _draw(game, seed, index, rules)
        out.append((category, int(case["id"].rsplit("-", 1)[1], 16), dump_case(case)))
    return out


class SuiteFiles:
    """One open file per category under out/<game>/; each hashed and sized as it is written."""

    def __init__(self, out: Path, game: str, seed: int, profile: Profile | None = None) -> None:
        self.out, self.game, self.seed = out, game, seed
        self.profile = profile if profile is not None and profile.extends == game else None
        self.handles: dict[str, IO[bytes]] = {}
        self.hashes: dict[str, Any] = {}
        self.sizes: dict[str, int] = {}
        self.counts: dict[str, int] = {}

    def write(self, category: str, text: str) -> None:
        f = self.handles.get(category)
        if f is None:
            path = self.out / self.game / f"{category}.yaml"
            path.parent.mkdir(parents=True, exist_ok=True)
            f = self.handles[category] = open(path, "wb")
            self.hashes[category], self.sizes[category], self.counts[category] = hashlib.sha256(), 0, 0
            self._put(category, f"{FILE_HEADER} {GENERATOR_VERSION}; do not edit.\n"
                                f"format: fives-fixtures/1\ntitle: 'golden {self.game} {category}, seed {self.seed}'\n"
                                + self._rules_block() + "cases:\n")
        self._put(category, text)
        self.counts[category] += 1

    def _rules_block(self) -> str:
        """Only in a suite made under --rules P: every case of the file plays P (spec/fixtures.md)."""
        if self.profile is None:
            return ""
        p = self.profile
        return yaml.safe_dump({"rules": {"name": p.name, "source": p.source or "fives golden generate --rules",
                                         "rules": {k: p.overrides[k] for k in sorted(p.overrides)}}},
                              allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)

    def _put(self, category: str, text: str) -> None:
        data = text.encode("utf-8")
        self.handles[category].write(data)
        self.hashes[category].update(data)
        self.sizes[category] += len(data)

    def close(self) -> dict[str, dict[str, Any]]:
        """Close every file; the manifest's `files` mapping (cases, size, sha256 per file)."""
        for f in self.handles.values():
            f.close()
        return {f"{self.game}/{c}.yaml": {"cases": self.counts[c], "size": self.sizes[c],
                                           "sha256": self.hashes[c].hexdigest()} for c in sorted(self.handles)}

    def __enter__(self) -> "SuiteFiles":
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        for f in self.handles.values():
            f.close()


def generate(game: str, cases: int, seed: int, out: Path, jobs: int = 1,
             progress: Callable[[int], None] | None = None, *, dask: str | None = None,
             profile: Profile | None = None) -> dict[str, Any]:
    """Write `cases` unique cases under out/<game>/ and return the manifest entry. The files
    are the same for any `jobs` and with or without `dask` (blocks are merged in index order).
    `profile` (--rules P): the expectations are the reference's under P, and each file says so."""
    _rules(game, profile)
    # Smaller blocks for small suites, so no worker idles long at the end; the files do not
    # depend on the block size (blocks are merged in index order).
    block = max(MIN_BLOCK, min(BLOCK, cases // 32))
    max_draws = cases * MAX_DRAWS_PER_CASE + 10 * BLOCK
    starts: Sequence[int] = range(0, max_draws, block)
    seen = IdSet()
    written = 0
    with SuiteFiles(out, game, seed, profile) as files:
        unit = (functools.partial(make_block, game, seed, count=block) if profile is None
                else functools.partial(make_block, game, seed, count=block, profile=profile))
        blocks = map_ordered(unit, starts, jobs=jobs, dask=dask)
        try:
            for block in blocks:
                for category, key, text in block:
                    if not seen.add(key):
                        continue  # the same question twice: keep the first
                    files.write(category, text)
                    written += 1
                    if progress:
                        progress(1)
                    if written == cases:
                        break
                if written == cases:
                    break
        finally:
            close = getattr(blocks, "close", None)
            if close is not None:
                close()  # stops the workers still busy on blocks past the end
        if written < cases:
            raise UserError(f"{game}: only {written} distinct cases in {max_draws} draws; ask for fewer --cases")
        entry = files.close()
    return {"game": game, "seed": seed, "cases": cases, "files": entry}


def command_line(games: Sequence[str], cases: int, seed: int, profile: Profile | None = None) -> str:
    """The command that reproduces a suite (`--out`, `--jobs` and `--dask` do not change it)."""
    return " ".join(["fives golden generate", *(f"--game {g}" for g in games), f"--cases {cases}", f"--seed {seed}",
                     *([f"--rules {profile.name}"] if profile is not None else []), "--out DIR"])


def finish(out: Path, suites: list[dict[str, Any]], games: Sequence[str], cases: int, seed: int,
           profile: Profile | None = None) -> Path:
    """Write the manifest: the last file of a suite (naming its rule profile, if made under one)."""
    return write_manifest(out, suites, suite_version=SUITE_VERSION, generator_version=GENERATOR_VERSION,
                          command=command_line(games, cases, seed, profile), profile=profile)
