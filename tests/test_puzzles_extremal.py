"""Extremal sums: Sniff's 36 and 35 (seed 000), Horse Race's 75, by the relaxation search,
over the layouts play reaches (at most 27 tiles: `GameRules.most_tiles_laid`)."""
import pytest
from fives.evaluation import evaluate
from fives.puzzles.extremal import best, prove, relaxation, witness
from fives.rules import GameRules, load_rules


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_sniff_bound_is_the_documents_36_and_35():
    rules = load_rules("american-sniff")
    mask = relaxation(rules)[None]
    assert best(mask, False, 5) == 36 and best(mask, True, 5) == 35
    assert evaluate(rules, [p.to_dict() for p in witness("american-sniff", "counted")])["sum"] == 36
    r = evaluate(rules, [p.to_dict() for p in witness("american-sniff", "scoring")])
    assert r["sum"] == 35 and r["raw"] == 35


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_horse_race_witness_and_the_one_vector_the_cut_closes():
    rules = load_rules("horse-race")
    r = evaluate(rules, [p.to_dict() for p in witness("horse-race", "counted")])
    assert (r["sum"], r["raw"], r["display"], len(r["tiles"])) == (75, 75, 15, 25)  # 27 at most: a reached layout
    assert {"[0|1]", "[0|2]", "[1|2]"}.isdisjoint(r["tiles"])
    mask = relaxation(rules)[None]
    assert best(mask, False, 5) == 77 and best(mask, True, 5) == 75  # the relaxation alone allows 77
    # The only degree vector above 75 (found by `fives puzzles extremal`): doubles [0|0]..[4|4]
    # of degree 4, [5|5] and [6|6] of degree 1. With their neighbours counted, 75 at most.
    vec = ((4, True),) * 5 + ((1, True),) * 2
    assert best(relaxation(rules, fixed=vec)[None], False, 5) == 77
    assert best(relaxation(rules, fixed=vec, cut=True)[None], False, 5) == 75
    # the cap is the rules' figure; without it (all 28 tiles) the bound is the same 75
    assert rules.most_tiles_laid == 27
    assert best(relaxation(rules, fixed=vec, cut=True, cap=28)[None], False, 5) == 75


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_cap_bounds_the_number_of_tiles():
    # two tiles: [6|6] and [5|6] count 17 (scoring: 15, as [6|6] and [3|6]); three: [5|5], [5|6]
    # and [6|6] count 22 (scoring: 20); the relaxation with that cap allows no more
    rules = load_rules("horse-race")
    assert [(best(m, False, 5), best(m, True, 5)) for m in (relaxation(rules, cap=c)[None] for c in (2, 3))] \
        == [(17, 15), (22, 20)]
    three = [{"tile": "[5|5]"}, {"tile": "[5|6]", "to": "[5|5]", "side": "line-a"},
             {"tile": "[6|6]", "to": "[5|6]", "side": "high"}]
    assert evaluate(rules, three)["sum"] == 22


def test_a_witness_over_the_cap_is_refused(monkeypatch):
    # with a cap of 8 tiles, Sniff's 9-tile witnesses are layouts no hand lays: the proof stops
    monkeypatch.setattr(GameRules, "most_tiles_laid", property(lambda self: 8))
    with pytest.raises(RuntimeError, match="witness lays 9 tiles: at most 8 are laid before a seat goes out"):
        prove("american-sniff", "counted")


def test_relaxation_is_an_upper_bound_on_small_layouts():
    # A lone [6|6] is excluded (n >= 2); two tiles [6|6], [5|6]: 12 + 5 = 17 <= bound
    rules = load_rules("horse-race")
    r = evaluate(rules, [{"tile": "[6|6]"}, {"tile": "[5|6]", "to": "[6|6]", "side": "line-a"}])
    assert r["sum"] == 17
    assert relaxation(rules)[None] >> 17 & 1
