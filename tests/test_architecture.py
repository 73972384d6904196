"""The package's shape (docs/architecture.md), checked on the real import graph.

Every `import` and `from ... import` in `fives/` is read with `ast` (a `TYPE_CHECKING` block
does not count: it never runs), at module level and inside functions alike, and resolved to
the module it loads. Then:

- no import circle anywhere (function-level imports included: a circle that only a late
  import hides is still a circle), bar the one documented exception below;
- imports point one way, cli -> parts -> core -> support: a module never imports a module of
  a higher layer, and the parts (conformance, draw, puzzles) import each other only along
  the declared edges;
- the core never imports drawing or conformance code at module level;
- inside `fives/conformance/`, the folders are layered too: cases -> engines -> runner ->
  mutants -> reports -> fuzz -> diagnose -> sessions -> the pytest plugin, each importing only its own
  layer and those below, and every conformance module belongs to one of them;
- no module passes ~400 lines unless a comment at its top says why.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "fives"

#: the layers, lowest first
SUPPORT, CORE, PARTS, CLI = range(4)
#: the parts, each a folder of fives/ (fives.suite is the conformance part's public face)
PART_OF = {"fives.conformance": "conformance", "fives.draw": "draw", "fives.puzzles": "puzzles",
           "fives.suite": "conformance"}
#: a part may import another part only along these edges (source part, target part)
PART_EDGES = {("draw", "puzzles"),  # the puzzle book draws puzzle sets (and replays their answers)
              ("conformance", "draw")}  # the HTML report draws each failing layout as `fives render` does
#: the one upward import, inside a function: `Layout._repr_svg_` draws the layout for Jupyter,
#: as python-chess's `Board._repr_svg_` imports `chess.svg` (the core still loads without it)
LATE_UPWARD = {("fives.layout", "fives.draw.svg"), ("fives.layout", "fives.draw.geometry")}
#: the layers inside fives/conformance/ (docs/architecture.md), lowest first: each a list of
#: module prefixes under fives.conformance; the package's own __init__ (a docstring only) sits
#: below them all
CONFORMANCE_LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("cases", ("cases", "golden")),  # the case data and the generators that write it
    ("engines", ("engines",)),  # talking to an engine under test
    ("runner", ("runner", "bisect", "stopping")),  # running cases through an engine
    ("mutants", ("mutants",)),  # engines with a planted misreading or variant, checked by the runner
    ("reports", ("reports",)),  # what a run says
    ("fuzz", ("fuzz",)),  # new cases from random play, explained as reports explain failures
    ("diagnose", ("diagnose",)),  # from failures to causes
    ("sessions", ("sessions",)),  # the sessions every door (CLI, plugin, fives.suite, benchmarks) goes through
    ("plugin", ("pytest_plugin",)),  # every case as a pytest item
]
#: module size above which the top of the file must say why
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=1)
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    if module == "fives.cli" or module.startswith("fives.cli.") or module == "fives.__main__":
        return CLI
    if part(module) is not None:
        return PARTS
    if module == "fives.support" or module.startswith("fives.support."):
        return SUPPORT
    return CORE


def part(module: str) -> str | None:
    for prefix, name in PART_OF.items():
        if module == prefix or module.startswith(prefix + "."):
            return name
    return None


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _walk(body: list[ast.stmt], top: bool):
    """(import node, at module level?) for every import, skipping TYPE_CHECKING blocks."""
    for node in body:
        if _is_type_checking(node):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, top
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.ExceptHandler)):
                nested_top = top and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                stmts = [s for h in inner for s in (h.body if isinstance(h, ast.ExceptHandler) else [h])]
                yield from _walk(stmts, nested_top)


@lru_cache(maxsize=1)
def edges() -> dict[tuple[str, str], bool]:
    """(importer, imported) -> True when some such import is at module level."""
    known = modules()
    out: dict[tuple[str, str], bool] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, top in _walk(ast.parse(path.read_text(encoding="utf-8")).body, True):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    targets.append(sub if sub in known else base)
            for t in targets:
                if t in known and t != name and t != "fives":  # `fives` itself: only __version__ (below)
                    out[(name, t)] = out.get((name, t), False) or top
    return out


def test_the_graph_is_read() -> None:
    # a broken reader would pass every test below on an empty graph
    assert len(modules()) > 80
    assert edges()[("fives.layout", "fives.tiles")] is True
    assert ("fives.cli.conformance", "fives.conformance.runner") in edges()


def test_no_import_circle() -> None:
    graph: dict[str, set[str]] = {}
    for (a, b) in edges():
        if (a, b) not in LATE_UPWARD:
            graph.setdefault(a, set()).add(b)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            circle = visit(node)
            assert circle is None, "import circle: " + " -> ".join(circle)


def test_imports_point_one_way() -> None:
    wrong = []
    for (a, b), top in sorted(edges().items()):
        if (a, b) in LATE_UPWARD and not top:
            continue
        if layer(b) > layer(a):
            wrong.append(f"{a} -> {b} (a lower layer imports a higher one)")
        elif layer(a) == layer(b) == PARTS and part(a) != part(b) and (part(a), part(b)) not in PART_EDGES:
            wrong.append(f"{a} -> {b} (part {part(a)} may not import part {part(b)})")
    assert not wrong, "\n".join(wrong)


def conformance_layer(module: str) -> int | None:
    """The inner layer of a fives.conformance module (-1: the package itself), None outside it."""
    if module == "fives.conformance":
        return -1
    if not module.startswith("fives.conformance."):
        return None
    head = module.split(".")[2]
    for i, (_, prefixes) in enumerate(CONFORMANCE_LAYERS):
        if head in prefixes:
            return i
    raise AssertionError(f"{module} is in no layer of CONFORMANCE_LAYERS (docs/architecture.md)")


def test_every_conformance_module_has_a_layer() -> None:
    placed = [m for m in modules() if conformance_layer(m) is not None]
    assert len(placed) > 60
    assert conformance_layer("fives.conformance.cases.fixtures") < conformance_layer("fives.conformance.runner")


def test_conformance_layers_point_one_way() -> None:
    wrong = []
    names = ["the package"] + [n for n, _ in CONFORMANCE_LAYERS]
    for (a, b) in sorted(edges()):
        la, lb = conformance_layer(a), conformance_layer(b)
        if la is not None and lb is not None and lb > la:
            wrong.append(f"{a} ({names[la + 1]}) -> {b} ({names[lb + 1]}): a lower layer imports a higher one")
    assert not wrong, "\n".join(wrong)


def test_conformance_top_stays_small() -> None:
    loose = [p.name for p in (PACKAGE / "conformance").glob("*.py")]
    assert len(loose) <= 10, f"fives/conformance/ has {len(loose)} loose modules: {sorted(loose)}"


def test_core_loads_no_drawing_or_conformance_code() -> None:
    for (a, b), top in edges().items():
        if layer(a) == CORE and top:
            assert part(b) not in {"draw", "conformance"}, f"{a} imports {b} at module level"


def test_the_package_root_only_lends_its_version() -> None:
    # `fives/__init__.py` loads its names lazily; a module inside the package that took one from
    # it would hide an upward import behind the root
    for name, path in modules().items():
        for node, _ in _walk(ast.parse(path.read_text(encoding="utf-8")).body, True):
            if isinstance(node, ast.ImportFrom) and node.module == "fives" and not node.level:
                taken = {a.name for a in node.names}
                # __version__, or the compiled accelerator (a module with no .py file)
                assert taken <= {"__version__", "_accel"}, f"{name}: from fives import {', '.join(sorted(taken))}"


@pytest.mark.parametrize("name", sorted(modules()))
def test_module_size(name: str) -> None:
    lines = modules()[name].read_text(encoding="utf-8").splitlines()
    if len(lines) > MAX_LINES + 20:  # "~400": a few lines over is still ~400
        head = "\n".join(lines[:3])
        assert "lines:" in head, f"{name}: {len(lines)} lines and no `lines:` comment at its top saying why"


#: a command is options -> session -> print -> exit code (issue 36): no function of fives/cli/ is longer
CLI_FUNCTION_LINES = 40


def test_cli_functions_are_thin() -> None:
    long = []
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1  # from `def`: decorators aside
                if length > CLI_FUNCTION_LINES:
                    long.append(f"fives/cli/{path.name}:{node.lineno} {node.name}: {length} lines")
    assert not long, "\n".join(long)

def test_architecture_page_matches_the_tree() -> None:
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file())
    for folder in folders:
        assert f"fives/{folder}/" in page, f"docs/architecture.md does not describe fives/{folder}/"
    for name, path in modules().items():
        if layer(name) == CORE and name.count(".") == 1 and path.name != "__init__.py":
            assert f"`{path.name}`" in page, f"docs/architecture.md does not name the core module {path.name}"
