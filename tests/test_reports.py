"""Reports: explained failures, failures grouped by clause, sanitised engine text in every
format, several engines side by side (fives/conformance/reports/formats.py, fives/conformance/reports/failures.py, fives/support/sanitize.py)."""
from __future__ import annotations

import json
import math
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fives.conformance.engines.drivers import Handshake, Outcome
from fives.conformance.reports.failures import EngineRun
from fives.conformance.cases.fixtures import Case
from fives.conformance.reports.formats import FORMATS, SEVERAL, human, human_several, to_json, to_junit, to_markdown
from fives.conformance.runner import CaseResult
from fives.support.sanitize import escape_controls, json_safe, markdown_cell, one_line

NASTY = "\x1b[31mred\x1b[0m \x00nul\r\n<b>bold</b> | pipe \u202eevil \ud800"
HS = Handshake("test-engine", "1.0", "python", ["horse-race"], ["turn", "evaluate"])


def turn_case(cid: str, clauses: tuple[str, ...] = ("HR-CONT-5", "HR-DRAW-3")) -> Case:
    return Case(cid, "turn", "horse-race", clauses, {"derived": "test"}, {"actions": []},
                {"results": [{"action": "draw"}, {"action": "place", "continues": False}], "next_seat": 1},
                "conformance/fixtures/play/horse-race-turn.yaml", "A drawn scoring tile ends the turn.")


def failed(cid: str, **kw: Any) -> CaseResult:
    answer = {"results": [{"action": "draw"}, {"action": "place", "continues": True}], "next_seat": 0}
    return CaseResult(turn_case(cid, **kw), "failed",
                      ["results[1].continues: expected false, got true", "next_seat: expected 1, got 0"],
                      Outcome("ok", answer, stderr="log line\n" + NASTY + "\n"))


def passed(cid: str, **kw: Any) -> CaseResult:
    return CaseResult(turn_case(cid, **kw), "passed", [], Outcome("ok", {}))


def errored(cid: str) -> CaseResult:
    return CaseResult(turn_case(cid, ("HR-SCORE-1",)), "errored", [],
                      Outcome("error", message="engine reported error: " + NASTY, raw='{"x": ' + NASTY, stderr=NASTY))


def results() -> list[CaseResult]:
    return [failed("T-1"), failed("T-2"), passed("T-3"), errored("T-4"),
            CaseResult(turn_case("T-5"), "skipped", [], Outcome("skipped", message="no capability"))]


def test_human_report_groups_by_clause_and_explains_each_failure() -> None:
    text = human(results(), HS)
    lines = text.splitlines()
    # -v (verbosity 1) lists every case with its verdict first (issue 40), as pytest -v does
    assert "T-1 FAILED" in lines and "T-3 PASSED" in lines
    f = lines.index("failures by difference pattern (each failing case counted once):")
    # then the failures by difference pattern, each failing case once (not once per clause)
    assert lines[f:f + 3] == [
        "failures by difference pattern (each failing case counted once):",
        "  2 cases: results[].continues: false -> true; clauses HR-CONT-5 2/2, HR-DRAW-3 2/2; e.g. T-1",
        "  1 case: errored: engine reported error; clauses HR-SCORE-1 1/1; e.g. T-4"]
    c = lines.index("failing clauses, most consistently failing first (a case counts under each clause it tests):")
    assert lines[c + 1].startswith("  HR-SCORE-1 (") and lines[c + 1].endswith("): 1 case errors (of 1)")
    assert lines[c + 2] == "  HR-CONT-5 (A drawn tile always ends the turn): 2 cases fail (of 4)"
    i = lines.index("  FAILED T-1 [conformance/fixtures/play/horse-race-turn.yaml]")
    block = lines[i + 1:i + 9]
    assert block[0] == "    A drawn scoring tile ends the turn."
    assert block[1] == "    HR-CONT-5: A drawn tile always ends the turn"
    assert block[2].startswith("      001_4a8ab5b829773601.txt «وضع قطعة واستمرار الدور»: «استثناء السحب")
    assert "    results[1].continues: expected false, got true" in block
    assert "    next_seat: expected 1, got 0" in block
    assert lines[-1] == "2 passed, 2 failed, 1 errored, 1 skipped".replace("2 passed", "1 passed")


def test_human_report_escapes_engine_text() -> None:
    text = human(results(), HS)
    for bad in ("\x1b", "\x00", "\r", "\u202e", "\ud800"):
        assert bad not in text
    assert "    stderr: \\x1b[31mred\\x1b[0m \\x00nul" in text.splitlines()
    assert "\\u202eevil \\ud800" in text


