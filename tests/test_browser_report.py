"""The HTML report of four engines (the reference and three mutants) in headless Chromium:
no console error, a column per engine, a failing cell that opens on its cases' differences,
and a failure pattern that opens on a failing layout drawn as `fives render` draws it, the
differing tile marked, expected against got beside it. Reuses the DevTools client of
tests/test_browser.py; skipped without Chromium."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_browser import CHROME, Page, page, shots  # noqa: E402,F401  (fixtures reused)

ROOT = Path(__file__).resolve().parents[1]
ENGINES = [f"{sys.executable} -m fives.cli serve",
           f"{sys.executable} -m fives.cli serve --mutant drawn-tile-continues",
           f"{sys.executable} -m fives.cli serve --mutant unused-branches-counted",
           f"{sys.executable} -m fives.cli serve --mutant only-first-double-spins"]
# a few dozen cases each: turns (drawn tiles) and the Horse Race seed figures (counting)
IDS = ["HR-TURN-*", "HR-FIG-*"]

pytestmark = pytest.mark.skipif(CHROME is None, reason="no Chromium on PATH")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "engines.html"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--report", f"html:{out}"]
    for e in ENGINES:
        argv += ["--engine", e]
    for g in IDS:
        argv += ["--id", g]
    for f in ("conformance/fixtures/play", "conformance/fixtures/seed"):  # where those cases live
        argv += ["--fixtures", f]
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr[-2000:]  # the mutants fail
    assert out.is_file()
    return out


CELLS_JS = """(() => {
  const heads = [...document.querySelectorAll('#matrix thead th.engine')].map(t => t.textContent);
  const fail = [...document.querySelectorAll('#matrix td.cell.fail')].map(c => ({
    engine: +c.dataset.engine, clause: c.dataset.clause, failed: +c.dataset.failed}));
  const totals = [...document.querySelectorAll('#totals tbody tr')].map(r => r.dataset.engine);
  const external = [...document.querySelectorAll('[src], link[href], script')].length;
  return {heads, fail, totals, external,
          passColour: getComputedStyle(document.querySelector('#matrix td.cell.pass')).backgroundColor,
          failColour: getComputedStyle(document.querySelector('#matrix td.cell.fail')).backgroundColor};
})()"""

OPEN_JS = """(() => {
  const cell = document.querySelector('#matrix td.cell.fail[data-engine="1"][data-clause="HR-CONT-5"]');
  const details = cell.querySelector('details.cases');
  const before = details.open;
  const firstCase = () => cell.querySelector('.case');
  const shownBefore = firstCase().checkVisibility();
  cell.querySelector('summary').click();
  const box = firstCase().getBoundingClientRect();
  return {before, after: details.open, shownBefore, shownAfter: firstCase().checkVisibility(), height: box.height,
          text: [...cell.querySelectorAll('.diff')].map(d => d.textContent)};
})()"""


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_three_engines_in_browser(page: Page, shots: Path, report: Path) -> None:  # noqa: F811
    page.open(report.as_uri(), 1400, 1000)
    assert page.errors() == []
    info = page.evaluate(CELLS_JS)
    assert info["heads"] == ENGINES
    assert info["totals"] == ["0", "1", "2", "3"]
    assert info["external"] == 0
    assert info["passColour"] != info["failColour"]
    failing = {(c["engine"], c["clause"]) for c in info["fail"]}
    assert not any(e == 0 for e, _ in failing)  # the reference engine fails nothing
    assert (1, "HR-CONT-5") in failing and any(e == 2 and c.startswith("HR-COUNT") for e, c in failing)
    opened = page.evaluate(OPEN_JS)
    assert (opened["before"], opened["after"]) == (False, True)
    assert (opened["shownBefore"], opened["shownAfter"]) == (False, True) and opened["height"] > 0
    assert "results[1].continues: expected false, got true" in opened["text"]
    rows = page.evaluate("""(() => {
      const rows = [...document.querySelectorAll('#matrix tbody tr')];
      const shown = () => rows.filter(r => r.checkVisibility()).length;
      const before = shown();
      document.querySelector('#only-failing').click();
      return {all: rows.length, before, after: shown(), failing: rows.filter(r => !r.classList.contains('clean')).length};
    })()""")
    assert rows["before"] == rows["all"] > rows["after"] == rows["failing"] == len({c for _, c in failing})
    assert page.errors() == []
    page.screenshot(shots / "engines-report.png")
    assert (shots / "engines-report.png").stat().st_size > 1000


LAYOUT_JS = """(() => {
  const cell = [...document.querySelectorAll('#patterns td.cell.fail[data-engine="2"]')]
    .find(c => c.querySelector('figure.layout'));
  const details = cell.querySelector('details.cases');
  const before = details.open;
  cell.querySelector('summary').click();
  const fig = cell.querySelector('figure.layout');
  const svg = fig.querySelector('svg.fives-layout');
  const box = svg.getBoundingClientRect();
  const vs = cell.querySelector('table.vs');
  const marked = [...document.querySelectorAll('#patterns figure.layout')].map(f => f.dataset.marked).filter(m => m);
  return {before, after: details.open, shown: svg.checkVisibility(), width: box.width, height: box.height,
          tiles: +svg.dataset.tiles, drawnTiles: svg.querySelectorAll('.tiles > *').length,
          vsRows: vs.querySelectorAll('tbody tr').length, vsShown: vs.checkVisibility(),
          vsHead: [...vs.querySelectorAll('thead th')].map(t => t.textContent), marked,
          referenceFails: document.querySelectorAll('#patterns td.cell.fail[data-engine="0"]').length};
})()"""


def test_a_failing_layout_is_drawn_in_the_report(page: Page, shots: Path, report: Path) -> None:  # noqa: F811
    page.open(report.as_uri(), 1400, 1000)
    info = page.evaluate(LAYOUT_JS)
    assert (info["before"], info["after"]) == (False, True)
    assert info["shown"] and info["width"] > 50 and info["height"] > 30
    assert info["tiles"] >= 1 and info["drawnTiles"] >= info["tiles"]
    assert info["vsShown"] and info["vsRows"] >= 1 and info["vsHead"] == ["path", "expected", "got"]
    assert info["marked"], "no drawn layout marks a tile its differences name"
    assert info["referenceFails"] == 0
    assert page.errors() == []
    page.screenshot(shots / "engines-report-layout.png")
    assert (shots / "engines-report-layout.png").stat().st_size > 1000
