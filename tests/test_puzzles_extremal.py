"""Extremal sums: Sniff's 36 and 35 (seed 000), Horse Race's 75, by the relaxation search."""
import pytest
from fives.evaluation import evaluate
from fives.puzzles.extremal import best, relaxation, witness
from fives.rules import load_rules


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
    assert (r["sum"], r["raw"], r["display"], len(r["tiles"])) == (75, 75, 15, 28)
    mask = relaxation(rules)[None]
    assert best(mask, False, 5) == 77 and best(mask, True, 5) == 75  # the relaxation alone allows 77
    # The only degree vector above 75 (found by `fives puzzles extremal`): doubles [0|0]..[4|4]
    # of degree 4, [5|5] and [6|6] of degree 1. With their neighbours counted, 75 at most.
    vec = ((4, True),) * 5 + ((1, True),) * 2
    assert best(relaxation(rules, fixed=vec)[None], False, 5) == 77
    assert best(relaxation(rules, fixed=vec, cut=True)[None], False, 5) == 75


def test_relaxation_is_an_upper_bound_on_small_layouts():
    # A lone [6|6] is excluded (n >= 2); two tiles [6|6], [5|6]: 12 + 5 = 17 <= bound
    rules = load_rules("horse-race")
    r = evaluate(rules, [{"tile": "[6|6]"}, {"tile": "[5|6]", "to": "[6|6]", "side": "line-a"}])
    assert r["sum"] == 17
    assert relaxation(rules)[None] >> 17 & 1