def test_json_report_carries_the_explanation_and_is_strict_json() -> None:
    rs = results()
    rs[0].outcome.answer["next_seat"] = math.nan  # type: ignore[union-attr]
    text = to_json(rs, HS)
    doc = json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    assert doc["failures_by_clause"][1] == {"clause": "HR-CONT-5", "title": "A drawn tile always ends the turn",
                                           "failed": 2, "errored": 0, "cases": 4}
    case = doc["cases"][0]
    assert case["actual"]["next_seat"] == "NaN"
    ex = case["explanation"]
    assert ex["description"] == "A drawn scoring tile ends the turn."
    assert [c["id"] for c in ex["clauses"]] == ["HR-CONT-5", "HR-DRAW-3"]
    assert ex["clauses"][0]["sources"][0]["seed"] == "001_4a8ab5b829773601.txt"
    assert ex["differences"][0] == {"path": "results[1].continues", "kind": "differs", "expected": False,
                                    "actual": True, "text": "results[1].continues: expected false, got true"}
    assert "explanation" not in doc["cases"][2] and doc["cases"][2]["description"]
    assert doc["cases"][3]["explanation"]["message"].startswith("engine reported error: ")


def test_junit_is_well_formed_with_ansi_and_nul() -> None:
    root = ET.fromstring(to_junit(results(), HS).encode())
    cases = {c.get("name"): c for c in root.iter("testcase")}
    body = cases["T-1"].find("failure").text
    assert "results[1].continues: expected false, got true" in body and "HR-CONT-5: A drawn tile" in body
    err = cases["T-4"].find("error")
    assert err.get("message") == "engine reported error: " + one_line(NASTY, 500)
    assert "\\x1b[31m" in cases["T-4"].find("system-err").text


def test_markdown_escapes_html_pipes_and_newlines() -> None:
    md = to_markdown(results(), HS)
    row = next(ln for ln in md.splitlines() if ln.startswith("| `T-4` |"))
    assert row.count(" | ") == 4 and row.endswith(" |")  # five cells: no pipe or newline broke the row
    assert row.startswith("| `T-4` | errored | `HR-SCORE-1` | ")  # the clause on every row
    assert "<b>" not in md and "&lt;b&gt;bold&lt;/b&gt;" in row and "\\|" in row
    assert "| `HR-CONT-5` | A drawn tile always ends the turn | 2 | 0 | 4 |" in md


def test_failing_clauses_are_ranked_by_consistency() -> None:
    from fives.conformance.reports.failures import failures_by_clause, load_clause_book
    # HR-SPIN-2: cited by every case, fails in 3 of 30; HR-COUNT-2: fails in 9 of 10; HR-CONT-5: 1 of 1
    rs = [failed(f"A{i}", clauses=("HR-SPIN-2", "HR-COUNT-2")) for i in range(9)]
    rs += [passed("B", clauses=("HR-SPIN-2", "HR-COUNT-2"))]
    rs += [passed(f"C{i}", clauses=("HR-SPIN-2",)) for i in range(19)] + [failed("D", clauses=("HR-CONT-5",))]
    rows = failures_by_clause(rs, load_clause_book())
    assert [(f.clause, f.failed, f.total) for f in rows] == [
        ("HR-COUNT-2", 9, 10), ("HR-CONT-5", 1, 1), ("HR-SPIN-2", 9, 29)]


def test_sanitisers() -> None:
    assert escape_controls("a\x1b[1mb\n\tc\x7f") == "a\\x1b[1mb\n\\tc\\x7f"
    assert one_line("a\nb\x00", 10) == "a\\nb\\x00"
    assert one_line("x" * 20, 5) == "xxxx…"
    assert markdown_cell("<i>|`") == "&lt;i&gt;\\|\\`"
    assert json_safe({"a": [math.inf, -math.inf, 1.5, "\udcff"], 3: None}) == \
        {"a": ["Infinity", "-Infinity", 1.5, "\\udcff"], "3": None}
    deep: Any = 0
    for _ in range(200):
        deep = [deep]
    json.dumps(json_safe(deep))  # cut, no RecursionError


def several() -> list[EngineRun]:
    return [EngineRun("fives serve", [passed("T-1"), passed("T-2")], HS),
            EngineRun("fives serve --mutant m", [failed("T-1"), passed("T-2")], HS),
            EngineRun("./broken", [], None, error="handshake failed: \x1b[31mboom")]


