"""The hardened reader and the atomic writer (fives/support/reading.py, fives/support/writing.py)."""
from __future__ import annotations

import io as stdio
import os
from pathlib import Path

import pytest

from fives.support import reading, sanitize, writing
from fives.support.errors import UserError


def test_json_within_the_limits_parses_as_usual() -> None:
    text = '{"a": [1, -2, 3.5, "[[[{{{", {"b": null}], "c": 999999999999999999}'
    assert reading.parse_json_line(text, "x") == {"a": [1, -2, 3.5, "[[[{{{", {"b": None}], "c": 999999999999999999}
    assert reading.parse_json_line("[" * reading.MAX_DEPTH + "]" * reading.MAX_DEPTH, "x") is not None


@pytest.mark.parametrize("text,reason", [
    ("[" * 100_000, "nested deeper than 64 levels"),
    ("[" * 65 + "]" * 65, "nested deeper than 64 levels"),
    ('{"a": ' * 70 + "1" + "}" * 70, "nested deeper than 64 levels"),
    ("[1" + "0" * 5000 + "]", "has more than 18 digits"),
    ("[1234567890123456789]", "has more than 18 digits"),
    ("[NaN]", "NaN is not a number"),
    ("[-Infinity]", "-Infinity is not a number"),
    ("[1e999]", "out of range"),
    ("[1, 2", "malformed JSON"),
])
def test_json_over_a_limit_is_one_line(text: str, reason: str) -> None:
    with pytest.raises(UserError, match=reason) as e:
        reading.parse_json_line(text, "stdin line 3")
    message = str(e.value)
    assert message.startswith("stdin line 3") and "\n" not in message and len(message) < 200
    assert e.value.exit_code == 2


def test_digits_inside_strings_and_brackets_inside_strings_are_data() -> None:
    assert reading.parse_json_line('["' + "9" * 100 + '", "' + "[" * 100 + '"]', "x") == ["9" * 100, "[" * 100]


def test_yaml_within_the_limits_parses_as_usual() -> None:
    text = "a: &x [1, 2]\nb: *x\nc: {d: 0x1F, e: 1_000, f: 1.5, g: 190:20:30}\n"
    assert reading.parse_text(text, "f.yaml") == {"a": [1, 2], "b": [1, 2], "c": {"d": 31, "e": 1000, "f": 1.5, "g": 685230}}


@pytest.mark.parametrize("text,reason", [
    ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{n}: &{n} [" + ", ".join([f"*{p}"] * 10) + "]\n" for p, n in zip("abcdefg", "bcdefgh")),
     "aliases expand to more than 2,000,000 nodes"),
    ("&a [*a]\n", "recursive YAML alias"),
    ("- " * 900 + "x\n", "nested deeper than 64 levels"),
    ("".join("  " * i + "k:\n" for i in range(70)) + "  " * 70 + "v: 1\n", "nested deeper than 64 levels"),
    ("x: 1" + "0" * 5000 + "\n", "has more than 18 digits"),
    ("x: -0x" + "f" * 19 + "\n", "has more than 18 digits"),
    ("x: .nan\n", "not a finite number"),
    ("x: -.Inf\n", "not a finite number"),
    ("x: 1.0e+999\n", "not a finite number"),
    ("x: [1, 2\n", "malformed YAML"),
])
def test_yaml_over_a_limit_is_one_line(text: str, reason: str) -> None:
    with pytest.raises(UserError, match=reason) as e:
        reading.parse_text(text, "f.yaml")
    assert str(e.value).startswith("f.yaml") and "\n" not in str(e.value)


def test_flow_yaml_that_looks_like_json_still_parses() -> None:
    assert reading.parse_text("[{tile: '[1|4]'}]", "<stdin>") == [{"tile": "[1|4]"}]
    with pytest.raises(UserError, match="nested deeper"):
        reading.parse_text("[" * 5000, "<stdin>")  # JSON-looking stdin: the depth check comes first


