"""How much of the rules core the conformance suite pins: mutation testing with mutmut.

    python benchmarks/mutation.py [--module fives/settlement.py ...] [--sample N] [--seed S]
                                  [--jobs 2] [--json FILE] [--expect-killed FILE]

Every mutant mutmut makes of the rules core (settlement, match, layout, moves, rules, tally,
evaluation, profiles; `--module` narrows it) is run against one test only: the default
conformance suite, kind by kind, against the in-process reference on the pure-Python path
with every cache emptied (benchmarks/mutation/test_suite_only.py). The project's unit tests
play no part: the question is what an engine author's run would catch.

mutmut (PyPI, `pip install -e '.[mutation]'`) does the mutating and the bookkeeping: it writes
each function's mutants beside the original behind a switch, forks one process per mutant
from a warmed-up test process, and runs only the kinds whose tests reach the mutated
function. Hand-written, each of those is a project of its own.

The work happens in a temporary copy of the checkout (mutmut writes a `mutants/` folder).
Prints one row per module (mutants, killed, survived, no test reaches it, timeouts, score =
killed / (mutants - no test)); `--json` writes the table and every mutant's status.
The measure (issue 37) is the score over the mutants a request kind can observe,
killed / (mutants - equivalent - outside), per module and in all, with the outside share
beside it for information only: the earlier "outside at most 5%" target is withdrawn (the
outside mutants change error wording, the Python API's text notation, random dealing and
pictures, which no language-neutral case may pin).
`--survivors DIR` (default benchmarks/mutation/survivors/) holds the reading of every mutant
the suite lets live, one file per module, one line each: `name class reason`, class being
`equivalent` (no input tells it apart), `outside` (no request kind can observe it) or `hole` (a
kind could: a case is missing). The table then splits the survivors by class; a survivor the
files do not list is "unread", and a listed mutant that was killed is reported as stale.
`--only FILE` runs just the mutants listed (one a line); with `--base JSON` (an earlier run's
`--json`) the table is that run with their statuses replaced: a hole closed after a full run
is measured without running everything again.
`--prune` drops the lines of mutants now killed from those files.
`--keep DIR` keeps mutmut's working copy there (for benchmarks/mutation_hunt.py).
`--sample N` runs N mutants drawn with `--seed` from the sorted list (the rest are "not
checked"). `--expect-killed FILE` (one mutant name a line, `#` comments) runs just those and
exits 1 if any is not killed: the small fixed sample CI runs, so that a new hole is caught.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ("fives/settlement.py", "fives/match.py", "fives/layout.py", "fives/moves.py", "fives/rules.py",
        "fives/tally.py", "fives/evaluation.py", "fives/profiles.py")
COPIED = ("fives", "spec", "conformance", "seeds", "puzzles", "pyproject.toml")
TEST = "benchmarks/mutation/test_suite_only.py"
CLASSES = ("equivalent", "outside", "hole")
SURVIVORS = ROOT / "benchmarks" / "mutation" / "survivors"
STATUSES = ("killed", "survived", "no tests", "timeout", "suspicious", "skipped", "segfault", "not checked")


def config(modules: list[str]) -> str:
    lines = "\n    ".join(modules)
    return (f"[mutmut]\nsource_paths=fives\nonly_mutate={lines}\n"
            f"pytest_add_cli_args_test_selection={TEST}\npytest_add_cli_args=-p no:cacheprovider -q\n"
            "also_copy=benchmarks/mutation/\n    spec/\n    conformance/\n    seeds/\n    puzzles/\n")


def copy_checkout(work: Path, modules: list[str]) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "_prebuilt", "_data")
    for name in COPIED:
        src = ROOT / name
        (shutil.copytree(src, work / name, ignore=ignore) if src.is_dir() else shutil.copy2(src, work / name))
    shutil.copytree(ROOT / "benchmarks" / "mutation", work / "benchmarks" / "mutation", ignore=ignore)
    (work / "tests").mkdir()  # mutmut copies tests/ when present; the suite is the only test here
    (work / "setup.cfg").write_text(config(modules), encoding="utf-8")


def mutmut(work: Path, *args: str, quiet: bool = True) -> str:
    env = {**os.environ, "FIVES_ROOT": str(work), "FIVES_CACHE_DIR": str(work / ".cache"), "FIVES_PURE_PYTHON": "1"}
    r = subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=work, env=env, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0 and args[0] != "run":
        raise SystemExit(f"mutation: mutmut {args[0]} failed (exit {r.returncode}): {r.stdout[-2000:]}")
    if not quiet:
        sys.stderr.write(r.stdout[-3000:])
    return r.stdout


def statuses(work: Path) -> dict[str, str]:
    out = {}
    for line in mutmut(work, "results", "--all", "true").splitlines():
        m = re.match(r"\s*(\S+__mutmut_\d+): (.+)$", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def module_of(name: str) -> str:
    return name.split(".x")[0]


def table(found: dict[str, str]) -> list[dict[str, object]]:
    rows = []
    for module in sorted({module_of(n) for n in found}):
        c = Counter(s for n, s in found.items() if module_of(n) == module)
        reached = sum(c.values()) - c["no tests"] - c["not checked"]
        rows.append({"module": module, "mutants": sum(c.values()), **{s: c[s] for s in STATUSES},
                     "score": round(c["killed"] / reached, 3) if reached else None})
    return rows


def read_classes(folder: Path) -> dict[str, tuple[str, str]]:
    """mutant -> (class, reason) from the survivors files (format in the docstring above)."""
    out: dict[str, tuple[str, str]] = {}
    for path in sorted(folder.glob("*.txt")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[1] not in CLASSES or "__mutmut_" not in parts[0]:
                raise SystemExit(f"mutation: {path.name}:{n}: expected `name class reason` "
                                 f"with class one of {', '.join(CLASSES)}")
            if parts[0] in out:
                raise SystemExit(f"mutation: {path.name}:{n}: {parts[0]} is listed twice")
            out[parts[0]] = (parts[1], parts[2])
    return out


def classified(rows: list[dict[str, object]], found: dict[str, str],
               classes: dict[str, tuple[str, str]]) -> tuple[list[dict[str, object]], list[str]]:
    """Per module: killed, each class, unread; score = killed / (mutants - equivalent - outside)."""
    out, stale = [], sorted(n for n, s in found.items() if s == "killed" and n in classes)
    for r in rows:
        mod = r["module"]
        c = Counter()
        for n, s in found.items():
            if module_of(n) != mod or s == "not checked":
                continue
            c["mutants"] += 1
            if s in ("killed", "timeout"):
                c["killed"] += 1
            else:
                c[classes[n][0] if n in classes else "unread"] += 1
        out.append(_scored(mod, c))
    total = Counter()
    for r in out:
        total.update({k: int(r[k]) for k in ("mutants", "killed", *CLASSES, "unread")})
    if len(out) > 1:
        out.append(_scored("all", total))
    return out, stale


def _scored(module: str, c: Counter) -> dict[str, object]:
    """The measure (issue 37): killed over the mutants some request kind can observe, that is
    mutants - equivalent - outside; the outside share beside it, for information only (error
    wording, the Python API's text notation, random dealing and pictures, which no
    language-neutral case may pin: no target is set on it)."""
    real = c["mutants"] - c["equivalent"] - c["outside"]
    return {"module": module, **{k: c[k] for k in ("mutants", "killed", *CLASSES, "unread")},
            "score": round(c["killed"] / real, 3) if real else None,
            "outside share": f"{100 * c['outside'] / c['mutants']:.1f}%" if c["mutants"] else "-"}


def prune(folder: Path, killed: set[str]) -> None:
    """Drop the lines of `killed` mutants from the survivors files (comments stay)."""
    for path in sorted(folder.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        kept = [ln for ln in lines if not ln.strip() or ln.startswith("#") or ln.split()[0] not in killed]
        if kept != lines:
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text("".join(kept), encoding="utf-8")
            os.replace(tmp, path)


def read_names(path: Path) -> list[str]:
    """Mutant names, one a line: `name` or `name: status` (as `mutmut results` prints), `#` comments."""
    return [ln.split("#", 1)[0].split(":", 1)[0].strip() for ln in path.read_text(encoding="utf-8").splitlines()
            if ln.split("#", 1)[0].strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--module", action="append", help="a module of the rules core (default: all eight)")
    ap.add_argument("--sample", type=int, help="run only this many mutants, drawn with --seed")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", type=Path, help="write the table and every mutant's status here")
    ap.add_argument("--expect-killed", type=Path, help="run these mutants; exit 1 unless each is killed")
    ap.add_argument("--survivors", type=Path, default=SURVIVORS, help="the survivors' classes (one file a module)")
    ap.add_argument("--keep", type=Path, help="keep mutmut's working copy in this new folder")
    ap.add_argument("--from-json", type=Path, help="run nothing: the table of an earlier run's --json")
    ap.add_argument("--prune", action="store_true", help="drop the killed mutants' lines from the survivors files")
    ap.add_argument("--only", type=Path, help="run only these mutants (one name a line)")
    ap.add_argument("--base", type=Path, help="with --only: a --json of an earlier run; the table is that run's "
                                              "statuses with the mutants run now replaced")
    args = ap.parse_args()
    modules = args.module or list(CORE)
    for m in modules:
        if m not in CORE:
            raise SystemExit(f"mutation: --module {m}: not one of {', '.join(CORE)}")
    if args.keep and args.keep.exists():
        raise SystemExit(f"mutation: --keep {args.keep}: already exists")
    names = []
    if args.from_json:
        found = json.loads(args.from_json.read_text(encoding="utf-8"))["mutants"]
    else:
        found, names = run(args, modules)
    return report(args, found, names)


def run(args: argparse.Namespace, modules: list[str]) -> tuple[dict[str, str], list[str]]:
    with tempfile.TemporaryDirectory(prefix="fives-mutation-") as tmp:
        work = Path(tmp)
        copy_checkout(work, modules)
        names: list[str] = []
        if args.expect_killed or args.only:
            names = read_names(args.expect_killed or args.only)
        elif args.sample:
            mutmut(work, "run", "--max-children", "1", "no-such-mutant")  # generates the mutants only
            every = sorted(statuses(work))
            names = sorted(random.Random(args.seed).sample(every, min(args.sample, len(every))))
        mutmut(work, "run", "--max-children", str(args.jobs), *names)
        found = statuses(work)
        if args.only and args.base:
            base = json.loads(args.base.read_text(encoding="utf-8"))["mutants"]
            found = {**base, **{n: found[n] for n in names if n in found}}
        if args.keep:
            shutil.copytree(work, args.keep, symlinks=True)
    return found, names


def print_rows(head: tuple[str, ...], rows: list[dict[str, object]]) -> None:
    print(" ".join(f"{h:>18}" for h in head))
    for r in rows:
        print(" ".join(f"{str(r[h]):>18}" for h in head))


def report(args: argparse.Namespace, found: dict[str, str], names: list[str]) -> int:
    rows = table(found)
    print_rows(("module", "mutants", "killed", "survived", "no tests", "timeout", "score"), rows)
    classes = read_classes(args.survivors) if args.survivors.is_dir() else {}
    split, stale = classified(rows, found, classes)
    if classes:
        print("\nsurvivors by class (score = killed / (mutants - equivalent - outside): the mutants a request "
              "kind can observe; the outside share is for information):")
        print_rows(("module", "mutants", "killed", *CLASSES, "unread", "score", "outside share"), split)
        last = split[-1] if split else None
        if last is not None and int(last["mutants"]):
            observable = int(last["mutants"]) - int(last["equivalent"]) - int(last["outside"])
            print(f"score over the observable mutants: {last['killed']} / {observable} = {last['score']}; "
                  f"outside: {last['outside']} of {last['mutants']} mutants ({last['outside share']}, no target)")
        for n in stale:
            print(f"mutation: {n}: killed now, {'dropped from' if args.prune else 'but still listed in'} "
                  f"{args.survivors}", file=sys.stderr)
        if args.prune and stale:
            prune(args.survivors, set(stale))
    if args.json:
        args.json.write_text(json.dumps({"modules": rows, "classified": split, "mutants": found}, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")
    if args.expect_killed:
        missed = [n for n in names if found.get(n) != "killed"]
        for n in missed:
            print(f"mutation: {n}: {found.get(n, 'not made')} (expected killed)", file=sys.stderr)
        return 1 if missed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
