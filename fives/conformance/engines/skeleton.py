"""`fives conformance new-engine`: a skeleton engine to start from, in Python or JavaScript.

The skeleton is the part every engine author writes first and the same for all: the line loop,
the hello, every case kind dispatched, and error replies in the protocol's shape
(spec/protocol.md). Each kind is a stub in a file of its own (`kinds/<kind>.py` or `.js`),
marked as a stub; the hello declares only the kinds whose stub mark is gone, so the runner
sends a kind's cases once its answer is written and skips them until then. The templates are
package data (`skeletons/<language>/`); the kinds' notes below fill in one stub per kind.
"""
from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Iterator

from fives.support.errors import UserError
from fives.support.sanitize import clean_name

LANGUAGES = ("python", "javascript")
#: characters that end or expand a double-quoted shell word: a command holding one is printed
#: single-quoted instead (its own single quotes, shlex's, stay as they are in double quotes). The folder's path is written into no code and no comment (a line end of
#: some language, U+2028 in JavaScript, would end the comment), only into the README and stdout.
SHELL_SPECIAL = frozenset("\"\\`$!")
#: the most of a skeleton's file `--force` reads to recognise it (the largest is about 4 KB)
MOST_READ = 64 * 1024


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
    path = str(folder)
    if any(ord(c) < 32 or c == "\x7f" for c in path):  # the printed command would not be one line
        raise UserError(f"{clean_name(path)}: give a folder whose path holds no control character "
                        "(it is printed in the engine's command line)")
    if any("\ud800" <= c <= "\udfff" for c in path):  # bytes that are not UTF-8, as Python decodes them
        raise UserError(f"{clean_name(path)}: give a folder whose name is UTF-8 text (it is printed in "
                        "the engine's command line and README)")
    suffix = ".py" if language == "python" else ".js"
    where = folder.as_posix()
    where = f"./{where}" if where.startswith("-") else where  # `node -x/engine.js` would be an option
    command = f"{'python3' if language == 'python' else 'node'} {shlex.quote(f'{where}/engine{suffix}')}"
    try:  # the engine's name, as its hello says it: the folder's name, in letters, digits, '.', '_' and '-'
        name = _engine_name(folder.resolve().name)
    except (RuntimeError, OSError):  # RuntimeError: a symbolic-link loop
        raise UserError(f"{clean_name(path)}: cannot be followed (a symbolic link loop)") from None
    values = {"name": name, "command": command, "engine_arg": engine_arg(command),
              "local_command": f"python3 engine{suffix}" if language == "python" else f"node engine{suffix}",
              "language": "Python" if language == "python" else "JavaScript",
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


def engine_arg(command: str) -> str:
    """`command` as one shell word for `--engine`: double-quoted as it always was, single-quoted
    when a character would end or expand a double-quoted word (`"`, `\\`, `$`, a backquote, `!`)."""
    return shlex.quote(command) if SHELL_SPECIAL & set(command) else f'"{command}"'


def _engine_name(folder_name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", folder_name).strip("-.") or "my-engine"


def _shape(folder: str, name: str, language: str) -> re.Pattern[str]:
    """What a skeleton's file (template `name` of `folder`) of `language` holds, whatever the
    folder it was written for: its template with the engine's name and command left open."""
    text = re.escape(_template(folder, name))
    text = text.replace(re.escape("{{name}}"), r"[A-Za-z0-9._-]+")
    text = text.replace(re.escape("{{engine_arg}}"), r"[^\n]+")
    values = {"local_command": "python3 engine.py" if language == "python" else "node engine.js",
              "language": "Python" if language == "python" else "JavaScript",
              "suffix": ".py" if language == "python" else ".js",
              "stub_mark": "`STUB = True`" if language == "python" else "`stub: true`"}
    for key, value in values.items():
        text = text.replace(re.escape("{{" + key + "}}"), re.escape(value))
    return re.compile(text)


def _written_by_us(path: Path) -> bool:
    """The file is an engine or a README exactly as a skeleton writes it (by content, never by
    its name: a user's own engine.py is never replaced)."""
    shapes = {"engine.py": [("python", "engine.py.tmpl", "python")],
              "engine.js": [("javascript", "engine.js.tmpl", "javascript")],
              "README.md": [("", "README.md.tmpl", lang) for lang in LANGUAGES]}[path.name]
    try:
        with open(path, "rb") as f:
            text = f.read(MOST_READ + 1).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return len(text) <= MOST_READ and any(_shape(*shape).fullmatch(text) for shape in shapes)


def skeleton_files(folder: Path) -> list[Path]:
    """Every file of `folder` when all are a skeleton's (what `--force` may replace); UserError
    naming the first that is not, found without reading further. The folder is a skeleton's when
    its engine and README are as a skeleton writes them (by content); in its kinds/, a kind's
    module is the skeleton's by its name (a filled-in kind is replaced by its stub, as --force says)."""
    kind_names = {"__init__.py"} | {f"{n.stem(lang)}{'.py' if lang == 'python' else '.js'}"
                                    for n in KIND_NOTES for lang in LANGUAGES}
    found: list[Path] = []
    kinds = None
    for entry in _entries(folder):
        path = Path(entry.path)
        if entry.name == "kinds" and entry.is_dir(follow_symlinks=False):
            kinds = path
        elif entry.name in ("engine.py", "engine.js", "README.md") and entry.is_file(follow_symlinks=False) \
                and _written_by_us(path):
            found.append(path)
        else:
            raise _not_ours(path)
    if not any(p.name != "README.md" for p in found):
        raise UserError(f"{clean_name(str(folder))}: holds no skeleton engine (no engine.py or engine.js as "
                        "new-engine writes it); nothing was replaced (give a new folder, or remove it)")
    for entry in _entries(kinds) if kinds else ():
        path = Path(entry.path)
        if entry.name == "__pycache__" and entry.is_dir(follow_symlinks=False):
            for cached in _entries(path):
                stem = cached.name.split(".")[0]
                if not (cached.name.endswith(".pyc") and f"{stem}.py" in kind_names
                        and cached.is_file(follow_symlinks=False)):
                    raise _not_ours(Path(cached.path))
                found.append(Path(cached.path))
        elif entry.name in kind_names and entry.is_file(follow_symlinks=False):
            found.append(path)
        else:
            raise _not_ours(path)
    return sorted(found)


def _entries(folder: Path) -> Iterator[os.DirEntry[str]]:
    """A folder's entries one by one, as the system lists them: a refusal stops the listing."""
    try:
        with os.scandir(folder) as it:
            yield from it
    except OSError as e:
        raise UserError(f"{clean_name(str(folder))}: cannot be read ({e.strerror}); nothing was replaced") from None


def _not_ours(path: Path) -> UserError:
    return UserError(f"{clean_name(str(path))}: not a file of a skeleton engine; nothing was replaced "
                     "(give a new folder, or remove it)")
