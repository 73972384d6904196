"""The engine under rule profiles: each parameter's non-default value, on states checked by hand
against spec/variants.md; the variant fixtures; the table of spec/variants.md."""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fives.conformance.cases.kinds import load_kinds
from fives.layout import IllegalPlacement, Layout
from fives.match import Match
from fives.profile_space import DIMENSIONS, alternatives
from fives.profiles import make_profile, rules_under, shipped_profiles
from fives.rules import GameRules, load_rules
from fives.settlement import configure

ROOT = Path(__file__).resolve().parents[1]
KINDS = load_kinds()
HR, SN = "horse-race", "american-sniff"


def under(game: str, **overrides: Any) -> GameRules:
    return rules_under(make_profile(game, {k.replace("__", "."): v for k, v in overrides.items()}), game)


def run(kind: str, rules: GameRules, input: dict[str, Any]) -> Any:
    return KINDS[kind].run(rules, input, {})


def turn(rules: GameRules, actions: list[dict[str, Any]], **state: Any) -> Any:
    input = {"players": 2, "layout": [], "hands": [[], []], "boneyard": [], "seat": 0, **state, "actions": actions}
    return run("turn", rules, input)


# -- Horse Race continuation -------------------------------------------------------------------
def test_a_drawn_double_continues_when_drawn_tiles_do_not_end_the_turn() -> None:
    state = {"layout": [{"tile": "[1|4]"}], "hands": [["[2|2]", "[3|3]"], ["[0|0]"]],
             "boneyard": ["[4|4]", "[5|6]"]}
    acts = [{"action": "draw"}, {"action": "place", "tile": "[4|4]", "to": "[1|4]", "side": "high"}]
    seeds = turn(load_rules(HR), acts, **state)
    variant = turn(under(HR, continuation__drawn_tile_ends_turn=False), acts, **state)
    assert seeds["results"][1]["continues"] is False and seeds["next_seat"] == 1
    assert variant["results"][1]["continues"] is True and variant["next_seat"] == 0
    assert variant["results"][1]["sum"] == 9  # 1 + both halves of the end double [4|4]


def test_a_scoring_last_tile_draws_and_continues() -> None:
    state = {"layout": [{"tile": "[1|4]"}], "hands": [["[1|6]"], ["[0|0]"]], "boneyard": ["[2|2]", "[5|6]"]}
    acts = [{"action": "place", "tile": "[1|6]", "to": "[1|4]", "side": "low"}]
    seeds = turn(load_rules(HR), acts, **state)
    assert seeds["hand_end"]["reason"] == "gone-out"
    variant = turn(under(HR, continuation__last_tile="draws-and-continues"), acts + [{"action": "draw"}], **state)
    assert variant["results"][0]["raw"] == 10 and variant["results"][0]["continues"] is True
    assert variant["hand_end"] is None and variant["results"][1] == {
        "action": "draw", "seat": 0, "tile": "[2|2]", "playable": False, "turn_end": False}
    # with nothing left to draw the last tile goes out as in the seeds
    empty = turn(under(HR, continuation__last_tile="draws-and-continues"), acts, **{**state, "boneyard": []})
    assert empty["hand_end"]["reason"] == "gone-out"


def test_an_opening_double_earns_nothing_when_the_opening_does_not_count() -> None:
    acts = [{"action": "place", "tile": "[5|5]"}]
    state = {"hands": [["[5|5]", "[1|2]"], ["[0|0]"]], "boneyard": ["[3|4]"]}
    assert turn(load_rules(HR), acts, **state)["next_seat"] == 0
    assert turn(under(HR, continuation__opening_counts_as_from_hand=False), acts, **state)["next_seat"] == 1


# -- match end -------------------------------------------------------------------------------
def test_reaching_the_target_by_placement_waits_for_the_hand_end() -> None:
    state = {"scores": [60, 0], "layout": [{"tile": "[1|4]"}], "hands": [["[1|6]", "[2|2]"], ["[0|0]"]],
             "boneyard": ["[3|5]"]}
    acts = [{"action": "place", "tile": "[1|6]", "to": "[1|4]", "side": "low"}]
    seeds = turn(load_rules(HR), acts, **state)
    assert seeds["match_end"] == {"winners": [0], "by": "placement"} and seeds["scores"] == [62, 0]
    variant = turn(under(HR, match_end__on_placement="hand-end"), acts, **state)
    assert variant["match_end"] is None and variant["scores"] == [62, 0] and variant["next_seat"] == 0


