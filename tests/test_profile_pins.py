"""A run under a profile pins what the profile sets (issue 37, item 7; spec/variants.md, "What a
run under a profile pins"): for every shipped profile P and every value it sets, an engine served
under P with that one value changed to any other value the profile space offers fails
`fives conformance run --rules P`, and the reference under P passes it."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from fives.cli import main
from fives.conformance.cases.expected_under import plan_under
from fives.conformance.cases.kinds import kind_named
from fives.conformance.cases.profile_pins import pin_cases, plan_run, rival_values, rivals, with_pins
from fives.conformance.cases.reachable import CHECKS
from fives.conformance.cases.selection import CaseFilters
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.runner import run_cases
from fives.profile_space import OPENING_ORDERS, alternative_overrides, alternatives
from fives.profiles import Profile, load_profile, make_profile, parameters, rules_under, shipped_profiles
from fives.support import paths

SHIPPED = sorted(shipped_profiles())


def space_rivals(p: Profile) -> list[tuple[str, Any, dict[str, Any]]]:
    """(parameter, value, the rival's overrides) for every value P sets and every other value the
    profile space offers for it (the game's own included): the engines the done-when names."""
    out = []
    for path in sorted(p.overrides):
        if path not in alternatives(p.extends) and path != "points.display_divisor":
            continue  # a companion (points.unit) changes with its dimension
        own = parameters(p.extends)[path]
        for value in [own, *alternatives(p.extends).get(path, [])]:
            if value != p.overrides[path]:
                out.append((path, value, {**p.overrides, **alternative_overrides(p.extends, path, value)}))
    return out


def fails(case: Any, rules: Any) -> bool:
    kind = kind_named(case.kind)
    try:
        return bool(kind.compare(case.expect, kind.run(rules, case.input, {})))
    except Exception:  # noqa: BLE001 - a refusal fails a case that expects an answer
        return True


def test_rival_values_are_the_games_the_spaces_and_the_neighbours() -> None:
    # a by-players number: the game's own, the space's alternatives, each count one either side
    got = rival_values("horse-race", "target.raw", {2: 250, 3: 250, 4: 250})
    assert got[0] == parameters("horse-race")["target.raw"] == {2: 305, 3: 305, 4: 305}
    assert {2: 250, 3: 200, 4: 200} in got and {2: 249, 3: 250, 4: 250} in got and {2: 250, 3: 250, 4: 251} in got
    assert {2: 250, 3: 250, 4: 250} not in got
    # an enum: every other value of the schema's or the space's; an order: every adjacent swap too
    assert rival_values("american-sniff", "spinners.policy", "none") == ["first-double", "every-double", "opening-double"]
    order = OPENING_ORDERS[2]
    swaps = rival_values("american-sniff", "opening.order", order)
    assert order[:5] + [order[6], order[5]] in swaps and [order[1], order[0], *order[2:]] in swaps
    assert order not in swaps and parameters("american-sniff")["opening.order"] in swaps


@pytest.mark.slow  # 16 rivals' rules built: over 1 s
def test_the_briefs_engine_fails_the_pins_of_an_order() -> None:
    # issue 37: an engine opening [5|5], [1|1] ... [6|6], [0|0] passed 100% of a run under a
    # profile saying [5|5], [6|6], [4|4] ...: the orders agree on the first tile only
    p = make_profile("american-sniff", alternative_overrides("american-sniff", "opening.order", OPENING_ORDERS[2]))
    pins = pin_cases(p, seeds=0)  # the order's cases need no play
    engine = make_profile("american-sniff", {**p.overrides, "opening.order": [
        "[5|5]", "[1|1]", "[2|2]", "[3|3]", "[4|4]", "[6|6]", "[0|0]"]})
    beaten = [c.id for c in pins.cases if fails(c, rules_under(engine, "american-sniff"))]
    assert beaten and all(c.startswith("PIN-american-sniff-opening-order-") for c in beaten)
    rules = rules_under(p, "american-sniff")
    assert not [c.id for c in pins.cases if fails(c, rules)]
    assert not [c.id for c in pins.cases if c.kind in CHECKS and CHECKS[c.kind](rules, c.input)]  # reachable


@pytest.mark.slow  # every shipped profile's pins: about 20 s
@pytest.mark.parametrize("name", SHIPPED)
def test_every_space_rival_of_every_shipped_profile_fails_a_pin(name: str) -> None:
    p = load_profile(name)
    pins = pin_cases(p)
    rules = rules_under(p, p.extends)
    assert pins.cases and not pins.unpinned, pins.unpinned
    for c in pins.cases:  # reached by play under P, and P's answer
        assert not fails(c, rules), c.id
        assert c.kind not in CHECKS or not CHECKS[c.kind](rules, c.input), (c.id, CHECKS[c.kind](rules, c.input))
    for path, value, overrides in space_rivals(p):
        other = rules_under(make_profile(p.extends, overrides), p.extends)
        assert any(fails(c, other) for c in pins.cases), f"{name}: {path} = {value} passes every pin"
    # deterministic: the same profile, the same cases
    again = pin_cases(p)
    assert [(c.id, c.input, c.expect) for c in again.cases] == [(c.id, c.input, c.expect) for c in pins.cases]


def test_a_sampled_rival_fails_and_the_reference_passes() -> None:
    """The fast sample of the done-when, in process: racehorse-rice's target against the seeds'."""
    p = load_profile("racehorse-rice")
    cases, plan = with_pins([], plan_under(p, [])[1], seeds=0)  # its one value is pinned without play
    assert cases and set(plan.pinned) == {c.id for c in cases} <= plan.changed
    good = run_cases(ReferenceEngine(profile=p, strict=True), cases, plan=plan)
    assert [r.status for r in good] == ["passed"] * len(cases)
    rival = make_profile("horse-race", {"target.raw": {2: 305, 3: 305, 4: 305}})  # the seeds' target
    bad = run_cases(ReferenceEngine(profile=rival), cases, plan=plan)
    assert "failed" in [r.status for r in bad]


def test_pins_follow_the_filters_and_unchanged_only_has_none() -> None:
    p = load_profile("sniff-indoor-outdoor")
    cases, plan = with_pins([], plan_under(p, [])[1], CaseFilters(kinds=("setup",)), seeds=0)
    assert cases and {c.kind for c in cases} == {"setup"} and set(plan.pinned) == {c.id for c in cases}
    assert plan.to_dict()["pinned"] == len(cases)
    none, quiet = plan_run(p, [], CaseFilters(kinds=("setup",)), unchanged_only=True)
    assert none == [] and quiet.pinned == {}
    # a profile that sets nothing pins nothing
    assert pin_cases(make_profile("horse-race", {})).cases == ()
    assert all(r.path in p.overrides for r in rivals(p))


def write_profile(tmp: Path, name: str, extends: str, overrides: dict[str, Any]) -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, "extends": extends, "source": "a rival (tests/test_profile_pins.py)",
                                    "rules": overrides}), encoding="utf-8")
    return path


