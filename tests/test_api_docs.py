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


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
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


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
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


# -- the guide's coverage, the reference site and the typing promise ----------------------
REFERENCE = ROOT / "docs" / "reference"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_guide_covers_the_whole_public_api() -> None:
    text = DOCS[0].read_text(encoding="utf-8")
    code = "\n".join(c for _, c in blocks(DOCS[0]))
    for needle in ("fives.parse_tile(", "layout.history()", "match.match_end is None", "from fives.record import",
                   "replay(", "from fives.puzzles import api as puzzles", "puzzles.generate(", "puzzles.verify(",
                   "puzzles.solve(", "puzzles.themes("):
        assert needle in code, f"docs/api.md has no runnable example with {needle!r}"
    for needle in ("py.typed", "--fives-engine", "mypy --strict", "mkdocs build --strict", "MissingExtra"):
        assert needle in text, f"docs/api.md does not mention {needle!r}"


@pytest.mark.parametrize("page", sorted([*(ROOT / "docs").glob("*.md"), *REFERENCE.glob("*.md")]),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page: Path) -> None:
    # the site builds links to files outside docs/ (../spec/...) as info only: they are checked here
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)  # code shows links, has none
    for target in LINK.findall(re.sub(r"`[^`\n]*`", "", text)):
        if "://" in target or target.startswith(("#", "mailto:")):
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        assert path.exists(), f"{page.relative_to(ROOT)}: link {target} leads nowhere"


def reference_targets() -> list[str]:
    return [line.split(":::", 1)[1].strip() for p in sorted(REFERENCE.glob("*.md"))
            for line in p.read_text(encoding="utf-8").splitlines() if line.startswith(":::")]


def test_the_reference_covers_the_public_modules() -> None:
    import importlib

    targets = reference_targets()
    for module in ("fives.tiles", "fives.layout", "fives.evaluation", "fives.conformance.cases.suite", "fives.match",
                   "fives.settlement", "fives.record", "fives.puzzles.api", "fives.perft", "fives.draw.svg",
                   "fives.conformance.pytest_plugin"):
        assert module in targets, f"docs/reference/ has no page for {module}"
    for target in targets:  # each names a module, or an object inside one, that exists
        module, _, name = target, "", ""
        while True:
            try:
                obj = importlib.import_module(module)
                break
            except ModuleNotFoundError:
                module, _, last = module.rpartition(".")
                name = f"{last}.{name}" if name else last
        for part in filter(None, name.split(".")):
            obj = getattr(obj, part)
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in REFERENCE.glob("*.md"):
        assert f"reference/{page.name}" in nav, f"mkdocs.yml's nav leaves out {page.name}"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_reference_site_builds_without_a_warning(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings_handlers.python", reason="pip install -e '.[docs]' builds the site")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "WARNING" not in r.stderr, r.stderr[-3000:]
    page = (tmp_path / "site" / "reference" / "puzzles" / "index.html").read_text(encoding="utf-8")
    for name in ("fives.puzzles.api.generate", "fives.puzzles.api.Puzzle", "fives.puzzles.api.Solved"):
        assert f'id="{name}"' in page, f"the puzzles page does not document {name}"
    layouts = (tmp_path / "site" / "reference" / "layouts" / "index.html").read_text(encoding="utf-8")
    assert 'id="fives.layout.Layout.history"' in layouts and 'id="fives.layout.Layout.push"' in layouts


def test_py_typed_ships_and_the_strict_lists_agree() -> None:
    import tomllib

    assert (ROOT / "fives" / "py.typed").is_file()
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    assert "graft fives" in manifest and "graft docs" in manifest  # py.typed in the wheel, docs/api.md in the sdist
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True
    files = {module_of(f) for f in mypy["files"] if f.startswith("fives/")}
    assert "tests/typing_user.py" in mypy["files"]  # checks the API as a user's code sees it
    strict = next(o["module"] for o in mypy["overrides"] if o.get("ignore_errors") is False)
    assert files == set(strict), "[tool.mypy] files and the strict module list name different modules"
    assert {"fives", "fives.layout", "fives.puzzles.api", "fives.suite", "fives.draw.svg"} <= files


def module_of(path: str) -> str:
    parts = Path(path).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