def test_several_engines_in_every_text_format() -> None:
    runs = several()
    text = human_several(runs)
    assert "=== fives serve --mutant m ===" in text and "could not start: handshake failed: \\x1b[31mboom" in text
    assert text.splitlines()[-5:] == ["engines:", "  fives serve: 2 passed, 0 failed, 0 errored, 0 skipped",
                                      "  fives serve --mutant m: 1 passed, 1 failed, 0 errored, 0 skipped; "
                                      "most consistently failing: HR-CONT-5 1/2, HR-DRAW-3 1/2",
                                      "  ./broken: could not start",
                                      "3 passed, 1 failed, 0 errored, 0 skipped"]
    doc = json.loads(SEVERAL["json"](runs))
    assert doc["format"] == "fives-conformance-engines/1"
    assert [e["command"] for e in doc["engines"]] == ["fives serve", "fives serve --mutant m", "./broken"]
    assert doc["engines"][1]["summary"]["failed"] == 1 and doc["engines"][2]["error"].startswith("handshake")
    root = ET.fromstring(SEVERAL["junit"](runs).encode())
    assert sorted({s.get("name") for s in root.iter("testsuite")}) == [
        "fives serve --mutant m: conformance/fixtures/play/horse-race-turn.yaml",
        "fives serve: conformance/fixtures/play/horse-race-turn.yaml"]
    assert root.get("failures") == "1" and root.get("tests") == "4"
    md = SEVERAL["markdown"](runs)
    assert "| `fives serve --mutant m` | 1 | 1 | 0 | 0 |" in md and "| `./broken` | could not start |" in md


def test_html_page_is_self_contained_with_a_matrix() -> None:
    page = SEVERAL["html"](several())
    assert page.startswith("<!DOCTYPE html>") and "http://" not in page and "https://" not in page
    assert "<script" not in page and "<link" not in page and "\x1b" not in page
    assert page.count('<th class="engine"') == 3
    assert 'class="cell fail" data-engine="1" data-clause="HR-CONT-5" data-passed="1" data-failed="1"' in page
    assert "results[1].continues: expected false, got true" in page
    assert FORMATS["html"]([failed("T-1")], HS, False).count('<th class="engine"') == 1


# -- end to end: an engine that logs in colour, puts NUL and HTML in its errors, answers NaN ----
NASTY_ENGINE = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
from _base import log, reply, serve, write
TARGET = sys.argv[2]

def sabotage(msg, answer, args):
    log("\x1b[31mERROR\x1b[0m \x00 <b>bold</b> | pipe\r")
    if msg["id"].split("#")[0] == TARGET:
        reply({"id": msg["id"], "error": "\x1b[1mboom\x00 <i>|</i>\nsecond line"})
    else:
        answer = dict(answer)
        answer["result"] = dict(answer.get("result") or {}, sum=float("nan"))
        write(json.dumps(answer) + "\n")

