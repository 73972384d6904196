"""CLI habits (issue 20): `conformance run` as pytest users expect (-q, -v, -x, --maxfail,
--lf, colour, the progress bar), usage errors as one line with "did you mean", documents never
poured onto a terminal, right plurals, `fives play` without --seed; and a smoke run of every
command, so the quick subset (`pytest -m "not slow"`) exercises each of them."""
from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import click
import pytest
from click.testing import CliRunner, Result

from fives.cli import main
from fives.support import paths
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.reports.last_failed import FORMAT, store_path
from fives.support.colour import paint, wants_colour
from fives.support.progress import Progress
from fives.support.suggest import did_you_mean
from fives.support.wording import plural

MUTANT = f"{sys.executable} -m fives serve --mutant later-doubles-spin"
# 29 Sniff evaluate cases, 7 of which the mutant fails; explicit files keep the runs short
SNIFF_EVALUATE = [a for f in ("illegal/american-sniff.yaml", "seed/american-sniff-figures.yaml",
                              "seed/american-sniff-examples.yaml") for a in ("--fixtures", str(paths.FIXTURES / f))]
FIGURES = ["--fixtures", str(paths.FIXTURES / "seed" / "american-sniff-figures.yaml")]  # 11 cases
LAYOUT = "- {tile: '[1|4]'}\n- {tile: '[4|4]', to: '[1|4]', side: high}\n"


def fives(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, input=input)


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private FIVES_CACHE_DIR (the --lf store lives there), with colour switches cleared."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("FIVES_CACHE_DIR", str(folder))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return folder


def summary(text: str) -> tuple[int, int, int, int]:
    m = re.search(r"(\d+) passed, (\d+) failed, (\d+) errored, (\d+) skipped", text)
    assert m, text
    return int(m[1]), int(m[2]), int(m[3]), int(m[4])


# -- conformance run: quiet, default, verbose ------------------------------------------------------
def test_an_all_pass_run_prints_the_engine_and_the_summary_only(cache: Path) -> None:
    r = fives("conformance", "run", *FIGURES)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("engine: fives-reference")
    assert summary(lines[1]) == (11, 0, 0, 0)
    assert "by rule area" not in r.stdout


def test_verbose_adds_the_tables_and_quiet_keeps_the_last_line(cache: Path) -> None:
    v = fives("conformance", "run", *FIGURES, "-v")
    assert "by rule area:" in v.stdout and "by file:" in v.stdout
    assert "  conformance/fixtures/seed/american-sniff-figures.yaml" in v.stdout
    q = fives("conformance", "run", *FIGURES, "-q")
    assert q.stdout == "11 passed, 0 failed, 0 errored, 0 skipped\n"
    both = fives("conformance", "run", *FIGURES, "-v", "-q")  # they cancel out: the default report
    assert both.stdout == v.stdout.splitlines()[0] + "\n" + q.stdout


def test_failures_are_still_explained_by_default(cache: Path) -> None:
    r = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE)
    assert r.exit_code == 1
    assert "failing clauses" in r.stdout and "failures:" in r.stdout and "FAILED " in r.stdout
    assert "«" in r.stdout  # the seed quote of a failing clause
    assert "by rule area" not in r.stdout
    assert summary(r.stdout.splitlines()[-1])[1] > 1


def test_report_formats_do_not_depend_on_verbosity(cache: Path, tmp_path: Path) -> None:
    docs = []
    for flag in ("-q", "-v"):
        out = tmp_path / f"r{flag}.json"
        fives("conformance", "run", *FIGURES, flag, "--report", f"json:{out}", "--report",
              f"markdown:{out}.md")
        doc = json.loads(out.read_text())
        for c in doc["cases"]:
            c.pop("seconds", None)
        docs.append((doc, out.with_name(out.name + ".md").read_text()))
    assert docs[0] == docs[1] and len(docs[0][0]["cases"]) == 11


