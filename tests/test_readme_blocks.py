"""Every shell block of README.md, and of the docs pages its reference sections moved to, runs
as written, in document order (README.md, then PAGES in order), from one empty folder.

The blocks are the fenced ```sh blocks and the indented (four-space) blocks. They run with
`bash -e -o pipefail`, one after another in the same fresh folder (a later block may use a
file an earlier one wrote, as a reader following the README would), with no FIVES_ROOT and a
fresh cache, against the `fives` found in `FIVES_README_BIN` (`.ci/run` points it at a venv
holding the installed wheel, outside the checkout) or else the one beside this interpreter.

Not run, and reported as skipped with the reason the README itself shows:
- a block whose first line is `# not run by tests/test_readme_blocks.py: REASON` (a third-party
  engine, a Dask cluster of your own);
- the two install commands at the top: `.ci/run` runs the second one verbatim (checked here)
  and installs the wheel for the first; of the first, the test runs what follows the install
  (`fives conformance run`).
A block that needs `node` is skipped when Node is missing. docs/engine-authors.md has its own
test, tests/test_engine_authors.py, which runs its blocks the same way in a folder of its own. The blocks take minutes, so they run
only with FIVES_README_BIN set (as .ci/run does, after the wheel install) or FIVES_README=1
(against the `fives` beside this interpreter); otherwise they are skipped, saying so.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: the pages the README's reference sections moved to (issue 28), in the order their blocks run:
#: a later page may use a file an earlier one wrote (docs/puzzles.md draws the layout.yaml and
#: m.jsonl that docs/layouts.md writes)
PAGES = [ROOT / "docs" / name for name in ("install.md", "layouts.md", "conformance.md", "rules-maintainers.md",
                                           "puzzles.md")]
#: every section the README had before issue 28, and the page that holds it now
MOVED = {"Bundled samples from any folder: `fives data`": "install.md", "What is here": "rules-maintainers.md",
         "Evaluate a layout": "layouts.md", "Test your own engine": "conformance.md",
         "Inside your own pytest run: the plugin": "conformance.md",
         "Choosing cases; loading the suite": "conformance.md",
         "Reports: why a case fails, several engines side by side": "conformance.md",
         "From a failure to its smallest case: fuzzing and perft bisection": "conformance.md",
         "Engines in other languages": "conformance.md",
         "Self-play, game records and score records": "layouts.md", "Puzzles": "puzzles.md",
         "Pictures: layouts, puzzle books, score records": "puzzles.md",
         "Perft: check your placement generator and counting": "layouts.md",
         "Mutant engines: is the suite strong enough?": "rules-maintainers.md",
         "Coverage of the rules": "rules-maintainers.md", "Golden suites": "rules-maintainers.md",
         "Benchmarks": "design.md", "Exit codes": "errors-and-limits.md",
         "Limits: what a small hostile input may cost": "errors-and-limits.md",
         "Installing: extras, distributions, where the data lives": "install.md", "Design": "design.md"}
SKIP_MARK = "# not run by tests/test_readme_blocks.py:"
FENCE = re.compile(r"^```\s*(\w*)\s*$")
SHELL_LANGS = {"sh", "bash", "shell"}

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the block's first command in its document
    text: str
    doc: str = "README.md"  # the document, relative to the checkout

    @property
    def skip_reason(self) -> str | None:
        first = self.text.lstrip().splitlines()[0]
        return first[len(SKIP_MARK):].strip() if first.startswith(SKIP_MARK) else None


def shell_blocks(text: str, doc: str = "README.md") -> list[Block]:
    """The fenced sh/bash blocks and the indented code blocks of a Markdown text, in order."""
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    previous_blank = True
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            if m[1] in SHELL_LANGS:
                blocks.append(Block(i + 2, "\n".join(lines[i + 1:end]) + "\n", doc))
            i, previous_blank = end + 1, False
            continue
        if previous_blank and lines[i].startswith("    ") and lines[i].strip():
            start = i
            body: list[str] = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            blocks.append(Block(start + 1, "\n".join(body) + "\n", doc))
            previous_blank = True
            continue
        previous_blank = not lines[i].strip()
        i += 1
    return blocks


BLOCKS = shell_blocks(README.read_text(encoding="utf-8"))
INSTALL_RUN, INSTALL_TEST = BLOCKS[0], BLOCKS[1]
#: the blocks after the install commands, README's then each page's, in the order they run
RUN = BLOCKS[2:] + [b for page in PAGES
                    for b in shell_blocks(page.read_text(encoding="utf-8"), page.relative_to(ROOT).as_posix())]


def fives_bin() -> Path:
    where = os.environ.get("FIVES_README_BIN")
    return Path(where) if where else Path(sys.executable).parent


def needs_installed_wheel() -> None:
    """The blocks take minutes: they run once, in .ci/run, against the installed wheel. A
    developer runs them with FIVES_README=1 (the `fives` beside this interpreter)."""
    if not (os.environ.get("FIVES_README_BIN") or os.environ.get("FIVES_README")):
        pytest.skip("README blocks run in .ci/run against the installed wheel (FIVES_README_BIN); "
                    "FIVES_README=1 runs them here")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("readme-user")


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    needs_installed_wheel()
    bin_dir = fives_bin()
    assert (bin_dir / "fives").is_file(), f"no fives in {bin_dir}"
    out = {k: v for k, v in os.environ.items() if k not in ("FIVES_ROOT", "FIVES_NO_CACHE")}
    out["PATH"] = f"{bin_dir}{os.pathsep}{out.get('PATH', '')}"
    out["FIVES_CACHE_DIR"] = str(tmp_path_factory.mktemp("readme-cache"))
    return out


#: a block whose first line is `# exits N: WHY` ends with a command that exits N on purpose (as in
#: tests/test_engine_authors.py); under `bash -e` the block then exits N
EXITS = re.compile(r"^# exits (\d+): \S")


def run_block(script: str, cwd: Path, env: dict[str, str], line: int, doc: str = "README.md") -> None:
    r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=900, stdin=subprocess.DEVNULL)
    shown = EXITS.match(script)
    assert r.returncode == (int(shown[1]) if shown else 0), (f"{doc} line {line}: exit {r.returncode}\n{script}\n"
                               f"--- stdout (tail)\n{r.stdout[-2000:]}\n--- stderr (tail)\n{r.stderr[-2000:]}")


def test_the_readme_has_its_two_install_commands_first() -> None:
    assert INSTALL_RUN.text.count("\n") == 1 and "pip install . &&" in INSTALL_RUN.text
    assert INSTALL_RUN.text.rstrip().endswith("&& fives conformance run")
    assert INSTALL_TEST.text.count("\n") == 1 and "pip install -e '.[test]'" in INSTALL_TEST.text
    # .ci/run runs the README's test command itself, verbatim
    assert INSTALL_TEST.text.strip() in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert not [(b.doc, b.line) for b in RUN if "pip install" in b.text and b.skip_reason is None]


def test_every_skipped_block_says_why() -> None:
    for b in [*BLOCKS, *RUN]:
        if b.skip_reason is not None:
            assert len(b.skip_reason) > 10, (b.doc, b.line)
    # the markers stay few: most blocks run
    assert sum(b.skip_reason is not None for b in RUN) <= 8


def test_the_readme_is_a_short_front_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    headings = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    for path in ("Engine authors", "Puzzle makers", "Rules maintainers"):  # the three users' paths
        [heading] = [h for h in headings if h.startswith(path)]
        section = text.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
        assert "```sh" in section and "](docs/" in section, heading
    assert len(RUN) >= 22  # the 18 blocks the README had before issue 28, each on its page, and 4 new ones


def test_every_section_the_readme_had_landed_somewhere() -> None:
    for heading, page in MOVED.items():
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert f"## {heading}\n" in text, f"docs/{page} lost the section {heading!r}"
    assert not [p for p in PAGES if f"docs/{p.name}" not in README.read_text(encoding="utf-8")]


def test_the_first_command_runs_the_suite(folder: Path, env: dict[str, str]) -> None:
    command = INSTALL_RUN.text.strip().rsplit("&&", 1)[1].strip()
    assert command == "fives conformance run"
    run_block(command, folder, env, INSTALL_RUN.line)


@pytest.mark.parametrize("block", RUN, ids=[f"{b.doc}:line{b.line}" for b in RUN])
def test_readme_block(block: Block, folder: Path, env: dict[str, str]) -> None:
    if block.skip_reason is not None:
        pytest.skip(f"{block.doc} line {block.line}: {block.skip_reason}")
    if re.search(r"\bnode\b", block.text) and shutil.which("node", path=env["PATH"]) is None:
        pytest.skip(f"{block.doc} line {block.line}: needs Node (node is not installed)")
    run_block(block.text, folder, env, block.line, block.doc)


def test_the_parser_finds_fenced_and_indented_blocks() -> None:
    text = "intro\n\n```sh\nfives a\n```\n\ntext\n\n    fives b\n    fives c\n\nmore\n\n```python\nx = 1\n```\n"
    assert [(b.line, b.text) for b in shell_blocks(text)] == [(4, "fives a\n"), (9, "fives b\nfives c\n")]
    assert {b.doc for b in shell_blocks(text, "docs/x.md")} == {"docs/x.md"}
