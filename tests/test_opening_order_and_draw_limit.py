"""`opening.order` (with `opening.requires: fixed-order`, `lead.first_hand: opening-order`) and
`drawing.limit`: the rule books' fixed opening orders and per-turn draw limits (spec/variants.md)."""
from __future__ import annotations

import pytest

from fives.conformance.cases.kinds.play import run_legal, run_turn
from fives.conformance.cases.kinds.setup import next_leader
from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match, first_leader
from fives.profile_space import alternative_overrides
from fives.profiles import load_profile, make_profile, rules_under
from fives.settlement import configure
from fives.tiles import parse_tile

HR, SN = "horse-race", "american-sniff"
LOWEST_FIRST = ["[0|0]", "[1|1]", "[2|2]", "[3|3]", "[4|4]", "[5|5]", "[6|6]"]


def _rules(game: str, overrides: dict) -> object:
    return rules_under(make_profile(game, overrides, "t"), game)


def tiles(*names: str) -> list:
    return [parse_tile(n) for n in names]


def test_an_order_sets_the_rules_that_read_it() -> None:
    assert alternative_overrides(HR, "opening.order", LOWEST_FIRST) == {
        "opening.order": LOWEST_FIRST, "opening.requires": "fixed-order", "lead.first_hand": "opening-order"}


@pytest.mark.parametrize("game", [HR, SN])
def test_the_holder_of_the_earliest_tile_leads_and_opens_with_it(game: str) -> None:
    rules = _rules(game, alternative_overrides(game, "opening.order", LOWEST_FIRST))
    hands = [tiles("[2|2]", "[0|5]"), tiles("[1|1]", "[6|6]", "[3|4]")]
    assert first_leader(rules, hands) == 1  # [1|1] comes before [2|2] and [6|6]
    assert first_leader(rules, [tiles("[0|5]"), tiles("[3|4]")]) is None  # nobody: a lot
    assert first_leader(rules, None) == "opening-order"
    assert next_leader(rules, None) == {"leader": "opening-order"}
    config = configure(rules, 2, False)
    m = Match.from_state(rules, config, scores=[0, 0], layout=[], hands=hands,
                         boneyard=[t for t in tiles(*[f"[{a}|{b}]" for a in range(7) for b in range(a, 7)])
                                   if t not in hands[0] + hands[1]], seat=1)
    assert {p.tile for p in m.legal_options().placements} == set(tiles("[1|1]"))
    with pytest.raises(IllegalAction) as e:
        m.apply(Action(PLACE, m.legal_options().placements[0].__class__(parse_tile("[6|6]"))))
    assert e.value.code == "must-open-with"


def test_under_the_default_order_fixed_order_plays_as_the_highest_double() -> None:
    fixed, highest = _rules(HR, {"opening.requires": "fixed-order"}), _rules(HR, {"opening.requires": "highest-double"})
    hand = tiles("[2|2]", "[5|5]", "[0|1]")
    for r in (fixed, highest):
        m = Match(r, configure(r, 2, False))
        assert {p.tile for p in m.options(m.layout, hand, 14).placements} == set(tiles("[5|5]"))


def _drawing_state(game: str, limit: int, draws: int) -> dict:
    """Seat 0 holds nothing that joins [6|6]; the boneyard's first tiles do not join either."""
    return {"players": 2, "scores": [0, 0], "layout": [{"tile": "[6|6]"}],
            "hands": [["[0|1]", "[1|2]"], ["[0|0]", "[2|3]"]],
            "boneyard": ["[0|2]", "[1|1]", "[0|3]", "[1|3]", "[2|6]", "[0|4]", "[0|5]", "[0|6]", "[1|4]", "[1|5]",
                         "[1|6]", "[2|2]", "[2|4]", "[2|5]", "[3|3]", "[3|4]", "[3|5]", "[3|6]", "[4|4]", "[4|5]",
                         "[4|6]", "[5|5]", "[5|6]"],
            "seat": 0, "draws": draws, "actions": []}


@pytest.mark.parametrize("game", [HR, SN])
def test_a_seat_draws_at_most_the_limit_then_passes(game: str) -> None:
    limited, plain = _rules(game, {"drawing.limit": 3}), _rules(game, {})
    state = _drawing_state(game, 3, 0)
    acts = [{"action": DRAW}] * 3 + [{"action": PASS}]
    got = run_turn(limited, {**state, "actions": acts}, {})
    assert "error" not in got, got
    assert [r["action"] for r in got["results"]] == ["draw", "draw", "draw", "pass"]
    assert got["results"][-1]["turn_end"] is True and got["next_seat"] == 1
    # the seeds: no limit, the fourth draw is due and a pass is refused
    refused = run_turn(plain, {**state, "actions": acts}, {})
    assert refused["error"]["index"] == 3 and refused["error"]["code"] == "cannot-pass"
    over = run_turn(limited, {**state, "actions": [{"action": DRAW}] * 4}, {})
    assert over["error"]["index"] == 3 and over["error"]["code"] == "cannot-draw"
    # two draws already made this turn: one more, then pass
    later = run_turn(limited, {**_drawing_state(game, 3, 2), "actions": [{"action": DRAW}, {"action": PASS}]}, {})
    assert "error" not in later, later


def test_legal_placements_reads_the_draws_made() -> None:
    limited = _rules(HR, {"drawing.limit": 3})
    inp = {"players": 2, "layout": [{"tile": "[6|6]"}], "hand": ["[0|1]"], "boneyard": 10}
    assert run_legal(limited, inp, {}) == {"placements": [], "draw": True, "pass": False}
    assert run_legal(limited, {**inp, "draws": 3}, {}) == {"placements": [], "draw": False, "pass": True}
    assert run_legal(_rules(HR, {}), {**inp, "draws": 3}, {}) == {"placements": [], "draw": True, "pass": False}


def test_a_limited_match_plays_to_its_end_and_never_draws_over_the_limit() -> None:
    rules = rules_under(load_profile("sniff-indoor-outdoor"), SN)
    assert rules.draw_limit == 3
    for seed in range(30):
        m = Match(rules, configure(rules, 3, False), seed)
        m.start_hand()
        while m.in_hand and m.match_end is None:
            o, s = m.legal_options(), m.to_act
            if o.placements:
                m.apply(Action(PLACE, o.placements[0], s))
            else:
                m.apply(Action(DRAW if o.draw else PASS, None, s))
            assert m.draws <= 3
        assert m.hand_end is not None or m.match_end is not None
