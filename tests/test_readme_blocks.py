"""Every shell block of README.md runs as written, in document order, from one empty folder.

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
A block that needs `node` is skipped when Node is missing. The blocks take minutes, so they run
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
SKIP_MARK = "# not run by tests/test_readme_blocks.py:"
FENCE = re.compile(r"^```\s*(\w*)\s*$")
SHELL_LANGS = {"sh", "bash", "shell"}

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the block's first command in README.md
    text: str

    @property
    def skip_reason(self) -> str | None:
        first = self.text.lstrip().splitlines()[0]
        return first[len(SKIP_MARK):].strip() if first.startswith(SKIP_MARK) else None


def shell_blocks(text: str) -> list[Block]:
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
                blocks.append(Block(i + 2, "\n".join(lines[i + 1:end]) + "\n"))
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
            blocks.append(Block(start + 1, "\n".join(body) + "\n"))
            previous_blank = True
            continue
        previous_blank = not lines[i].strip()
        i += 1
    return blocks


BLOCKS = shell_blocks(README.read_text(encoding="utf-8"))
INSTALL_RUN, INSTALL_TEST = BLOCKS[0], BLOCKS[1]


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


def run_block(script: str, cwd: Path, env: dict[str, str], line: int) -> None:
    r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, (f"README.md line {line}: exit {r.returncode}\n{script}\n"
                               f"--- stdout (tail)\n{r.stdout[-2000:]}\n--- stderr (tail)\n{r.stderr[-2000:]}")


def test_the_readme_has_its_two_install_commands_first() -> None:
    assert INSTALL_RUN.text.count("\n") == 1 and "pip install . &&" in INSTALL_RUN.text
    assert INSTALL_RUN.text.rstrip().endswith("&& fives conformance run")
    assert INSTALL_TEST.text.count("\n") == 1 and "pip install -e '.[test]'" in INSTALL_TEST.text
    # .ci/run runs the README's test command itself, verbatim
    assert INSTALL_TEST.text.strip() in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert not [b.line for b in BLOCKS[2:] if "pip install" in b.text and b.skip_reason is None]


def test_every_skipped_block_says_why() -> None:
    for b in BLOCKS:
        if b.skip_reason is not None:
            assert len(b.skip_reason) > 10, b.line
    # the markers stay few: most blocks run
    assert sum(b.skip_reason is not None for b in BLOCKS) <= 8


def test_the_first_command_runs_the_suite(folder: Path, env: dict[str, str]) -> None:
    command = INSTALL_RUN.text.strip().rsplit("&&", 1)[1].strip()
    assert command == "fives conformance run"
    run_block(command, folder, env, INSTALL_RUN.line)


@pytest.mark.parametrize("block", BLOCKS[2:], ids=[f"line{b.line}" for b in BLOCKS[2:]])
def test_readme_block(block: Block, folder: Path, env: dict[str, str]) -> None:
    if block.skip_reason is not None:
        pytest.skip(f"README.md line {block.line}: {block.skip_reason}")
    if re.search(r"\bnode\b", block.text) and shutil.which("node", path=env["PATH"]) is None:
        pytest.skip(f"README.md line {block.line}: needs Node (node is not installed)")
    run_block(block.text, folder, env, block.line)


def test_the_parser_finds_fenced_and_indented_blocks() -> None:
    text = "intro\n\n```sh\nfives a\n```\n\ntext\n\n    fives b\n    fives c\n\nmore\n\n```python\nx = 1\n```\n"
    assert [(b.line, b.text) for b in shell_blocks(text)] == [(4, "fives a\n"), (9, "fives b\nfives c\n")]
