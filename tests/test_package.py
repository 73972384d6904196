"""The package as a user gets it: data found without a checkout, `python -m fives`, the lazy
command table, what `import fives` loads, the progress bar.

Building and installing the wheel itself is done by `.ci/run` (it needs an isolated build).
"""
from __future__ import annotations

import ast
import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import fives
from fives.support import paths
from fives.cli import COMMANDS, command_modules, main
from fives.support.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = '- {tile: "[1|4]"}\n- {tile: "[1|1]", to: "[1|4]", side: low}\n- {tile: "[4|4]", to: "[1|4]", side: high}\n'


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


# -- the command table ------------------------------------------------------------------------

def test_command_table_matches_the_modules() -> None:
    """Every command a module registers is in COMMANDS with that module and its short help."""
    real: dict[str, tuple[str, str]] = {}
    for name in command_modules():
        register = getattr(importlib.import_module(f"fives.cli.{name}"), "register", None)
        if register is None:  # a helper module, not a command
            continue
        group = click.Group()
        register(group)
        for cmd_name, cmd in group.commands.items():
            real[cmd_name] = (name, cmd.get_short_help_str(limit=10_000))
    assert real == COMMANDS


def test_help_lists_every_command_without_loading_them(tmp_path: Path) -> None:
    probe = ("import sys, runpy\nsys.argv = ['fives', '--help']\n"
             "try:\n    runpy.run_module('fives', run_name='__main__')\nexcept SystemExit as e:\n    assert not e.code\n"
             "print(' '.join(sorted(m for m in sys.modules if m.startswith(('fives.', 'jsonschema', 'yaml')))))")
    r = run(["-c", probe], tmp_path)
    assert r.returncode == 0, r.stderr
    *help_lines, loaded = r.stdout.strip().splitlines()
    listed = [line.split()[0] for line in help_lines[help_lines.index("Commands:") + 1:]]
    assert listed == sorted(COMMANDS)
    assert set(loaded.split()) <= {"fives.__main__", "fives.cli", "fives.support", "fives.support.errors"}