def test_read_text_is_strict_and_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "a.yaml"
    f.write_bytes(b"x: 1\n# \xff\n")
    with pytest.raises(UserError, match=r"a.yaml: not UTF-8 text \(invalid start byte at byte 7\)"):
        reading.read_text(f)
    with pytest.raises(UserError, match="is a directory"):
        reading.read_text(tmp_path)
    with pytest.raises(UserError, match="no such file"):
        reading.read_text(tmp_path / "missing.yaml")
    f.write_text("x" * 100)
    monkeypatch.setattr(reading, "MAX_DOCUMENT_BYTES", 50)
    with pytest.raises(UserError, match="input larger than"):
        reading.read_text(f)


def test_read_lines_reports_bad_lines_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "MAX_DOCUMENT_BYTES", 20)
    stream = stdio.BytesIO(b'{"a": 1}\n\xff\n' + b"y" * 50 + b"\nlast")
    got = list(reading.read_lines(stream))
    assert got == [(1, '{"a": 1}\n', ""), (2, None, "not UTF-8 text (invalid start byte at byte 0)"),
                   (3, None, "line longer than 0 MiB"), (4, "last", "")]


def test_parse_ascii_int() -> None:
    assert reading.parse_ascii_int("-15", "score") == -15
    assert reading.parse_ascii_int("999999999999999999", "score") == 10**18 - 1
    for bad in ("\u0663\u0665", "1_000", " 5", "1" * 19, "", "5.0", "\uff15"):
        with pytest.raises(UserError, match="ASCII digits"):
            reading.parse_ascii_int(bad, "score")


def test_messages_quote_a_short_escaped_prefix() -> None:
    assert sanitize.quote("a\x1b[31m\nb") == "'a\\x1b[31m\\nb'"
    assert sanitize.quote("x" * 500) == "'" + "x" * 40 + "…'"
    assert sanitize.quote("\u0663") == "'\u0663'"  # printable Unicode stays readable
    line = sanitize.message_line("bad\n" + "y" * 5000)
    assert "\n" not in line and len(line) == sanitize.MAX_MESSAGE_CHARS + 1


def test_write_output_is_atomic_and_keeps_the_mode(tmp_path: Path) -> None:
    out = tmp_path / "picture.svg"
    out.write_text("old")
    out.chmod(0o640)
    writing.write_output("new", out)
    assert out.read_text() == "new" and (out.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["picture.svg"]
    fresh = tmp_path / "fresh.svg"
    writing.write_output("x", fresh)
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.parametrize("where,reason", [
    ("missing/x.svg", "its folder does not exist"),
    ("folder", "is a directory"),
])
def test_write_output_refuses_paths_it_cannot_write(tmp_path: Path, where: str, reason: str) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(UserError, match=reason):
        writing.write_output("x", tmp_path / where)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    assert list((tmp_path / "folder").iterdir()) == []


def test_write_output_never_through_a_link_but_to_a_device(tmp_path: Path) -> None:
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    with pytest.raises(UserError, match="is a symbolic link"):  # issue 21: outputs never follow a link
        writing.write_output("new", link)
    assert link.is_symlink() and real.read_text() == "old"
    writing.write_output("discarded", "/dev/null")  # a device is written as a stream, never replaced
    assert Path("/dev/null").is_char_device()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "real.svg"]


def test_file_names_with_nul_or_controls_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="holds no NUL byte"):
        reading.read_text("a\x00b.yaml")
    with pytest.raises(UserError, match="holds no NUL byte"):
        writing.write_output("x", tmp_path / "a\x00b.svg")
    with pytest.raises(UserError) as e:
        reading.read_text(tmp_path / "new\nline\x1b[2J.yaml")
    assert "\n" not in str(e.value) and "\x1b" not in str(e.value) and "\\x1b[2J" in str(e.value)
