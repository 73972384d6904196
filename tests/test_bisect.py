"""`fives perft --engine CMD [--bisect]`: compare counts through the protocol, bisect to a short layout."""
from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from fives.conformance.bisect import Asker, bisect, report
from fives.conformance.engines.drivers import ReferenceEngine
from fives.evaluation import evaluate
from fives.conformance.mutants.registry import all_mutants
from fives.support.paths import ROOT
from fives.rules import load_rules

MUTANTS = {m.name: m for m in all_mutants()}


def run_bisect(name: str | None, game: str, depth: int, start: list | None = None):
    engine = ReferenceEngine(MUTANTS[name].hooks(), name=name) if name else ReferenceEngine()
    return bisect(Asker(engine, game), load_rules(game), start or [], depth)


def test_branches_before_lines_ends_on_the_lone_double():
    r = run_bisect("branches-before-lines", "american-sniff", 3)
    assert r is not None and r.start_depth == 2
    assert r.layout == [{"tile": "[0|0]"}]
    assert r.immediate == (24, 20) and r.reference_immediate == (12, 10)
    # every differing placement is a branch the reference refuses before both lines are filled
    assert len(r.differing) == 12
    assert all(d.placement["side"].startswith("branch") and d.reference == "illegal (branch-before-lines)"
               and d.engine.startswith("legal") for d in r.differing)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_covered_branch_ends_on_three_tiles_whose_branch_placements_score_differently():
    r = run_bisect("covered-branch-still-counts", "american-sniff", 4)
    assert r is not None and r.start_depth == 4 and len(r.layout) == 3
    assert [s.depth for s in r.path] == [3, 2, 1]
    assert "error" not in evaluate("american-sniff", r.layout)
    assert r.differing and all("points" in d.engine and "points" in d.reference and d.engine != d.reference
                               for d in r.differing)
    text = report(r, "american-sniff", "mutant")
    assert yaml.safe_load(text) == r.layout  # the printout is a placements file


def test_opening_double_counted_twice_differs_at_the_openings():
    r = run_bisect("opening-double-counted-twice", "horse-race", 2)
    assert r is not None and r.start_depth == 1 and r.layout == []
    # only [5|5] scores differently (10 against 20); the other doubles score 0 either way
    assert [d.line() for d in r.differing] == ["[5|5]: engine legal, 20 points; reference legal, 10 points"]


def test_the_reference_agrees_and_a_start_layout_is_used():
    assert run_bisect(None, "horse-race", 3) is None
    start = [{"tile": "[6|6]"}, {"tile": "[1|6]", "to": "[6|6]", "side": "line-a"}]
    r = run_bisect("branches-before-lines", "horse-race", 2, start)
    assert r is not None and r.layout == start and r.start_depth == 1


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("bisect_flag", [False, True])
def test_cli_through_the_protocol(bisect_flag):
    cmd = [sys.executable, "-m", "fives.cli", "perft", "--engine",
           f"{sys.executable} -m fives.cli serve --mutant later-doubles-spin", "--game", "american-sniff",
           "--depth", "4"] + (["--bisect"] if bisect_flag else [])
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr
    if not bisect_flag:
        assert p.stdout.startswith("american-sniff depth 4: engine nodes ")
        return
    layout = yaml.safe_load(p.stdout)
    assert isinstance(layout, list) and 1 <= len(layout) <= 3
    assert "# totals first differ at depth" in p.stdout


