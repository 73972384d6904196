"""`fives book`: one card per puzzle, solutions at the back, self-contained, deterministic."""
from __future__ import annotations

from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from fives.support import paths
from fives.draw.book import describe, from_puzzles, render_book
from fives.cli import main
from fives.puzzles.model import Puzzle, dumps, load_set

SAMPLE = paths.ROOT / "puzzles" / "book-sample.yaml"


@lru_cache(maxsize=1)
def book_set_file() -> Path:
    """The committed 50-puzzle sample when it exists, else a small generated set (cached on disk)."""
    if SAMPLE.is_file():
        return SAMPLE
    import tempfile

    from fives.puzzles.generate import generate_set

    out = Path(tempfile.mkdtemp(prefix="fives-book-")) / "set.yaml"
    out.write_text(dumps(generate_set(["american-sniff", "horse-race"], None, 8, 2024, None).to_dict()), encoding="utf-8")
    return out


@lru_cache(maxsize=1)
def _loaded() -> tuple[Puzzle, ...]:
    _, entries, _ = load_set(book_set_file())
    return tuple(pz for _, pz in entries)


def book_puzzles() -> list[Puzzle]:
    return list(_loaded())


@lru_cache(maxsize=1)
def book_html() -> str:
    return render_book(from_puzzles(book_puzzles()))


class Cards(HTMLParser):
    """Collects each article's kind, puzzle id and the tiles drawn in it (layout and hand)."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[dict[str, Any]] = []
        self.tags: set[str] = set()
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        for key in ("src", "href"):
            if a.get(key):
                self.external.append(f"{tag} {key}={a[key]}")
        cls = (a.get("class") or "").split()
        if tag == "article":
            self.cards.append({"kind": cls[1], "id": a.get("data-puzzle"), "tiles": [], "hand": [], "new": [],
                               "counted": 0, "grade": None})
        elif self.cards and "tile" in cls:
            self.cards[-1]["tiles"].append(a["data-tile"])
            if a.get("data-new"):
                self.cards[-1]["new"].append(a["data-tile"])
        elif self.cards and "hand-tile" in cls:
            self.cards[-1]["hand"].append(a["data-tile"])
        elif self.cards and "mark-counted" in cls:
            self.cards[-1]["counted"] += 1
        elif self.cards and "difficulty" in cls:
            self.cards[-1]["grade"] = int(a["data-grade"])


def parse_book(html: str) -> Cards:
    p = Cards()
    p.feed(html)
    return p


def test_book_cards_and_solutions() -> None:
    puzzles = book_puzzles()
    html = book_html()
    book = parse_book(html)
    cards = [c for c in book.cards if c["kind"] == "puzzle"]
    solutions = [c for c in book.cards if c["kind"] == "solution"]
    assert [c["id"] for c in cards] == [p.id for p in puzzles] == [c["id"] for c in solutions]
    assert book.cards == cards + solutions  # every solution after every puzzle
    for pz, card, sol in zip(puzzles, cards, solutions):
        table = [str(p.tile) for p in pz.problem.layout]
        assert sorted(card["tiles"]) == sorted(table)
        assert card["hand"] == [str(t) for t in pz.problem.tiles]
        assert card["grade"] == pz.difficulty.grade
        assert sorted(sol["tiles"]) == sorted(table + [str(p.tile) for p in pz.solution])
        assert sorted(sol["new"]) == sorted(str(p.tile) for p in pz.solution)
    # the card's text: the target, the difficulty label and each solution step
    for pz in puzzles:
        target = pz.problem.target
        shown = " \u2192 ".join(map(str, target)) if isinstance(target, tuple) else str(target)
        assert f"Target: {shown}" in html
        assert pz.difficulty.label in html
        for p in pz.solution:
            assert describe(p) in html


def test_book_is_self_contained_and_printable() -> None:
    html = book_html()
    book = parse_book(html)
    assert book.external == [] and "script" not in book.tags and "link" not in book.tags
    assert "url(" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "break-inside: avoid" in html and "break-before: page" in html and "@page" in html


def test_book_is_deterministic() -> None:
    assert render_book(from_puzzles(book_puzzles())) == book_html()


def test_book_cli(tmp_path) -> None:
    out = tmp_path / "book.html"
    r = CliRunner().invoke(main, ["book", str(book_set_file()), "--out", str(out), "--title", "Test book"])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<title>Test book</title>" in text
    assert text == render_book(from_puzzles(book_puzzles()), "Test book", source=book_set_file().name)


def test_book_bad_input(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: fives-puzzles/1\npuzzles: 3\n")
    r = CliRunner().invoke(main, ["book", str(bad)])
    assert r.exit_code == 2 and "Traceback" not in r.output and str(bad) in r.output
    r = CliRunner().invoke(main, ["book", str(tmp_path / "missing.yaml")])
    assert r.exit_code == 2 and "no such file" in r.output
