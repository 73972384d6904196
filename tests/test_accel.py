"""The compiled fast path of `fives evaluate --jsonl` against the pure-Python path.

Every line the C function answers must be byte-identical to what the Python path writes; every
line it declines (None) is left to Python. Skipped when the extension is not built.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from fives import accel
from fives.evaluation import evaluate
from fives.support.writing import dump_json
from fives.layout import Layout
from fives.rules import game_ids, load_rules
from fives.tiles import ALL_TILES, SIDES

pytestmark = pytest.mark.skipif(not accel.available(), reason="fives._accel is not built (no C compiler)")

GAMES = ["american-sniff", "horse-race"]


@pytest.fixture(scope="module")
def fast():
    fn = accel.line_evaluator(game_ids())
    assert fn is not None
    return fn


def python_line(line: str, default: str | None) -> str:
    req = json.loads(line)
    return dump_json(evaluate(load_rules(req.get("game", default)), req["placements"]))


def random_records(rng: random.Random, game: str) -> list[dict]:
    layout = Layout(game)
    size = rng.randint(0, 28)
    while len(layout) < size and (moves := layout.legal_placements(ALL_TILES)):
        layout.push(rng.choice(moves))
    return [p.to_dict() for p in layout.history()]


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_layouts_are_byte_identical(fast, game: str) -> None:
    rng = random.Random(12)
    for _ in range(400):
        records = random_records(rng, game)
        line = json.dumps({"game": game, "placements": records}) + "\n"
        got = fast(line, None)
        assert got is not None, line
        assert got == python_line(line, None)


def test_spellings_and_spacing_it_accepts(fast) -> None:
    line = '  {"placements" : [ {"tile":"4-1"} , {"side":"low","to":"[4|1]","tile":"[1|1]"} ] }\r\n'
    assert fast(line, "horse-race") == python_line(line, "horse-race")


@pytest.mark.parametrize("line", [
    '{"game": "horse-race", "placements": [{"tile": "[1|4]"}, {"tile": "[2|3]", "to": "[1|4]", "side": "high"}]}',
    '{"game": "horse-race", "placements": [{"tile": "[1|4]"}, {"tile": "[1|4]"}]}',
    '{"game": "horse-race", "placements": [{"tile": "[1|4]"}, {"tile": "[4|4]", "to": "[1|4]", "side": "line-a"}]}',
    '{"game": "horse-race", "placements": [{"tile": "[4|4]"}, {"tile": "[4|5]", "to": "[4|4]", "side": "branch-a"}]}',
    '{"game": "horse-race", "placements": [{"tile": "[٣|٥]"}]}',
    '{"game": "horse-race", "placements": [{"tile": " [1|4]"}]}',
    '{"game": "horse-race", "placements": [{"tile": "[1|4]", "to": "[1|4]"}]}',
    '{"game": "horse-race", "placements": [{"tile": "[1|4]", "colour": "red"}]}',
    '{"game": "horse-race", "placements": [{"tile": "[1|\\u0034]"}]}',
    '{"game": "horse-race", "game": "american-sniff", "placements": []}',
    '{"game": "horse-race", "placements": [], "id": 1}',
    '{"game": "../../x", "placements": []}',
    '{"game": 5, "placements": []}',
    '{"placements": []}',
    '[]',
    '{"game": "horse-race", "placements": [{"tile": "[1|4]"}]} x',
    '',
])
def test_everything_else_is_left_to_python(fast, line: str) -> None:
    assert fast(line, None) is None


def _stream(lines: list[str], pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "FIVES_PURE_PYTHON"}
    if pure:
        env["FIVES_PURE_PYTHON"] = "1"
    return subprocess.run([sys.executable, "-m", "fives.cli", "evaluate", "--jsonl"], input="".join(lines),
                          capture_output=True, text=True, env=env, timeout=120)


def test_cli_stream_is_the_same_with_and_without_the_accelerator() -> None:
    rng = random.Random(5)
    lines = []
    for i in range(300):
        game = GAMES[i % 2]
        records = random_records(rng, game)
        if i % 7 == 3 and records:  # now and then an illegal or oddly spelled line
            records[-1] = {**records[-1], "side": rng.choice([s.value for s in SIDES])}
        if i % 11 == 5:
            records = [{**r, "tile": r["tile"].replace("|", "-").strip("[]")} for r in records]
        lines.append(json.dumps({"game": game, "placements": records}) + "\n")
    lines.append("not json\n")
    fast, pure = _stream(lines, pure=False), _stream(lines, pure=True)
    assert fast.stdout == pure.stdout and fast.returncode == pure.returncode == 2
    assert len(fast.stdout.splitlines()) == len(lines)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_every_evaluate_case_of_the_suite_is_the_same_through_both_paths(fast) -> None:
    from fives.conformance.cases.fixtures import load_cases

    answered = 0
    for case in load_cases(None):
        if case.kind != "evaluate":
            continue
        line = json.dumps({"game": case.game, "placements": case.input["placements"]})
        got = fast(line, None)
        if got is not None:
            answered += 1
            assert got == python_line(line, None), case.id
    assert answered > 1000  # most golden layouts are legal and plainly spelled: the fast path answers them


# -- one answer per input (issue 21): every limit's edge, and a mutated corpus -----------------
from fives.support import reading  # noqa: E402

HEAD = '{"game": "horse-race", "placements": '
PLAIN = HEAD + '[{"tile": "[1|4]"}, {"tile": "[1|1]", "to": "[1|4]", "side": "low"}]}'


def _both(data: bytes) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    def run(pure: bool) -> subprocess.CompletedProcess[bytes]:
        env = {k: v for k, v in os.environ.items() if k != "FIVES_PURE_PYTHON"}
        if pure:
            env["FIVES_PURE_PYTHON"] = "1"
        return subprocess.run([sys.executable, "-m", "fives.cli", "evaluate", "--jsonl"], input=data,
                              capture_output=True, env=env, timeout=600)
    return run(False), run(True)


def _assert_same(data: bytes) -> bytes:
    fast, pure = _both(data)
    assert fast.returncode == pure.returncode, (fast.returncode, pure.returncode, pure.stderr[-300:])
    assert fast.stderr == pure.stderr
    if fast.stdout != pure.stdout:  # name the first line that differs
        for i, (a, b) in enumerate(zip(fast.stdout.split(b"\n"), pure.stdout.split(b"\n"))):
            assert a == b, (i, data.split(b"\n")[i][:200], a[:300], b[:300])
        raise AssertionError("outputs differ in length")
    assert b"Traceback" not in pure.stderr
    return pure.stdout


M = reading.MAX_DEPTH
D = reading.MAX_DIGITS
#: (name, line without its newline) at each limit of fives.support.reading: just inside, just past
EDGES: list[tuple[str, str]] = [
    ("depth-inside", HEAD + "[" * (M - 1) + "]" * (M - 1) + "}"),
    ("depth-past", HEAD + "[" * M + "]" * M + "}"),
    ("depth-in-extra-key", PLAIN[:-1] + ', "x": ' + "[" * (M - 1) + "]" * (M - 1) + "}"),
    ("depth-brackets-in-strings", PLAIN[:-1] + ', "x": "' + "[" * 500 + '"}'),
    ("digits-inside", PLAIN[:-1] + ', "n": ' + "9" * D + "}"),
    ("digits-past", PLAIN[:-1] + ', "n": ' + "9" * (D + 1) + "}"),
    ("digits-negative-past", PLAIN[:-1] + ', "n": -' + "9" * (D + 1) + "}"),
    ("digits-in-a-string", PLAIN[:-1] + ', "n": "' + "9" * 500 + '"}'),
    ("float-inside", PLAIN[:-1] + ', "n": 1e308}'),
    ("float-past", PLAIN[:-1] + ', "n": 1e309}'),
    ("nan", PLAIN[:-1] + ', "n": NaN}'),
    ("escape-plain-char", HEAD + '[{"tile": "\\u005b1|4]"}]}'),
    ("escape-solidus", HEAD + '[{"tile": "[1|4]", "side": "l\\/ow"}]}'),
    ("escape-surrogate-pair", HEAD + '[{"tile": "\\ud83d\\ude00"}]}'),
    ("escape-lone-high", HEAD + '[{"tile": "\\ud800"}]}'),
    ("escape-lone-low", HEAD + '[{"tile": "\\udfff"}]}'),
    ("escape-reversed-pair", HEAD + '[{"tile": "\\ude00\\ud83d"}]}'),
    ("escape-surrogate-in-key", '{"game": "horse-race", "\\ud800": 1, "placements": []}'),
    ("escape-surrogate-in-game", '{"game": "horse-race\\ud800", "placements": []}'),
    ("escaped-backslash-then-u", HEAD + '[{"tile": "\\\\ud800"}]}'),
    ("escape-bad", HEAD + '[{"tile": "\\x41"}]}'),
    ("escape-short", HEAD + '[{"tile": "\\u12"}]}'),
    ("control-in-string", HEAD + '[{"tile": "[1|4]\x01"}]}'),
    ("del-in-string", HEAD + '[{"tile": "[1|4]\x7f"}]}'),
    ("nul-outside", PLAIN + "\x00"),
    ("bom", "\ufeff" + PLAIN),
    ("nbsp-padding", "\u00a0" + PLAIN),
    ("ff-padding", "\x0c" + PLAIN),
    ("vt-padding", PLAIN + "\x0b"),
    ("crlf", PLAIN + "\r"),
    ("tab-padding", "\t" + PLAIN + "\t "),
    ("only-ff", "\x0c"), ("only-fs", "\x1c"), ("only-ls", "\u2028"), ("only-ps", "\u2029"),
    ("only-nel", "\x85"), ("only-nbsp", "\u00a0"), ("only-vt", "\x0b"), ("only-cr", "\r"),
    ("blank", ""), ("spaces", "   \t "),
    ("duplicate-game", '{"game": "horse-race", "game": "american-sniff", "placements": []}'),
    ("duplicate-placements", HEAD + '[], "placements": [{"tile": "[1|4]"}]}'),
    ("default-game-missing", '{"placements": [{"tile": "[1|4]"}]}'),
    ("arabic-digit-tile", HEAD + '[{"tile": "[\u0661|4]"}]}'),
    ("fullwidth-bar", HEAD + '[{"tile": "[1\uff5c4]"}]}'),
    ("empty", HEAD + "[]}"),
    ("twenty-nine", HEAD + "[" + ", ".join(['{"tile": "[1|4]"}'] * 29) + "]}"),
]


def test_both_paths_agree_at_every_limits_edge() -> None:
    data = b"".join(line.encode("utf-8") + b"\n" for _, line in EDGES)
    data += b'{"game": "horse-race", "placements": [{"tile": "\xff"}]}\n'  # not UTF-8
    data += b'{"game": "horse-race", "placements": [{"tile": "\xed\xa0\x80"}]}\n'  # a surrogate in CESU-8
    data += PLAIN.encode()  # a last line without its newline
    out = _assert_same(data).decode("utf-8").split("\n")
    answered = dict(zip([n for n, _ in EDGES], out))
    for name in ("depth-inside", "digits-inside", "float-inside", "escape-plain-char", "crlf", "tab-padding",
                 "depth-in-extra-key", "digits-in-a-string", "depth-brackets-in-strings"):
        assert '"malformed-request"' not in answered[name], (name, answered[name])  # the reader took it
    for name in ("depth-past", "digits-past", "float-past", "nan", "escape-lone-high", "escape-lone-low",
                 "escape-reversed-pair", "escape-surrogate-in-key", "only-ff", "only-fs", "only-ls",
                 "ff-padding", "nbsp-padding", "bom"):
        assert '"malformed-request"' in answered[name], (name, answered[name])
    assert "lone surrogate" in answered["escape-lone-high"]
    # every line but the blank ones has its answer: the only-\x0c, \x1c, \u2028 lines included
    blank = sum(1 for n, _ in EDGES if n in ("blank", "spaces", "only-cr"))
    assert len(out) == len(EDGES) + 3 - blank + 1 and out[-1] == ""


def _padded(total: int, newline: bool = True) -> bytes:
    """A plain legal line of exactly `total` bytes (its newline counted)."""
    body = PLAIN.encode()
    pad = total - len(body) - (1 if newline else 0)
    return body[:-1] + b" " * pad + b"}" + (b"\n" if newline else b"")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_both_paths_agree_at_the_line_size_limit() -> None:
    """A line of MAX_DOCUMENT_BYTES bytes with its newline is read; one byte more is refused
    as too long, by both paths alike (the C path once answered a line Python refused)."""
    limit = reading.MAX_DOCUMENT_BYTES
    good = PLAIN.encode() + b"\n"
    data = _padded(limit) + good + _padded(limit + 1) + good + _padded(limit + 1, newline=False)
    out = _assert_same(data).split(b"\n")
    assert b'"sum": 6' in out[0] and out[1] == out[3] == out[0]
    assert b"line longer than 32 MiB" in out[2] and b"line longer than 32 MiB" in out[4]
    assert len(out) == 6


def _corpus(n: int, seed: int) -> bytes:
    """`n` request lines: legal layouts of both games, plainly spelled or mutated (bytes
    changed, cut, repeated, escaped, padded), with every small limit's edge mixed in."""
    rng = random.Random(seed)
    pool = ['"', "\\", "{", "}", "[", "]", ",", ":", " ", "0", "9", "-", "|", "e", "\x0c", "\u2028", "\x00",
            "é", "\t", "\\u", "\\ud800", "\\u005b", "\\n", "\r", "\x1c", "n", "1" * 19]
    lines: list[bytes] = []
    edges = [line.encode("utf-8") for _, line in EDGES]
    for i in range(n):
        if i % 97 == 0:
            lines.append(edges[(i // 97) % len(edges)])
            continue
        game = GAMES[i % 2]
        records = random_records(rng, game)
        req: dict = {"game": game, "placements": records} if i % 5 else {"placements": records}
        text = json.dumps(req, separators=rng.choice([(", ", ": "), (",", ":")]))
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            if not text:
                break
            op, at = rng.randrange(6), rng.randrange(len(text))
            if op == 0:
                text = text[:at] + rng.choice(pool) + text[at + 1:]
            elif op == 1:
                text = text[:at] + text[rng.randrange(at, len(text) + 1):]
            elif op == 2:
                text = text[:at] + text[at:at + rng.randrange(1, 20)] * 2 + text[at:]
            elif op == 3:
                text = text[:at] + rng.choice(pool) + text[at:]
            elif op == 4:
                text = text.replace('"[', '"\\u005b', 1) if rng.random() < 0.5 else text.replace("|", "-")
            else:
                text = rng.choice([" ", "\t", "\r", "\x0c"]) + text
        raw = text.replace("\n", " ").encode("utf-8", "surrogatepass")
        if i % 211 == 7:
            raw = raw[: len(raw) // 2] + b"\xff" + raw[len(raw) // 2:]
        lines.append(raw)
    return b"\n".join(lines) + b"\n"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_20000_line_mutated_corpus_is_byte_identical_on_both_paths(fast) -> None:
    data = _corpus(20_000, seed=21)
    lines = data.split(b"\n")[:-1]
    assert len(lines) == 20_000
    # the corpus exercises both paths: the C function answers many lines and declines many
    decoded = [x.decode("utf-8", "replace") for x in lines]
    answered = sum(1 for x in decoded if fast(x + "\n", None) is not None)
    assert 3_000 < answered < 17_000, answered
    out = _assert_same(data)
    assert out.count(b"\n") == sum(1 for x in lines if x.strip(b" \t\r\n"))
