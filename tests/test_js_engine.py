"""The example JavaScript engine (conformance/examples/js-engine) against the conformance suite
and, case by case, against the reference evaluator on random layouts."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

import pytest

from conftest import random_layout
from fives.evaluation import evaluate
from fives.conformance.cases.fixtures import load_cases
from fives.support.paths import FIXTURES, ROOT
from fives.tiles import ALL_TILES, Side

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node (Node.js 18+) is not installed: the JS example engine cannot run")
ENGINE = "node conformance/examples/js-engine/engine.js"
KINDS = ("evaluate", "legal-placements")  # what the example engine declares


def conformance_run(tmp_path, *extra: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    report = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "fives.cli", "conformance", "run", "--engine", ENGINE,
                           "--validate", "--report", f"json:{report}", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    return proc, json.loads(report.read_text())


# persistent mode runs everything, golden suite included; one-shot starts node once per case,
# so it runs the hand-written and seed fixtures only
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("mode,roots", [((), None), (("--oneshot",), [FIXTURES])], ids=["persistent", "oneshot"])
def test_every_evaluate_case_passes_and_the_rest_is_skipped(tmp_path, mode, roots):
    extra = [a for r in roots for a in ("--fixtures", str(r))] if roots else []
    proc, report = conformance_run(tmp_path, *mode, *extra)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert report["engine"]["engine"] == {"name": "fives-js-example", "version": "1.0.0", "language": "javascript"}
    assert report["engine"]["capabilities"] == list(KINDS)
    cases = report["cases"]
    loaded = load_cases(roots)
    evaluate_ids = {c.id for c in loaded if c.kind in KINDS}
    # variant cases (their own rule profile, spec/fixtures.md) need the `rules` capability, which
    # this engine of the seeds' rules does not declare: they are skipped (spec/protocol.md)
    variant_ids = {c.id for c in loaded if c.profile is not None}
    assert evaluate_ids - variant_ids, "the default fixtures have evaluate cases"
    assert {c["id"] for c in cases if c["kind"] in KINDS} == evaluate_ids
    for c in cases:
        want = "passed" if c["kind"] in KINDS and c["id"] not in variant_ids else "skipped"
        assert c["status"] == want, (c["id"], c.get("diff"), c.get("message"))
    others = [c for c in cases if c["status"] == "skipped"]
    assert all("does not declare capability" in c["message"] for c in others)
    n = len(evaluate_ids - variant_ids)
    assert f"{n} passed, 0 failed, 0 errored, {len(others)} skipped" in proc.stdout


def _records(rng: random.Random, game: str) -> list[dict]:
    """A random legal layout's placements, half the time with one foreign record inserted."""
    layout = random_layout(game, rng)
    recs: list[dict] = [p.to_dict() for p in layout.history()]
    if rng.random() < 0.5:
        t = rng.choice(ALL_TILES)
        rec: dict = {"tile": str(t) if rng.random() < 0.8 else f"{t.high}-{t.low}"}
        if rng.random() < 0.9:
            rec["to"] = str(rng.choice(layout.tiles + [rng.choice(ALL_TILES)]))
            rec["side"] = rng.choice(list(Side)).value
        recs.insert(rng.randint(0, len(recs)), rec)
    return recs


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_js_engine_agrees_with_the_reference_on_random_layouts():
    rng = random.Random(20240611)
    requests = [(g, _records(rng, g)) for g in ("american-sniff", "horse-race") for _ in range(600)]
    lines = [json.dumps({"id": "hello", "type": "hello", "protocol": 1})]
    lines += [json.dumps({"id": f"r{i}", "type": "evaluate", "game": g, "input": {"placements": recs}})
              for i, (g, recs) in enumerate(requests)]
    proc = subprocess.run(ENGINE.split(), cwd=ROOT, input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(replies) == len(requests) + 1 and replies[0]["capabilities"] == list(KINDS)
    errors = 0
    for i, ((game, recs), reply) in enumerate(zip(requests, replies[1:])):
        assert reply["id"] == f"r{i}"
        got, want = reply["result"], evaluate(game, recs)
        if "error" in want:
            errors += 1
            assert isinstance(got["error"].pop("message"), str)
            want["error"].pop("message")
        assert got == want, (game, recs)
    assert 100 < errors < len(requests) - 100  # both legal and illegal layouts were compared


def test_js_legal_placements_agree_with_the_reference_on_random_layouts():
    # the puzzle page (fives book --interactive) offers exactly these placements to click
    rng = random.Random(20261201)
    requests = []
    for i in range(400):
        game = ("american-sniff", "horse-race")[i % 2]
        layout = random_layout(game, rng)
        rest = [t for t in ALL_TILES if t not in layout.tiles]
        hand = rng.sample(rest, min(len(rest), rng.randint(0, 7)))
        inp = {"layout": [p.to_dict() for p in layout.history()], "hand": [str(t) for t in hand],
               "boneyard": rng.choice([0, 3])}
        requests.append((game, inp, layout.legal_placements(hand)))
    lines = [json.dumps({"id": "hello", "type": "hello", "protocol": 1})]
    lines += [json.dumps({"id": f"r{i}", "type": "legal-placements", "game": g, "input": inp})
              for i, (g, inp, _) in enumerate(requests)]
    proc = subprocess.run(ENGINE.split(), cwd=ROOT, input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()][1:]
    placed = 0
    for (game, inp, want), reply in zip(requests, replies, strict=True):
        got = reply["result"]
        key = lambda d: json.dumps(d, sort_keys=True)  # noqa: E731 - placements compare as a multiset
        assert sorted(map(key, got["placements"])) == sorted(key(p.to_dict()) for p in want), (game, inp)
        assert (got["draw"], got["pass"]) == ((False, False) if want else (inp["boneyard"] > 0, inp["boneyard"] == 0))
        placed += bool(want)
    assert 100 < placed < len(requests)  # both hands that fit and hands that do not


def test_protocol_edges():
    lines = [
        {"id": "hello", "type": "hello", "protocol": 1},
        {"id": "a", "type": "perft", "game": "horse-race", "input": {}},
        {"id": "b", "type": "evaluate", "game": "draw-poker", "input": {"placements": []}},
        {"id": "c", "type": "evaluate", "game": "horse-race", "input": {}},
        {"id": "d", "type": "evaluate", "game": "horse-race", "input": {"placements": "[1|4]"}},
    ]
    text = "\n".join(json.dumps(m) for m in lines) + "\nnot json\n"
    proc = subprocess.run(ENGINE.split(), cwd=ROOT, input=text, capture_output=True, text=True, timeout=30)
    hello, a, b, c, d, garbage = (json.loads(x) for x in proc.stdout.splitlines())
    assert hello["games"] == ["american-sniff", "horse-race"]
    assert set(a) == {"id", "skipped"} and a["id"] == "a"
    assert set(b) == {"id", "skipped"} and "draw-poker" in b["skipped"]
    assert set(c) == {"id", "error"}
    assert d["result"]["error"]["index"] is None and d["result"]["error"]["code"] == "malformed-placement"
    assert garbage["id"] is None and garbage["error"].startswith("malformed JSON")
