"""The match state machine: configurations, deal, lot, turns, continuation, hand and match end."""
from __future__ import annotations

import pytest

from fives.layout import Placement
from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match
from fives.rules import load_rules
from fives.settlement import BLOCKED, GONE_OUT, ConfigError, configure
from fives.strategies import play_match
from fives.tiles import ALL_TILES, Side, tile

SNIFF, HORSE = load_rules("american-sniff"), load_rules("horse-race")


def t(text: str):
    a, b = text.strip("[]").split("|")
    return tile(int(a), int(b))


# -- configurations (SN-PLAYERS-1, SN-TARGET-1, HR-PLAYERS-1, HR-POINTS-1, *-DEAL-1) -----------
@pytest.mark.parametrize("rules, players, partnerships, hand, target, sides", [
    (SNIFF, 2, False, 7, 250, ((0,), (1,))),
    (SNIFF, 3, False, 6, 200, ((0,), (1,), (2,))),
    (SNIFF, 4, True, 5, 200, ((0, 2), (1, 3))),
    (HORSE, 2, False, 7, 61, ((0,), (1,))),
    (HORSE, 3, False, 6, 61, ((0,), (1,), (2,))),
    (HORSE, 4, False, 5, 61, ((0,), (1,), (2,), (3,))),
    (HORSE, 4, True, 5, 61, ((0, 2), (1, 3))),
])
def test_configurations(rules, players, partnerships, hand, target, sides) -> None:
    c = configure(rules, players, partnerships)
    assert (c.hand_size, c.target, c.sides) == (hand, target, sides)
    assert [c.sides[c.side_of[s]] for s in range(players)] == [x for s in range(players) for x in sides if s in x]


@pytest.mark.parametrize("rules, players, partnerships, words", [
    (SNIFF, 4, False, "add --partnerships"),  # Sniff has no 4-player solo game
    (SNIFF, 5, False, "no game for 5 players"),
    (HORSE, 5, False, "no game for 5 players"),
    (HORSE, 1, False, "no game for 1 players"),
    (SNIFF, 2, True, "2 players in partnerships"),
    (HORSE, 3, True, "3 players in partnerships"),
])
def test_impossible_configurations(rules, players, partnerships, words) -> None:
    with pytest.raises(ConfigError, match=words):
        configure(rules, players, partnerships)


# -- deal and lot (SN-DEAL-1, SN-LEAD-1, HR-DEAL-1, HR-LEAD-1) --------------------------------------
@pytest.mark.parametrize("players, partnerships, boneyard", [(2, False, 14), (3, False, 10), (4, True, 8)])
def test_deal_uses_every_tile(players, partnerships, boneyard) -> None:
    m = Match(HORSE, configure(HORSE, players, partnerships), 3)
    hs = m.start_hand()
    assert len(hs.boneyard) == boneyard
    assert sorted([x for h in hs.deal for x in h] + hs.boneyard) == sorted(ALL_TILES)
    assert m.tiles_accounted() == sorted(ALL_TILES)


def test_same_seed_same_deal_and_lot() -> None:
    cfg = configure(SNIFF, 3)
    a, b, c = Match(SNIFF, cfg, 11).start_hand(), Match(SNIFF, cfg, 11).start_hand(), Match(SNIFF, cfg, 12).start_hand()
    assert a == b
    assert (a.deal, a.boneyard) != (c.deal, c.boneyard)


def test_lot_is_redrawn_among_tied_candidates() -> None:
    leaders = set()
    redrawn = 0
    for seed in range(200):
        hs = Match(HORSE, configure(HORSE, 4), seed).start_hand()
        assert hs.lot is not None and hs.lot[0][0] == (0, 1, 2, 3)
        for (cands, draws), nxt in zip(hs.lot, hs.lot[1:] + [None]):
            assert len(cands) == len(draws) and all(1 <= d <= 6 for d in draws)
            best = [c for c, d in zip(cands, draws) if d == max(draws)]
            if nxt is None:
                assert best == [hs.leader]
            else:
                assert list(nxt[0]) == best and len(best) > 1
                redrawn += 1
        leaders.add(hs.leader)
    assert leaders == {0, 1, 2, 3} and redrawn > 0


# -- turns ------------------------------------------------------------------------------------------
def _state(rules, hands, layout=("[1|4]",), boneyard=(), seat=0, players=2, partnerships=False, scores=None):
    cfg = configure(rules, players, partnerships)
    placements = [Placement(t(layout[0]))] + [Placement(t(a), t(b), Side(s)) for a, b, s in
                                                [x.split() for x in layout[1:]]]
    return Match.from_state(rules, cfg, scores=scores or [0] * len(cfg.sides), layout=placements,
                            hands=[[t(x) for x in h] for h in hands], boneyard=[t(x) for x in boneyard], seat=seat)


def place(a: str, b: str | None = None, side: str | None = None, seat: int | None = None) -> Action:
    return Action(PLACE, Placement(t(a), t(b) if b else None, Side(side) if side else None), seat)


def test_illegal_action_changes_nothing() -> None:
    m = _state(HORSE, [["[2|3]", "[4|6]"], ["[0|0]"]], boneyard=["[5|5]"])
    before = (m.layout.tiles, [list(h) for h in m.hands], list(m.boneyard), m.to_act, list(m.scores))
    for action, code in [(Action(DRAW), "must-place"), (Action(PASS), "must-place"),
                         (place("[2|3]", "[1|4]", "high"), "value-mismatch"),
                         (place("[0|0]", "[1|4]", "low"), "tile-not-in-hand"),
                         (place("[4|6]", "[1|4]", "high", seat=1), "not-your-turn")]:
        with pytest.raises(IllegalAction) as e:
            m.apply(action)
        assert e.value.code == code
        assert (m.layout.tiles, m.hands, m.boneyard, m.to_act, m.scores) == before


