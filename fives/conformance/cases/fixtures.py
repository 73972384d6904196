"""Conformance fixture files: loading, schema validation and the lint."""
from __future__ import annotations

import hashlib
import json
import sys
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from fives.support import paths
from fives.support.errors import UserError
from fives.support.sanitize import clean_name
from fives.conformance.cases.fixture_cache import FixtureCache, cache_dir, caching_off, entry_key
from fives.support.reading import parse_text, read_text
from fives.conformance.cases.kinds import load_kinds
from fives.conformance.cases.kinds.perft import is_slow as perft_is_slow
from fives.rules import game_ids
from fives.conformance.cases.schema_check import SchemaSet, where

if TYPE_CHECKING:
    from fives.profiles import Profile

FIXTURE_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class Case:
    id: str
    kind: str
    game: str
    clauses: tuple[str, ...]
    source: dict[str, Any]
    input: dict[str, Any]
    expect: dict[str, Any]
    file: str
    description: str = ""
    tags: tuple[str, ...] = field(default=())
    #: the rule profile (fives.profiles.Profile) the case is played under: its file's or its
    #: own `rules` (spec/fixtures.md, "Variant cases"); None for the seeds' rules
    profile: Profile | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "kind": self.kind, "game": self.game, "clauses": list(self.clauses),
               "source": self.source, "description": self.description, "input": self.input, "expect": self.expect}
        if self.profile is not None:
            out["rules"] = {"name": self.profile.name, "digest": self.profile.digest,
                            "overrides": dict(self.profile.overrides)}
        return out


def display_name(path: Path) -> str:
    """A path relative to the checkout (or the working directory) for reports."""
    p = Path(path).resolve()
    for base in (paths.ROOT.resolve(), Path.cwd()):
        try:
            return str(p.relative_to(base))
        except ValueError:
            pass
    return str(path)


def default_roots() -> list[Path]:
    return [r for r in (paths.FIXTURES, paths.CONFORMANCE / "golden", paths.CONFORMANCE / "perft") if r.is_dir()]


#: Perft cases counting more sequences than this are tagged `slow` and run only with --slow.
SLOW_NODES = 200_000
PERFT_FORMAT = "fives-perft/1"


def perft_cases(data: dict[str, Any], name: str) -> list[Case]:
    """A perft table (conformance/perft/perft.yaml) as cases of kind `perft`: one per row and
    one per divide entry (the divide entry's placement played, one ply shallower)."""
    cases = []
    made_under = _table_profile(data.get("rules"), name)  # a table made under --rules P: its cases play P
    for table in data["tables"]:
        game, start = table["game"], list(table["from"])
        under = made_under if made_under is not None and made_under.extends == game else None
        p = "SN" if game == "american-sniff" else "HR"
        clauses = (f"{p}-PLACE-1", f"{p}-SPIN-2", f"{p}-SCORE-1")
        source = {"derived": f"{name}: table {table['id']}"}

        def case(cid: str, placements: list[Any], depth: int, nodes: int, points: int, desc: str) -> Case:
            return Case(cid, "perft", game, clauses, source, {"placements": placements, "depth": depth},
                        {"nodes": nodes, "points": points}, name, desc,
                        ("slow",) if nodes > SLOW_NODES or perft_is_slow(game, placements, depth) else (), under)

        for row in table["depths"]:
            cases.append(case(f"PERFT-{table['id']}-D{row['depth']}", start, row["depth"], row["nodes"],
                              row["points"], f"{table['description']} Depth {row['depth']}."))
        divide = table.get("divide")
        if divide:
            for move in divide["moves"]:
                pl = move["placement"]
                label = pl["tile"] + (f">{pl['to']}:{pl['side']}" if "to" in pl else "")
                cases.append(case(f"PERFT-{table['id']}-D{divide['depth']}-{label}", start + [pl], divide["depth"] - 1,
                                  move["nodes"], move["points"], f"Divide at depth {divide['depth']}: after {label}."))
    return cases