# -- -x and --maxfail -------------------------------------------------------------------------------
def test_exitfirst_stops_at_the_first_failure_and_reports_what_ran(cache: Path, tmp_path: Path) -> None:
    full = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "-q")
    passed, failed, _, _ = summary(full.stdout)
    assert failed >= 3
    report = tmp_path / "x.json"
    r = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "-x", "--report", f"json:{report}")
    assert r.exit_code == 1
    doc = json.loads(report.read_text())
    statuses = [c["status"] for c in doc["cases"]]
    assert statuses.count("failed") == 1 and statuses[-1] == "failed"  # stopped right after it
    assert len(statuses) < passed + failed
    not_run = passed + failed - len(statuses)
    assert f"stopped after the first failure (-x): {plural(not_run, 'case')} not run" in r.stdout
    assert summary(r.stdout.splitlines()[-1]) == (len(statuses) - 1, 1, 0, 0)


def test_maxfail_n_stops_after_n_failures(cache: Path) -> None:
    r = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "--maxfail", "2", "-q")
    assert r.exit_code == 1 and summary(r.stdout)[1] == 2
    assert r.stdout.count("\n") == 1  # -q: the last line alone, even when stopped
    assert "--maxfail" in fives("conformance", "run", "--maxfail", "0").output  # N >= 1


# -- --lf -------------------------------------------------------------------------------------------
def test_last_failed_reruns_exactly_the_failures_of_that_engine(cache: Path) -> None:
    first = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "-q")
    failed = summary(first.stdout)[1]
    store = json.loads(store_path(MUTANT).read_text())
    assert store["format"] == FORMAT and store["engine"] == MUTANT and len(store["failed"]) == failed
    again = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "--lf")
    assert summary(again.stdout) == (0, failed, 0, 0)
    assert f"(--lf: running the {plural(failed, 'case')} that failed last time" in again.stderr
    # the reference engine has its own record: nothing failed there, so --lf runs everything
    fives("conformance", "run", *FIGURES, "-q")
    ref = fives("conformance", "run", *FIGURES, "--lf")
    assert summary(ref.stdout) == (11, 0, 0, 0) and "no selected case failed last time" in ref.stderr


def test_last_failed_without_a_usable_record_runs_everything_with_a_note(cache: Path) -> None:
    r = fives("conformance", "run", *FIGURES, "--lf")
    assert r.exit_code == 0 and summary(r.stdout) == (11, 0, 0, 0)
    assert "(--lf: no earlier run of this engine is recorded: running all 11 selected cases)" in r.stderr
    store_path(None).write_text("{not json", encoding="utf-8")
    r = fives("conformance", "run", *FIGURES, "--lf")
    assert r.exit_code == 0 and summary(r.stdout) == (11, 0, 0, 0)
    assert "the record of the last run is unreadable" in r.stderr and "Traceback" not in r.output
    store_path(None).write_text('{"format": "something-else", "failed": [1]}', encoding="utf-8")
    assert f"is not a {FORMAT} file" in fives("conformance", "run", *FIGURES, "--lf").stderr


def test_a_planted_last_failed_list_cannot_narrow_the_run(cache: Path) -> None:
    # the --lf record is a cache entry, so untrusted: a list nobody sealed with this user's key
    # (here one naming a single passing case, which would turn a failing engine's run green)
    # is ignored, and the run covers every selected case
    import json
    fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "-q")
    sealed = json.loads(store_path(MUTANT).read_text(encoding="utf-8"))
    assert sealed["failed"] and len(sealed["mac"]) == 64
    planted = dict(sealed, failed=["SN-FIG-1-1"])
    store_path(MUTANT).write_text(json.dumps(planted), encoding="utf-8")
    r = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "--lf")
    assert "not sealed by this user's cache key" in r.stderr
    assert r.exit_code == 1 and summary(r.stdout)[1] == len(sealed["failed"])


