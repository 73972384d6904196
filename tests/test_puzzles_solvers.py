"""The two solvers against answers worked out by hand from the seed documents' layouts."""
import pytest

from fives.layout import Placement
from fives.puzzles.brute import count_solutions, enumerate_answers
from fives.puzzles.grade import features, greedy
from fives.puzzles.model import Problem
from fives.puzzles.verify import BadPuzzle, replay
from fives.puzzles.z3model import PuzzleModel
from fives.tiles import Side, parse_tile as T


def P(tile, to=None, side=None):
    return Placement(T(tile), None if to is None else T(to), None if side is None else Side(side))


# Seed 000: Sniff [6|6] with line ends 3 and 5 sums 20; a branch ending in 1 makes 3 + 5 + 1 + 6 = 15.
SNIFF_TABLE = (P("[6|6]"), P("[3|6]", "[6|6]", "line-a"), P("[5|6]", "[6|6]", "line-b"))


def both(problem, limit=5):
    z = PuzzleModel(problem).solve(limit)
    b = count_solutions(problem, budget=None)
    return z, b


def test_single_sniff_branch_half_unique():
    # [1|6] on branch A: 15 scores; [3|5] on either line end: 22 or 18, nothing.
    pr = Problem("american-sniff", "single", SNIFF_TABLE, (T("[1|6]"), T("[3|5]")), 15)
    z, b = both(pr)
    assert [a for a, _ in z] == [(P("[1|6]", "[6|6]", "branch-a"),)]  # branch B is the same answer
    assert b.count == 1 and b.solutions[0][0] == (P("[1|6]", "[6|6]", "branch-a"),)
    assert replay(pr, (P("[1|6]", "[6|6]", "branch-a"),)) == (15,)
    with pytest.raises(BadPuzzle, match="mirrors"):
        replay(pr, (P("[1|6]", "[6|6]", "branch-b"),))


@pytest.mark.parametrize("game,target", [("horse-race", (2, 0, 1, 0)), ("american-sniff", (10, 0, 15, 0))])
def test_build_seed_walkthrough_has_two_orders(game, target):
    # Seed 001: [5|5] = 10, [2|5] on a line 12, [3|5] on the other 5 (Sniff: 2 + 3 + 5 + 5 = 15),
    # [4|5] on a branch 9 (Sniff 14). Only {2, 3} on the lines make 5, in either order.
    tiles = tuple(sorted(T(t) for t in ("[5|5]", "[2|5]", "[3|5]", "[4|5]")))
    pr = Problem(game, "build", (), tiles, target)
    z, b = both(pr)
    expected = sorted([
        (P("[5|5]"), P("[2|5]", "[5|5]", "line-a"), P("[3|5]", "[5|5]", "line-b"), P("[4|5]", "[5|5]", "branch-a")),
        (P("[5|5]"), P("[3|5]", "[5|5]", "line-a"), P("[2|5]", "[5|5]", "line-b"), P("[4|5]", "[5|5]", "branch-a")),
    ], key=lambda s: [str(p) for p in s])
    assert [a for a, _ in z] == expected
    assert sorted((s for s, _ in b.solutions), key=lambda s: [str(p) for p in s]) == expected


TURN_TABLE = (P("[1|4]"),)
TURN_HAND = (T("[1|1]"), T("[3|4]"), T("[4|4]"))


def test_turn_answers_worked_by_hand():
    # From [1|4] with [1|1], [3|4], [4|4] (boneyard empty), the turns are:
    #   [1|1], [4|4], [3|4]: 0 + 2 + 1 = 3    [4|4], [1|1], [3|4]: 0 + 2 + 1 = 3
    #   [1|1], [3|4]: 0 + 1, then [4|4] has no place: 1
    #   [4|4], [3|4]: 0 + 0, not a double and no score: 0    [3|4]: 0
    pr = Problem("horse-race", "turn", TURN_TABLE, TURN_HAND, 1)
    enum = enumerate_answers(pr, budget=None)
    assert dict(enum.counts) == {3: 2, 1: 1, 0: 2}
    z, b = both(pr)
    answer = (P("[1|1]", "[1|4]", "low"), P("[3|4]", "[1|4]", "high"))
    assert [a for a, _ in z] == [answer] and [s for s, _ in b.solutions] == [answer]
    assert replay(pr, answer) == (0, 1)
    three = Problem("horse-race", "turn", TURN_TABLE, TURN_HAND, 3)
    assert len(PuzzleModel(three).solve(5)) == 2 == count_solutions(three).count
    # greedy takes [1|1] (first of three 0s), then [4|4] (2 points): it misses the answer
    assert greedy(pr) == (P("[1|1]", "[1|4]", "low"), P("[4|4]", "[1|4]", "high"), P("[3|4]", "[4|4]", "line-b"))
    f = features(pr, answer, enum)
    assert (f["placements"], f["candidates"], f["answers"], f["greedy_fails"], f["near_misses"]) == (2, 3, 5, 1, 2)


def test_turn_must_continue_and_must_stop():
    pr = Problem("horse-race", "turn", TURN_TABLE, TURN_HAND, 1)
    with pytest.raises(BadPuzzle, match="not over"):
        replay(pr, (P("[1|1]", "[1|4]", "low"),))  # a double continues while a placement is legal
    with pytest.raises(BadPuzzle, match="turn ended"):
        replay(Problem("horse-race", "turn", TURN_TABLE, TURN_HAND, 1),
               (P("[3|4]", "[1|4]", "high"), P("[1|1]", "[1|4]", "low")))


def test_sniff_spinner_is_first_double_in_z3():
    # Sniff: after [1|1] (the Sniff) a later [4|4] has no branches, so [0|4] can go nowhere on it.
    table = (P("[1|4]"), P("[1|1]", "[1|4]", "low"), P("[4|4]", "[1|4]", "high"), P("[3|4]", "[4|4]", "line-b"))
    pr = Problem("american-sniff", "single", table, (T("[0|4]"), T("[1|2]")), 5)
    # [1|2] on [1|1] line B: 1 + 1 + 2 + 3 = 7; nothing else fits: no answer scores 5
    assert PuzzleModel(pr).solve(3) == [] and count_solutions(pr).count == 0
    hr = Problem("horse-race", "single", table, (T("[0|4]"), T("[1|2]")), 1)
    # Horse Race: [4|4] spins; [0|4] on its branch A: 2 + 3 + 0 = 5 -> 1 displayed; [1|2]: 2 + 3 = 5 too
    assert len(PuzzleModel(hr).solve(3)) == 2 == count_solutions(hr).count
