"""Settlement arithmetic against independent re-computations and the seeds' examples."""
from __future__ import annotations

import random

import pytest

from fives.rules import load_rules
from fives.settlement import BLOCKED, GONE_OUT, HandEnd, Settlement, configure

SNIFF, HORSE = load_rules("american-sniff"), load_rules("horse-race")


def nearest_five(n: int) -> int:
    """Written from the seeds' words: remainder 1 or 2 rounds down, 3 or 4 up."""
    r = n % 5
    return n - r if r in (0, 1, 2) else n + (5 - r)


def test_rounding_matches_the_seed_rule_and_examples() -> None:
    s = Settlement(HORSE, configure(HORSE, 2))
    for n in range(0, 200):
        assert s.round_remaining(n) == nearest_five(n)
    # the examples both seeds and the digest give
    assert [s.round_remaining(n) for n in (17, 18, 22, 7, 12, 19, 1, 2, 3)] == [15, 20, 20, 5, 10, 20, 0, 0, 5]


def test_sniff_seed_example_partners_rounded_apart() -> None:
    s = Settlement(SNIFF, configure(SNIFF, 4, True))
    r = s.settle([0, 0], HandEnd(GONE_OUT, 1), [7, 0, 12, 0])
    assert r.changes == [-15, 0] and r.rounded == [5, 0, 10, 0]  # 15, not 20


def test_horse_race_seed_examples() -> None:
    solo2 = Settlement(HORSE, configure(HORSE, 2))
    assert solo2.settle([0, 0], HandEnd(GONE_OUT, 0), [0, 17]).changes == [3, 0]
    teams = Settlement(HORSE, configure(HORSE, 4, True))
    assert teams.settle([0, 0], HandEnd(GONE_OUT, 0), [0, 9, 7, 8]).changes == [3, 0]
    assert teams.settle([0, 0], HandEnd(BLOCKED), [1, 5, 17, 6]).changes == [0, 4]
    r = teams.settle([59, 59], HandEnd(BLOCKED), [5, 6, 7, 6])
    assert (r.changes, r.scores, r.winners) == ([2, 2], [61, 61], [0, 1])
    solo4 = Settlement(HORSE, configure(HORSE, 4))
    assert solo4.settle([0] * 4, HandEnd(BLOCKED), [4, 4, 4, 14]).changes == [4, 4, 4, 0]


@pytest.mark.parametrize("players, partnerships", [(2, False), (3, False), (4, False), (4, True)])
def test_horse_race_awards_recomputed(players: int, partnerships: bool) -> None:
    """Random hands, settled by the engine and by a direct reading of HR-SETTLE-1..7."""
    cfg = configure(HORSE, players, partnerships)
    s = Settlement(HORSE, cfg)
    rng = random.Random(f"hr-{players}-{partnerships}")
    teams = [[0, 2], [1, 3]] if partnerships else [[p] for p in range(players)]
    for _ in range(400):
        pips = [rng.randint(0, 40) for _ in range(players)]
        gone = rng.choice([None] + list(range(players)))
        if gone is not None:
            pips[gone] = 0
        scores = [rng.randint(0, 60) for _ in teams]
        r = s.settle(scores, HandEnd(GONE_OUT, gone) if gone is not None else HandEnd(BLOCKED), pips)
        team_total = [sum(pips[p] for p in team) for team in teams]
        if gone is not None:
            winners = [i for i, team in enumerate(teams) if gone in team]
        else:
            winners = [i for i, x in enumerate(team_total) if x == min(team_total)]
        expected = [0] * len(teams)
        for w in winners:
            others = sum(pips[p] for i, team in enumerate(teams) if i != w for p in team)
            expected[w] = nearest_five(others) // 5
        assert r.hand_winners == winners
        assert r.changes == expected
        after = [a + b for a, b in zip(scores, expected)]
        assert r.scores == after
        assert r.winners == [i for i, x in enumerate(after) if x >= 61]


@pytest.mark.parametrize("players, partnerships", [(2, False), (3, False), (4, True)])
def test_sniff_deductions_recomputed(players: int, partnerships: bool) -> None:
    cfg = configure(SNIFF, players, partnerships)
    s = Settlement(SNIFF, cfg)
    rng = random.Random(f"sn-{players}")
    teams = [[0, 2], [1, 3]] if partnerships else [[p] for p in range(players)]
    for _ in range(400):
        pips = [rng.randint(0, 40) for _ in range(players)]
        blocked = rng.random() < 0.5
        gone = None if blocked else rng.randrange(players)
        if gone is not None:
            pips[gone] = 0
        scores = [rng.randint(-50, cfg.target - 1) for _ in teams]  # below the target, as in play
        r = s.settle(scores, HandEnd(BLOCKED) if blocked else HandEnd(GONE_OUT, gone), pips)
        expected = [-sum(nearest_five(pips[p]) for p in team) for team in teams]
        assert r.changes == expected and r.awards == [] and r.hand_winners == []
        assert r.scores == [a + b for a, b in zip(scores, expected)]  # no floor: below zero is fine
        assert r.winners == []  # deductions never reach a target


def test_settle_rejects_inconsistent_input() -> None:
    s = Settlement(HORSE, configure(HORSE, 2))
    with pytest.raises(ValueError, match="went out"):
        s.settle([0, 0], HandEnd(GONE_OUT, 0), [3, 4])
    with pytest.raises(ValueError, match="seats' pips"):
        s.settle([0, 0], HandEnd(BLOCKED), [3, 4, 5])
    with pytest.raises(ValueError, match="ends"):
        s.settle([0, 0], HandEnd("conceded"), [3, 4])


def test_to_dict_shape() -> None:
    r = Settlement(SNIFF, configure(SNIFF, 2)).settle([10, 20], HandEnd(BLOCKED), [3, 9])
    assert r.to_dict() == {
        "kind": "deduct-per-seat", "end": {"reason": "blocked", "seat": None},
        "seats": [{"seat": 0, "pips": 3, "rounded": 5}, {"seat": 1, "pips": 9, "rounded": 10}],
        "totals": [3, 9], "hand_winners": [], "awards": [],
        "deductions": [{"side": 0, "seats": [0], "points": 5}, {"side": 1, "seats": [1], "points": 10}],
        "changes": [-5, -10], "scores": [5, 10], "winners": []}
