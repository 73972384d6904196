"""Every hostile input (tests/hostile_inputs/) through every command that reads input.

Each run must end with no traceback, exactly one line on stderr, the documented exit code
(2: bad input) and no output file left behind. In-process runs (CliRunner) cover the whole
matrix quickly; a few subprocess runs under RLIMIT_AS and a timeout check that the worst
classes (bombs, deep nesting, huge numbers, huge scores) stay bounded in memory and time.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fives.cli import main

CORPUS = Path(__file__).parent / "hostile_inputs"
FILES = sorted(p.name for p in CORPUS.iterdir() if p.is_file() and p.name != "README.md")
DOCUMENTS = [f for f in FILES if not f.endswith(".jsonl")]
RECORDS = [f for f in FILES if f.endswith(".jsonl")] + ["deep-nesting.json", "huge-integer.json", "nan.json",
                                                         "bad-utf8.yaml", "control-chars.json"]
OUT = "OUT"  # replaced by a path in tmp_path that must not exist afterwards

# command -> arguments; FILE is the hostile file. Every one reads FILE as its main input.
FILE_COMMANDS: dict[str, list[str]] = {
    "evaluate": ["evaluate", "--game", "horse-race", "FILE"],
    "render": ["render", "--game", "american-sniff", "FILE", "--out", OUT],
    "book": ["book", "FILE", "--out", OUT],
    "puzzles-solve": ["puzzles", "solve", "FILE"],
    "puzzles-verify": ["puzzles", "verify", "FILE"],
    "puzzles-to-golden": ["puzzles", "to-golden", "FILE", "--out", OUT],
    "perft-from": ["perft", "--game", "horse-race", "--depth", "1", "--from", "FILE"],
    "perft-check": ["perft", "--check", "FILE"],
    "conformance-run": ["conformance", "run", "--fixtures", "FILE", "--results", OUT],
    "conformance-list": ["conformance", "list", "--fixtures", "FILE"],
    "conformance-diff": ["conformance", "diff", "FILE", "FILE"],
}
RECORD_COMMANDS: dict[str, list[str]] = {
    "replay": ["replay", "FILE"],
    "score-svg": ["score-svg", "--record", "FILE", "--out", OUT],
}


def _invoke(args: list[str], tmp_path: Path, stdin: bytes | None = None) -> tuple[Result, Path]:
    out = tmp_path / "out" / "result.file"
    out.parent.mkdir(exist_ok=True)
    args = [str(out) if a == OUT else a for a in args]
    return CliRunner().invoke(main, args, input=stdin), out


def _assert_one_line_error(r: Result, out: Path | None = None, code: int = 2) -> None:
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError("traceback:\n" + "".join(traceback.format_exception(r.exception)))
    lines = r.stderr.splitlines()
    assert r.exit_code == code, (r.exit_code, r.stderr[-500:])
    assert len(lines) == 1, r.stderr[:2000]
    assert lines[0].startswith("fives: "), lines[0]
    assert len(lines[0]) <= 1100 and lines[0].isprintable(), lines[0][:200]
    if out is not None:
        assert not out.exists(), "an output file was left behind"
        assert not [p for p in out.parent.iterdir()], "a temporary file was left behind"


@pytest.mark.parametrize("name", DOCUMENTS)
@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_document_through_every_command(command: str, name: str, tmp_path: Path) -> None:
    args = [str(CORPUS / name) if a == "FILE" else a for a in FILE_COMMANDS[command]]
    r, out = _invoke(args, tmp_path)
    _assert_one_line_error(r, out)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_document_as_a_golden_manifest(name: str, tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "manifest.yaml").write_bytes((CORPUS / name).read_bytes())
    r, _ = _invoke(["golden", "verify", str(suite)], tmp_path)
    _assert_one_line_error(r)


@pytest.mark.parametrize("name", RECORDS)
@pytest.mark.parametrize("command", sorted(RECORD_COMMANDS))
def test_record_through_every_record_command(command: str, name: str, tmp_path: Path) -> None:
    args = [str(CORPUS / name) if a == "FILE" else a for a in RECORD_COMMANDS[command]]
    r, out = _invoke(args, tmp_path)
    _assert_one_line_error(r, out)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_document_on_stdin(name: str, tmp_path: Path) -> None:
    r, _ = _invoke(["evaluate", "--game", "horse-race", "-"], tmp_path, (CORPUS / name).read_bytes())
    _assert_one_line_error(r)


@pytest.mark.parametrize("name", FILES)
def test_every_file_as_jsonl_lines(name: str, tmp_path: Path) -> None:
    """--jsonl answers every line (an error object for a bad one) and says so in one line."""
    data = (CORPUS / name).read_bytes()
    r, _ = _invoke(["evaluate", "--jsonl", "--game", "horse-race"], tmp_path, data)
    if not data.strip():  # no request, nothing to answer
        assert r.exit_code == 0 and r.stdout == "" and r.stderr == ""
        return
    _assert_one_line_error(r)
    answered = r.stdout.splitlines()
    assert len(answered) == len([x for x in data.split(b"\n") if x.strip()])
    assert all(line.startswith('{"error": ') or '"tiles"' in line for line in answered)


def test_jsonl_path_tricks_are_unknown_games(tmp_path: Path) -> None:
    r, _ = _invoke(["evaluate", "--jsonl"], tmp_path, (CORPUS / "path-trick-game.jsonl").read_bytes())
    _assert_one_line_error(r)
    codes = [line.split('"code": "')[1].split('"')[0] for line in r.stdout.splitlines()]
    assert codes == ["unknown-game"] * 3
    assert "passwd" not in r.stdout.split("unknown game")[0]


@pytest.mark.parametrize("name", FILES)
def test_serve_answers_every_line(name: str, tmp_path: Path) -> None:
    """`fives serve` never dies on a request: each line gets an error reply, exit 0."""
    data = (CORPUS / name).read_bytes()
    r, _ = _invoke(["serve"], tmp_path, data)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 0 and r.stderr == ""
    replies = r.stdout.splitlines()
    assert len(replies) == len([x for x in data.split(b"\n") if x.strip()])
    assert all('"error"' in line or '"skipped"' in line for line in replies)


def test_a_directory_as_input(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.yaml"
    folder.mkdir()
    for args in (list(c) for c in (*FILE_COMMANDS.values(), *RECORD_COMMANDS.values())):
        if args[:2] in (["conformance", "run"], ["conformance", "list"]):
            continue  # a fixture folder is a valid input there (an empty one is below)
        r, out = _invoke([str(folder) if a == "FILE" else a for a in args], tmp_path)
        _assert_one_line_error(r, out)
        assert "is a directory" in r.stderr, (args, r.stderr)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(tmp_path: Path) -> None:
    f = tmp_path / "secret.yaml"
    f.write_text('- {tile: "[1|4]"}\n')
    f.chmod(0)
    r, _ = _invoke(["evaluate", "--game", "horse-race", str(f)], tmp_path)
    _assert_one_line_error(r)
    assert "cannot read" in r.stderr


@pytest.mark.parametrize("command", ["run", "list", "coverage"])
def test_an_empty_fixture_folder(command: str, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    r, _ = _invoke(["conformance", command, "--fixtures", str(tmp_path / "empty")], tmp_path)
    _assert_one_line_error(r)
    empty_file = tmp_path / "none.yaml"
    empty_file.write_text("format: fives-fixtures/1\ncases: []\n")
    r, _ = _invoke(["conformance", command, "--fixtures", str(empty_file)], tmp_path)
    _assert_one_line_error(r)


@pytest.mark.parametrize("args", [
    ["tally", "--game", "american-sniff", "\u0663\u0665"],
    ["tally", "--game", "horse-race", "--previous", "\u0663", "5"],
    ["tally", "--game", "american-sniff", "1" + "0" * 5000],
    ["score-svg", "--game", "american-sniff", "--score", "\u0663\u0665"],
    ["score-svg", "--game", "american-sniff", "--score", "1" + "0" * 5000],
    ["score-svg", "--game", "american-sniff", "--score", "+".join(["5"] * 2000)],
    ["play", "--game", "../../../../etc/passwd", "--players", "2", "--seed", "1"],
    ["evaluate", "--game", "../spec/games/horse-race", "-"],
    ["evaluate", "--game", "horse-race", "no\nsuch\x1b[31mfile.yaml"],  # (argv holds no NUL)
    ["replay", "no\nsuch\u202efile.jsonl"],
])
def test_hostile_arguments(args: list[str], tmp_path: Path) -> None:
    r, _ = _invoke(args, tmp_path, b"[]")
    _assert_one_line_error(r)


@pytest.mark.parametrize("args", [
    ["render", "--game", "horse-race", "LAYOUT", "--out", "NOFOLDER/x.svg"],
    ["render", "--game", "horse-race", "LAYOUT", "--out", "FOLDER"],
    ["render", "--game", "horse-race", "LAYOUT", "--out", "FILE/x.svg"],
    ["book", "BOOK", "--out", "NOFOLDER/x.html"],
    ["score-svg", "--game", "american-sniff", "--score", "135", "--out", "FOLDER"],
    ["play", "--game", "horse-race", "--players", "2", "--seed", "1", "--out", "NOFOLDER/m.jsonl"],
    ["play", "--game", "horse-race", "--players", "2", "--seed", "1", "--out", "FOLDER"],
    ["puzzles", "to-golden", "BOOK", "--out", "FILE/x.yaml"],
    ["puzzles", "extremal", "--out", "FILE/x.yaml"],
])
def test_output_paths_that_cannot_be_written(args: list[str], tmp_path: Path) -> None:
    layout = tmp_path / "layout.yaml"
    layout.write_text('- {tile: "[1|4]"}\n')
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    book = Path(__file__).parents[1] / "puzzles" / "book-sample.yaml"
    names = {"LAYOUT": str(layout), "BOOK": str(book)}
    paths = {"NOFOLDER/": str(tmp_path / "missing" / "deeper") + "/", "FOLDER": str(tmp_path / "folder"),
             "FILE/": str(tmp_path / "file") + "/"}
    fixed = []
    for a in args:
        a = names.get(a, a)
        for k, v in paths.items():
            if a.startswith(k):
                a = v + a[len(k):]
        fixed.append(a)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    r = CliRunner().invoke(main, fixed)
    _assert_one_line_error(r)
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The output is written to a temporary file and renamed: a failure leaves the old bytes."""
    from fives.support import reading, sanitize, writing

    target = tmp_path / "keep.svg"
    target.write_text("old")

    def boom(*a: object, **k: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing.os, "replace", boom)
    with pytest.raises(writing.UserError, match="No space left on device"):
        writing.write_output("new", target)
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.svg"]