def test_only_the_highest_of_several_sides_past_the_target_wins() -> None:
    input = {"players": 3, "scores": [60, 59, 0], "awards": [2, 4, 0]}
    assert run("match-end", load_rules(HR), input)["winners"] == [0, 1]
    assert run("match-end", under(HR, match_end__simultaneous_winners="highest"), input)["winners"] == [1]
    tied = {"players": 3, "scores": [60, 59, 0], "awards": [3, 4, 0]}
    assert run("match-end", under(HR, match_end__simultaneous_winners="highest"), tied)["winners"] == [0, 1]


# -- settlement -----------------------------------------------------------------------------
def test_the_award_rounded_per_opponent() -> None:
    input = {"players": 3, "end": {"reason": "gone-out", "seat": 2}, "pips": [17, 16, 0]}
    seeds = run("settle", load_rules(HR), input)
    assert seeds["awards"][0]["rounded"] == 35 and seeds["changes"] == [0, 0, 7]  # 33 -> 35
    variant = run("settle", under(HR, settlement__award_rounding="per-opponent"), input)
    assert variant["awards"][0]["rounded"] == 30 and variant["changes"] == [0, 0, 6]  # 15 + 15


@pytest.mark.parametrize("ties, changes", [("full-award-each", [6, 6]), ("split", [3, 3]), ("nobody", [0, 0])])
def test_a_tie_for_lowest_in_a_blocked_hand(ties: str, changes: list[int]) -> None:
    input = {"players": 2, "end": {"reason": "blocked"}, "pips": [32, 32]}
    assert run("settle", under(HR, settlement__ties=ties), input)["changes"] == changes


def test_a_blocked_hand_that_awards_nobody_and_one_that_subtracts_the_winners_pips() -> None:
    input = {"players": 2, "end": {"reason": "blocked"}, "pips": [10, 22]}
    assert run("settle", load_rules(HR), input)["changes"] == [4, 0]  # 22 -> 20 -> 4
    nobody = run("settle", under(HR, settlement__blocked_winner="nobody"), input)
    assert nobody["changes"] == [0, 0] and nobody["hand_winners"] == []
    assert run("settle", under(HR, settlement__subtract_winner_own=True), input)["changes"] == [2, 0]  # 12 -> 10


def test_sniff_points_per_five_deduct_in_fives() -> None:
    rules = under(SN, points__display_divisor=5, points__unit="displayed")
    input = {"players": 2, "end": {"reason": "gone-out", "seat": 0}, "pips": [0, 23]}
    assert run("settle", load_rules(SN), input)["changes"] == [0, -25]
    assert run("settle", rules, input)["changes"] == [0, -5]
    assert run("setup", rules, {"players": 2})["target_display"] == 50


# -- opening, drawing, blocking ---------------------------------------------------------------
def test_the_opening_must_be_a_double_or_a_scoring_tile_when_one_is_held() -> None:
    hand = ["[1|2]", "[2|3]", "[3|3]", "[5|5]"]
    legal = {"players": 2, "layout": [], "hand": hand, "boneyard": 14}
    tiles = lambda r: [p["tile"] for p in run("legal-placements", r, legal)["placements"]]  # noqa: E731
    assert tiles(load_rules(SN)) == hand
    assert tiles(under(SN, opening__requires="double")) == ["[3|3]", "[5|5]"]
    assert tiles(under(SN, opening__requires="scoring")) == ["[2|3]", "[5|5]"]
    bad = turn(under(SN, opening__requires="double"), [{"action": "place", "tile": "[1|2]"}],
               hands=[hand, ["[0|0]"]])
    assert bad["error"]["code"] == "must-open-with" and bad["error"]["index"] == 0
    no_double = {**legal, "hand": ["[1|2]", "[0|3]"]}
    assert len(run("legal-placements", under(SN, opening__requires="double"), no_double)["placements"]) == 2


