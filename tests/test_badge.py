"""`fives conformance run --report badge:FILE.svg` (spec/reports.md, "Badge"): a small
self-contained SVG that parses as XML, with the games, passed out of run, the suite version
and the profile; the same run gives the same bytes."""
from __future__ import annotations

import dataclasses
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.conformance.cases.fixtures import Case
from fives.conformance.engines.drivers import Handshake, Outcome
from fives.conformance.golden.generate import SUITE_VERSION
from fives.conformance.reports.badge import (FEW, MOST, NONE, PARTIAL, PASS, badge_parts, badge_svg, text_width,
                                             to_badge)
from fives.conformance.runner import CaseResult

SVG = "{http://www.w3.org/2000/svg}"
MUTANT = f"{sys.executable} -m fives serve --mutant drawn-tile-continues"


def run(tmp_path: Path, *args: str) -> tuple[int, str, ET.Element, str, dict]:
    """A run with a badge and a JSON report: (exit code, output, the badge's root, its text, the report)."""
    badge, report = tmp_path / "badge.svg", tmp_path / "r.json"
    r = CliRunner().invoke(main, ["conformance", "run", "-q", "--report", f"badge:{badge}",
                                  "--report", f"json:{report}", *args])
    text = badge.read_text(encoding="utf-8")
    return r.exit_code, r.output, ET.fromstring(text), text, json.loads(report.read_text(encoding="utf-8"))


def texts(root: ET.Element) -> dict[str, str]:
    return {t.get("class"): t.text for t in root.iter(f"{SVG}text") if t.get("class")}


def message_colour(root: ET.Element) -> str | None:
    return next(r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("class") == "message")


@pytest.mark.slow  # a whole run: over 0.45 s
def test_a_passing_run(tmp_path: Path) -> None:
    code, out, root, text, report = run(tmp_path, "--game", "horse-race", "--kind", "evaluate")
    n = report["summary"]["passed"]
    assert code == 0 and n > 100 and out.strip() == f"{n} passed, 0 failed, 0 errored, 0 skipped"
    assert root.tag == f"{SVG}svg" and root.get("height") == "20"
    assert root.get("data-passed") == root.get("data-run") == str(n)
    assert root.get("data-suite") == SUITE_VERSION and root.get("data-rules") is None
    assert texts(root) == {"label": "fives: Horse Race", "message": f"{n}/{n} passed, suite {SUITE_VERSION}"}
    assert message_colour(root) == PASS
    assert root.find(f"{SVG}title").text == (f"fives conformance: Horse Race: {n} of {n} cases run passed; "
                                             f"suite version {SUITE_VERSION}")
    # self-contained: no link, image, script or style sheet; only the SVG namespace is named
    assert not [e for e in root.iter() if e.tag.split("}")[1] in ("a", "image", "script", "style", "use", "foreignObject")]
    assert "href" not in text and text.count("http://") == 1
    # the same run, the same bytes
    again = tmp_path / "again"
    again.mkdir()
    assert run(again, "--game", "horse-race", "--kind", "evaluate")[3] == text


@pytest.mark.slow  # a whole run: over 0.45 s
def test_a_failing_run_of_a_shipped_mutant(tmp_path: Path) -> None:
    code, _, root, _, report = run(tmp_path, "--engine", MUTANT, "--id", "HR-TURN-*", "--id", "SN-TURN-*")
    s = report["summary"]
    ran = s["passed"] + s["failed"] + s["errored"]
    assert code == 1 and s["failed"] > 0 and s["skipped"] == 0
    assert (root.get("data-passed"), root.get("data-run")) == (str(s["passed"]), str(ran))
    assert texts(root)["message"] == f"{s['passed']}/{ran} passed, suite {SUITE_VERSION}"
    assert texts(root)["label"] == "fives: American Sniff, Horse Race"
    assert message_colour(root) == (MOST if s["passed"] >= 0.9 * ran else FEW)


@pytest.mark.slow  # a whole run: over 0.45 s
def test_the_profile_under_rules(tmp_path: Path) -> None:
    code, _, root, _, report = run(tmp_path, "--rules", "muggins-hoyle", "--kind", "evaluate")
    assert code == 0
    name = report["rules"]["name"]
    assert root.get("data-rules") == name
    assert texts(root)["label"].endswith(f" under {name}")
    s = report["summary"]
    assert root.get("data-run") == str(s["passed"] + s["failed"] + s["errored"])


@pytest.mark.slow  # a whole run: over 0.45 s
def test_one_engine_only_and_never_poured_on_a_terminal(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["conformance", "run", "--engine", MUTANT, "--engine", MUTANT,
                                  "--report", f"badge:{tmp_path / 'b.svg'}"])
    assert r.exit_code == 2 and "a badge is one engine's" in r.output
    assert not (tmp_path / "b.svg").exists()


def case(cid: str, game: str) -> Case:
    return Case(cid, "evaluate", game, ("HR-COUNT-1",), {}, {"placements": []}, {"count": 0}, "f.yaml")


