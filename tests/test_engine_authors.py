"""docs/engine-authors.md, followed as written from an empty folder: every shell block runs, in
order, in one fresh folder, with no FIVES_ROOT and a fresh cache, against the `fives` found in
`FIVES_README_BIN` (`.ci/run`: the installed wheel) or else the one beside this interpreter.

A block whose first line is `# exits N: WHY` must exit N (it shows a failure on purpose); every
other block must exit 0. A block that needs `node` is skipped without Node, one that runs pytest
without pytest beside that `fives`. Then the walk's promises are checked: the skeleton passed as
written with every case skipped, the filled-in `evaluate` passed every evaluate case, the borrowed
mutant failed, `--lf` ran the one case, `perft --bisect` wrote a layout that evaluates, and the
inferred profile made its engine pass.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from test_readme_blocks import Block, fives_bin, shell_blocks  # noqa: E402 - the README's block reader

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "engine-authors.md"
BLOCKS = shell_blocks(GUIDE.read_text(encoding="utf-8"))
EXITS = re.compile(r"^# exits (\d+): \S")
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) errored, (\d+) skipped$", re.M)

pytestmark = pytest.mark.slow


def expected_exit(block: Block) -> int:
    m = EXITS.match(block.text.lstrip().splitlines()[0])
    return int(m[1]) if m else 0


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> dict[int, subprocess.CompletedProcess[str]]:
    """Every block of the guide, run in order in one empty folder: block line -> its process."""
    bin_dir = fives_bin()
    assert (bin_dir / "fives").is_file(), f"no fives in {bin_dir}"
    env = {k: v for k, v in os.environ.items() if k not in ("FIVES_ROOT", "FIVES_NO_CACHE", "NO_COLOR")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["FIVES_CACHE_DIR"] = str(tmp_path_factory.mktemp("guide-cache"))
    folder = tmp_path_factory.mktemp("guide-user")
    assert not any(folder.iterdir())
    done: dict[int, subprocess.CompletedProcess[str]] = {}
    for block in BLOCKS:
        # -e for a block that must succeed; a block shown failing is one command, its exit checked
        flags = ["-e"] if expected_exit(block) == 0 else []
        done[block.line] = subprocess.run(["bash", *flags, "-o", "pipefail", "-c", block.text], cwd=folder, env=env,
                                          capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    done[0] = subprocess.CompletedProcess([], 0, str(folder), "")  # where it ran, for the checks
    return done


def the_block(needle: str) -> Block:
    found = [b for b in BLOCKS if needle in b.text]
    assert len(found) == 1, (needle, [b.line for b in found])
    return found[0]


def summaries(r: subprocess.CompletedProcess[str]) -> list[tuple[int, int, int, int]]:
    return [tuple(int(x) for x in m.groups()) for m in SUMMARY.finditer(r.stdout)]  # type: ignore[misc]


def test_the_guide_has_its_blocks() -> None:
    assert len(BLOCKS) >= 12 and all(b.skip_reason is None for b in BLOCKS)
    text = " ".join(b.text for b in BLOCKS)
    for command in ("conformance new-engine", "--validate", "--kind evaluate", " -x", "--lf", "--report html:",
                    "--bisect", "conformance diagnose", "--rules", "--fives-engine", "conformance list"):
        assert command in text, command
    for b in BLOCKS:  # a block shown failing holds one command, so its exit code is that command's
        if expected_exit(b):
            assert len([line for line in b.text.splitlines() if line.strip() and not line.startswith("#")]) == 1


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{b.line}" for b in BLOCKS])
def test_guide_block(block: Block, walk: dict[int, subprocess.CompletedProcess[str]]) -> None:
    r = walk[block.line]
    if r.returncode == 127 or "No module named pytest" in r.stderr:
        if "node " in block.text or "pytest" in block.text:
            pytest.skip(f"docs/engine-authors.md line {block.line}: its tool is not installed here")
    assert r.returncode == expected_exit(block), (
        f"docs/engine-authors.md line {block.line}: exit {r.returncode}, expected {expected_exit(block)}\n"
        f"{block.text}\n--- stdout (tail)\n{r.stdout[-2000:]}\n--- stderr (tail)\n{r.stderr[-2000:]}")


def test_the_walk_keeps_its_promises(walk: dict[int, subprocess.CompletedProcess[str]]) -> None:
    folder = Path(walk[0].stdout)
    # the skeleton as written: handshake passed, every case skipped, every message valid; no case
    # ran, so exit 5 (issue 40), saying why
    as_written = walk[the_block("# exits 5: no case ran yet").line]
    [(passed, failed, errored, skipped)] = summaries(as_written)
    assert (passed, failed, errored) == (0, 0, 0) and skipped > 3000
    assert as_written.returncode == 5 and "fives: no case ran: the engine's scope leaves no case" in as_written.stderr
    assert "capabilities: \n" in as_written.stdout or as_written.stdout.splitlines()[0].endswith("capabilities:")
    # the stub answered `skipped`, in the protocol's shape
    by_hand = walk[the_block("printf").line].stdout.splitlines()
    assert '"capabilities": []' in by_hand[0] and '"skipped"' in by_hand[1] and '"q1"' in by_hand[1]
    # evaluate filled in: every evaluate case passes; skipped, only those that play their own rules
    filled = walk[the_block("cat > my-engine/kinds/evaluate.py").line]
    [(passed, failed, errored, skipped)] = summaries(filled)
    from fives.conformance.cases.fixtures import load_cases

    own_rules = sum(1 for c in load_cases() if c.kind == "evaluate" and c.profile is not None and "slow" not in c.tags)
    assert passed > 1000 and (failed, errored, skipped) == (0, 0, own_rules)
    assert "STUB" not in (folder / "my-engine" / "kinds" / "evaluate.py").read_text(encoding="utf-8")
    # -x stops at the first failure; --lf runs that one case again and writes the page
    [(_, failed, _, _)] = summaries(walk[the_block(" -x").line])
    assert failed == 1
    assert summaries(walk[the_block("--lf").line]) == [(0, 1, 0, 0)]
    assert "HR-SPIN-1" in (folder / "failures.html").read_text(encoding="utf-8")
    # perft --bisect wrote a layout that evaluates and draws
    evaluated = walk[the_block("fives evaluate --game horse-race smallest.yaml").line]
    assert '"sum"' in evaluated.stdout and (folder / "smallest.svg").read_text(encoding="utf-8").startswith("<svg")
    # diagnose: one cause, the target; its profile makes the engine pass
    diagnosed = walk[the_block("--out diagnosis").line]
    assert "target.raw" in diagnosed.stdout and (folder / "diagnosis" / "profile.yaml").is_file()
    [(passed, failed, errored, _)] = summaries(diagnosed)
    assert passed > 1000 and (failed, errored) == (0, 0)
    clustered = walk[the_block("--no-mutants").line].stdout
    assert "in 1 cluster(s)" in clustered and "got = 2 × expected" in clustered
    # the badge: every evaluate case run, every one passed
    import xml.etree.ElementTree as ET

    badge = ET.fromstring((folder / "fives-badge.svg").read_text(encoding="utf-8"))
    [(passed, _, _, _)] = summaries(walk[the_block("--report badge:").line])
    assert badge.get("data-passed") == badge.get("data-run") == str(passed) and passed > 1000