def _table_profile(recorded: Any, name: str) -> Any:
    """The profile a perft table records (`rules`, written by `fives perft --check --update --rules P`)."""
    from fives.profiles import recorded_profile

    return recorded_profile(recorded, name)


def _walk(root: Path) -> Iterator[Path]:
    """Every path under `root`, as rglob, but a folder that cannot be read is an error, not a
    silently smaller suite (issue 21)."""
    def refuse(e: OSError) -> None:
        raise UserError(f"{clean_name(str(e.filename))}: cannot read this folder ({e.strerror})")
    for folder, dirs, files in os.walk(root, onerror=refuse):
        dirs.sort()
        for name in dirs + files:
            yield Path(folder, name)


def fixture_files(roots: Iterable[Path] | None = None) -> list[Path]:
    """Every fixture file under `roots` (files or folders), sorted for a stable run order."""
    out: list[Path] = []
    for root in roots if roots is not None else default_roots():
        root = Path(root)
        if root.is_file():
            out.append(root)
        elif root.is_dir():
            found = [p for p in _walk(root) if p.suffix in FIXTURE_SUFFIXES and p.is_file()
                     and "schema" not in p.parts and p.name != "manifest.yaml"]
            if not found:  # an empty suite must not pass as "0 passed"
                raise UserError(f"{root}: no fixture file in this folder (*{', *'.join(FIXTURE_SUFFIXES)})")
            out.extend(found)
        elif root.exists():  # a FIFO, device or socket: never opened (it could block for ever)
            raise UserError(f"{root}: not a regular file or folder")
        else:
            raise UserError(f"{root}: no such fixture file or folder")
    return sorted(set(out))


#: Bump when what a cache entry holds, or how a file is validated, changes.
LOADER_VERSION = "2"


class Schemas:
    """The envelope schema, the perft table schema and one schema per kind, compiled on first
    use (a warm cache needs none of them)."""

    def __init__(self) -> None:
        self.set = SchemaSet(paths.CONFORMANCE_SCHEMAS)

    def fingerprint(self) -> str:
        """Everything a file's validation depends on besides its own bytes: the schema files,
        the kinds and their schemas, the games, the loader version."""
        h = hashlib.sha256(f"{LOADER_VERSION}\0{PERFT_FORMAT}\0".encode())
        for f in sorted(paths.CONFORMANCE_SCHEMAS.rglob("*.json")):
            h.update(f"{f.relative_to(paths.CONFORMANCE_SCHEMAS).as_posix()}\0".encode())
            h.update(f.read_bytes())
        h.update(json.dumps({"kinds": {n: k.schema for n, k in sorted(load_kinds().items())},
                             "games": game_ids()}).encode())
        return h.hexdigest()


def validate_document(data: Any, name: str, schemas: Schemas) -> None:
    """UserError naming the file, the case ID, the key and the reason for the first problem."""
    if isinstance(data, dict) and data.get("format") == PERFT_FORMAT:
        err = schemas.set.check("perft.schema.json", data)
        if err is not None:
            raise UserError(f"{name}: perft table schema violation at {where(err)}: {err.message}")
        return
    err = schemas.set.check("fixtures.schema.json", data)
    if err is not None:
        raise UserError(f"{name}{_case_id_at(data, err)}: schema violation at {where(err)}: {err.message}")
    games, kinds = set(game_ids()), load_kinds()
    for raw in data["cases"]:
        cid = raw["id"]
        kind = kinds.get(raw["kind"])
        if kind is None:
            raise UserError(f"{name}: case {cid}: unknown kind {raw['kind']!r} (known: {', '.join(sorted(kinds))})")
        if raw["game"] not in games:
            raise UserError(f"{name}: case {cid}: unknown game {raw['game']!r} (known: {', '.join(sorted(games))})")
        kerr = schemas.set.check(f"kinds/{kind.schema}", {"input": raw["input"], "expect": raw["expect"]})
        if kerr is not None:
            raise UserError(f"{name}: case {cid}: {raw['kind']} schema violation at {where(kerr)}: {kerr.message}")