def test_python_dash_m_fives_runs_the_cli(tmp_path: Path) -> None:
    (tmp_path / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    r = run(["-m", "fives", "evaluate", "--game", "horse-race", "layout.yaml"], tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert (out["sum"], out["display"], out["scores"]) == (10, 2, [5, 0, 10])
    r = run(["-m", "fives", "--version"], tmp_path)
    assert r.stdout.strip() == f"fives, version {fives.__version__}"
    r = run(["-m", "fives", "evaluate", "--game", "no-such-game", "layout.yaml"], tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("fives: error: unknown game") and "Traceback" not in r.stderr


def test_unknown_command_is_a_usage_error() -> None:
    r = CliRunner().invoke(main, ["evaluat"])
    assert r.exit_code == 2 and r.output.startswith("fives: error: no such command 'evaluat' (did you mean evaluate?)")
    assert len(r.output.splitlines()) == 1


def test_every_public_name_resolves() -> None:
    for name in fives.__all__:
        assert getattr(fives, name) is not None, name
    assert set(fives.__all__) <= set(dir(fives))
    assert fives.match.Match.__name__ == "Match" and fives.suite.load_suite is not None


def test_fives_evaluate_is_the_function_and_its_module_has_another_name(tmp_path: Path) -> None:
    # one name, one meaning: the module is fives.evaluation, so importing it (as the CLI does)
    # leaves fives.evaluate the function, with no class swap on the package
    code = ("import fives, fives.evaluation, fives.cli.evaluate\n"
            "assert type(fives) is type(fives.evaluation), 'the package is a plain module'\n"
            "from fives.evaluation import build_layout\n"
            "r = fives.evaluate('horse-race', [{'tile': '[1|4]'}])\n"
            "print(callable(build_layout), r['sum'], r['scores'])")
    r = run(["-c", code], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "5", "[5]"]


# -- start-up: what gets imported --------------------------------------------------------------

HEAVY = ("jsonschema", "fastjsonschema", "z3", "click", "xml", "urllib.request", "http", "fives.conformance.reports.formats",
         "fives.conformance.engines.drivers", "fives.conformance.runner", "fives.draw.svg")


def loaded_after(code: str, cwd: Path, env: dict[str, str] | None = None) -> set[str]:
    r = run(["-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"], cwd, env)
    assert r.returncode == 0, r.stderr
    return set(r.stdout.strip().splitlines()[-1].split())


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_import_fives_loads_no_heavy_module(tmp_path: Path) -> None:
    assert heavy(loaded_after("import fives", tmp_path)) == []
    # the core itself, once used (and its game file known valid), still needs none of them
    env = {"FIVES_CACHE_DIR": str(tmp_path / "cache")}
    use = "import fives; fives.Layout('horse-race').push('[1|4]')"
    loaded_after(use, tmp_path, env)
    assert heavy(loaded_after(use, tmp_path, env)) == []


def test_evaluate_command_skips_jsonschema_once_the_game_file_is_known_valid(tmp_path: Path) -> None:
    (tmp_path / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    code = ("import sys, runpy\nsys.argv = ['fives', 'evaluate', '--game', 'horse-race', 'layout.yaml']\n"
            "try:\n    runpy.run_module('fives', run_name='__main__')\nexcept SystemExit as e:\n    assert not e.code\n")
    env = {"FIVES_CACHE_DIR": str(tmp_path / "cache")}
    first = loaded_after(code, tmp_path, env)
    assert "jsonschema" in first  # a cold cache validates the game file
    assert list((tmp_path / "cache" / "valid").iterdir())
    second = loaded_after(code, tmp_path, env)
    assert {m.split(".")[0] for m in heavy(second)} == {"click"}, heavy(second)
    # the command's own module and the one small shared option (--rules, fives/cli/_rules_option.py)
    assert not [m for m in second if m.startswith("fives.cli.") and m not in ("fives.cli.evaluate", "fives.cli._rules_option")]


def test_an_edited_game_file_is_validated_again(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(ROOT / "spec", root / "spec")
    env = {"FIVES_ROOT": str(root), "FIVES_CACHE_DIR": str(tmp_path / "cache")}
    r = run(["-c", "import fives; fives.load_rules('horse-race')"], tmp_path, env)
    assert r.returncode == 0, r.stderr
    game = root / "spec" / "games" / "horse-race.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("display_divisor: 5", "display_divisor: five"),
                    encoding="utf-8")
    r = run(["-m", "fives", "evaluate", "--game", "horse-race", "-"], tmp_path, env)
    assert r.returncode == 2 and "horse-race.yaml" in r.stderr and "display_divisor" in r.stderr, r.stderr


def test_schema_memo_trusts_only_the_exact_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fives.support import schema_memo

    monkeypatch.setenv("FIVES_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FIVES_NO_CACHE", raising=False)
    assert not schema_memo.known_valid(b"{}", b"a: 1")
    schema_memo.remember_valid(b"{}", b"a: 1")
    assert schema_memo.known_valid(b"{}", b"a: 1")
    assert not schema_memo.known_valid(b"{}", b"a: 2")
    assert not schema_memo.known_valid(b"{ }", b"a: 1")
    (entry,) = (tmp_path / "valid").iterdir()
    entry.write_bytes(entry.read_bytes()[:-1] + b"2")  # same name, other bytes: not trusted
    assert not schema_memo.known_valid(b"{}", b"a: 1")
    monkeypatch.setenv("FIVES_NO_CACHE", "1")
    schema_memo.remember_valid(b"{}", b"b: 1")
    assert not schema_memo.known_valid(b"{}", b"b: 1")


# -- where the data comes from ----------------------------------------------------------------

def test_public_paths_exist() -> None:
    for name in ("ROOT", "SPEC", "GAMES", "SPEC_SCHEMAS", "CONFORMANCE", "FIXTURES", "CONFORMANCE_SCHEMAS",
                 "SEEDS", "PUZZLES", "GOLDEN", "PERFT"):
        assert getattr(paths, name).is_dir(), name
    assert sorted(p.name for p in paths.GAMES.glob("*.yaml")) == ["american-sniff.yaml", "horse-race.yaml"]


def test_fives_root_points_at_another_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIVES_ROOT", str(tmp_path))
    assert paths.GAMES == tmp_path / "spec" / "games"
    assert paths.FIXTURES == tmp_path / "conformance" / "fixtures"


def test_the_build_ships_every_data_folder() -> None:
    """setup.py copies, and MANIFEST.in puts in the sdist, the folders paths.py reads."""
    setup = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    trees = next(ast.literal_eval(node.value) for node in setup.body if isinstance(node, ast.Assign)
                 and getattr(node.targets[0], "id", "") == "DATA_TREES")
    assert trees == paths.DATA_TREES
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    for tree in paths.DATA_TREES:
        assert f"graft {tree}" in manifest
    layout_names = {parts[0] for parts in paths._LAYOUT.values() if parts}
    assert layout_names <= set(paths.DATA_TREES)


def make_zip(dest: Path) -> Path:
    """The package as a zipped import: the modules and their `_data`, as the wheel lays them out."""
    archive = dest / "fives.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for f in sorted((ROOT / "fives").rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                z.write(f, f.relative_to(ROOT).as_posix())
        for tree in paths.DATA_TREES:
            for f in sorted((ROOT / tree).rglob("*")):
                if f.is_file() and "__pycache__" not in f.parts:
                    z.write(f, f"fives/_data/{f.relative_to(ROOT).as_posix()}")
    return archive


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_zipped_import_extracts_the_data_once(tmp_path: Path) -> None:
    archive = make_zip(tmp_path)
    cache = tmp_path / "cache"
    env = {"PYTHONPATH": str(archive), "FIVES_CACHE_DIR": str(cache), "FIVES_ROOT": ""}
    work = tmp_path / "user"
    work.mkdir()
    (work / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    probe = "import fives, fives.support.paths as p; print(fives.__file__); print(p.data_root())"
    r = run(["-c", probe], work, env)
    assert r.returncode == 0, r.stderr
    module_file, data_root = r.stdout.split()
    assert module_file.startswith(str(archive))
    assert Path(data_root).parent == cache and (Path(data_root) / ".complete").is_file()
    r = run(["-m", "fives", "evaluate", "--game", "horse-race", "layout.yaml"], work, env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["sum"] == 10
    r = run(["-m", "fives", "render", "--fixture", "HR-FIG-1-3", "--out", "fig.svg"], work, env)
    assert r.returncode == 0, r.stderr
    assert (work / "fig.svg").read_text(encoding="utf-8").startswith("<svg")
    assert [p.name for p in cache.iterdir() if p.name.startswith("data-")] == [Path(data_root).name]  # one copy


# -- the progress bar ---------------------------------------------------------------------------

class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_silent_when_not_a_terminal() -> None:
    out = io.StringIO()
    with Progress(3, "work", stream=out) as bar:
        for _ in range(3):
            bar.advance()
        bar(3, 3)
    assert out.getvalue() == ""


def test_progress_draws_on_a_terminal_and_erases_itself() -> None:
    out = FakeTerminal()
    with Progress(4, "cases", stream=out) as bar:
        bar.advance(4)  # reaching the total always draws
        assert out.getvalue().endswith("\033[K")
        assert "cases [" + "#" * 30 + "] 4/4" in out.getvalue()
    assert out.getvalue().endswith("\r\033[K")
    callback = FakeTerminal()
    with Progress(None, "perft", stream=callback) as bar:
        bar(2, 2)  # as fives.perft calls it: (tasks done, tasks in all)
        assert "perft [" in callback.getvalue() and "2/2" in callback.getvalue()


def test_one_progress_bar_implementation() -> None:
    """Long commands use fives/support/progress.py; no second bar (click.progressbar, another Progress class)."""
    offenders = [str(f.relative_to(ROOT)) for f in sorted((ROOT / "fives").rglob("*.py"))
                 if f.name != "progress.py" and ("progressbar(" in (text := f.read_text(encoding="utf-8"))
                                                  or "class Progress" in text)]
    assert offenders == []


# -- publishable distributions --------------------------------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_fives_pure_python_builds_without_the_extension(tmp_path: Path) -> None:
    """FIVES_PURE_PYTHON=1 leaves fives/_accel.c out of the build: the wheel is py3-none-any
    (.ci/run builds both wheels and checks their tags with auditwheel)."""
    probe = ("import runpy, setuptools\ngot = {}\nsetuptools.setup = lambda **kw: got.update(kw)\n"
             "runpy.run_path('setup.py')\nprint([e.name for e in got['ext_modules']])")
    plain = run(["-c", probe], ROOT, {"FIVES_PURE_PYTHON": ""})
    pure = run(["-c", probe], ROOT, {"FIVES_PURE_PYTHON": "1"})
    assert plain.returncode == pure.returncode == 0, plain.stderr + pure.stderr
    assert (plain.stdout.strip(), pure.stdout.strip()) == ("['fives._accel']", "[]")
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    assert "global-exclude *.so *.pyd *.dylib" in manifest  # an in-place build never reaches the sdist