# -- bounded memory and time: real processes under RLIMIT_AS ---------------------------------
MEMORY = 1 << 30  # 1 GiB of address space: far above a normal run, far below a bomb's needs
SECONDS = 30


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.parametrize("args,stdin", [
    (["evaluate", "--game", "horse-race", "CORPUS/yaml-bomb-list.yaml"], None),
    (["evaluate", "--game", "horse-race", "-"], b"[" * 100_000),
    (["evaluate", "--jsonl"], b'{"game": "horse-race", "placements": ' + b"[" * 100_000 + b"\n"),
    (["replay", "CORPUS/huge-seed-record.jsonl"], None),
    (["puzzles", "verify", "CORPUS/yaml-bomb.yaml"], None),
    (["score-svg", "--game", "american-sniff", "--score", "999999999995", "--out", "OUT"], None),
    (["tally", "--game", "american-sniff", "999999999999"], None),
], ids=["yaml-bomb", "deep-stdin", "deep-jsonl", "huge-seed", "bomb-puzzles", "score-svg-huge", "tally-huge"])
def test_bounded_memory_and_time(args: list[str], stdin: bytes | None, tmp_path: Path) -> None:
    out = tmp_path / "picture.svg"
    args = [str(out) if a == OUT else a.replace("CORPUS", str(CORPUS)) for a in args]
    p = subprocess.run([sys.executable, "-m", "fives.cli", *args], input=stdin, capture_output=True,
                       timeout=SECONDS, preexec_fn=_limits)
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "MemoryError" not in err, err[-2000:]
    if args[0] in ("score-svg", "tally"):  # huge scores are drawn, cut at the documented limit
        assert p.returncode == 0, err
        text = out.read_text() if args[0] == "score-svg" else p.stdout.decode()
        assert "19999999900 more symbols" in text and len(text) < 1_000_000
    else:
        assert p.returncode == 2 and len(err.splitlines()) == 1, err[-2000:]