def test_draw_sequence_and_pending_tile() -> None:
    m = _state(SNIFF, [["[2|3]"], ["[5|6]"]], boneyard=["[0|2]", "[4|4]", "[1|6]"])
    assert m.legal_options().draw and not m.legal_options().pass_
    out = m.apply(Action(DRAW))
    assert (out.tile, out.playable, out.turn_end, m.to_act) == (t("[0|2]"), False, False, 0)
    out = m.apply(Action(DRAW))
    assert (out.tile, out.playable) == (t("[4|4]"), True)
    opts = m.legal_options()
    assert (opts.draw, opts.pass_) == (False, False)
    assert {p.tile for p in opts.placements} == {t("[4|4]")}
    out = m.apply(place("[4|4]", "[1|4]", "high"))
    assert out.from_drawn and out.turn_end and m.to_act == 1
    assert m.boneyard == [t("[1|6]")]


def test_sniff_never_continues_and_horse_race_does() -> None:
    for rules, expect in [(SNIFF, (False, 1)), (HORSE, (True, 0))]:
        m = _state(rules, [["[4|4]", "[2|3]"], ["[5|6]"]], boneyard=["[0|0]"])
        out = m.apply(place("[4|4]", "[1|4]", "high"))
        assert (out.continues, m.to_act) == expect


def test_continuation_then_turn_end_in_partnerships() -> None:
    # seat 2 scores for team 0+2 with [1|6] (4 + 6 = 10), continues, then [4|5] (6 + 5 = 11) ends the turn
    m = _state(HORSE, [["[0|0]"], ["[3|3]"], ["[1|6]", "[4|5]", "[2|2]"], ["[5|5]"]], seat=2,
               players=4, partnerships=True, scores=[3, 4])
    out = m.apply(place("[1|6]", "[1|4]", "low"))
    assert (out.raw, out.display, out.continues, m.scores) == (10, 2, True, [5, 4])
    out = m.apply(place("[4|5]", "[1|4]", "high"))
    assert (out.sum, out.raw, out.continues, out.turn_end, m.to_act) == (11, 0, False, True, 3)


def test_gone_out_then_next_hand_led_by_last_tile_player() -> None:
    m = _state(HORSE, [["[2|3]"], ["[1|6]"]], seat=1, boneyard=["[0|0]"])
    out = m.apply(place("[1|6]", "[1|4]", "low"))  # scores 2 but the hand ends: no continuation
    assert out.hand_end is not None and out.hand_end.reason == GONE_OUT and out.next_leader == 1
    assert not out.continues and out.next_seat is None
    with pytest.raises(IllegalAction, match="has ended") as e:
        m.apply(Action(DRAW))
    assert e.value.code == "after-hand-end"
    hs = m.start_hand()
    assert hs.leader == 1 and hs.lot is None and hs.hand == 2 and hs.scores == m.scores


def test_blocked_hand_is_detected_at_once_and_next_leader_is_a_lot() -> None:
    m = _state(SNIFF, [["[1|2]", "[5|5]"], ["[3|4]", "[6|6]"]], layout=("[0|1]",))
    out = m.apply(place("[1|2]", "[0|1]", "high"))
    assert out.hand_end is not None and out.hand_end.reason == BLOCKED and out.next_leader is None
    assert not m.in_hand and m.next_leader is None
    # Sniff: each seat loses its own rounded pips (10 and 19 -> 20), no winner
    assert out.settlement is not None and out.settlement.changes == [-10, -20]


def test_placement_reaching_target_ends_the_match() -> None:
    m = _state(HORSE, [["[1|6]", "[4|4]"], ["[2|3]"]], boneyard=["[0|0]"], scores=[59, 0])
    out = m.apply(place("[1|6]", "[1|4]", "low"))
    assert out.match_end is not None and out.match_end.winners == [0] and out.match_end.by == "placement"
    assert not out.continues and out.settlement is None and m.scores == [61, 0]
    for action in (place("[4|4]", "[1|4]", "high"), Action(DRAW)):
        with pytest.raises(IllegalAction, match="the match is over"):
            m.apply(action)
    with pytest.raises(IllegalAction):
        m.start_hand()


def test_from_state_rejects_a_tile_in_two_places() -> None:
    with pytest.raises(ValueError, match=r"\[2\|3\] is both"):
        _state(HORSE, [["[2|3]"], ["[2|3]"]])
    with pytest.raises(ValueError, match="both in the layout"):
        _state(HORSE, [["[1|4]"], []])


@pytest.mark.parametrize("rules", [SNIFF, HORSE])
def test_a_whole_match_ends_with_a_winner(rules) -> None:
    for players, partnerships in rules.configurations():
        cfg = configure(rules, players, partnerships)
        events = play_match(rules, cfg, 1, ["greedy"])
        end = events[-1]
        assert end["event"] == "match-end" and end["winners"]
        assert all(end["scores"][w] >= cfg.target for w in end["winners"])
        hands = [e for e in events[1:] if e["event"] == "hand"]
        assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1)) == list(range(1, end["hands"] + 1))