def run_under(profile: str, game: str, engine: str | None = None) -> tuple[int, str]:
    """`fives conformance run --rules P` over P's game's setup fixtures (the pins are added to any
    selection; the rest of the suite adds nothing to what is asked here)."""
    fixtures = paths.ROOT / "conformance" / "fixtures" / "setup" / f"{game}.yaml"
    args = ["conformance", "run", "-q", "--rules", profile, "--fixtures", str(fixtures)]
    r = CliRunner().invoke(main, args + (["--engine", engine] if engine else []))
    return r.exit_code, r.output


@pytest.mark.slow  # an engine process per rival
def test_the_served_sample(tmp_path: Path) -> None:
    p = load_profile("sniff-indoor-outdoor")
    assert run_under(p.name, p.extends)[0] == 0  # the reference under P passes
    path, value, overrides = next(r for r in space_rivals(p) if r[0] == "drawing.limit")
    rival = write_profile(tmp_path, "rival", p.extends, overrides)
    code, out = run_under(p.name, p.extends, f"{sys.executable} -m fives serve --rules {rival}")
    assert code == 1 and " failed" in out and not out.strip().endswith("0 failed, 0 errored, 0 skipped"), out


@pytest.mark.slow  # every value of every shipped profile, an engine process each: minutes
@pytest.mark.parametrize("name", SHIPPED)
def test_every_value_of_every_shipped_profile_served_otherwise_fails(name: str, tmp_path: Path) -> None:
    p = load_profile(name)
    assert run_under(p.name, p.extends)[0] == 0
    passing = []
    for i, (path, value, overrides) in enumerate(space_rivals(p)):
        rival = write_profile(tmp_path, f"rival-{i}", p.extends, overrides)
        code, out = run_under(p.name, p.extends, f"{sys.executable} -m fives serve --rules {rival}")
        if code != 1:
            passing.append(f"{path} = {value}: exit {code}: {out.strip()[-200:]}")
    assert not passing, "\n".join(passing)


def test_a_selection_no_pin_can_join_costs_nothing() -> None:
    p = load_profile("muggins-hoyle")
    plan = plan_under(p, [])[1]
    for filters in (CaseFilters(ids=("SN-TURN-01",)), CaseFilters(kinds=("evaluate",)), CaseFilters(games=("horse-race",))):
        assert with_pins([], plan, filters) == ([], plan)


def _at_hand_two(rules: Any) -> Any:
    """A two-player match under `rules`, played (first option each time) to hand 2's first state."""
    from fives.match import DRAW, PASS, PLACE, Action, Match
    from fives.settlement import configure

    m = Match(rules, configure(rules, 2, False), 3)
    while m.hand_no < 2 or not m.in_hand:
        if not m.in_hand:
            m.start_hand()
            continue
        opts = m.legal_options()
        m.apply(Action(PLACE, opts.placements[0]) if opts.placements else Action(DRAW if opts.draw else PASS))
    return m


def test_one_snapshot_writes_the_hand_number_only_where_a_rule_reads_it() -> None:
    from fives.conformance.cases.match_state import legal_input, turn_input

    gambit = rules_under(load_profile("all-fives-gambit"), "american-sniff")
    m = _at_hand_two(gambit)
    state = turn_input(m)
    assert state["hand_number"] == 2 and legal_input(state)["hand_number"] == 2
    assert legal_input(state)["hand"] is state["hands"][state["seat"]]  # shared: one YAML anchor
    # the hand-2 leader may open with any tile under gambit; with the hand number left out, the
    # state reads as a first hand, and only the highest double in hand is offered
    legal = kind_named("legal-placements").run(gambit, legal_input(state), {})
    first = kind_named("legal-placements").run(gambit, {k: v for k, v in legal_input(state).items()
                                                         if k != "hand_number"}, {})
    assert len(legal["placements"]) > len(first["placements"]) >= 1
    seeds = _at_hand_two(rules_under(make_profile("american-sniff", {}), "american-sniff"))
    assert "hand_number" not in turn_input(seeds)  # the seeds' rules read no hand number: bytes kept
    assert "draws" not in turn_input(m, draws=False)