def test_a_reserve_stops_drawing() -> None:
    rules = under(HR, deal__reserve={2: 2})
    legal = {"players": 2, "layout": [{"tile": "[1|4]"}], "hand": ["[2|2]"], "boneyard": 2}
    assert run("legal-placements", load_rules(HR), legal) == {"placements": [], "draw": True, "pass": False}
    assert run("legal-placements", rules, legal) == {"placements": [], "draw": False, "pass": True}
    assert run("legal-placements", rules, {**legal, "boneyard": 3})["draw"] is True
    three = {**legal, "players": 3}  # the reserve is for two players only
    assert run("legal-placements", rules, three)["draw"] is True


def test_a_hand_blocks_only_after_a_round_of_passes() -> None:
    state = {"layout": [{"tile": "[0|1]"}], "hands": [["[2|3]"], ["[4|5]"]]}
    seeds = turn(load_rules(HR), [{"action": "pass"}], **state)
    assert seeds["hand_end"]["reason"] == "blocked"
    rules = under(HR, hand_end__blocked="round-of-passes")
    one = turn(rules, [{"action": "pass"}], **state)
    assert one["hand_end"] is None and one["next_seat"] == 1
    two = turn(rules, [{"action": "pass"}, {"action": "pass"}], **state)
    assert two["hand_end"]["reason"] == "blocked"
    assert turn(rules, [{"action": "pass"}], passes=1, **state)["hand_end"]["reason"] == "blocked"


# -- deal and leader ----------------------------------------------------------------------------
def test_deal_sizes_follow_the_profile() -> None:
    rules = under(SN, deal__hand_size={3: 5})
    assert run("setup", rules, {"players": 3}) == {"valid": True, "hand_size": 5, "boneyard": 13,
                                                   "teams": [[0], [1], [2]], "target_raw": 200, "target_display": 200}
    m = Match(rules, configure(rules, 3), 7)
    start = m.start_hand()
    assert [len(h) for h in start.deal] == [5, 5, 5] and len(start.boneyard) == 13


@pytest.mark.parametrize("how, previous, want", [
    ("next-seat", {"ended": "gone-out", "last_tile_seat": 2, "leader": 0}, 1),
    ("lot", {"ended": "gone-out", "last_tile_seat": 2, "leader": 0}, "lot"),
    ("last-tile-player", {"ended": "gone-out", "last_tile_seat": 2, "leader": 0}, 2),
])
def test_the_leader_after_a_gone_out_hand(how: str, previous: dict[str, Any], want: Any) -> None:
    rules = under(HR, lead__after_gone_out=how)
    assert run("next-leader", rules, {"players": 3, "previous": previous}) == {"leader": want}


def test_the_leader_after_a_blocked_hand_and_of_the_first_hand() -> None:
    prev = {"ended": "blocked", "leader": 2}
    assert run("next-leader", under(SN, lead__after_blocked="next-seat"), {"players": 3, "previous": prev}) == \
        {"leader": 0}
    assert run("next-leader", under(SN, lead__after_blocked="same-leader"), {"players": 3, "previous": prev}) == \
        {"leader": 2}
    with pytest.raises(ValueError, match="previous hand's leader is needed"):
        run("next-leader", under(SN, lead__after_blocked="same-leader"),
            {"players": 3, "previous": {"ended": "blocked"}})
    assert run("next-leader", under(SN, lead__first_hand="seat-0"), {"players": 2, "previous": None}) == {"leader": 0}


def test_the_first_leader_holds_the_highest_double_or_is_seat_0() -> None:
    rules = under(HR, lead__first_hand="highest-double")
    for seed in range(10):
        m = Match(rules, configure(rules, 4), seed)
        start = m.start_hand()
        doubles = [(t.low, s) for s, h in enumerate(start.deal) for t in h if t.is_double]
        if doubles:
            assert start.leader == max(doubles)[1] and start.lot is None
        else:
            assert start.lot is not None
    fixed = under(HR, lead__first_hand="seat-0")
    assert all(Match(fixed, configure(fixed, 3), s).start_hand().leader == 0 for s in range(10))


