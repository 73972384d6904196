"""Invariants over random matches (hypothesis): tiles, scores, draws, the end, determinism."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match
from fives.record import dumps, hand_event, header, outcome_events
from fives.rules import load_rules
from fives.settlement import configure
from fives.strategies import make_strategies, play_match
from fives.tiles import ALL_TILES

CONFIGS = [(g, n, p) for g in ("american-sniff", "horse-race") for n, p in load_rules(g).configurations()]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

matches = st.tuples(st.sampled_from(CONFIGS), st.integers(0, 2**32 - 1),
                    st.lists(st.sampled_from(["random", "greedy", "first"]), min_size=4, max_size=4))


def _probe(m: Match, rng: random.Random) -> None:
    """Try one action the rules forbid here; it must be refused and change nothing."""
    seat = m.to_act
    before = ([list(h) for h in m.hands], list(m.boneyard), m.layout.tiles, list(m.scores), m.to_act)
    opts = m.legal_options()
    bad: list[Action] = [Action(PLACE, opts.placements[0], (seat + 1) % m.config.players)] if opts.placements else []
    if not opts.draw:
        bad.append(Action(DRAW))
    if not opts.pass_:
        bad.append(Action(PASS))
    other = [t for s, h in enumerate(m.hands) if s != seat for t in h]
    if other and len(m.layout):
        for p in m.layout.legal_placements(other)[:1]:
            bad.append(Action(PLACE, p))  # a tile of someone else's hand
    if not bad:
        return
    action = rng.choice(bad)
    try:
        m.apply(action)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{action} was accepted")
    assert ([list(h) for h in m.hands], list(m.boneyard), m.layout.tiles, list(m.scores), m.to_act) == before


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@SETTINGS
@given(matches)
def test_invariants_at_every_moment(params) -> None:
    (game, players, partnerships), seed, names = params
    rules = load_rules(game)
    cfg = configure(rules, players, partnerships)
    names = names[:players]
    strategies = make_strategies(names, cfg, seed)
    m = Match(rules, cfg, seed)
    rng = random.Random(seed)
    events = [header(rules, cfg, seed, [s.name for s in strategies])]
    earned = [0] * len(cfg.sides)
    while m.match_end is None:
        events.append(hand_event(m.start_hand()))
        assert m.tiles_accounted() == sorted(ALL_TILES)
        while m.in_hand:
            if rng.random() < 0.2:
                _probe(m, rng)
            seat, opts = m.to_act, m.legal_options()
            hand = list(m.hands[seat])
            if opts.placements:
                p = opts.placements[0]
                if len(opts.placements) > 1:
                    p = strategies[seat].choose(m, seat, opts.placements)
                action = Action(PLACE, p, seat)
            else:
                # nobody draws (or passes) while holding a playable tile: checked independently
                assert all(not m.layout.placements_for(t) for t in hand)
                assert opts.draw == bool(m.boneyard) and opts.pass_ == (not m.boneyard)
                action = Action(DRAW if opts.draw else PASS, None, seat)
            out = m.apply(action)
            new = outcome_events(out, m)
            events.extend(new)
            if out.action == PLACE:
                earned[cfg.side_of[seat]] += out.display
            if out.settlement is not None:
                earned = [a + b for a, b in zip(earned, out.settlement.changes)]
            if m.in_hand:
                assert m.tiles_accounted() == sorted(ALL_TILES)
            else:  # revealed hands, layout and boneyard still hold every tile
                assert sorted([t for h in (out.remaining or m.hands) for t in h] + m.layout.tiles + m.boneyard) \
                    == sorted(ALL_TILES)
            assert earned == m.scores  # each score is the sum of its events
    # nothing is placed, drawn or passed after the match ended
    for action in [Action(DRAW), Action(PASS)] + [Action(PLACE, p) for p in m.layout.legal_placements(ALL_TILES)[:3]]:
        try:
            m.apply(action)
        except IllegalAction as e:
            assert e.code == "after-match-end"
        else:
            raise AssertionError("an action was accepted after the match ended")
    assert events[-1]["event"] == "match-end"
    assert all(m.scores[w] >= cfg.target for w in m.match_end.winners)
    # the self-play driver gives exactly this record: the same seed, byte for byte
    lines = [dumps(e) for e in events]
    assert lines == [dumps(e) for e in play_match(rules, cfg, seed, names)]


@SETTINGS
@given(matches)
def test_record_sums_and_order(params) -> None:
    (game, players, partnerships), seed, names = params
    rules = load_rules(game)
    cfg = configure(rules, players, partnerships)
    events = play_match(rules, cfg, seed, names[:players])
    assert events == play_match(rules, cfg, seed, names[:players])
    totals = [0] * len(cfg.sides)
    ended = False
    kinds = Counter()
    for ev in events[1:]:
        assert not ended, "an event after match-end"
        kinds[ev["event"]] += 1
        if ev["event"] == "place":
            side = cfg.side_of[ev["seat"]]
            totals[side] += ev["display"]
            assert ev["score"] == totals[side]
            assert ev["display"] == rules.display(ev["raw"])
            if not rules.has_continuation:
                assert not ev["continues"]
            if ev["drawn"]:
                assert not ev["continues"]
        elif ev["event"] == "settle":
            totals = [a + b for a, b in zip(totals, ev["changes"])]
            assert ev["scores"] == totals
        elif ev["event"] == "match-end":
            ended = True
            assert ev["scores"] == totals
    assert ended and kinds["hand"] == events[-1]["hands"]