def _tags(raw: dict[str, Any]) -> tuple[str, ...]:
    """The case's tags; a perft case is `slow` when its own layout and depth make it big,
    whatever `expect.nodes` it claims (fives.conformance.cases.kinds.perft.is_slow)."""
    tags = tuple(raw.get("tags", ()))
    if raw["kind"] == "perft" and "slow" not in tags and perft_is_slow(
            raw["game"], raw["input"].get("placements", []), raw["input"].get("depth")):
        tags += ("slow",)
    return tags


def cases_of(data: dict[str, Any], name: str) -> list[Case]:
    """The cases of a validated document (a fixture file or a perft table)."""
    if data.get("format") == PERFT_FORMAT:
        return perft_cases(data, name)
    default = data.get("rules")
    return [Case(raw["id"], raw["kind"], raw["game"], tuple(raw["clauses"]), raw["source"], raw["input"],
                 raw["expect"], name, raw.get("description", ""), _tags(raw),
                 case_profile(raw.get("rules", default), raw["game"], f"{name}: case {raw['id']}"))
            for raw in data["cases"]]


def case_profile(ref: Any, game: str, where: str) -> Any:
    """The Profile of a case's `rules`: a shipped profile's name, or inline `{name?, rules}`
    overrides of the case's own game. None when absent. UserError naming `where` otherwise."""
    if ref is None:
        return None
    from fives.profiles import load_profile, make_profile, shipped_profiles

    if isinstance(ref, str):
        if ref not in shipped_profiles():  # never a path: a fixture names shipped profiles only
            raise UserError(f"{where}: rules: unknown profile {ref!r} (shipped: {', '.join(shipped_profiles())})")
        profile = load_profile(ref)
    else:
        profile = make_profile(game, ref.get("rules", {}), ref.get("name", ""), ref.get("source", "fixture"),
                               f"{where}: rules")
    if profile.extends != game:
        raise UserError(f"{where}: rules: profile {profile.name} extends {profile.extends}, not {game}")
    return profile


def id_fragments(globs: Iterable[str]) -> tuple[str, ...] | None:
    """For each ID glob, its longest literal run (`HR-SETTLE-` of `HR-SETTLE-*`): a file whose
    text holds none of them holds no case those globs match. None when a glob has no literal
    run or uses a `[...]` set (no file can be ruled out then)."""
    out = []
    for g in globs:
        if "[" in g:
            return None
        run = max(re.split(r"[*?]", g), key=len)
        if not run:
            return None
        out.append(run)
    return tuple(out) or None


def load_file(path: Path, schemas: Schemas,
              cache: FixtureCache | None = None, fingerprint: str = "",
              fragments: tuple[str, ...] | None = None) -> list[Case]:
    """Parse and validate one file (or take it from the cache); UserError naming the file
    (and case ID) on any problem. With `fragments` (see id_fragments), a fixture file whose
    text contains none of them is skipped unread: its cases' IDs are written out in it, while
    a perft table's are derived, so a table is always read."""
    text, _ = read_text(path)
    if fragments is not None and PERFT_FORMAT not in text and not any(f in text for f in fragments):
        return []
    name = display_name(path)
    key = entry_key(fingerprint, text.encode("utf-8")) if cache is not None else ""
    data = cache.get(key) if cache is not None else None
    if data is not None:
        try:
            return cases_of(data, name)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass  # an entry this loader cannot read: the source decides, as with no cache
    data = parse_text(text, str(path))
    validate_document(data, name, schemas)
    if cache is not None:
        cache.put(key, data)
    return cases_of(data, name)


def default_cache() -> FixtureCache | None:
    """The prebuilt suite (a built wheel) and the user's fixture cache, or None when
    FIVES_NO_CACHE is set (then every file is parsed and validated from its source)."""
    if caching_off():
        return None
    store = FixtureCache(cache_dir(), prebuilt=paths.prebuilt_dir())
    return store if store.active else None


