"""Hunt for cases that kill the mutants the conformance suite lets survive.

    python benchmarks/mutation_hunt.py --work DIR --pool DIR [--pool DIR ...]
        [--names FILE] [--jobs 2] [--timeout 120] --json FILE [--cover OUT]

A surviving mutant is either harmless (equivalent, or a change no request kind can see) or a
hole in the suite. This script tells the two apart by search instead of by reading: it runs
each mutant against a pool of extra cases, states that seeded self-play reaches (golden suites
generated with other seeds, under the seeds' rules and under each shipped rule profile:
`fives golden generate ... --rules P`), and reports the pool cases that fail under it. A
mutant the pool kills is a hole; `--cover OUT` then picks a small set of pool cases that kills
every such mutant (greedy set cover) and writes them as fixture files, one per game, for
conformance/fixtures/mutation/. A mutant the pool cannot kill still needs a reason
(benchmarks/mutation/survivors/).

`--work DIR` is a mutmut working copy (made by `benchmarks/mutation.py --keep DIR`, or here when
DIR is new); its `mutants/` package is imported with every mutant behind mutmut's switch, which
is read at call time, so one warmed-up process forks one child per mutant. A first pass runs the
pool with mutmut's call recording on, to learn which request kinds reach each function: a mutant
is run only on the pool cases of those kinds (and not at all when the pool never calls it), and
a child stops at the first chunk of cases with a failure.

`--names FILE`: the mutants to hunt, one a line (`name` or `name: status`, as `mutmut results`
prints; `#` comments). Default: every mutant of the working copy.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
CHUNK = 25
#: a picked case's keys, in the order the fixture files write them
CASE_KEYS = ("id", "kind", "game", "clauses", "source", "description", "rules", "input", "expect")


def _mutation_module() -> Any:
    spec = importlib.util.spec_from_file_location("fives_mutation_bench", ROOT / "benchmarks" / "mutation.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- the inner process (mutants/ imported)

def key(case: Any) -> str:
    """A pool case's key: its ID, and the profile it plays when it has one."""
    return f"{case.id}@{case.profile.name}" if case.profile is not None else case.id


