"""Every Python code block of docs/api.md and of the README's API section runs as written.

`>>>` blocks are doctests (outputs compared), run in order in one namespace per document, as
a reader would type them; other `python` blocks are scripts, each run on its own; a block that
imports pytest is a test harness and is run by pytest in a subprocess, which must collect
and pass at least one test.
"""
from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "docs" / "api.md", ROOT / "README.md"]
FENCE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def blocks(path: Path) -> list[tuple[int, str]]:
    """(line number, code) of every ```python block."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in FENCE.finditer(text)]


def script_blocks() -> list[object]:
    return [pytest.param(p, line, code, id=f"{p.name}:{line}")
            for p in DOCS for line, code in blocks(p) if not code.lstrip().startswith(">>>")]


def test_documents_have_examples() -> None:
    api = blocks(DOCS[0])
    assert sum(code.lstrip().startswith(">>>") for _, code in api) >= 6
    assert any("import pytest" in code for _, code in api)
    assert any("fives.match" in code for _, code in api)
    readme = blocks(DOCS[1])
    assert any("fives.Layout" in code for _, code in readme), "README's API section has no Python example"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_doctest_blocks(path: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {"__name__": "__docs__"}
    for line, code in blocks(path):
        if not code.lstrip().startswith(">>>"):
            continue
        test = parser.get_doctest(code, globs, f"{path.name}:{line}", str(path), line - 1)
        result = runner.run(test, clear_globs=False)
        globs = test.globs  # the next block continues in the same namespace
        assert result.failed == 0, f"{path.name}, block at line {line}: {result.failed} example(s) failed (see above)"


@pytest.mark.parametrize("path,line,code", script_blocks())
def test_script_blocks(path: Path, line: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    if "import pytest" in code:
        harness = tmp_path / "test_harness.py"
        harness.write_text(code, encoding="utf-8")
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(harness)],
                           cwd=tmp_path, capture_output=True, text=True, timeout=600)
        # exit 5 is pytest's "no tests collected": a harness that tests nothing fails here
        assert r.returncode == 0, f"{path.name}:{line}: pytest exited {r.returncode}\n{r.stdout[-3000:]}{r.stderr[-2000:]}"
        assert re.search(r"\b[1-9]\d* passed\b", r.stdout), r.stdout[-2000:]
        return
    exec(compile(code, f"{path.name}:{line}", "exec"), {"__name__": "__docs__"})
