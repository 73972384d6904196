"""Every fixture against the reference engine, and the seed fixtures against the seed text."""
from __future__ import annotations

import pytest

from fives.conformance.cases.fixtures import lint, load_cases
from fives.conformance.cases.kinds import load_kinds
from fives.layout import IllegalCode
from fives.support.paths import FIXTURES, SEEDS
from fives.rules import load_rules
from fives.conformance.cases.seed_examples import extract

KINDS = load_kinds()
CASES = load_cases()


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_lint_passes_and_ids_unique():
    count, problems = lint()
    assert problems == []
    assert count == len(CASES) == len({c.id for c in CASES})


QUICK = [c for c in CASES if "slow" not in c.tags]  # deep perft rows: benchmarks/perft.py --table


@pytest.mark.parametrize("case", QUICK, ids=[c.id for c in QUICK])
def test_case_passes_on_reference_engine(case):
    kind = KINDS[case.kind]
    from fives.profiles import rules_under  # a variant case plays under its own rules

    assert kind.compare(case.expect, kind.run(rules_under(case.profile, case.game), case.input, {})) == []


@pytest.mark.parametrize("seed,game", [("000_751b9fb83a3774b3.txt", "american-sniff"),
                                       ("001_4a8ab5b829773601.txt", "horse-race")])
def test_every_seed_figure_is_a_fixture_saying_what_the_seed_says(seed, game):
    figures = extract(SEEDS / seed)
    assert len(figures) == 11  # the seed's figures: [4|4] [3|4] [2|2] [1|2] [1|5] [0|5] [1|3] [1|4] [1|1] [6|6] [0|0]
    by_id = {c.id: c for c in CASES}
    prefix = "SN" if game == "american-sniff" else "HR"
    for fig in figures:
        case = by_id[f"{prefix}-FIG-{fig.placed[1]}-{fig.placed[3]}"]
        assert case.source == {"seed": seed, "heading": fig.heading, "quote": fig.quote}
        assert case.expect == fig.expect, case.id
        assert case.input["placements"] == fig.placements, case.id


def test_seed_figure_placed_tiles():
    placed = [f.placed for f in extract(SEEDS / "000_751b9fb83a3774b3.txt")]
    assert placed == ["[4|4]", "[3|4]", "[2|2]", "[1|2]", "[1|5]", "[0|5]", "[1|3]", "[1|4]", "[1|1]", "[6|6]", "[0|0]"]


@pytest.mark.parametrize("game", ["american-sniff", "horse-race"])
def test_every_illegality_reason_has_a_fixture(game):
    codes = {c.expect["error"]["code"] for c in CASES if c.game == game and "error" in c.expect}
    expected = {c.value for c in IllegalCode} - {"tile-not-in-hand"}  # tile-not-in-hand needs a hand: play fixtures
    if game == "horse-race":
        expected -= {"branch-of-non-spinner"}  # every Horse Race double spins
    assert expected <= codes


def test_fixture_files_exist():
    assert (FIXTURES / "seed").is_dir() and (FIXTURES / "illegal").is_dir()