def _inner(args: argparse.Namespace) -> int:
    import random

    sys.path.insert(0, str(Path.cwd() / "mutants"))
    import mutmut.mutation.trampoline as trampoline

    import fives
    from fives.conformance.cases.fixtures import load_cases
    from fives.conformance.engines.drivers import ReferenceEngine
    from fives.conformance.runner import run_cases

    assert "mutants" in Path(fives.__file__).parts, fives.__file__
    test = _mutation_test_module()
    pool, seen = [], set()
    for root in args.pool:  # one root at a time: golden IDs leave the profile out, so the
        for c in load_cases([Path(root)], cache=False):  # same ID may be in several pools
            if key(c) not in seen:
                seen.add(key(c))
                pool.append(c)
    by_kind: dict[str, list[Any]] = {}
    for c in pool:
        by_kind.setdefault(c.kind, []).append(c)
    for cases in by_kind.values():  # a fixed shuffle: a hole shows early in a mixed pool
        random.Random(0).shuffle(cases)

    # pass 1: which kinds reach which function (mutmut's own call recording, kept here)
    reach: dict[str, set[str]] = {}
    current: list[str] = [""]

    def record(name: str, caller: str | None = None) -> None:
        reach.setdefault(name, set()).add(current[0])

    trampoline.record_trampoline_hit = record  # type: ignore[attr-defined]
    os.environ["MUTANT_UNDER_TEST"] = "stats"
    for kind in sorted(by_kind):
        current[0] = kind
        test._empty_caches()
        run_cases(ReferenceEngine(), test.loaded_again(by_kind[kind]))
    os.environ["MUTANT_UNDER_TEST"] = ""

    names = _mutation_module().read_names(Path(args.names_file))
    results: dict[str, Any] = {}
    running: dict[int, tuple[str, int, float]] = {}
    todo = list(names)
    done = 0
    t0 = time.monotonic()

    def child(name: str, kinds: list[str], w: int) -> None:
        os.environ["MUTANT_UNDER_TEST"] = name
        signal.alarm(int(args.timeout))
        test._empty_caches()
        test._rebuild_import_tables()
        for kind in kinds:
            cases = test.loaded_again(by_kind[kind])  # the measure's own way: profiles built under the mutant
            for i in range(0, len(cases), CHUNK):
                failing = [key(r.case) for r in run_cases(ReferenceEngine(), cases[i:i + CHUNK])
                           if r.status != "passed"]
                if failing:
                    os.write(w, json.dumps(failing).encode())
                    os._exit(1)
        os._exit(0)

    def reap() -> None:
        nonlocal done
        pid, status = os.waitpid(-1, 0)
        name, r, started = running.pop(pid)
        data = b""
        while chunk := os.read(r, 65536):
            data += chunk
        os.close(r)
        if os.WIFSIGNALED(status):
            verdict = "timeout" if os.WTERMSIG(status) == signal.SIGALRM else "crashed"
            results[name] = {"verdict": verdict}
        elif os.WEXITSTATUS(status) == 1 and data:
            results[name] = {"verdict": "killed", "cases": json.loads(data)}
        elif os.WEXITSTATUS(status) == 0:
            results[name] = {"verdict": "survived"}
        else:
            results[name] = {"verdict": "crashed", "exit": os.WEXITSTATUS(status)}
        results[name]["seconds"] = round(time.monotonic() - started, 2)
        done += 1
        if done % 25 == 0:
            sys.stderr.write(f"hunt: {done}/{len(names)} in {time.monotonic() - t0:.0f} s\n")

    while todo or running:
        while todo and len(running) < args.jobs:
            name = todo.pop(0)
            func = name.rsplit("__mutmut_", 1)[0]
            kinds = sorted(reach.get(func, ()), key=lambda k: len(by_kind[k]))
            if not kinds:
                results[name] = {"verdict": "unreached"}
                done += 1
                continue
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                try:
                    child(name, kinds, w)
                finally:
                    os._exit(3)
            os.close(w)
            running[pid] = (name, r, time.monotonic())
        if running:
            reap()
    Path(args.json).write_text(json.dumps({"pool": [str(p) for p in args.pool], "mutants": results},
                                          indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


def _mutation_test_module() -> Any:
    spec = importlib.util.spec_from_file_location("fives_mutation_test", Path.cwd() / "benchmarks" / "mutation"
                                                  / "test_suite_only.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- the cover

class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def cover(result: dict[str, Any], pool: list[Path], out: Path) -> None:
    """Greedy set cover of the killed mutants by pool cases; the chosen cases, as fixture files."""
    killers = {n: set(r["cases"]) for n, r in result["mutants"].items() if r["verdict"] == "killed"}
    chosen: list[str] = []
    left = dict(killers)
    while left:
        count: dict[str, int] = {}
        for ids in left.values():
            for i in ids:
                count[i] = count.get(i, 0) + 1
        best = min(count, key=lambda i: (-count[i], i))
        chosen.append(best)
        left = {n: ids for n, ids in left.items() if best not in ids}
    why = {i: sorted(n for n, ids in killers.items() if i in ids) for i in chosen}
    files: dict[str, list[dict[str, Any]]] = {}
    taken: set[str] = set()
    shipped = {p.stem for p in (ROOT / "spec" / "variants").glob("*.yaml")}
    for root in pool:
        for path in sorted(Path(root).rglob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or "cases" not in data:
                continue
            for raw in data["cases"]:
                rules = raw.get("rules", data.get("rules"))
                name = rules.get("name") if isinstance(rules, dict) else rules
                k = f"{raw['id']}@{name}" if rules is not None else raw["id"]
                if k in why and k not in taken:
                    taken.add(k)
                    killed = len(why[k])
                    raw = dict(raw)
                    if rules is not None:  # a shipped profile by name, any other written out (spec/fixtures.md)
                        raw["rules"] = name if name in shipped else rules
                    # the ID: the golden digest of the question; for a profile's case, a digest of
                    # the question and the profile (golden IDs leave the profile out)
                    stem, digest = raw["id"].removeprefix("G-").rsplit("-", 1)
                    if rules is not None:
                        digest = hashlib.sha256(k.encode()).hexdigest()[:12]
                    raw["id"] = f"M-{stem}-{digest}"
                    raw["source"] = {"derived": f"{raw['source']['derived']}; kept by benchmarks/mutation_hunt.py: "
                                     f"it fails under {killed} mutant(s) of the rules core that the rest of the "
                                     "suite lets pass"}
                    files.setdefault(raw["game"], []).append({f: raw[f] for f in CASE_KEYS if f in raw})
    out.mkdir(parents=True, exist_ok=True)
    for game, cases in sorted(files.items()):
        cases.sort(key=lambda c: c["id"])
        doc = {"format": "fives-fixtures/1",
               "title": f"{game}: reachable states that pin behaviour the rest of the suite left open",
               "description": "Picked by benchmarks/mutation_hunt.py (greedy set cover) from golden suites generated "
                              "with other seeds and under the shipped rule profiles: each case fails under at least "
                              "one mutant of the rules core that every other case lets pass (spec/fixtures.md).",
               "cases": cases}
        text = yaml.dump(doc, Dumper=_NoAliases, sort_keys=False, width=120, allow_unicode=True,
                         default_flow_style=None)
        tmp = out / f".{game}.yaml.tmp"
        tmp.write_text("# Picked by benchmarks/mutation_hunt.py --cover; regenerate, do not edit.\n" + text, encoding="utf-8")
        os.replace(tmp, out / f"{game}.yaml")
    print(f"cover: {len(chosen)} cases kill {len(killers)} mutants; written to {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--pool", type=Path, action="append", required=True)
    ap.add_argument("--names", type=Path)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--json", type=Path, required=True)
    ap.add_argument("--cover", type=Path, help="write the picked cases here as fixture files")
    ap.add_argument("--cover-only", action="store_true", help="reuse --json; only pick the cases")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--names-file", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        return _inner(args)
    pool = [p.resolve() for p in args.pool]
    if not args.cover_only:
        mut = _mutation_module()
        work = args.work.resolve()
        if not (work / "mutants").is_dir():
            work.mkdir(parents=True, exist_ok=True)
            mut.copy_checkout(work, list(mut.CORE))
            mut.mutmut(work, "run", "--max-children", "1", "no-such-mutant")
        names = mut.read_names(args.names) if args.names else sorted(mut.statuses(work))
        fd, tmp_names = tempfile.mkstemp(prefix="fives-hunt-", suffix=".txt")  # several hunts may share DIR
        os.close(fd)
        names_file = Path(tmp_names)
        names_file.write_text("\n".join(names) + "\n", encoding="utf-8")
        env = {**os.environ, "FIVES_ROOT": str(work), "FIVES_CACHE_DIR": str(work / ".cache"),
               "FIVES_PURE_PYTHON": "1", "PYTHONPATH": str(work / "mutants")}
        r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--inner", "--work", str(work),
                            "--names-file", str(names_file), "--jobs", str(args.jobs), "--timeout", str(args.timeout),
                            "--json", str(args.json.resolve()), *[a for p in pool for a in ("--pool", str(p))]],
                           cwd=work, env=env)
        names_file.unlink()
        if r.returncode:
            return r.returncode
    result = json.loads(args.json.read_text(encoding="utf-8"))
    counts = Counter(r["verdict"] for r in result["mutants"].values())
    print("hunt:", ", ".join(f"{v} {n}" for v, n in sorted(counts.items())))
    if args.cover:
        cover(result, pool, args.cover)
    return 0


if __name__ == "__main__":
    sys.exit(main())