def _case_id_at(data: Any, err: Any) -> str:
    p = list(err.absolute_path)
    if len(p) >= 2 and p[0] == "cases" and isinstance(p[1], int):
        try:
            return f": case {data['cases'][p[1]]['id']}"
        except (KeyError, TypeError, IndexError):
            return f": case #{p[1]}"
    return ""


def load_cases(roots: Iterable[Path] | None = None, cache: FixtureCache | bool = True,
               ids: Iterable[str] = ()) -> list[Case]:
    """Every case under `roots` (default: fixtures, golden suites, perft table), in file order.
    `cache`: True for the prebuilt suite and the user's fixture cache (default_cache), False for
    none; the cases are the same either way (fives/conformance/cases/fixture_cache.py).
    `ids`: ID globs; when given, files that cannot hold a matching case may be left out (a
    shortcut for `--id`: the caller still filters, and the duplicate-ID check then covers only
    the files read)."""
    roots = list(roots) if roots is not None else None
    schemas = Schemas()
    store = cache if isinstance(cache, FixtureCache) else default_cache() if cache else None
    fingerprint = schemas.fingerprint() if store is not None else ""
    misses_before = store.misses if store is not None else 0
    rejected_before = store.rejected if store is not None else 0
    cases: list[Case] = []
    seen: dict[str, str] = {}
    fragments = id_fragments(ids)
    for f in fixture_files(roots):
        for c in load_file(f, schemas, store, fingerprint, fragments):
            if c.id in seen:
                raise UserError(f"{c.file}: case {c.id}: duplicate ID (also in {seen[c.id]})")
            seen[c.id] = c.file
            cases.append(c)
    if store is not None and store.misses > misses_before:
        store.prune()
    if store is not None and store.rejected > rejected_before:  # said, never believed (spec/fixtures.md)
        n = store.rejected - rejected_before
        sys.stderr.write(f"fives: note: {n} fixture cache entr{'y' if n == 1 else 'ies'} did not check (tampered, "
                         "another user's, or not a regular file): rebuilt from the source\n")
    if not cases and roots is not None and fragments is None:
        raise UserError(f"{', '.join(map(str, roots))}: no conformance case in these fixtures")
    return cases


def lint(roots: Iterable[Path] | None = None) -> tuple[int, list[str]]:
    """(number of cases, problems): every file valid, IDs unique, clauses known, citations verbatim."""
    from fives.conformance.cases.clauses import load_clauses
    from fives.conformance.cases.seed_examples import check_citation
    problems: list[str] = []
    schemas = Schemas()
    clauses = load_clauses()
    seen: dict[str, str] = {}
    count = 0
    for f in fixture_files(roots):
        try:
            cases = load_file(f, schemas)
        except UserError as e:
            problems.append(str(e))
            continue
        for c in cases:
            count += 1
            if c.id in seen:
                problems.append(f"{c.file}: case {c.id}: duplicate ID (also in {seen[c.id]})")
            seen[c.id] = c.file
            for cl in c.clauses:
                if cl not in clauses:
                    problems.append(f"{c.file}: case {c.id}: unknown clause {cl} (not in spec/rules.md)")
                elif clauses[cl].game != c.game:
                    problems.append(f"{c.file}: case {c.id}: clause {cl} belongs to {clauses[cl].game}, not {c.game}")
            if "seed" in c.source:
                seed = paths.SEEDS / c.source["seed"]
                if not seed.is_file():
                    problems.append(f"{c.file}: case {c.id}: cited seed {c.source['seed']} not in seeds/")
                else:
                    why = check_citation(seed, c.source["heading"], c.source["quote"])
                    if why:
                        problems.append(f"{c.file}: case {c.id}: {why}")
    if count == 0 and not problems:
        problems.append("no conformance case in these fixtures")
    return count, problems
