"""--dask local:2 (a dask.distributed LocalCluster of 2 workers) gives the same bytes as a
single-process run, for golden generate, puzzles generate and perft."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="dask is optional: pip install 'fives[dask]'")

DASK = ["--dask", "local:2"]


def fives(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fives.cli", *args], capture_output=True, text=True, timeout=600)


def tree(path: Path) -> dict[str, bytes]:
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_golden_generate_on_dask_is_byte_identical(tmp_path: Path) -> None:
    args = ["golden", "generate", "--game", "american-sniff", "--game", "horse-race", "--cases", "150", "--seed", "9"]
    one, cluster = tmp_path / "one", tmp_path / "cluster"
    r = fives(*args, "--out", str(one))
    assert r.returncode == 0, r.stderr
    r = fives(*args, "--out", str(cluster), *DASK)
    assert r.returncode == 0, r.stderr
    assert tree(one) == tree(cluster) and len(tree(one)) > 20


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_puzzles_generate_on_dask_is_byte_identical(tmp_path: Path) -> None:
    args = ["puzzles", "generate", "--game", "horse-race", "--game", "american-sniff", "--count", "8", "--seed", "3"]
    one, cluster = tmp_path / "one.yaml", tmp_path / "cluster.yaml"
    r = fives(*args, "--out", str(one))
    assert r.returncode == 0, r.stderr
    r = fives(*args, "--out", str(cluster), *DASK)
    assert r.returncode == 0, r.stderr
    assert one.read_bytes() == cluster.read_bytes() and one.read_bytes().count(b"\n  - id:") + one.read_bytes().count(b"\n- id:") >= 8


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_puzzles_repeat_is_remade_with_the_real_exclusions() -> None:
    """The merge step of generate_set(dask=...) against the sequential loop, with a set small
    enough that the same puzzle comes up twice (build puzzles of 3-4 tiles)."""
    from fives.puzzles.generate import _speculate, generate_set, plan, puzzle_seed

    units = [(g, k, puzzle_seed(1, g, k, 1, i)) for i, (g, k) in enumerate(plan(["american-sniff"], "build", 10))]
    speculated = [_speculate(1, None, u)[0].id for u in units]
    assert len(set(speculated)) < len(speculated)  # the case this test is about does occur
    one = generate_set(["american-sniff"], "build", 10, 1, 1)
    cluster = generate_set(["american-sniff"], "build", 10, 1, 1, dask="local:2")
    assert len({p.id for p in one.puzzles}) == 10
    assert [p.id for p in one.puzzles] == [p.id for p in cluster.puzzles]
    assert one.to_dict() == cluster.to_dict()


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_perft_on_dask_is_byte_identical() -> None:
    if "--dask" not in fives("perft", "--help").stdout:
        pytest.skip("`fives perft` has no --dask option yet (helper H2 wires it through fives.support.distribute)")
    for args in (["perft", "--game", "horse-race", "--depth", "4", "--divide"],
                 ["perft", "--game", "american-sniff", "--depth", "4", "--json"]):
        one, cluster = fives(*args), fives(*args, *DASK)
        assert one.returncode == 0 and cluster.returncode == 0, cluster.stderr
        assert one.stdout == cluster.stdout and one.stdout


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_map_ordered_on_a_local_cluster_keeps_order_and_errors() -> None:
    import operator
    from functools import partial

    from fives.support.distribute import map_ordered

    assert list(map_ordered(partial(operator.mul, 3), list(range(25)), dask="local:2")) == [3 * n for n in range(25)]
    it = map_ordered(partial(operator.truediv, 1), [1, 2, 0, 4], dask="local:2")
    assert [next(it), next(it)] == [1.0, 0.5]
    with pytest.raises(ZeroDivisionError):
        next(it)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_unreachable_scheduler_is_one_line() -> None:
    r = fives("golden", "generate", "--game", "horse-race", "--cases", "5", "--seed", "1", "--out", "/tmp/nowhere-h6",
              "--dask", "tcp://127.0.0.1:9")
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().splitlines() == [r.stderr.strip()] and "cannot reach the Dask scheduler" in r.stderr
    assert not Path("/tmp/nowhere-h6").exists()
    r = fives("golden", "generate", "--game", "horse-race", "--cases", "5", "--seed", "1", "--out", "/tmp/nowhere-h6",
              "--dask", "local:zero")
    assert r.returncode == 2 and "local:N" in r.stderr
