"""Issue 38: a profile's opening scope, its book's player setups, and the sources `fives rules
show` prints for every value it plays (spec/variants.md)."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from fives.conformance.cases.expected_under import ProfilePlan
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds.play import run_legal, run_turn
from fives.conformance.runner import run_one
from fives.profile_space import alternative_overrides, random_profile
from fives.profiles import load_profile, make_profile, rules_under
from fives.support.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
SN, HR = "american-sniff", "horse-race"
LATER = {"players": 2, "layout": [], "hand": ["[2|2]", "[6|6]", "[1|3]"], "boneyard": 14}


def _rules(game: str, overrides: dict[str, Any]) -> Any:
    return rules_under(make_profile(game, overrides, "t"), game)


@pytest.mark.parametrize("game", [SN, HR])
def test_a_first_hand_scope_frees_the_later_hands_openings(game: str) -> None:
    every = _rules(game, {"opening.requires": "highest-double"})
    first = _rules(game, {"opening.requires": "highest-double", "opening.scope": "first-hand"})
    tiles = lambda r, inp: [p["tile"] for p in run_legal(r, inp, {})["placements"]]  # noqa: E731
    assert tiles(first, LATER) == tiles(every, LATER) == ["[6|6]"]  # hand 1 (the default)
    later = {**LATER, "hand_number": 2}
    assert tiles(every, later) == ["[6|6]"]
    assert tiles(first, later) == ["[1|3]", "[2|2]", "[6|6]"]
    turn = {"players": 2, "layout": [], "hands": [LATER["hand"], ["[0|1]"]], "boneyard": [], "seat": 0,
            "hand_number": 3, "actions": [{"action": "place", "tile": "[2|2]"}]}
    assert run_turn(every, turn, {})["error"]["code"] == "must-open-with"
    assert "error" not in run_turn(first, turn, {})


def test_a_bad_hand_number_is_malformed_input() -> None:
    got = run_legal(_rules(SN, {}), {**LATER, "hand_number": 0}, {})
    assert got["error"]["code"] == "malformed-input" and "hand_number" in got["error"]["message"]


def test_the_scope_brings_a_requirement_where_the_game_opens_with_any_tile() -> None:
    assert alternative_overrides(SN, "opening.scope", "first-hand") == {
        "opening.scope": "first-hand", "opening.requires": "highest-double"}
    import random
    seen = 0
    for i in range(80):  # a random scope always plays under a requirement
        p = random_profile(random.Random(i), SN, 3)
        if "opening.scope" in p.overrides:
            seen += 1
            assert p.overrides.get("opening.requires", "any") != "any", p
    assert seen > 0


def test_the_scope_fixtures_fail_an_engine_that_ignores_the_scope() -> None:
    cases = [c for c in load_cases([ROOT / "conformance" / "fixtures" / "variants"], cache=False)
             if c.id.startswith(("SN-VAR-opening-scope-", "HR-VAR-opening-scope-"))]
    assert {c.game for c in cases} == {SN, HR} and len(cases) >= 4
    from fives.conformance.cases.kinds import kind_named
    for c in cases:
        assert c.input["hand_number"] >= 2, c.id  # reached by play in a later hand
        ignored = _rules(c.game, {"opening.requires": "highest-double"})
        kind = kind_named(c.kind)
        assert kind.compare(c.expect, kind.run(ignored, c.input, {})), f"{c.id}: passes with the scope ignored"
        assert not kind.compare(c.expect, kind.run(rules_under(c.profile, c.game), c.input, {})), c.id


def test_each_profile_that_requires_the_highest_double_says_its_scope() -> None:
    for name in ("all-fives-gambit", "muggins-hoyle", "sniff-indoor-outdoor"):
        p = load_profile(name)
        assert p.overrides["opening.requires"] == "highest-double"
        scope = p.overrides.get("opening.scope", "every-hand")
        src = p.sources["opening.scope"]
        assert (scope == "first-hand") == (name == "all-fives-gambit")
        assert ("book" in src) if scope == "first-hand" else ("departs" in src), name


class _Dummy:
    """An engine that must never be asked: every case it sees is skipped by `supports`."""

    def supports(self, case: Any) -> str:
        return "dummy"


def test_a_two_player_book_runs_no_three_player_cases() -> None:
    gambit = load_profile("all-fives-gambit")
    assert gambit.players == ((2, False),) and gambit.plays(2, False) and not gambit.plays(3, False)
    cases = load_cases([ROOT / "conformance" / "fixtures" / "setup"], cache=False)
    three = next(c for c in cases if c.game == SN and c.input.get("players") == 3)
    two = next(c for c in cases if c.game == SN and c.input.get("players") == 2)
    plan = ProfilePlan(gambit)
    got = run_one(_Dummy(), three, 0, {}, plan)  # type: ignore[arg-type]
    assert got.status == "skipped" and got.out_of_scope == \
        "outside all-fives-gambit's scope: 3 players (its book plays 2 players)"
    assert run_one(_Dummy(), two, 0, {}, plan).out_of_scope is None  # type: ignore[arg-type]
    # a profile without `players` keeps every setup of its game
    assert run_one(_Dummy(), three, 0, {}, ProfilePlan(load_profile("sniff-digigamers"))).out_of_scope is None  # type: ignore[arg-type]


def test_a_setup_the_game_has_not_is_a_one_line_error(tmp_path: Path) -> None:
    data = yaml.safe_load((ROOT / "spec" / "variants" / "all-fives-gambit.yaml").read_text(encoding="utf-8"))
    data["players"] = {"solo": [4]}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(UserError, match="players: american-sniff has no game for 4 players each for themselves"):
        load_profile(str(tmp_path / "p.yaml"))
    data["players"] = {"solo": [2]}
    data["sources"]["no.such"] = {"departs": "a departure of nothing at all"}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(UserError, match="sources: unknown parameter 'no.such'"):
        load_profile(str(tmp_path / "p.yaml"))


def _show(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "fives", "rules", "show", *args], capture_output=True, text=True,
                          check=True).stdout


def test_rules_show_prints_each_values_source_under_a_profile_only() -> None:
    seeds = _show(SN)
    assert "source" not in seeds.splitlines()[0] and "opening.scope" not in seeds
    text = _show("all-fives-gambit").splitlines()
    assert text[0].split() == ["parameter", "all-fives-gambit", "all-fives-gambit:", "source"]
    row = next(line for line in text if line.startswith("opening.scope"))
    assert "first-hand *" in row and "gambit: " in row
    row = next(line for line in text if line.startswith("lead.after_blocked"))
    assert "departs: gambit gives the next lead" in row
    import json
    doc = json.loads(_show("--format", "json", "racehorse-rice"))
    tie = next(d for d in doc["dimensions"] if d["parameter"] == "settlement.ties")
    assert tie["sources"] == [{"departs": "the book is silent on this; the seeds' value is kept"}]
    assert "sources" not in json.loads(_show("--format", "json", HR))["dimensions"][0]


def test_the_digest_ignores_sources_and_players() -> None:
    p = load_profile("all-fives-gambit")
    bare = make_profile(p.extends, p.overrides, p.name, p.source)
    assert bare.digest == p.digest and bare == dataclasses.replace(p, sources={}, players=None)


def test_play_under_a_profile_refuses_a_setup_its_book_does_not_play() -> None:
    run = lambda *a: subprocess.run([sys.executable, "-m", "fives", "play", "--game", SN, "--seed", "1", "--quiet",  # noqa: E731
                                     "--rules", "all-fives-gambit", *a], capture_output=True, text=True)
    bad = run("--players", "3")
    assert bad.returncode == 2 and bad.stderr == \
        "fives: error: all-fives-gambit: its book plays 2 players, not 3 players\n"
    good = run("--players", "2")
    assert good.returncode == 0 and good.stdout.startswith("match over after ")


def test_rules_show_marks_a_value_whose_page_the_stored_search_could_not_show() -> None:
    text = _show("sniff-domino-games").splitlines()
    row = next(line for line in text if line.startswith("deal.hand_size"))
    assert "departs: the seeds' value is kept; unverified: the page's hand sizes are a table" in row
    row = next(line for line in text if line.startswith("lead.first_hand"))  # the page is read: no mark
    assert "domino-games-sniff: each player draws one tile" in row and "unverified" not in row
    import json
    doc = json.loads(_show("--format", "json", "muggins-hoyle"))
    got = next(d for d in doc["dimensions"] if d["parameter"] == "settlement.award_rounding")["sources"][0]
    assert got["book"] == "hoyle" and got["unverified"].startswith("the stored excerpt ends in this sentence")


def _survey_claims() -> set[tuple[str, str, str]]:
    """(parameter, value, book) of every book spec/variants.md's survey table cites outside parentheses."""
    import re
    text = (ROOT / "spec" / "variants.md").read_text(encoding="utf-8")
    books = set(re.findall(r"^\| ([a-z0-9-]+) \| ", text[text.index("## Rule books surveyed"):
                                                         text.index("### Values and the books")], re.M))
    books -= {"key", "seeds", "engines"}
    table = text[text.index("<!-- survey-table:start -->"):text.index("<!-- survey-table:end -->")]
    out = set()
    for line in table.splitlines()[3:]:
        parameter, value, cited = (c.strip() for c in line.strip("|").split(" | "))
        bare = re.sub(r"\([^()]*\)", "", re.sub(r"\([^()]*\)", "", cited))
        out |= {(parameter.strip("`"), value, b) for b in books if re.search(rf"(?<![a-z0-9-]){b}(?![a-z0-9-])", bare)}
    return out


def test_every_claim_of_the_survey_has_its_verdict_in_variants_survey_md() -> None:
    rows = [[c.strip() for c in line.strip("|").split(" | ")]
            for line in (ROOT / "spec" / "variants-survey.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and line.count(" | ") == 4 and not line.startswith("| # ")]
    verdicts = {(p.strip("`"), v, b): verdict for _, p, v, b, verdict in rows}
    claims = _survey_claims()
    assert len(claims) > 150
    assert claims - set(verdicts) == set()  # a book cited for a value without a verdict fails here
    assert {v.split(" ")[0].rstrip(":") for v in verdicts.values()} <= {"right", "partly", "wrong", "unverified"}
