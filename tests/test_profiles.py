"""Rule profiles: loading, validation, digests, rules_under, random profiles (fives/profiles.py)."""
from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from fives.profile_space import AWARD_PARAMETERS, DIMENSIONS, ORDER_COMPANIONS, alternatives, random_profile
from fives.profiles import Profile, digest_of, load_profile, make_profile, parameters, rules_under, shipped_profiles
from fives.rules import load_rules
from fives.support.errors import UserError

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str, name: str = "p.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_shipped_profiles_are_the_files_of_spec_variants() -> None:
    names = shipped_profiles()
    assert names == sorted(p.stem for p in (ROOT / "spec" / "variants").glob("*.yaml"))
    assert {"racehorse-rice", "muggins-hoyle", "sniff-domino-games"} <= set(names)
    for n in names:
        p = load_profile(n)
        assert p.name == n and p.source and p.overrides, n


def test_racehorse_rice_digest_is_the_documented_hash() -> None:
    p = load_profile("racehorse-rice")
    assert p.extends == "horse-race"
    assert dict(p.overrides) == {"target.raw": {2: 250, 3: 250, 4: 250}}
    canonical = '{"extends":"horse-race","overrides":{"target.raw":{"2":250,"3":250,"4":250}}}'
    assert p.digest == hashlib.sha256(canonical.encode()).hexdigest()[:16] == digest_of("horse-race", p.overrides)


def test_digest_ignores_order_nesting_and_restated_defaults(tmp_path: Path) -> None:
    a = make_profile("horse-race", {"continuation.drawn_tile_ends_turn": False, "settlement.ties": "split"})
    b = make_profile("horse-race", {"settlement": {"ties": "split"}, "continuation": {"drawn_tile_ends_turn": False},
                                    "deal.hand_size": {2: 7}})  # 7 for two players is the seeds' own
    assert a.digest == b.digest and dict(a.overrides) == dict(b.overrides)
    assert list(a.overrides) == sorted(a.overrides)
    c = make_profile("horse-race", {"settlement.ties": "nobody"})
    assert c.digest != a.digest


def test_by_players_override_keeps_the_other_counts() -> None:
    p = make_profile("american-sniff", {"deal.hand_size": {3: 5}})
    r = rules_under(p, "american-sniff")
    assert r.hand_size == {2: 7, 3: 5, 4: 5}
    assert dict(p.overrides) == {"deal.hand_size": {2: 7, 3: 5, 4: 5}}


def test_rules_under_applies_only_to_the_extended_game() -> None:
    p = load_profile("racehorse-rice")
    hr = rules_under(p, "horse-race")
    assert hr.target_raw == {2: 250, 3: 250, 4: 250} and hr.profile is p
    assert load_rules("horse-race").target_raw == {2: 305, 3: 305, 4: 305}
    sn = rules_under(p, "american-sniff")
    assert sn is load_rules("american-sniff") and sn.profile is None
    assert rules_under(None, "horse-race").profile is None


@pytest.mark.parametrize("text, needle", [
    ("name: x\nextends: horse-race\nsource: s\nrules: {continuation.bogus: 1}\n", "unknown parameter 'continuation.bogus'"),
    ("name: x\nextends: horse-race\nsource: s\nrules: {settlement.ties: weird}\n", "settlement/ties"),
    ("name: x\nextends: horse-race\nsource: s\nrules: {deal.hand_size: {4: 8}}\n", "need more than 28 tiles"),
    ("name: x\nextends: horse-race\nsource: s\nrules: {id: other}\n", "unknown parameter 'id'"),
    ("name: x\nextends: chess\nsource: s\n", "unknown game 'chess'"),
    ("name: x\nextends: horse-race\n", "schema violation"),
    ("name: x\nextends: horse-race\nsource: s\nrules: {deal.reserve: {2: -1}}\n", "deal/reserve"),
    ("{{{\n", "p.yaml"),
])
def test_bad_profile_files_are_one_line_user_errors(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(UserError) as e:
        load_profile(write(tmp_path, text))
    assert e.value.exit_code == 2 and needle in str(e.value) and "\n" not in str(e.value)


def test_unknown_name_and_missing_file() -> None:
    with pytest.raises(UserError, match="unknown rules profile 'nosuch': one of all-fives-gambit"):
        load_profile("nosuch")
    with pytest.raises(UserError, match="no such file"):
        load_profile("./nosuch.yaml")


def test_the_cli_reports_a_bad_profile_in_one_line() -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "rules", "show", "nosuch"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("fives: error: unknown rules profile 'nosuch'")
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_every_dimension_is_a_parameter_of_its_games_with_alternatives() -> None:
    for d in DIMENSIONS:
        for g in d.games:
            assert d.path in parameters(g), (d.path, g)
            assert alternatives(g).get(d.path), (d.path, g)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_random_profiles_are_valid_deterministic_and_of_the_asked_size() -> None:
    for game in ("horse-race", "american-sniff"):
        for i in range(20):
            n = 1 + i % 4
            p = random_profile(random.Random(i), game, n)
            assert p == random_profile(random.Random(i), game, n)
            dims = {k for k in p.overrides if k != "points.unit"}
            # a Sniff award parameter brings settlement.kind with it (fives.profile_space.alternative_overrides)
            brought = "settlement.kind" in dims and bool(dims & set(AWARD_PARAMETERS)) and game == "american-sniff"
            # an opening order brings the two rules that read it (fives.profile_space.ORDER_COMPANIONS)
            order = 2 * ("opening.order" in dims and set(ORDER_COMPANIONS) <= dims)
            # a scope may bring the requirement it binds (issue 38: fives.profile_space.SCOPE_COMPANION)
            scoped = "opening.scope" in dims and "opening.requires" in dims
            sizes = {n + order + b + c for b in {0, int(brought)} for c in {0, int(scoped)}}
            assert len(dims) in sizes, p
            r = rules_under(p, game)
            assert r.profile is p and r.id == game
    with pytest.raises(ValueError):
        random_profile(random.Random(0), "horse-race", 0)


def test_profile_is_hashable_and_frozen() -> None:
    p = load_profile("racehorse-rice")
    assert isinstance(p, Profile) and hash(p) == hash(load_profile("racehorse-rice"))
    with pytest.raises(Exception):
        p.name = "x"  # type: ignore[misc]


def test_rules_show_json_lists_the_changed_values() -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "rules", "show", "--format", "json", "horse-race",
                        "racehorse-rice"], capture_output=True, text=True, check=True)
    doc = json.loads(r.stdout)
    assert [p["name"] for p in doc["profiles"]] == ["horse-race", "racehorse-rice"]
    row = next(d for d in doc["dimensions"] if d["parameter"] == "target.raw")
    assert row["values"] == [{"2": 305, "3": 305, "4": 305}, {"2": 250, "3": 250, "4": 250}]
