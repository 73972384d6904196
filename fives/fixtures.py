"""Conformance fixture files: loading, schema validation and the lint."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import jsonschema

from . import paths
from .clauses import load_clauses
from .errors import UserError
from .io import load_data, load_json_schema
from .kinds import Kind, load_kinds
from .rules import game_ids
from .seed_examples import check_citation

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

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "game": self.game, "clauses": list(self.clauses),
                "source": self.source, "description": self.description, "input": self.input, "expect": self.expect}


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
    for table in data["tables"]:
        game, start = table["game"], list(table["from"])
        p = "SN" if game == "american-sniff" else "HR"
        clauses = (f"{p}-PLACE-1", f"{p}-SPIN-2", f"{p}-SCORE-1")
        source = {"derived": f"{name}: table {table['id']}"}

        def case(cid: str, placements: list[Any], depth: int, nodes: int, points: int, desc: str) -> Case:
            return Case(cid, "perft", game, clauses, source, {"placements": placements, "depth": depth},
                        {"nodes": nodes, "points": points}, name, desc, ("slow",) if nodes > SLOW_NODES else ())

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


def fixture_files(roots: Iterable[Path] | None = None) -> list[Path]:
    """Every fixture file under `roots` (files or folders), sorted for a stable run order."""
    out: list[Path] = []
    for root in roots if roots is not None else default_roots():
        root = Path(root)
        if root.is_file():
            out.append(root)
        elif root.is_dir():
            out.extend(p for p in root.rglob("*") if p.suffix in FIXTURE_SUFFIXES and p.is_file()
                       and "schema" not in p.parts and p.name != "manifest.yaml")
        else:
            raise UserError(f"{root}: no such fixture file or folder")
    return sorted(set(out))


class Schemas:
    """The envelope schema and one schema per kind, loaded once per run."""

    def __init__(self, kinds: dict[str, Kind]) -> None:
        base = paths.CONFORMANCE_SCHEMAS
        self.envelope = jsonschema.Draft202012Validator(load_json_schema(base / "fixtures.schema.json"))
        self.perft = jsonschema.Draft202012Validator(load_json_schema(base / "perft.schema.json"))
        self.kinds = {name: jsonschema.Draft202012Validator(load_json_schema(base / "kinds" / k.schema))
                      for name, k in kinds.items()}


def _first_error(validator: jsonschema.Draft202012Validator, data: Any) -> jsonschema.ValidationError | None:
    return min(validator.iter_errors(data), key=lambda e: list(e.absolute_path), default=None)


def load_file(path: Path, kinds: dict[str, Kind], schemas: Schemas) -> list[Case]:
    """Parse and validate one file; UserError naming the file (and case ID) on any problem."""
    data, name = load_data(path)
    name = display_name(path)
    if isinstance(data, dict) and data.get("format") == PERFT_FORMAT:
        err = _first_error(schemas.perft, data)
        if err is not None:
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            raise UserError(f"{name}: perft table schema violation at {where}: {err.message}")
        return perft_cases(data, name)
    err = _first_error(schemas.envelope, data)
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        case_id = _case_id_at(data, err)
        raise UserError(f"{name}{case_id}: schema violation at {where}: {err.message}")
    cases = []
    for raw in data["cases"]:
        cid = raw["id"]
        if raw["kind"] not in kinds:
            raise UserError(f"{name}: case {cid}: unknown kind {raw['kind']!r} (known: {', '.join(sorted(kinds))})")
        if raw["game"] not in game_ids():
            raise UserError(f"{name}: case {cid}: unknown game {raw['game']!r} (known: {', '.join(game_ids())})")
        kerr = _first_error(schemas.kinds[raw["kind"]], {"input": raw["input"], "expect": raw["expect"]})
        if kerr is not None:
            where = "/".join(str(p) for p in kerr.absolute_path) or "(top)"
            raise UserError(f"{name}: case {cid}: {raw['kind']} schema violation at {where}: {kerr.message}")
        cases.append(Case(cid, raw["kind"], raw["game"], tuple(raw["clauses"]), raw["source"], raw["input"],
                          raw["expect"], name, raw.get("description", ""), tuple(raw.get("tags", ()))))
    return cases


def _case_id_at(data: Any, err: jsonschema.ValidationError) -> str:
    p = list(err.absolute_path)
    if len(p) >= 2 and p[0] == "cases" and isinstance(p[1], int):
        try:
            return f": case {data['cases'][p[1]]['id']}"
        except (KeyError, TypeError, IndexError):
            return f": case #{p[1]}"
    return ""


def load_cases(roots: Iterable[Path] | None = None) -> list[Case]:
    kinds = load_kinds()
    schemas = Schemas(kinds)
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for f in fixture_files(roots):
        for c in load_file(f, kinds, schemas):
            if c.id in seen:
                raise UserError(f"{c.file}: case {c.id}: duplicate ID (also in {seen[c.id]})")
            seen[c.id] = c.file
            cases.append(c)
    return cases


def lint(roots: Iterable[Path] | None = None) -> tuple[int, list[str]]:
    """(number of cases, problems): every file valid, IDs unique, clauses known, citations verbatim."""
    problems: list[str] = []
    kinds = load_kinds()
    schemas = Schemas(kinds)
    clauses = load_clauses()
    seen: dict[str, str] = {}
    count = 0
    for f in fixture_files(roots):
        try:
            cases = load_file(f, kinds, schemas)
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
    return count, problems
