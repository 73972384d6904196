"""The bundled samples: data shipped inside the package that a user may want by name.

`fives data list|path|copy` and every command that reads a sample file (a puzzle set, a
fixture folder, the golden suite, the perft table) reach them from any folder. A name is
looked up in `samples()`, a listing built from the data folders themselves; user text is
never joined into a path. An argument is resolved by `resolve`:

- `bundled:NAME` is always the bundled sample NAME (an unknown name is one error line);
- a bare `NAME` is the bundled sample only when no file or folder of that name exists here,
  so a user's own `golden/` folder still wins.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from fives.support import paths
from fives.support.errors import UserError

PREFIX = "bundled:"

#: Kinds of sample, as `fives data list` shows them.
PUZZLE_SET = "puzzle set"
FIXTURES = "fixture folder"
GOLDEN = "golden suite"
PERFT = "perft table"
ENGINE = "example engine"
DOCUMENTS = "documents"


@dataclass(frozen=True)
class Sample:
    """One bundled sample: its name, kind, place under the data root and a short description."""

    name: str
    kind: str
    parts: tuple[str, ...]
    about: str

    @property
    def path(self) -> Path:
        return paths.data_root().joinpath(*self.parts)


def samples() -> list[Sample]:
    """Every bundled sample, in the order `fives data list` prints them."""
    root = paths.data_root()
    found: list[Sample] = []
    for f in _listing(root / "puzzles", dirs=False, suffix=".yaml"):
        found.append(Sample(f[:-len(".yaml")], PUZZLE_SET, ("puzzles", f), f"puzzles/{f}"))
    found.append(Sample("fixtures", FIXTURES, ("conformance", "fixtures"),
                        "every hand-written conformance fixture (conformance/fixtures/)"))
    for d in _listing(root / "conformance" / "fixtures", dirs=True):
        found.append(Sample(f"fixtures-{d}", FIXTURES, ("conformance", "fixtures", d),
                            f"conformance fixtures in conformance/fixtures/{d}/"))
    found.append(Sample("golden", GOLDEN, ("conformance", "golden"),
                        "the committed golden suite with its manifest (conformance/golden/)"))
    found.append(Sample("perft", PERFT, ("conformance", "perft", "perft.yaml"),
                        "the perft table: known counts for both games (conformance/perft/perft.yaml)"))
    found.append(Sample("js-engine", ENGINE, ("conformance", "examples", "js-engine"),
                        "the JavaScript example engine, Node 18+ (conformance/examples/js-engine/)"))
    found.append(Sample("seeds", DOCUMENTS, ("seeds",), "the two seed rule documents, in Arabic (seeds/)"))
    found.append(Sample("spec", DOCUMENTS, ("spec",), "the specification: rules, engine, protocol, schemas (spec/)"))
    return found


def _listing(folder: Path, *, dirs: bool, suffix: str = "") -> list[str]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [e.name for e in entries if not e.name.startswith(".") and e.is_dir() == dirs
            and e.name.endswith(suffix)]


def names() -> list[str]:
    return [s.name for s in samples()]


def find(name: str, kinds: tuple[str, ...] = ()) -> Sample:
    """The sample called `name` (of one of `kinds`, if given); else one line saying what exists."""
    for s in samples():
        if s.name == name:
            if kinds and s.kind not in kinds:
                raise UserError(f"{PREFIX}{name} is a {s.kind}, not a {' or '.join(kinds)}")
            return s
    choices = [s.name for s in samples() if not kinds or s.kind in kinds]
    close = difflib.get_close_matches(name, choices, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    from fives.support.sanitize import quote

    raise UserError(f"no bundled sample {quote(name, 40)}{hint} (`fives data list` shows them: "
                    f"{', '.join(choices)})")


def resolve(arg: str, kinds: tuple[str, ...] = ()) -> str:
    """The path a command should read for `arg`: a bundled sample's path for `bundled:NAME`, or
    for a bare NAME no file or folder is called here; otherwise `arg` itself, unchanged."""
    if arg.startswith(PREFIX):
        return str(find(arg[len(PREFIX):], kinds).path)
    if arg == "-" or os.path.lexists(arg):
        return arg
    for s in samples():
        if s.name == arg and (not kinds or s.kind in kinds):
            return str(s.path)
    return arg