def test_a_later_hand_is_led_by_the_next_seat() -> None:
    rules = under(SN, lead__after_gone_out="next-seat", lead__after_blocked="next-seat")
    m = Match(rules, configure(rules, 3), 3)
    leaders = []
    while m.match_end is None and len(leaders) < 6:
        leaders.append(m.start_hand().leader)
        while m.in_hand:
            o = m.legal_options()
            from fives.match import DRAW, PASS, PLACE, Action
            m.apply(Action(PLACE, o.placements[0]) if o.placements else Action(DRAW if o.draw else PASS))
    assert len(leaders) >= 3
    assert all(b == (a + 1) % 3 for a, b in zip(leaders, leaders[1:])), leaders


# -- spinners -----------------------------------------------------------------------------------
def test_no_spinners_lays_every_double_in_line() -> None:
    layout = Layout(under(HR, spinners__policy="none"))
    layout.push("[3|3]")
    assert layout.sum == 6 and layout.spinners == []
    layout.push("[3|4]>[3|3]:line-a")
    layout.push("[3|5]>[3|3]:line-b")
    assert layout.sum == 9  # the internal double counts nothing; no branch side is open
    with pytest.raises(IllegalPlacement) as e:
        layout.push("[3|6]>[3|3]:branch-a")
    assert e.value.code.value == "branch-of-non-spinner"
    seeds = Layout(HR)
    for p in ("[3|3]", "[3|4]>[3|3]:line-a", "[3|5]>[3|3]:line-b", "[3|6]>[3|3]:branch-a"):
        seeds.push(p)
    assert seeds.spinners and seeds.sum == 15


def test_every_double_spins_in_sniff_and_only_the_first_in_horse_race() -> None:
    sn = Layout(under(SN, spinners__policy="every-double"))
    hr = Layout(under(HR, spinners__policy="first-double"))
    for layout in (sn, hr):
        for p in ("[3|3]", "[3|6]>[3|3]:line-a", "[6|6]>[3|6]:high"):
            layout.push(p)
    assert [str(t) for t in sn.spinners] == ["[3|3]", "[6|6]"]
    assert [str(t) for t in hr.spinners] == ["[3|3]"]


# -- self-play under every value ---------------------------------------------------------------
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_self_play_ends_under_every_single_value() -> None:
    from fives.profile_space import alternative_overrides
    from fives.strategies import play_match

    for game in (HR, SN):
        for path, values in alternatives(game).items():
            for v in values:
                rules = rules_under(make_profile(game, alternative_overrides(game, path, v)), game)
                for players, partnerships in rules.configurations():
                    config = configure(rules, players, partnerships)
                    events = play_match(rules, config, 5, ["first"] * players, max_hands=300)
                    assert events[-1]["event"] in ("match-end", "abandoned"), (path, v, events[-1])


# -- the variant fixtures ---------------------------------------------------------------------
def variant_cases() -> list[Any]:
    from fives.conformance.cases.fixtures import load_cases

    return load_cases([ROOT / "conformance" / "fixtures" / "variants"], cache=False)


