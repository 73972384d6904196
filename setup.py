"""Build hook: ship the data folders inside the package.

spec/, conformance/, puzzles/ and seeds/ stay at the top of the repository (the mission's
layout). `build_py` copies them into the built package as `fives/_data/<folder>`, so the wheel
(and a wheel built from the sdist, which carries them through MANIFEST.in) has them, and
`fives.support.paths` finds them with importlib.resources. Editable installs skip the copy: they read
the checkout itself. Everything else is declared in pyproject.toml.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

DATA_TREES = ("spec", "conformance", "puzzles", "seeds")  # as fives/support/paths.py DATA_TREES
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".DS_Store")


class BuildPyWithData(build_py):
    """`build_py`, then copy the data trees into `<build_lib>/fives/_data/`."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = Path(__file__).resolve().parent
        dest = Path(self.build_lib, "fives", "_data")
        for tree in DATA_TREES:
            src = here / tree
            if not src.is_dir():
                raise SystemExit(f"setup.py: data folder {tree}/ is missing (is MANIFEST.in complete?)")
            if (dest / tree).exists():
                shutil.rmtree(dest / tree)
            shutil.copytree(src, dest / tree, ignore=SKIP)
        prebuild_suite(Path(self.build_lib).resolve())


def prebuild_suite(build_lib: Path) -> None:
    """Parse and validate the bundled suite now, into `fives/_prebuilt/` (issue 21: a fresh
    machine's first run needs no user cache; fives/conformance/cases/prebuilt.py). It runs the
    package just assembled in `build_lib`, in a child process with no user cache, and checks
    the suite read back equals the suite read from the sources.

    The child gets this build's own import path (under pip's build isolation, the isolated
    environment holding [build-system] requires), with `build_lib` first: a child with a
    replaced PYTHONPATH cannot import the build requirements (issue 29). A wheel without the
    prebuilt suite fails the build, unless FIVES_ALLOW_NO_PREBUILT=1 allows it (the suite is
    then parsed on the first run, as in a checkout)."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("FIVES_ROOT", "PYTHONPATH")}
    inherited = [p for p in sys.path if p and Path(p).resolve() != Path(__file__).resolve().parent]
    env.update(PYTHONPATH=os.pathsep.join([str(build_lib), *inherited]), FIVES_NO_CACHE="1")
    probe = subprocess.run([sys.executable, "-c", "import yaml, fastjsonschema, jsonschema"], env=env,
                           capture_output=True, text=True)
    if probe.returncode != 0:
        why = (probe.stderr.strip().splitlines() or ["?"])[-1]
        if os.environ.get("FIVES_ALLOW_NO_PREBUILT") == "1":
            print(f"setup.py: warning: no prebuilt suite ({why}); FIVES_ALLOW_NO_PREBUILT=1 allows it", file=sys.stderr)
            return
        raise SystemExit(f"setup.py: cannot build the prebuilt suite: the build environment lacks pyyaml, "
                         f"fastjsonschema or jsonschema ({why}); set FIVES_ALLOW_NO_PREBUILT=1 to build without it")
    out = build_lib / "fives" / "_prebuilt"
    if out.exists():
        shutil.rmtree(out)
    done = subprocess.run([sys.executable, "-m", "fives.conformance.cases.prebuilt", str(out)], env=env,
                          cwd=build_lib)
    if done.returncode != 0:
        raise SystemExit("setup.py: building the prebuilt suite failed (see above)")


# The compiled fast paths of `fives evaluate --jsonl` (fives/_accel.c) and perft (fives/_perft.c),
# one module (see fives/accel.py).
# optional=True: without a C compiler the build goes on and fives runs in pure Python.
# FIVES_PURE_PYTHON=1 (the switch that also turns the fast path off at run time) leaves the
# extension out, so the wheel is pure Python, tagged py3-none-any, for every platform.
ACCEL = Extension("fives._accel", ["fives/_accel.c", "fives/_perft.c"], depends=["fives/_accel.h"], optional=True)
PURE = bool(os.environ.get("FIVES_PURE_PYTHON"))  # as fives/accel.py reads it

setup(cmdclass={"build_py": BuildPyWithData}, ext_modules=[] if PURE else [ACCEL])
