"""`fives conformance new-engine`: a skeleton engine to start from, in Python or JavaScript.

The skeleton is the part every engine author writes first and the same for all: the line loop,
the hello, every case kind dispatched, and error replies in the protocol's shape
(spec/protocol.md). Each kind is a stub in a file of its own (`kinds/<kind>.py` or `.js`),
marked as a stub; the hello declares only the kinds whose stub mark is gone, so the runner
sends a kind's cases once its answer is written and skips them until then. The templates are
package data (`skeletons/<language>/`); the kinds' notes below fill in one stub per kind.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from fives.support.errors import UserError
from fives.support.sanitize import clean_name, quote

LANGUAGES = ("python", "javascript")
#: characters a skeleton's folder path may not hold besides control characters: they would end a
#: string or a comment of the code it is written into, or the double-quoted command it prints
UNSAFE = frozenset("\"'\\`$!")


@dataclass(frozen=True)
class KindNote:
    """What a kind's stub says to its author: the question, an input and an answer of a real
    case, and where the shapes are defined."""
    kind: str
    question: str
    input: str
    answer: str
    spec: str

    def stem(self, language: str) -> str:
        """The stub's file name without its suffix (Python modules take no hyphen)."""
        return self.kind.replace("-", "_") if language == "python" else self.kind


#: every case kind of the protocol, in the order docs/engine-authors.md suggests filling them in
KIND_NOTES: tuple[KindNote, ...] = (
    KindNote("evaluate", "a layout given as placements: what it counts",
             '{"placements": [{"tile": "[1|4]"}, {"tile": "[1|1]", "to": "[1|4]", "side": "low"}]}',
             '{"tiles": [...], "spinners": [...], "positions": [...], "contributions": [...], '
             '"sum": 6, "raw": 0, "display": 0}; an illegal placement is an answer too: '
             '{"error": {"index": 1, "code": "value-mismatch", "message": "..."}}',
             "spec/engine.md"),
    KindNote("legal-placements", "what the seat to act may do: its legal placements, whether it may draw or pass",
             '{"layout": [{"tile": "[1|4]"}, {"tile": "[1|1]", "to": "[1|4]", "side": "low"}], '
             '"hand": ["[1|5]", "[2|6]"], "boneyard": 4}',
             '{"placements": [{"tile": "[1|5]", "to": "[1|1]", "side": "line-b"}], "draw": false, "pass": false}',
             "spec/play.md"),
    KindNote("turn", "a state in the middle of a hand and a list of actions: what each action does",
             '{"players": 2, "layout": [{"tile": "[1|4]"}], "hands": [["[4|4]", "[2|3]"], ["[3|3]"]], '
             '"boneyard": ["[2|5]"], "seat": 0, "actions": [{"action": "place", "tile": "[4|4]", "to": "[1|4]", '
             '"side": "high"}]}',
             '{"results": [{"action": "place", "seat": 0, "sum": 9, "raw": 0, "continues": false, '
             '"turn_end": true}], "next_seat": 1}',
             "spec/play.md"),
    KindNote("settle", "an ended hand: the deductions (Sniff) or awards (Horse Race), new scores, winners",
             '{"players": 4, "partnerships": true, "scores": [100, 80], "end": {"reason": "gone-out", "seat": 1}, '
             '"pips": [7, 0, 12, 2]}',
             '{"kind": "deduct-per-seat", "seats": [...], "deductions": [...], ...}',
             "spec/play.md"),
    KindNote("match-end", "scores and one settlement's awards: who has won (or whether the match is abandoned)",
             '{"players": 2, "scores": [240, 100], "awards": [15, 0]}',
             '{"scores": [255, 100], "winners": [0]}',
             "spec/play.md"),
    KindNote("setup", "a number of players (and partnerships): hand size, boneyard, teams, target",
             '{"players": 2, "partnerships": false}',
             '{"valid": true, "hand_size": 7, "boneyard": 14, "teams": [[0], [1]], "target_raw": 250, '
             '"target_display": 250}',
             "spec/play.md"),
    KindNote("next-leader", "who leads the next hand (a seat, or \"lot\")",
             '{"players": 3, "previous": null}',
             '{"leader": "lot"}',
             "spec/play.md"),
    KindNote("tally", "an American Sniff score as the paper tally draws it",
             '{"score": 135}',
             '{"fifties": 2, "strokes": 7, "negative": false}',
             "spec/play.md"),
    KindNote("perft", "a layout and a depth: how many placement sequences, and their last placements' points",
             '{"placements": [], "depth": 1}',
             '{"nodes": 28, "points": 35}',
             "spec/perft.md"),
)