def test_every_non_default_value_has_a_variant_fixture() -> None:
    cases = variant_cases()
    assert all(c.profile is not None for c in cases)
    for game in (HR, SN):
        for path, values in alternatives(game).items():
            for v in values:
                hits = [c.id for c in cases if c.game == game and c.profile.overrides.get(path) == v]
                assert hits, f"no fixture for {game} {path} = {v!r}"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_variant_fixtures_hold_the_reference_answer_and_need_their_value() -> None:
    """Each case's expectation is the reference's under its rules, and the case could not pass
    without the value it was made for (the same rules less that parameter answer otherwise)."""
    for c in variant_cases():
        kind = KINDS[c.kind]
        rules = rules_under(c.profile, c.game)
        assert kind.compare(c.expect, kind.run(rules, c.input, {})) == [], c.id
        path = next(d.path for d in DIMENSIONS if c.id.startswith(
            f"{'HR' if c.game == HR else 'SN'}-VAR-{d.path.replace('.', '-').replace('_', '-')}-"))
        rest = {k: v for k, v in c.profile.overrides.items() if k != path and not (
            path == "points.display_divisor" and k == "points.unit")}
        base = rules_under(make_profile(c.game, rest), c.game)
        try:
            other = kind.run(base, c.input, {})
        except ValueError:
            continue  # the input is not even legal without the value
        assert kind.compare(c.expect, other) != [], f"{c.id} passes without {path}"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_variant_fixtures_pass_through_the_protocol() -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "run", "-q", "--fixtures",
                        str(ROOT / "conformance" / "fixtures" / "variants"), "--engine",
                        f"{sys.executable} -m fives serve"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(variant_cases())
    assert f"{n} passed, 0 failed, 0 errored, 0 skipped" in r.stdout


def test_an_engine_without_the_rules_capability_skips_variant_cases() -> None:
    from fives.conformance.engines.drivers import Engine, Handshake, ReferenceEngine

    cases = variant_cases()
    caps = sorted({k.capability for k in KINDS.values()})
    outside = Engine()
    outside.handshake = Handshake("x", "1", "js", [HR, SN], caps)
    told = Engine()
    told.handshake = Handshake("y", "1", "js", [HR, SN], caps + ["rules"])
    assert ReferenceEngine().supports(cases[0]) is None  # the reference plays the case's rules itself
    assert "does not declare capability rules" in (outside.supports(cases[0]) or "")
    assert told.supports(cases[0]) is None
    assert told.rules_told(cases[0])["digest"] == cases[0].profile.digest
    outside.profile = cases[0].profile  # a run under that very profile: the engine plays it natively
    assert outside.supports(cases[0]) is None and outside.rules_told(cases[0]) is None
    other = next(c for c in cases if c.profile.digest != cases[0].profile.digest)
    assert "plays under its own rules" in (outside.supports(other) or "")


# -- spec/variants.md ----------------------------------------------------------------------------
def test_spec_variants_documents_every_parameter() -> None:
    text = (ROOT / "spec" / "variants.md").read_text(encoding="utf-8")
    for d in DIMENSIONS:
        assert f"### `{d.path}`" in text, d.path
        section = text.split(f"### `{d.path}`", 1)[1].split("\n### ", 1)[0]
        for cl in d.clauses:
            assert f"Seed ({cl}," in section, (d.path, cl)


def test_the_profiles_table_of_spec_variants_is_current() -> None:
    text = (ROOT / "spec" / "variants.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- profiles-table:start -->\n(.*?)<!-- profiles-table:end -->", text, re.S)
    assert table is not None
    r = subprocess.run([sys.executable, "-m", "fives", "rules", "show", "--format", "markdown", HR, SN,
                        *shipped_profiles()], capture_output=True, text=True, check=True)
    assert table.group(1) == r.stdout, "regenerate the table: fives rules show --format markdown ..."


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_rules_compare_names_the_cases_a_profile_changes() -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "rules", "compare", "--json", HR, "racehorse-rice",
                        "muggins-hoyle"], capture_output=True, text=True, check=True)
    import json

    pairs = json.loads(r.stdout)["pairs"]
    assert [(p["a"], p["b"]) for p in pairs] == [(HR, "racehorse-rice"), (HR, "muggins-hoyle"),
                                                  ("racehorse-rice", "muggins-hoyle")]
    first = pairs[0]
    assert first["game"] == HR and first["cases"] > 100
    assert first["differ"] and all(cid.startswith("HR-") for cid in first["differ"])
    assert pairs[1]["game"] is None and pairs[1]["differ"] == []


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_conformance_coverage_shows_every_parameter_value_covered() -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "coverage"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    n = sum(len(v) for g in (HR, SN) for v in alternatives(g).values())
    assert f"{n} parameter values, {n} covered, 0 without a case" in r.stdout
    assert "horse-race     settlement.ties=split  HR-VAR-settlement-ties-split-1" in r.stdout
