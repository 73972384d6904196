"""Issue 29: a last-failed record vouches for one engine command, one rules profile and one suite
version, and the seal binds all three. Engine A's record copied over engine B's, or a record
written under another profile, makes `--lf` run the whole selection (and say why in one line),
never the few cases A failed: B cannot turn green on A's record. A FIFO planted where the
record goes is never opened: the run neither blocks reading it nor writing it."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from fives.conformance.reports.last_failed import FORMAT, store_path
from fives.support.paths import ROOT

from test_cli_habits import MUTANT, SNIFF_EVALUATE, cache, fives, summary  # noqa: E402,F401 - same runs

pytestmark = pytest.mark.slow
OTHER = f"{sys.executable} -m fives serve --mutant sniff-branch-halves-not-counted"


def test_a_record_copied_from_another_engine_runs_everything(cache: Path) -> None:
    full = fives("conformance", "run", "--engine", OTHER, *SNIFF_EVALUATE, "-q")
    _, failed_b, _, _ = summary(full.stdout)
    fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "-q")
    a = json.loads(store_path(MUTANT).read_text())
    b = json.loads(store_path(OTHER).read_text())
    assert a["failed"] != b["failed"] and a["engine"] == MUTANT and a["format"] == FORMAT
    shutil.copyfile(store_path(MUTANT), store_path(OTHER))  # A's record, sealed for A, over B's
    again = fives("conformance", "run", "--engine", OTHER, *SNIFF_EVALUATE, "--lf")
    assert "made for another engine, rules profile or suite version: it will be rebuilt" in again.stderr
    assert summary(again.stdout)[1] == failed_b  # the whole selection ran: every failure of B is there
    assert again.exit_code == 1


def test_a_record_of_another_profile_runs_everything(cache: Path, tmp_path: Path) -> None:
    fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "-q")
    profile = tmp_path / "p.yaml"
    profile.write_text(yaml.safe_dump({"name": "p", "extends": "american-sniff", "source": "tests",
                                       "rules": {"spinners.policy": "none"}}), encoding="utf-8")
    under = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "--rules", str(profile), "--lf")
    assert "made for another engine, rules profile or suite version" in under.stderr
    assert "running all" in under.stderr
    record = json.loads(store_path(MUTANT).read_text())  # rebuilt, for the triple of this run
    assert record["rules"] is not None and record["suite"] and record["engine"] == MUTANT


def test_a_fifo_at_the_record_path_neither_blocks_nor_is_believed(tmp_path: Path) -> None:
    env = {**os.environ, "FIVES_CACHE_DIR": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    fixture = str(ROOT / "conformance" / "fixtures" / "seed" / "american-sniff-figures.yaml")
    probe = [sys.executable, "-c", "from fives.conformance.reports.last_failed import store_path; "
             "print(store_path(None))"]
    path = Path(subprocess.run(probe, env=env, capture_output=True, text=True, check=True).stdout.strip())
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    for extra in ([], ["--lf"]):  # writing the record after the run; reading it for --lf
        r = subprocess.run([sys.executable, "-m", "fives", "conformance", "run", "--fixtures", fixture, "-q", *extra],
                           env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        assert r.stdout.strip().endswith("11 passed, 0 failed, 0 errored, 0 skipped")
    assert path.is_file()  # the FIFO was replaced by a real record, by a rename: never opened