@dataclass(frozen=True)
class Skeleton:
    """The files of a skeleton: relative path -> text; `command` runs the engine from the
    folder the skeleton was written from."""
    files: dict[str, str]
    command: str


def _template(language: str, name: str) -> str:
    folder = resources.files("fives.conformance.engines").joinpath("skeletons")
    return (folder.joinpath(language, name) if language else folder.joinpath(name)).read_text("utf-8")


def _fill(text: str, values: dict[str, str]) -> str:
    # plain `{{key}}` markers: the templates are code full of braces, so no str.format
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def skeleton(folder: Path, language: str) -> Skeleton:
    """The skeleton engine for `folder` (its name names the engine) in `language`."""
    if language not in LANGUAGES:
        raise UserError(f"--language {language}: one of {', '.join(LANGUAGES)}")
    unsafe = sorted({c for c in str(folder) if ord(c) < 32 or c in UNSAFE})
    if unsafe:  # the folder's path is written into code, comments and a quoted command line
        raise UserError(f"{clean_name(str(folder))}: give a folder whose path holds no {quote(''.join(unsafe))} "
                        "(it is written into the engine's code and its command line)")
    suffix = ".py" if language == "python" else ".js"
    engine = shlex.quote(f"{folder.as_posix()}/engine{suffix}")
    command = f"python3 {engine}" if language == "python" else f"node {engine}"
    # the engine's name, as its hello says it: the folder's name, in letters, digits, '.', '_' and '-'
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", folder.resolve().name).strip("-.") or "my-engine"
    values = {"name": name, "command": command, "language": "Python" if language == "python" else "JavaScript",
              "suffix": suffix, "stub_mark": "`STUB = True`" if language == "python" else "`stub: true`"}
    files = {f"engine{suffix}": _fill(_template(language, f"engine{suffix}.tmpl"), values),
             "README.md": _fill(_template("", "README.md.tmpl"), values)}
    if language == "python":
        files["kinds/__init__.py"] = '"""One module per case kind: `answer(game, input)`, and `STUB = True` until it works."""\n'
    stub = _template(language, f"kind{suffix}.tmpl")
    for note in KIND_NOTES:
        files[f"kinds/{note.stem(language)}{suffix}"] = _fill(stub, {
            **values, "kind": note.kind, "question": note.question, "input": note.input,
            "answer": note.answer, "spec": note.spec})
    return Skeleton(files, command)


def skeleton_files(folder: Path) -> list[Path]:
    """Every file of `folder` when all are a skeleton's (what `--force` may replace); UserError
    naming the first that is not."""
    names = {"engine.py", "engine.js", "README.md", "kinds/__init__.py"}
    names |= {f"kinds/{n.stem(lang)}{'.py' if lang == 'python' else '.js'}" for n in KIND_NOTES for lang in LANGUAGES}
    found = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_dir() and not path.is_symlink() and rel in ("kinds", "kinds/__pycache__"):
            continue
        if rel.startswith("kinds/__pycache__/") and path.suffix == ".pyc" and path.is_file():
            found.append(path)
            continue
        if rel not in names or path.is_symlink() or not path.is_file():
            raise UserError(f"{folder / rel}: not a file of a skeleton engine; nothing was replaced "
                            "(give a new folder, or remove it)")
        found.append(path)
    return found
