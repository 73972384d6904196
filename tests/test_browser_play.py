"""The interactive puzzle page (`fives book --interactive`) in headless Chromium.

Opens the page for puzzles/book-sample.yaml from file://, checks the self-check
(`data-verified` = every puzzle), no console error and no network request, then plays:
one single, one turn and one build puzzle solved by real mouse clicks on the hand and on
the highlighted positions, one step by keyboard, a wrong answer and an illegal click
refused, "show solution", the theme filter and a phone-width screen. Screenshots go to a
temporary folder (printed) that is removed afterwards. Skipped without Chromium.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.evaluation import build_layout, evaluate
from fives.support.paths import ROOT
from fives.puzzles.model import load_set

from test_browser import CHROME, Page, page  # noqa: F401 - `page` is the shared browser fixture

pytestmark = pytest.mark.skipif(CHROME is None, reason="no Chromium on PATH: install Debian's `chromium` package")

SAMPLE = ROOT / "puzzles" / "book-sample.yaml"


@pytest.fixture(scope="module")
def puzzles() -> list[Any]:
    return [pz for _, pz in load_set(SAMPLE)[1]]


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("play") / "p.html"
    result = CliRunner().invoke(main, ["book", str(SAMPLE), "--interactive", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture()
def opened(page: Page, page_file: Path) -> Page:  # noqa: F811
    page.call("Network.enable")
    page.open(page_file.as_uri(), 900, 1000)
    return page


def click(page: Page, selector: str) -> None:
    """A real mouse click at the middle of the first element matching `selector`."""
    box = page.evaluate(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
        if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
    assert box is not None, f"nothing matches {selector}"
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)


def press_enter(page: Page, selector: str) -> None:
    """Focus the element (as Tab would) and press Enter on the keyboard."""
    assert page.evaluate(f"(document.querySelector({json.dumps(selector)}).focus(), "
                         f"document.activeElement === document.querySelector({json.dumps(selector)}))")
    page.call("Input.dispatchKeyEvent", type="keyDown", key="Enter", code="Enter", windowsVirtualKeyCode=13, text="\r")
    page.call("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter", windowsVirtualKeyCode=13)


def card(pid: str) -> str:
    return f'article.puzzle[data-puzzle="{pid}"]'


def play_by_clicks(page: Page, pid: str, steps: list[dict[str, str]]) -> None:
    for rec in steps:
        click(page, f'{card(pid)} .hand-buttons button[data-tile="{rec["tile"]}"]')
        target = f'{card(pid)} .target[data-to="{rec.get("to", "")}"][data-side="{rec.get("side", "")}"]'
        click(page, target)


def state(page: Page, pid: str) -> dict[str, Any]:
    return page.evaluate(f"""(() => {{ const c = document.querySelector({json.dumps(card(pid))});
        return {{result: c.dataset.result || null, status: c.querySelector('.status').textContent,
                 tiles: Number(c.querySelector('.diagram svg') ? c.querySelector('.diagram svg').dataset.tiles : 0),
                 counted: c.querySelectorAll('.diagram .mark-counted').length}}; }})()""")


def first(puzzles: list[Any], kind: str) -> Any:
    return next(p for p in puzzles if p.problem.kind == kind)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_page_verifies_every_puzzle_offline(opened: Page, puzzles: list[Any]) -> None:
    assert opened.errors() == []
    assert opened.evaluate("document.body.dataset.verified") == str(len(puzzles)) == "50"
    assert opened.evaluate("document.querySelectorAll('.warning:not([hidden])').length") == 0
    requests = [e["params"]["request"]["url"] for e in opened.events if e["method"] == "Network.requestWillBeSent"]
    assert all(u.startswith("file://") and u.endswith("/p.html") for u in requests), requests


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("kind", ["single", "turn", "build"])
def test_solve_by_clicking(opened: Page, puzzles: list[Any], kind: str, tmp_path: Path) -> None:
    pz = first(puzzles, kind)
    p = pz.problem
    steps = [s.to_dict() for s in pz.solution]
    play_by_clicks(opened, pz.id, steps)
    got = state(opened, pz.id)
    assert got["result"] == "solved", got
    final = evaluate(p.game, [x.to_dict() for x in p.layout] + steps)
    assert got["tiles"] == len(final["tiles"])
    assert got["counted"] == len(final["contributions"])  # the redrawn counted ends are the engine's
    if kind == "build":
        assert ", ".join(map(str, p.target)) in got["status"]
    else:
        assert f"exactly {p.target} " in got["status"]
    assert opened.errors() == []
    opened.screenshot(tmp_path / f"solved-{kind}.png")
    assert (tmp_path / f"solved-{kind}.png").stat().st_size > 1000


def test_wrong_answer_says_what_it_scored(opened: Page, puzzles: list[Any]) -> None:
    def others(pz: Any) -> list[Any]:
        table, _ = build_layout(pz.problem.rules, [x.to_dict() for x in pz.problem.layout])
        return [m for m in table.legal_placements(pz.problem.tiles) if m != pz.solution[0]]

    pz = next(pz for pz in puzzles if pz.problem.kind == "single" and others(pz))
    p = pz.problem
    other = others(pz)[0]
    play_by_clicks(opened, pz.id, [other.to_dict()])
    scored = p.rules.display(evaluate(p.game, [x.to_dict() for x in p.layout] + [other.to_dict()])["raw"])
    got = state(opened, pz.id)
    assert got["result"] == "wrong"
    assert f"scores {scored} " in got["status"] and f"target is {p.target}" in got["status"]
    click(opened, f"{card(pz.id)} .undo")  # undo takes the tile back
    assert state(opened, pz.id)["result"] is None
    assert state(opened, pz.id)["tiles"] == len(p.layout)


def test_illegal_click_is_refused(opened: Page, puzzles: list[Any]) -> None:
    pz = first(puzzles, "single")
    n = len(pz.problem.layout)
    tile = pz.solution[0].tile
    click(opened, f'{card(pz.id)} .hand-buttons button[data-tile="{tile}"]')
    # a click on a tile of the table (not a highlighted position) places nothing
    click(opened, f"{card(pz.id)} .diagram .tile")
    assert state(opened, pz.id)["tiles"] == n
    # and the page's own placement path refuses what the rules forbid, saying why
    refused = opened.evaluate(f"""window.fivesPlayers.get({json.dumps(pz.id)}).play(
        {{tile: {json.dumps(str(tile))}, to: {json.dumps(str(pz.problem.layout[0].tile))}, side: 'branch-b'}})""")
    assert refused is False
    got = state(opened, pz.id)
    assert got["tiles"] == n and got["status"].startswith("Not legal:")
    assert opened.errors() == []


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_keyboard_and_show_solution(opened: Page, puzzles: list[Any]) -> None:
    pz = first(puzzles, "turn")
    rec = pz.solution[0].to_dict()
    hand = f'{card(pz.id)} .hand-buttons button[data-tile="{rec["tile"]}"]'
    press_enter(opened, hand)
    assert opened.evaluate(f"document.querySelector({json.dumps(hand)}).getAttribute('aria-pressed')") == "true"
    target = f'{card(pz.id)} .target[data-to="{rec["to"]}"][data-side="{rec["side"]}"]'
    press_enter(opened, target)
    assert state(opened, pz.id)["tiles"] == len(pz.problem.layout) + 1
    click(opened, f"{card(pz.id)} .show-solution")
    deadline = time.monotonic() + 20
    while state(opened, pz.id)["result"] != "solved":
        assert time.monotonic() < deadline, state(opened, pz.id)
        time.sleep(0.1)


def test_theme_filter_and_phone_width(page: Page, page_file: Path, puzzles: list[Any]) -> None:  # noqa: F811
    page.open(page_file.as_uri(), 375, 800)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 0.5")
    theme = "branch"
    want = sum(theme in pz.themes for pz in puzzles)
    assert 0 < want < len(puzzles)
    page.evaluate(f"""(() => {{ const f = document.getElementById('theme-filter'); f.value = {json.dumps(theme)};
        return f.dispatchEvent(new Event('change')); }})()""")
    shown = page.evaluate("[...document.querySelectorAll('article.puzzle')].filter(c => !c.hidden).length")
    assert shown == want
    assert page.errors() == []


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_page_prints_like_the_book(page: Page, page_file: Path, puzzles: list[Any]) -> None:  # noqa: F811
    page.open(page_file.as_uri(), 800, 1000)
    page.call("Emulation.setEmulatedMedia", media="print")
    got = page.evaluate("""(() => ({
        controls: getComputedStyle(document.querySelector('.controls')).display,
        solutions: getComputedStyle(document.querySelector('section.solutions')).display,
        cards: document.querySelectorAll('article.card').length,
        tallest: Math.max(...[...document.querySelectorAll('article.card')].map(c => c.getBoundingClientRect().height))}))()""")
    assert got["controls"] == "none" and got["solutions"] == "block"
    assert got["cards"] == 2 * len(puzzles)
    assert got["tallest"] < 267 * 96 / 25.4  # every card fits an A4 page inside the book's margins
    page.call("Emulation.setEmulatedMedia", media="")
    pdf = page.call("Page.printToPDF", printBackground=True, preferCSSPageSize=True)["data"]
    assert len(pdf) > 1000
    assert page.errors() == []


def spoken_buttons(page: Page, puzzle_id: str) -> list[str]:  # noqa: F811
    """The names the accessibility tree gives the hand's buttons of one puzzle card: what a
    screen reader says for each, computed by the browser (aria-label, else the content)."""
    page.call("DOM.enable")
    page.call("Accessibility.enable")
    root = page.call("DOM.getDocument", depth=0)["root"]["nodeId"]
    group = page.call("DOM.querySelector", nodeId=root,
                      selector=f'[data-puzzle="{puzzle_id}"] .hand-buttons')["nodeId"]
    assert group, puzzle_id
    nodes = page.call("Accessibility.queryAXTree", nodeId=group, role="button")["nodes"]
    return [n["name"]["value"] for n in nodes if not n.get("ignored")]


@pytest.mark.parametrize("kind", ["single", "turn", "build"])
def test_hand_buttons_have_spoken_names(opened: Page, puzzles: list[Any], kind: str) -> None:
    pz = first(puzzles, kind)
    names = spoken_buttons(opened, pz.id)
    word = "tile" if kind == "build" else "hand tile"  # a build puzzle's tiles are no hand
    assert names == [f"{word} {t}" for t in pz.problem.tiles]
    assert not any("han tile" in n or "tile tile" in n for n in names)