def result(cid: str, status: str, game: str = "horse-race") -> CaseResult:
    return CaseResult(case(cid, game), status, outcome=Outcome("ok" if status != "errored" else "error"))


def test_counts_colours_and_games() -> None:
    rs = [result(f"P{i}", "passed") for i in range(18)] + [result("F", "failed"), result("E", "errored"),
                                                           result("S", "skipped", "american-sniff")]
    parts = badge_parts(rs)
    # skipped cases are not run; a game whose every case was skipped is not on the badge
    assert (parts["passed"], parts["run"], parts["games"], parts["colour"]) == (18, 20, ["Horse Race"], MOST)
    assert badge_parts(rs[:17] + [result(f"F{i}", "failed") for i in range(3)])["colour"] == FEW
    assert badge_parts(rs[:18])["colour"] == PASS
    nothing = badge_parts([result("S", "skipped", "american-sniff")])
    assert (nothing["run"], nothing["colour"], nothing["games"]) == (0, NONE, ["American Sniff"])
    assert badge_parts(rs[:2], interrupted=True)["message"] == f"2/2 passed, suite {SUITE_VERSION}, interrupted"


def test_width_follows_the_text_and_markup_is_escaped() -> None:
    assert text_width("iiii") < text_width("MMMM")
    svg = badge_svg([result("A", "passed", "<odd & game>")])
    root = ET.fromstring(svg)
    assert texts(root)["label"] == "fives: <odd & game>"
    width = float(root.get("width"))
    rects = {r.get("class"): r for r in root.iter(f"{SVG}rect") if r.get("class")}
    assert float(rects["label"].get("width")) + float(rects["message"].get("width")) == pytest.approx(width)


def test_skipped_cases_are_on_the_badge_and_it_is_not_the_all_green_one() -> None:
    rs = [result(f"P{i}", "passed") for i in range(4)] + [result("S1", "skipped"), result("S2", "skipped")]
    parts = badge_parts(rs)
    assert (parts["passed"], parts["run"], parts["skipped"], parts["scope"]) == (4, 4, 2, "")
    assert parts["colour"] == PARTIAL != PASS
    assert parts["message"] == f"4/4 passed, 2 skipped, suite {SUITE_VERSION}"
    root = ET.fromstring(badge_svg(rs))
    assert (root.get("data-skipped"), root.get("data-scope")) == ("2", None)
    assert texts(root)["message"] == parts["message"] and message_colour(root) == PARTIAL
    assert root.find(f"{SVG}title").text == (f"fives conformance: Horse Race: 4 of 4 cases run passed; 2 cases "
                                             f"skipped, not run; suite version {SUITE_VERSION}")
    # a failing run with skips keeps the colour of its failures, and still says what was skipped
    failing = badge_parts(rs + [result("F", "failed")])
    assert (failing["colour"], failing["message"]) == (FEW, f"4/5 passed, 2 skipped, suite {SUITE_VERSION}")


def test_the_declared_scope_is_named_when_it_left_cases_out() -> None:
    hs = Handshake("e", "1", "py", ["horse-race"], ["evaluate"], scope={"players": [2], "partnerships": False})
    out = dataclasses.replace(result("S", "skipped"), out_of_scope="outside the engine's scope: 3 players")
    rs = [result("P", "passed"), out]
    parts = badge_parts(rs, handshake=hs)
    assert parts["scope"] == "players 2, partnerships false"
    assert parts["message"] == f"1/1 passed, 1 skipped (scope: players 2, partnerships false), suite {SUITE_VERSION}"
    root = ET.fromstring(to_badge(rs, hs))
    assert root.get("data-scope") == "players 2, partnerships false" and message_colour(root) == PARTIAL
    assert "(the engine's declared scope: players 2, partnerships false)" in root.find(f"{SVG}title").text
    # a scope that left nothing out is not named: the skip was the profile's or a capability's
    assert badge_parts([result("P", "passed"), result("S", "skipped")], handshake=hs)["scope"] == ""
    # nothing skipped: the badge is the one it always was, whatever the hello declares
    assert to_badge(rs[:1], hs) == badge_svg(rs[:1]) and "data-skipped" not in badge_svg(rs[:1])


@pytest.mark.slow  # a whole run: over 0.45 s
def test_a_run_of_an_engine_of_two_players_shows_its_skips(tmp_path: Path) -> None:
    engine = f"{sys.executable} -m fives serve --players 2"
    code, _, root, _, report = run(tmp_path, "--engine", engine, "--game", "horse-race", "--kind", "setup")
    s = report["summary"]
    assert code == 0 and s["failed"] == s["errored"] == 0 and s["skipped"] > 0
    assert root.get("data-skipped") == str(s["skipped"]) and message_colour(root) == PARTIAL
    assert texts(root)["message"] == (f"{s['passed']}/{s['passed']} passed, {s['skipped']} skipped "
                                      f"(scope: players 2, partnerships false), suite {SUITE_VERSION}")