def test_a_filtered_run_keeps_the_record_of_the_cases_it_did_not_run(cache: Path, tmp_path: Path) -> None:
    fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "-q")
    before = set(json.loads(store_path(MUTANT).read_text())["failed"])
    report = tmp_path / "figures.json"
    fives("conformance", "run", "--engine", MUTANT, *FIGURES, "-q", "--report", f"json:{report}")
    cases = json.loads(report.read_text())["cases"]
    ran = {c["id"] for c in cases}
    failed_now = {c["id"] for c in cases if c["status"] == "failed"}
    assert before - ran and ran & before  # some of the earlier failures ran again, some did not
    assert set(json.loads(store_path(MUTANT).read_text())["failed"]) == (before - ran) | failed_now


# -- colour -----------------------------------------------------------------------------------------
class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_follows_the_terminal_no_color_and_force_color() -> None:
    assert wants_colour(FakeTerminal(), {}) is True
    assert wants_colour(io.StringIO(), {}) is False
    assert wants_colour(FakeTerminal(), {"NO_COLOR": "1"}) is False
    assert wants_colour(io.StringIO(), {"FORCE_COLOR": "1"}) is True
    assert wants_colour(io.StringIO(), {"FORCE_COLOR": "1", "NO_COLOR": "1"}) is False  # NO_COLOR wins
    assert wants_colour(FakeTerminal(), {"NO_COLOR": ""}) is True  # set but empty: ignored
    assert paint("3 passed", "green") == "\033[32m3 passed\033[0m" and paint("x", "red", on=False) == "x"


def test_the_summary_is_coloured_only_when_asked(cache: Path) -> None:
    piped = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "--maxfail", "1")
    assert "\033[" not in piped.output
    forced = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "--maxfail", "1",
                   env={"FORCE_COLOR": "1"})
    last = forced.stdout.splitlines()[-1]
    assert re.fullmatch(r"\x1b\[32m\d+ passed\x1b\[0m, \x1b\[31m1 failed\x1b\[0m, 0 errored, 0 skipped", last), last
    assert "\033[31mFAILED\033[0m " in forced.stdout
    quiet = fives("conformance", "run", "--engine", MUTANT, *SNIFF_EVALUATE, "--maxfail", "1",
                  env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\033[" not in quiet.output


# -- the progress bar -------------------------------------------------------------------------------
def test_the_bar_ticks_while_a_case_runs_and_gives_an_eta() -> None:
    out = FakeTerminal()
    with Progress(10, "cases", stream=out, tick=0.05) as bar:
        bar.advance(note="ONE")
        drawn = out.getvalue().count("\r")
        deadline = time.monotonic() + 10
        while out.getvalue().count("\r") - drawn < 3 and time.monotonic() < deadline:
            time.sleep(0.05)  # no update: only the timer draws
        assert out.getvalue().count("\r") - drawn >= 3, out.getvalue()
        frames = out.getvalue().split("\r")
        assert all(re.fullmatch(r"cases \[###\.{27}\] 1/10 +\d+\.\ds ETA \d+:\d\d ONE\x1b\[K", f) for f in frames[-3:])
        clocks = [float(re.search(r"(\d+\.\d)s", f)[1]) for f in frames[-3:]]  # type: ignore[index]
        assert clocks == sorted(clocks) and clocks[-1] > 0  # the clock moves with no case finishing
    assert out.getvalue().endswith("\r\033[K")
    settled = out.getvalue()
    time.sleep(0.2)
    assert out.getvalue() == settled  # the timer stopped with the block


def test_a_phase_shows_its_label_and_clock_at_once() -> None:
    out = FakeTerminal()
    with Progress(None, "conformance: loading the suite", stream=out, tick=0.05):
        assert out.getvalue() == "\rconformance: loading the suite   0.0s\033[K"
        deadline = time.monotonic() + 30  # the timer's redraw with the clock past 0.0 s: waited for, not guessed
        while not re.search(r"loading the suite +(?!0\.0s)\d+\.\ds", out.getvalue()) and time.monotonic() < deadline:
            time.sleep(0.05)
    assert re.search(r"\rconformance: loading the suite +0*[1-9]\d*\.\ds|\rconformance: loading the suite +0\.[1-9]s",
                     out.getvalue())


def test_a_cleared_bar_stays_cleared_until_the_next_update() -> None:
    out = FakeTerminal()
    bar = Progress(None, "perft", stream=out, tick=0.05)
    bar(1, 4)
    bar.clear()
    cleared = out.getvalue()
    time.sleep(0.2)
    assert out.getvalue() == cleared  # nothing drawn over the lines printed after clear()
    bar(2, 4)
    assert re.match(r"\rperft \[#{15}\.{15}\] 2/4 +\d+\.\ds ETA \d+:\d\d\x1b\[K", out.getvalue()[len(cleared):])
    bar.__exit__(None, None, None)


def test_the_bar_stays_off_a_pipe_even_with_a_timer() -> None:
    out = io.StringIO()
    with Progress(3, "x", stream=out, tick=0.01) as bar:
        bar.advance()
        time.sleep(0.05)
    assert out.getvalue() == ""


# -- usage errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("args,line", [
    (["conformance", "run", "--tiemout", "3"],
     "fives: error: conformance run: no such option --tiemout (did you mean --timeout or --quiet?) "
     "(see 'main conformance run --help')"),
    (["conformanc"], "fives: error: no such command 'conformanc' (did you mean conformance?) (see 'main --help')"),
    (["conformance", "rn"], "fives: error: conformance: no such command 'rn' (did you mean run?) "
                            "(see 'main conformance --help')"),
    (["score-svg", "--style", "tallly"],
     "fives: error: score-svg: Invalid value for '--style': 'tallly' is not one of 'tally', 'board' "
     "(did you mean tally?) (see 'main score-svg --help')"),
    (["conformance", "run", "--fixtures", str(paths.FIXTURES / "seed"), "--game", "horse-rac"],
     "fives: error: --game horse-rac: unknown game (did you mean horse-race?) (the suite has: american-sniff, "
     "horse-race)"),
    (["evaluate", "--game", "horse-racing", "-"],
     "fives: error: unknown game 'horse-racing' (did you mean horse-race?): one of american-sniff, horse-race"),
    (["perft", "--game", "horse-race", "--depth", "1", "3"],
     "fives: error: perft: Got unexpected extra argument (3) (see 'main perft --help')"),
])
def test_a_usage_error_is_one_line_with_did_you_mean(args: list[str], line: str) -> None:
    r = fives(*args, input="[]")
    assert r.exit_code == 2 and r.output == line + "\n"