sys.argv[1:] = []
serve(sabotage)
'''


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_hostile_engine_text_in_every_format(tmp_path: Path) -> None:
    from fives.conformance.cases.fixtures import load_cases
    root = Path(__file__).resolve().parents[1]
    fixture = root / "conformance" / "fixtures" / "seed" / "american-sniff-figures.yaml"
    ids = [c.id for c in load_cases([fixture])][:4]
    script = tmp_path / "nasty.py"
    script.write_text(NASTY_ENGINE)
    cmd = shlex.join([sys.executable, str(script), str(root / "tests" / "hostile_engines"), ids[0]])
    out = {f: tmp_path / f"r.{f}" for f in ("json", "junit", "markdown", "html")}
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--fixtures", str(fixture), "--engine", cmd]
    argv += [a for i in ids for a in ("--id", i)] + [a for f, p in out.items() for a in ("--report", f"{f}:{p}")]
    p = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stderr
    for bad in ("\x1b", "\x00", "\r"):
        assert bad not in p.stdout
    assert "stderr: \\x1b[31mERROR\\x1b[0m \\x00 <b>bold</b> | pipe" in p.stdout
    ET.parse(out["junit"])  # well-formed despite ESC and NUL
    doc = json.loads(out["json"].read_text(), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    assert doc["summary"]["errored"] + doc["summary"]["failed"] == len(ids)
    md = out["markdown"].read_text()
    assert "<b>" not in md and "<i>" not in md and "\x1b" not in md
    assert all(ln.count(" | ") == 4 for ln in md.splitlines() if ln.startswith("| `SN-FIG"))
    page = out["html"].read_text()
    assert "<b>bold" not in page and "\x1b" not in page and "\x00" not in page


# -- failures by difference pattern, caps that say where the rest is, layouts drawn ---------------
LAYOUT = [{"tile": "[1|4]"}, {"tile": "[1|1]", "to": "[1|4]", "side": "low"},
          {"tile": "[4|4]", "to": "[1|4]", "side": "high"}]


def miscounted(cid: str) -> CaseResult:
    """An evaluate case whose engine counts the end double [1|1] once instead of twice."""
    from fives.evaluation import evaluate
    want = evaluate("horse-race", LAYOUT)
    got = json.loads(json.dumps(want))
    for c in got["contributions"]:
        if c["tile"] == "[1|1]":
            c["value"] = 1
    got["sum"] -= 1
    case = Case(cid, "evaluate", "horse-race", ("HR-COUNT-1", "HR-COUNT-3", "HR-PLACE-1", "HR-SPIN-1"),
                {"derived": "test"}, {"placements": LAYOUT}, want, "conformance/golden/horse-race/random-play.yaml")
    return CaseResult(case, "failed", ["sum: differs"], Outcome("ok", got))


def test_failures_group_by_pattern_each_case_once() -> None:
    from fives.conformance.reports.failures import group_failures, load_clause_book
    groups = group_failures([miscounted("E-1"), miscounted("E-2"), *results()], load_clause_book())
    assert [(g.key, g.count) for g in groups] == [
        ("contributions[].value: number -> number", 2),
        ("results[].continues: false -> true", 2),
        ("errored: engine reported error", 1)]
    assert sum(g.count for g in groups) == 5  # four clauses each, yet every failure counts once
    assert groups[0].clauses[0] == ("HR-COUNT-1", 2)
    # a caller (a diagnosis) can pass causes in; what it does not name keeps its pattern
    by_cause = group_failures([miscounted("E-1"), *results()], load_clause_book(),
                              cause_of=lambda ex: "end double counted once" if ex.result.case.kind == "evaluate" else None)
    assert [g.key for g in by_cause][:2] == ["results[].continues: false -> true", "end double counted once"]


def test_html_draws_each_failing_layout_with_the_differing_tile_marked() -> None:
    runs = [EngineRun("fives serve", [passed("T-3")], HS), EngineRun("fives serve --mutant m", [miscounted("E-1")], HS)]
    page = SEVERAL["html"](runs)
    assert "http://" not in page and "<script" not in page
    assert '<table id="patterns">' in page
    assert '<tr data-pattern="contributions[].value: number -&gt; number">' in page
    assert '<figure class="layout" data-case="E-1" data-marked="[1|1]">' in page
    assert page.count('class="fives-layout"') == 1 and 'data-tiles="3"' in page
    assert "<td>contributions[tile=[1|1]].value</td><td>2</td><td>1</td>" in page
    # an all-pass page has no such section
    clean = SEVERAL["html"]([EngineRun("fives serve", [passed("T-3")], HS)])
    assert "patterns" not in clean and "fives-layout" not in clean and "figure.layout" not in clean


def test_caps_say_how_many_more_and_where() -> None:
    from fives.conformance.reports import html_patterns
    many = [miscounted(f"E-{i:03d}") for i in range(html_patterns.PATTERN_CASES + 5)]
    page = FORMATS["html"](many, HS, False)
    assert "… and 5 more cases with this pattern, not listed here" in page
    assert page.count('class="fives-layout"') == html_patterns.DRAWN_CASES
    md = to_markdown([miscounted(f"E-{i:03d}") for i in range(205)], HS)
    assert "… and 5 more failures, not listed here: every failing case, explained, is in the JSON report" in md
    assert md.count("| `HR-COUNT-1` | conformance/golden") == 0 and md.count(" | `HR-COUNT-1` | ") == 200
    doc = json.loads(to_json(many, HS))
    assert doc["failures_by_pattern"][0]["cases"] == len(many) and len(doc["failures_by_pattern"][0]["ids"]) == len(many)
    text = human([miscounted(f"E-{i:03d}") for i in range(55)], HS)
    assert "  ... and 5 more (use --report json for all)" in text


def test_all_pass_reports_have_no_pattern_sections() -> None:
    ok = [passed("T-1"), passed("T-2")]
    assert "failures_by_pattern" not in to_json(ok, HS)
    assert "pattern" not in to_markdown(ok, HS) and "pattern" not in human(ok, HS)
