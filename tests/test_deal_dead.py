"""Issue 39's `deal.dead`: tiles set aside at the deal, out of play, apart from the boneyard's
never-drawn reserve (`deal.reserve`). The seeds set none aside (SN-DEAL-1, HR-DEAL-1); every
expectation below is counted by hand from the deal sizes (28 - players x hand size - dead)."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fives.conformance.cases import reachable
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds import load_kinds
from fives.conformance.cases.kinds.setup import setup_answer
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.runner import run_cases
from fives.conformance.fuzz.small import play_one
from fives.match import DRAW, Action, Match
from fives.profile_space import alternatives
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules
from fives.settlement import configure
from fives.tiles import ALL_TILES

HR, SN = "horse-race", "american-sniff"
ONE = {"deal.dead": {2: 1, 3: 1, 4: 1}}
ROOT = Path(__file__).resolve().parents[1]


def under(game: str, overrides: dict[str, Any]) -> Any:
    return rules_under(make_profile(game, overrides) if overrides else None, game)


def test_the_seeds_set_no_tile_aside_and_setup_says_so() -> None:
    for game in (HR, SN):
        seeds = load_rules(game)
        assert [seeds.dead_tiles(n) for n in (2, 3, 4)] == [0, 0, 0]
        # both seeds deal 7, 6, 5: the boneyard is 28 - 14, 28 - 18, 28 - 20
        configs = [(n, n == 4) for n in (2, 3, 4)]  # four players in partnerships: both games allow it
        assert [setup_answer(seeds, *c)["boneyard"] for c in configs] == [14, 10, 8]
        dead = under(game, {"deal.dead": {2: 1, 3: 3, 4: 8}})
        assert [setup_answer(dead, *c)["boneyard"] for c in configs] == [13, 7, 0]
        assert [setup_answer(dead, *c)["hand_size"] for c in configs] == [7, 6, 5]


def test_a_deal_sets_the_tiles_after_the_hands_aside_and_the_rest_is_drawn_to_the_last() -> None:
    # drawing.while_playable lets every turn draw: the boneyard is spent within the hand
    rules, seeds = under(HR, {"deal.dead": {2: 3}, "drawing.while_playable": True}), load_rules(HR)
    config, plain = configure(rules, 2, False), configure(seeds, 2, False)
    m, s = Match(rules, config, 5), Match(seeds, plain, 5)
    m.start_hand(), s.start_hand()
    assert m.hands == s.hands  # the same shuffle deals the same hands
    assert m.boneyard == s.boneyard[3:] and len(m.boneyard) == 11  # 28 - 14 - 3
    aside = set(ALL_TILES) - set(m.tiles_accounted())
    assert aside == set(s.boneyard[:3])
    # play on, always drawing when allowed: the boneyard is drawn to its last tile, never the tiles set aside
    rng, drawn_out = random.Random(1), False
    while m.in_hand:
        opts = m.legal_options()
        if opts.draw:
            m.apply(Action(DRAW, None, m.to_act))
        else:
            play_one(rng, m, False)
        drawn_out |= not m.boneyard
        assert not aside & set(m.tiles_accounted()) and len(m.tiles_accounted()) == 25
    assert drawn_out


def test_a_state_reached_by_play_lists_every_tile_but_those_set_aside() -> None:
    rules = under(SN, ONE)
    base = {"game": SN, "players": 2, "scores": [0, 0], "seat": 0, "layout": [],
            "hands": [[str(t) for t in ALL_TILES[:7]], [str(t) for t in ALL_TILES[7:14]]]}
    state = {**base, "boneyard": [str(t) for t in ALL_TILES[14:27]]}  # 13: one tile set aside
    assert reachable.turn_problems(rules, state) == []
    whole = {**base, "boneyard": [str(t) for t in ALL_TILES[14:]]}  # all 28: none set aside
    assert reachable.turn_problems(rules, whole) == [
        "28 tiles in the layout, hands and boneyard: a deal accounts for all 28 but the 1 set aside"]
    # the seeds' rules want all 28 listed, as before
    assert reachable.turn_problems(load_rules(SN), state) == [
        "27 tiles in the layout, hands and boneyard: a deal accounts for all 28"]
    assert reachable.turn_problems(load_rules(SN), whole) == []
    # completing a cut state leaves the set-aside count unlisted
    cut = {**base, "boneyard": []}
    assert len(reachable.complete(rules, cut)["boneyard"]) == 13
    assert len(reachable.complete(load_rules(SN), cut)["boneyard"]) == 14


def test_hands_a_reserve_and_the_tiles_set_aside_must_fit_the_set() -> None:
    from fives.support.errors import UserError

    assert [under(HR, {"deal.dead": {4: 8}}).dead_tiles(4)] == [8]  # 4 x 5 + 8 = 28: fits
    with pytest.raises(UserError, match=r"deal/dead: 4 players of 5 tiles, a reserve of 0 and 9 tiles set aside "
                                        r"need more than 28 tiles"):
        under(HR, {"deal.dead": {4: 9}})
    with pytest.raises(UserError, match="a reserve of 2 and 7 tiles set aside"):
        under(SN, {"deal.dead": {4: 7}, "deal.reserve": {4: 2}})


def test_a_profile_file_that_sets_too_many_aside_is_one_line_exit_2(tmp_path: Path) -> None:
    prof = tmp_path / "p.yaml"
    prof.write_text("name: p\nextends: horse-race\nsource: a test\nrules:\n  deal.dead: {2: 15}\n")
    p = subprocess.run([sys.executable, "-m", "fives.cli", "conformance", "run", "--rules", str(prof),
                        "--kind", "setup", "-q"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().splitlines() == [f"fives: error: {prof}: deal/dead: 2 players of 7 tiles, a reserve of 0 "
                                            f"and 15 tiles set aside need more than 28 tiles"]


def test_dead_tiles_are_a_dimension_the_fuzzer_and_diagnose_draw() -> None:
    for game in (HR, SN):
        assert alternatives(game)["deal.dead"] == [{2: 1, 3: 1, 4: 1}]


def test_its_variant_cases_fail_an_engine_that_ignores_it() -> None:
    cases = [c for c in load_cases() if c.profile is not None and "deal.dead" in c.profile.overrides
             and c.file.endswith(("variants/horse-race.yaml", "variants/american-sniff.yaml"))]
    assert {c.game for c in cases} == {HR, SN} and {c.kind for c in cases} >= {"setup"}
    results = run_cases(ReferenceEngine(), cases)  # each under its own rules: every one passes
    assert [r.status for r in results] == ["passed"] * len(cases)
    kinds = load_kinds()
    for c in cases:  # the same input under the seeds' deal answers otherwise
        kind = kinds[c.kind]
        assert kind.compare(c.expect, kind.run(load_rules(c.game), c.input, {})), c.id
        assert not kind.compare(c.expect, kind.run(rules_under(c.profile, c.game), c.input, {})), c.id


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("game", [HR, SN])
def test_diagnose_names_an_engine_that_sets_tiles_aside(game: str) -> None:
    prof = make_profile(game, {"deal.dead": {2: 2, 3: 2, 4: 2}})  # a value no fixture holds: read off setup
    suite = [c for c in load_cases() if c.game == game and c.profile is None and "slow" not in c.tags]
    d = dx.diagnose(run_cases(ReferenceEngine(profile=prof), suite), [game])
    found = {k: v for c in d.causes for k, v in c.candidate.overrides.items()}
    assert {int(k): v for k, v in found.get("deal.dead", {}).items()} == {2: 2, 3: 2, 4: 2}, \
        [c.candidate.name for c in d.causes]