def test_cli_agreement_and_misuse():
    ok = subprocess.run([sys.executable, "-m", "fives.cli", "perft", "--engine", f"{sys.executable} -m fives.cli serve",
                         "--game", "horse-race", "--depth", "2"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and "engine nodes 336 points 460, reference nodes 336 points 460" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "fives.cli", "perft", "--game", "horse-race", "--depth", "2", "--bisect"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--bisect needs --engine CMD" in bad.stderr


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_spinner_flag_shows_in_evaluate_before_the_counts_differ():
    # only-first-double-spins changes no placement or point until a second double has both
    # lines filled (4 tiles); the evaluate answers differ one placement earlier, in `spinners`
    r = run_bisect("only-first-double-spins", "horse-race", 5)
    assert r is not None and len(r.layout) == 4
    assert r.evaluate_prefix == 3 and any(d.startswith("spinners") for d in r.evaluate_diff)
    assert "already differ after the first 3 placement(s): spinners" in report(r, "horse-race", "mutant")
    # where the final layout itself already differs, the report adds no earlier layout
    r = run_bisect("branches-before-lines", "american-sniff", 3)
    assert r.evaluate_prefix == 1 == len(r.layout) and r.evaluate_diff[0].startswith("positions")
    assert "already differ" not in report(r, "american-sniff", "mutant")


class DoublesOpenOnly(ReferenceEngine):
    """A house rule the evaluate answers cannot show: only a double may open. Its perft and
    legal-placements follow the rule; its evaluate scores any layout, as the reference does."""

    def __init__(self, legal: bool = True) -> None:
        super().__init__(name="doubles-open")
        if not legal:
            self.handshake.capabilities = [c for c in self.handshake.capabilities if c != "legal-placements"]

    def run(self, case):
        from fives.conformance.engines.drivers import Outcome
        out = super().run(case)
        if case.kind == "perft" and case.input["placements"] == [] and out.status == "ok":
            doubles = [r for r in (evaluate(case.game, [{"tile": f"[{v}|{v}]"}]) for v in range(7))]
            return Outcome("ok", answer={"nodes": 7, "points": sum(r["raw"] for r in doubles)})
        if case.kind == "legal-placements" and case.input["layout"] == [] and out.status == "ok":
            keep = [p for p in out.answer["placements"] if p["tile"][1] == p["tile"][3]]
            return Outcome("ok", answer={**out.answer, "placements": keep})
        return out


def test_refused_openings_are_named_by_legal_placements():
    r = bisect(Asker(DoublesOpenOnly(), "horse-race"), load_rules("horse-race"), [], 2)
    assert r is not None and r.start_depth == 1 and r.layout == []
    assert r.immediate == (7, r.immediate[1]) and r.reference_immediate[0] == 28
    assert r.differing_by == "legal-placements"
    refused = [d.placement["tile"] for d in r.differing]
    assert len(refused) == 21 and all(t[1] != t[3] for t in refused)
    assert all(d.engine.startswith("refuses it") and d.reference.startswith("legal") for d in r.differing)
    text = report(r, "horse-race", "doubles-open")
    assert "legal-placements for this layout" in text and "#   [0|1]: engine refuses it" in text
    assert "no single placement differs" not in text
    # without the capability the evaluate probe is all there is, and it says so
    r = bisect(Asker(DoublesOpenOnly(legal=False), "horse-race"), load_rules("horse-race"), [], 2)
    assert r.differing == [] and r.differing_by == "evaluate"
    assert "(no single placement differs: only the counts)" in report(r, "horse-race", "doubles-open")


# -- the session: `engine_perft`, the entry point behind `perft --engine CMD [--bisect]` -----
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_engine_perft_session_finds_what_the_cli_finds():
    from fives.conformance.sessions.perft import EnginePerftOptions, engine_perft

    command = f"{sys.executable} -m fives.cli serve --mutant branches-before-lines"
    notes: list[str] = []
    result = engine_perft(EnginePerftOptions(command, load_rules("american-sniff"), 3, bisect=True),
                          note=notes.append)
    r = result.bisection
    assert r is not None and r.start_depth == 2 and r.layout == [{"tile": "[0|0]"}]
    assert r.immediate == (24, 20) and r.reference_immediate == (12, 10) and len(r.differing) == 12
    assert result.exit_code == 1 and notes[0].startswith("depth 1: engine nodes 28 ")
    p = subprocess.run([sys.executable, "-m", "fives.cli", "perft", "--engine", command, "--game", "american-sniff",
                        "--depth", "3", "--bisect"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and p.stdout == result.text()


def test_engine_perft_session_compares_and_refuses_an_engine_without_perft():
    from fives.conformance.sessions.perft import EnginePerftOptions, engine_perft
    from fives.support.errors import EXIT_ENGINE, UserError

    rules = load_rules("horse-race")
    same = engine_perft(EnginePerftOptions(f"{sys.executable} -m fives.cli serve", rules, 2))
    assert same.agrees and same.engine == same.reference == (336, 460) and same.exit_code == 0
    assert same.text() == "horse-race depth 2: engine nodes 336 points 460, reference nodes 336 points 460\n"
    with pytest.raises(UserError) as e:
        engine_perft(EnginePerftOptions(f"{sys.executable} -c 'import sys; sys.exit(3)'", rules, 2))
    assert e.value.exit_code == EXIT_ENGINE and str(e.value).startswith("engine ")


def test_an_unparsable_engine_command_is_an_engine_error_not_a_traceback():
    # the old engine_perft built its ProcessEngine outside its EngineStartError guard
    p = subprocess.run([sys.executable, "-m", "fives.cli", "perft", "--engine", '"', "--game", "horse-race",
                        "--depth", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 3
    assert p.stderr == "fives: error: engine '\"': cannot parse the engine command: No closing quotation\n"
