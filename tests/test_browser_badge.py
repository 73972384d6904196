"""The conformance badge (`--report badge:FILE.svg`) in headless Chromium: opened on its own,
it renders with no console error, each text inside its part; shown from a README-like page as
an <img>, it loads at its own size. A passing run's badge and a shipped mutant's failing one
side by side. Reuses the DevTools client of tests/test_browser.py; skipped without Chromium."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_browser import CHROME, Page, page, shots  # noqa: E402,F401  (fixtures reused)

from fives.conformance.golden.generate import SUITE_VERSION  # noqa: E402
from fives.conformance.reports.badge import FEW, MOST, PASS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MUTANT = f"{sys.executable} -m fives.cli serve --mutant drawn-tile-continues"

pytestmark = pytest.mark.skipif(CHROME is None, reason="no Chromium on PATH")


@pytest.fixture(scope="module")
def badges(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("badges")
    for name, engine, code in (("pass", [], 0), ("fail", ["--engine", MUTANT], 1)):
        argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "-q", "--id", "HR-TURN-*", "--id", "SN-TURN-*",
                *engine, "--report", f"badge:{out / (name + '.svg')}"]
        p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert p.returncode == code, p.stderr[-2000:]
    (out / "readme.html").write_text('<!doctype html><title>engine</title><h1>my engine</h1>'
                                     '<p><img id="pass" src="pass.svg" alt="badge"> <img id="fail" src="fail.svg" alt="badge">',
                                     encoding="utf-8")
    return out


SVG_JS = """(() => {
  const svg = document.documentElement;
  const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const part = c => document.querySelector('rect.' + c);
  const text = c => document.querySelector('text.' + c);
  const colour = e => getComputedStyle(e).fill;
  return {tag: svg.tagName, width: +svg.getAttribute('width'), box: box(svg),
          label: [text('label').textContent, box(text('label')), box(part('label'))],
          message: [text('message').textContent, box(text('message')), box(part('message'))],
          fill: part('message').getAttribute('fill'), shown: colour(part('message')),
          passed: +svg.dataset.passed, run: +svg.dataset.run,
          external: document.querySelectorAll('[href], image, script, foreignObject').length};
})()"""

IMG_JS = """(() => [...document.images].map(i => ({id: i.id, complete: i.complete, w: i.naturalWidth, h: i.naturalHeight})))()"""


def inside(inner: list[float], outer: list[float], slack: float = 0.5) -> bool:
    return all(inner[i] >= outer[i] - slack for i in (0, 1)) and all(inner[i] <= outer[i] + slack for i in (2, 3))


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_badges_in_browser(page: Page, shots: Path, badges: Path) -> None:  # noqa: F811
    seen = {}
    for name in ("pass", "fail"):
        page.open((badges / f"{name}.svg").as_uri(), 600, 100)
        assert page.errors() == []
        info = page.evaluate(SVG_JS)
        seen[name] = info
        assert info["tag"] == "svg" and info["external"] == 0
        for part in ("label", "message"):
            _, text_box, rect_box = info[part]
            assert inside(text_box, rect_box), f"{name} {part} text sticks out of its part: {text_box} vs {rect_box}"
            assert text_box[2] - text_box[0] > 20  # drawn, not collapsed
        assert info["message"][0] == f"{info['passed']}/{info['run']} passed, suite {SUITE_VERSION}"
        page.screenshot(shots / f"badge-{name}.png")
    assert seen["pass"]["passed"] == seen["pass"]["run"] > 0 and seen["pass"]["fill"] == PASS
    assert 0 < seen["fail"]["passed"] < seen["fail"]["run"] == seen["pass"]["run"]
    assert seen["fail"]["fill"] in (MOST, FEW) and seen["fail"]["shown"] != seen["pass"]["shown"]
    page.open((badges / "readme.html").as_uri(), 900, 300)
    assert page.errors() == []
    images = page.evaluate(IMG_JS)
    assert [(i["id"], i["complete"], i["h"]) for i in images] == [("pass", True, 20), ("fail", True, 20)]
    assert all(i["w"] == round(seen[i["id"]]["width"]) for i in images)
    page.screenshot(shots / "badge-readme.png")
