"""The committed reading of the mutants the conformance suite lets live
(benchmarks/mutation/survivors/, issue 26): well formed, one line a mutant, and naming
functions that still exist, so a rename cannot leave the files describing code that is gone."""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SURVIVORS = ROOT / "benchmarks" / "mutation" / "survivors"


def _bench():
    spec = importlib.util.spec_from_file_location("fives_mutation_bench", ROOT / "benchmarks" / "mutation.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _functions(module: str) -> set[str]:
    """mutmut's names for the functions and methods of `module`: x_f, xǁClassǁmethod."""
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.add(f"x_{node.name}")
        elif isinstance(node, ast.ClassDef):
            out |= {f"xǁ{node.name}ǁ{f.name}" for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return out


def test_every_line_is_a_classified_mutant_of_an_existing_function():
    classes = _bench().read_classes(SURVIVORS)  # raises on a malformed line or a name listed twice
    assert classes, "no survivors files"
    core = {p.removesuffix(".py").replace("/", ".") for p in _bench().CORE}
    for name, (klass, reason) in classes.items():
        module, _, rest = name.rpartition(".")
        assert module in core, name
        assert rest.split("__mutmut_")[0] in _functions(module), f"{name}: no such function in {module}"
        assert klass in ("equivalent", "outside", "hole") and len(reason) >= 10, name


def test_each_file_holds_its_own_module_sorted():
    for path in sorted(SURVIVORS.glob("*.txt")):
        names = [ln.split()[0] for ln in path.read_text(encoding="utf-8").splitlines()
                 if ln.strip() and not ln.startswith("#")]
        assert all(n.startswith(path.stem + ".") for n in names), path.name
        assert names == sorted(names), f"{path.name}: not sorted"


@pytest.mark.parametrize("line, error", [
    ("fives.settlement.x_f__mutmut_1 equivalent", "expected `name class reason`"),
    ("fives.settlement.x_f__mutmut_1 harmless because", "expected `name class reason`"),
    ("settle equivalent no mutant name here", "expected `name class reason`"),
])
def test_a_malformed_line_is_refused_with_its_place(tmp_path, line, error):
    (tmp_path / "fives.settlement.txt").write_text("# comment\n" + line + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"fives\.settlement\.txt:2: " + error.replace("`", ".")):
        _bench().read_classes(tmp_path)


def test_a_mutant_listed_twice_is_refused(tmp_path):
    line = "fives.settlement.x_f__mutmut_1 equivalent the value is overwritten before use\n"
    (tmp_path / "fives.settlement.txt").write_text(line + line, encoding="utf-8")
    with pytest.raises(SystemExit, match="listed twice"):
        _bench().read_classes(tmp_path)


def test_the_table_splits_survivors_by_class_and_scores_without_the_harmless():
    bench = _bench()
    found = {"fives.tally.x_a__mutmut_1": "killed", "fives.tally.x_a__mutmut_2": "survived",
             "fives.tally.x_a__mutmut_3": "survived", "fives.tally.x_a__mutmut_4": "no tests",
             "fives.tally.x_a__mutmut_5": "survived", "fives.tally.x_a__mutmut_6": "killed"}
    classes = {"fives.tally.x_a__mutmut_2": ("equivalent", "r"), "fives.tally.x_a__mutmut_4": ("outside", "r"),
               "fives.tally.x_a__mutmut_5": ("hole", "r"), "fives.tally.x_a__mutmut_6": ("hole", "r")}
    split, stale = bench.classified(bench.table(found), found, classes)
    assert split == [{"module": "fives.tally", "mutants": 6, "killed": 2, "equivalent": 1, "outside": 1,
                      "hole": 1, "unread": 1, "score": 0.5, "outside share": "16.7%"}]
    assert stale == ["fives.tally.x_a__mutmut_6"]