def test_usage_errors_are_one_line_from_the_installed_command_too() -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "run", "--maxfial", "2"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("fives: error: conformance run: no such option --maxfial (did you mean --maxfail?) "
                        "(see 'fives conformance run --help')\n")


def test_did_you_mean_lists_close_names_only() -> None:
    assert did_you_mean("evalute", ["evaluate", "perft"]) == " (did you mean evaluate?)"
    assert did_you_mean("zzz", ["evaluate", "perft"]) == ""
    assert did_you_mean("--tim", ["--timeout", "--time", "--jobs"]) == " (did you mean --time or --timeout?)"


def test_help_and_version_still_exit_0() -> None:
    assert fives("--help").exit_code == 0 and fives("conformance", "run", "--help").exit_code == 0
    r = subprocess.run([sys.executable, "-m", "fives", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("fives, version ")


def test_the_slow_note_does_not_come_before_an_engine_start_error(cache: Path) -> None:
    perft = ["--fixtures", str(paths.PERFT), "--game", "horse-race"]  # deep perft rows are slow cases
    r = fives("conformance", "run", *perft, "--engine", f"{sys.executable} -c 'import sys; sys.exit(4)'")
    assert r.exit_code == 3
    assert r.stderr.startswith("fives: error: engine ") and "slow case" not in r.stderr
    ok = fives("conformance", "run", *perft, "-q")
    assert "slow case" not in ok.stderr  # -q: the last line alone
    normal = fives("conformance", "run", *perft)
    assert re.search(r"^\(\d+ slow cases left out: add --slow to run them\)$", normal.stderr, re.M)


# -- documents never flood a terminal -------------------------------------------------------------
def on_a_terminal(args: list[str]) -> tuple[int, str, bytes]:
    """Run `fives ARGS` with its stdout on a pseudo-terminal: (exit code, stderr, what it printed)."""
    primary, secondary = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "fives", *args], stdout=secondary, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(secondary)
    shown = b""
    try:
        while chunk := os.read(primary, 1 << 16):
            shown += chunk
    except OSError:  # EIO: the terminal's other end is closed
        pass
    os.close(primary)
    return proc.returncode, proc.stderr, shown


@pytest.mark.parametrize("args,what,file,force", [
    (["render", "--fixture", "SN-FIG-4-4"], "an SVG picture", "--out FILE", "--out -"),
    (["score-svg", "--game", "american-sniff", "--score", "35"], "an SVG picture", "--out FILE", "--out -"),
    (["book", "book-sample"], "an HTML book", "--out FILE", "--out -"),
    (["conformance", "run", *FIGURES, "--report", "html"], "an HTML report", "--report html:FILE",
     "--report html:-"),
])
def test_a_document_is_not_poured_onto_a_terminal(args: list[str], what: str, file: str, force: str) -> None:
    code, err, shown = on_a_terminal(args)
    assert (code, shown) == (2, b"")
    assert err == f"fives: error: not writing {what} to the terminal: give {file}, or {force} to write it here anyway\n"


def test_out_dash_forces_the_terminal_and_a_pipe_gets_the_document() -> None:
    code, _, shown = on_a_terminal(["score-svg", "--game", "american-sniff", "--score", "35", "--out", "-"])
    assert code == 0 and shown.startswith(b"<svg ") and shown.rstrip().endswith(b"</svg>")
    piped = fives("score-svg", "--game", "american-sniff", "--score", "35")
    assert piped.exit_code == 0 and piped.stdout.startswith("<svg ")
    assert piped.stdout == fives("score-svg", "--game", "american-sniff", "--score", "35", "--out", "-").stdout


# -- plurals, and play without --seed --------------------------------------------------------------
def test_plural() -> None:
    assert [plural(n, "case") for n in (0, 1, 2)] == ["0 cases", "1 case", "2 cases"]
    assert plural(1, "pass") == "1 pass" and plural(3, "pass") == "3 passes" and plural(2, "match") == "2 matches"


def test_play_summaries_have_no_wrong_plural() -> None:
    text = "".join(fives("play", "--game", g, "--players", "2", "--seed", str(s)).stdout
                   for g in ("american-sniff", "horse-race") for s in range(6))
    assert re.search(r"\b1 draw,", text) or re.search(r"\b1 pass;", text)  # the singular does occur
    assert not re.search(r"\b1 (placements|draws|passes|hands|lines)\b", text)
    assert not re.search(r"\b(0|[2-9]|\d\d+) (placement|draw|pass|hand),", text)


def test_play_without_a_seed_picks_one_and_says_how_to_replay_it(tmp_path: Path) -> None:
    r = fives("play", "--game", "horse-race", "--players", "2", "--quiet")
    assert r.exit_code == 0
    m = re.fullmatch(r"fives: no --seed given: seed (\d+) \(add --seed \1 to play this match again\)\n", r.stderr)
    assert m, r.stderr
    again = fives("play", "--game", "horse-race", "--players", "2", "--quiet", "--seed", m[1])
    assert again.stdout == r.stdout and again.stderr == ""
    other = fives("play", "--game", "horse-race", "--players", "2", "--quiet")
    assert other.stderr != r.stderr  # a fresh seed each time (10^18 of them)


# -- every command, once, in the quick subset -----------------------------------------------------
def every_command() -> list[str]:
    """Every command path below `fives`, e.g. "conformance run", "perft"."""
    out: list[str] = []

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None, name
                walk(sub, [*path, name])
        else:
            out.append(" ".join(path))
    walk(main, [])
    return out


Check = Callable[[Result, Path], None]


def ok(needle: str) -> Check:
    def check(r: Result, tmp: Path) -> None:
        assert r.exit_code == 0, r.output
        assert needle in r.output, r.output[-2000:]
    return check


def exit_with(code: int, needle: str) -> Check:
    def check(r: Result, tmp: Path) -> None:
        assert r.exit_code == code and needle in r.output, r.output[-2000:]
    return check


def file_holds(name: str, needle: str) -> Check:
    def check(r: Result, tmp: Path) -> None:
        assert r.exit_code == 0, r.output
        assert needle in (tmp / name).read_text(encoding="utf-8")
    return check


SMOKE: dict[str, tuple[list[str], Check]] = {
    "book": (["book", "horse-race-single", "--out", "{tmp}/b.html"], file_holds("b.html", '<p class="note"')),
    "conformance coverage": (["conformance", "coverage", "--fixtures", "{fixtures}/seed"], exit_with(1, "without a fixture")),
    "conformance diagnose": (["conformance", "diagnose", "--engine", f"{sys.executable} -m fives serve",
                              "--game", "american-sniff"], ok("0 failing, 0 explained by 0 cause(s)")),
    "conformance diagnose": (["conformance", "diagnose", "--engine", f"{sys.executable} -m fives serve", "--game",
                              "american-sniff"], ok("0 failing, 0 explained")),
    "conformance diff": (["conformance", "diff", "{tmp}/a.json", "{tmp}/a.json"], ok("")),
    "conformance fuzz": (["conformance", "fuzz", "--engine", f"{sys.executable} -m fives serve", "--cases", "5",
                          "--game", "horse-race", "--kind", "evaluate", "--out", "{tmp}/fuzz"], ok("")),
    "conformance lint": (["conformance", "lint", "{fixtures}/seed/american-sniff-figures.yaml"], ok("11 cases, 0 problems")),
    "conformance list": (["conformance", "list", *FIGURES, "--id", "SN-FIG-4-*"], ok("SN-FIG-4-4")),
    "conformance new-engine": (["conformance", "new-engine", "{tmp}/e", "--language", "python"],
                               file_holds("e/engine.py", "speaks the fives engine protocol")),
    "conformance mutants": (["conformance", "mutants", "--list"], ok("later-doubles-spin")),
    "conformance run": (["conformance", "run", *FIGURES, "-q"], ok("11 passed, 0 failed")),
    "data copy": (["data", "copy", "book-sample", "{tmp}/copied.yaml"], file_holds("copied.yaml", "fives-puzzles/1")),
    "data list": (["data", "list"], ok("book-sample")),
    "data path": (["data", "path", "book-sample"], ok("book-sample.yaml")),
    "evaluate": (["evaluate", "--game", "horse-race", "{tmp}/layout.yaml"], ok('"sum": 9, "raw": 0')),
    "golden generate": (["golden", "generate", "--game", "horse-race", "--cases", "20", "--seed", "1",
                         "--out", "{tmp}/golden"], ok("wrote")),
    "golden verify": (["golden", "verify", "{golden}"], ok("ok: ")),
    "perft": (["perft", "--game", "american-sniff", "--depth", "1"], ok("american-sniff depth 1: nodes 28")),
    "play": (["play", "--game", "american-sniff", "--players", "2", "--seed", "4", "--quiet"], ok("match over")),
    "puzzles extremal": (["puzzles", "extremal", "--game", "american-sniff"], ok("largest counted sum 36")),
    "puzzles generate": (["puzzles", "generate", "--game", "horse-race", "--kind", "single", "--count", "1",
                          "--seed", "3", "--out", "{tmp}/p.yaml"], file_holds("p.yaml", "fives-puzzles/1")),
    "puzzles solve": (["puzzles", "solve", "horse-race-single"], ok("")),
    "puzzles to-golden": (["puzzles", "to-golden", "horse-race-single", "--out", "{tmp}/g.yaml"],
                          file_holds("g.yaml", "fives-fixtures/1")),
    "puzzles verify": (["puzzles", "verify", "horse-race-single"], ok("verified")),
    "render": (["render", "--fixture", "SN-FIG-4-4"], ok("<svg ")),
    # the rule profiles' commands (spec/variants.md)
    "rules compare": (["rules", "compare", "american-sniff", "sniff-digigamers", "--fixtures", "{fixtures}/seed"],
                      ok("american-sniff vs sniff-digigamers: ")),
    "rules show": (["rules", "show", "american-sniff", "sniff-digigamers"], ok("target.raw")),
    "replay": (["replay", "{tmp}/r.jsonl"], ok(": ok: ")),
    "score-svg": (["score-svg", "--record", "{tmp}/r.jsonl", "--chart"], ok('class="fives-score-chart"')),
    "serve": (["serve"], ok('"capabilities"')),
    "tally": (["tally", "--game", "american-sniff", "135"], ok("135 raw points = 2 x 50 + 7 x 5")),
}


def test_the_smoke_table_names_every_command() -> None:
    """A new command needs a row in SMOKE, so the quick subset runs it."""
    assert sorted(SMOKE) == sorted(every_command())


@pytest.mark.parametrize("command", sorted(SMOKE))
def test_every_command_runs(command: str, tmp_path: Path) -> None:
    (tmp_path / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    fives("play", "--game", "horse-race", "--players", "2", "--seed", "2", "--out", str(tmp_path / "r.jsonl"),
          "--quiet")
    fives("conformance", "run", *FIGURES, "-q", "--report", f"json:{tmp_path / 'a.json'}")
    args, check = SMOKE[command]
    golden = paths.GOLDEN
    filled = [a.format(tmp=tmp_path, fixtures=paths.FIXTURES, golden=golden) for a in args]
    hello = '{"id": "hello", "type": "hello", "protocol": 1}\n'
    result = CliRunner().invoke(main, filled, input=hello if command == "serve" else None)
    check(result, tmp_path)


# -- issue 40: the habits a user expects ------------------------------------------------------------
def _closed_stdout(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`fives ARGS | head -0`: the reader is gone before the first line."""
    argv = [sys.executable, "-m", "fives", *args]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # type: ignore[union-attr]
    _, err = proc.communicate(stdin, timeout=600)
    # a note on the fixture cache (shared by the checkouts of one machine) is no error of the pipe
    err = "".join(line for line in err.splitlines(keepends=True) if not line.startswith("fives: note:"))
    return subprocess.CompletedProcess(argv, proc.returncode, "", err)


def test_coverage_piped_into_head_exits_0_quietly() -> None:
    p = _closed_stdout(["conformance", "coverage"])
    assert (p.returncode, p.stderr) == (0, "")


@pytest.mark.slow  # a process per command
@pytest.mark.parametrize("command", sorted(SMOKE))
def test_every_command_piped_into_head_exits_0_quietly(command: str, tmp_path: Path) -> None:
    # one rule in the CLI layer (fives/cli/__init__.py FivesGroup), not one per command
    (tmp_path / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    fives("play", "--game", "horse-race", "--players", "2", "--seed", "2", "--out", str(tmp_path / "r.jsonl"), "--quiet")
    fives("conformance", "run", *FIGURES, "-q", "--report", f"json:{tmp_path / 'a.json'}")
    args = [a.format(tmp=tmp_path, fixtures=paths.FIXTURES, golden=paths.GOLDEN) for a in SMOKE[command][0]]
    p = _closed_stdout(args, '{"id": "hello", "type": "hello", "protocol": 1}\n' if command == "serve" else None)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "error" not in p.stderr and "Broken pipe" not in p.stderr, p.stderr


def test_an_unwritable_report_is_refused_before_the_run(cache: Path) -> None:
    r = fives("conformance", "run", *FIGURES, "--report", "html:/proc/r.html")
    assert r.exit_code == 2
    assert (r.stdout, r.stderr) == ("", "fives: error: /proc/r.html: cannot write: its folder takes no new file\n")


def test_verbose_lists_every_case_with_its_verdict(cache: Path) -> None:
    ids = [c.id for c in load_cases([paths.FIXTURES / "seed" / "american-sniff-figures.yaml"])]
    r = fives("conformance", "run", *FIGURES, "-v")
    assert r.exit_code == 0, r.output
    assert [f"{i} PASSED" for i in ids] == [line for line in r.stdout.splitlines() if line.endswith(" PASSED")]
    bad = fives("conformance", "run", *SNIFF_EVALUATE, "--engine", MUTANT, "-v")
    verdicts = dict(line.rsplit(" ", 1) for line in bad.stdout.splitlines()
                    if line.endswith((" PASSED", " FAILED", " ERRORED", " SKIPPED")) and " " in line.strip())
    assert len(verdicts) == 29 and list(verdicts.values()).count("FAILED") == 7


def test_deselect_and_exclude_leave_cases_out(cache: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    r = fives("conformance", "run", *FIGURES, "--deselect", "SN-FIG-4-4", "--exclude", "SN-FIG-1-*",
              "--exclude", "SN-FIG-0-?", "--results", str(out), "-q")
    assert r.exit_code == 0, r.output
    ran = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert ran == ["SN-FIG-3-4", "SN-FIG-2-2", "SN-FIG-6-6"]
    listed = fives("conformance", "list", *FIGURES, "--deselect", "SN-FIG-4-4", "--exclude", "SN-FIG-1-*",
                   "--exclude", "SN-FIG-0-?")
    assert [line.split()[0] for line in listed.stdout.splitlines()] == sorted(ran)


@pytest.mark.parametrize("args, line", [
    (["--deselect", "SN-FIG-4-5"], "fives: error: --deselect SN-FIG-4-5: is no case of the suite (did you mean SN-FIG-4-4"),
    (["--exclude", "XX-*"], "fives: error: --exclude XX-*: matches no case of the suite"),
    (["--exclude", "SN-FIG-*"], "fives: error: --exclude SN-FIG-*: the filters together select no case"),
])
def test_a_deselect_or_exclude_that_cannot_be_is_one_line(args: list[str], line: str, cache: Path) -> None:
    r = fives("conformance", "run", *FIGURES, *args)
    assert r.exit_code == 2 and r.stderr.startswith(line) and r.stderr.count("\n") == 1, r.stderr


def test_list_is_sorted_by_id() -> None:
    r = fives("conformance", "list", *FIGURES)
    ids = [line.split()[0] for line in r.stdout.splitlines()]
    assert ids == sorted(ids) and len(ids) == 11
    js = [row["id"] for row in json.loads(fives("conformance", "list", *FIGURES, "--json").stdout)]
    assert js == ids


def _wait_for(what: Callable[[], bool], seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "the event never came"
        time.sleep(0.05)


@pytest.mark.parametrize("when", ["during the cases", "before any case"])
def test_a_stopped_quiet_run_prints_its_final_line(when: str, tmp_path: Path) -> None:
    import signal

    results, started = tmp_path / "r.jsonl", tmp_path / "started"
    # before any case: an engine that never answers its hello (its sleep is its behaviour, not the test's wait)
    command = (f"{sys.executable} -m fives serve" if when == "during the cases"
               else f"sh -c 'echo up > {started}; exec sleep 600'")
    argv = [sys.executable, "-m", "fives", "conformance", "run", "--engine", command, "--timeout", "0", "-q",
            "--results", str(results)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        if when == "during the cases":
            _wait_for(lambda: results.exists() and results.stat().st_size > 0)
        else:
            _wait_for(started.exists)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, err
    assert re.fullmatch(r"\d+ passed, 0 failed, 0 errored, 0 skipped\n", out), out
    assert (out.split()[0] == "0") == (when == "before any case")
    assert ("fives: interrupted" in err.splitlines()) == (when == "before any case")  # else the final line says it
