"""Build hook: ship the data folders inside the package.

spec/, conformance/, puzzles/ and seeds/ stay at the top of the repository (the mission's
layout). `build_py` copies them into the built package as `fives/_data/<folder>`, so the wheel
(and a wheel built from the sdist, which carries them through MANIFEST.in) has them, and
`fives.support.paths` finds them with importlib.resources. Editable installs skip the copy: they read
the checkout itself. Everything else is declared in pyproject.toml.
"""
from __future__ import annotations

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


# The compiled fast path of `fives evaluate --jsonl` (fives/_accel.c, see fives/accel.py).
# optional=True: without a C compiler the build goes on and fives runs in pure Python.
ACCEL = Extension("fives._accel", ["fives/_accel.c"], optional=True)

setup(cmdclass={"build_py": BuildPyWithData}, ext_modules=[ACCEL])
