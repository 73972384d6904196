"""What the machine can do to a run (issue 21; tests/hostile_machine/README.md): a full disk
under standard output or an output file, a user without root, a worker killed mid-run, a
hostile handshake, outputs that are symbolic links, an engine's setsid daemon, an engine that
never answers `perft`. Every probe is a real process under an address-space limit and a
timeout; each ends with one `fives: error:` line and its documented exit code, or with the
clean run's output: no traceback, no hang, no partial file."""
from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

from fives.support.paths import ROOT

HERE = Path(__file__).parent
MACHINE = HERE / "hostile_machine"
HOSTILE = HERE / "hostile_engines"
FIXTURE = ROOT / "conformance" / "fixtures" / "illegal" / "american-sniff.yaml"
LAYOUT = MACHINE / "layout.yaml"
REQUESTS = MACHINE / "requests.jsonl"
MEMORY = 1 << 30  # 1 GiB of address space, as tests/test_hostile_inputs.py
SECONDS = 600  # a generous bound against a hang: a loaded two-core machine ran a 600-case golden generate past 120 s
NOBODY = 65534
FULL = "fives: error: cannot write standard output (No space left on device)"
LINUX = sys.platform.startswith("linux")
pytestmark = pytest.mark.slow  # real processes, each over 0.45 s: left out of the quick subset (pytest -m 'not slow')


def _limits(fsize: int | None = None) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    if fsize is not None:  # a full disk for files: writes past `fsize` bytes fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))


def fives(*args: str | Path, stdout: int | object = subprocess.PIPE, stdin: bytes | None = None,
          user: bool = False, fsize: int | None = None, home: Path | None = None,
          timeout: float = SECONDS) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "fives.cli", *map(str, args)]
    if user and os.geteuid() == 0:
        argv = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *argv]
    env = dict(os.environ)
    if home is not None:
        env |= {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    if fsize is not None:
        env["FIVES_NO_CACHE"] = "1"  # the probe is the output file, not the cache
    return subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, input=stdin.decode() if stdin else None,
                          text=True, timeout=timeout, preexec_fn=lambda: _limits(fsize), cwd=ROOT, env=env)


def one_error(p: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """The run ended with exit `code` and one `fives: error:` line, its last, and no traceback."""
    assert "Traceback" not in p.stderr and "Exception ignored" not in p.stderr, p.stderr[-3000:]
    errors = [line for line in p.stderr.splitlines() if line.startswith("fives: error:")]
    assert p.returncode == code, (p.returncode, p.stderr[-2000:])
    assert len(errors) == 1 and p.stderr.splitlines()[-1] == errors[0], p.stderr[-2000:]
    return errors[0]


# -- standard output on a full disk -------------------------------------------------------------

@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("record") / "match.jsonl"
    p = fives("play", "--game", "horse-race", "--players", "2", "--seed", "1", "--quiet", "--out", out)
    assert p.returncode == 0, p.stderr
    return out


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("golden") / "suite"
    p = fives("golden", "generate", "--game", "horse-race", "--cases", "3", "--seed", "1", "--out", out)
    assert p.returncode == 0, p.stderr
    return out


HELLO = json.dumps({"id": "hello", "type": "hello", "protocol": 1}) + "\n"
STDOUT_COMMANDS: dict[str, tuple[list[str], bytes | None]] = {
    "conformance-run": (["conformance", "run", "--fixtures", str(FIXTURE)], None),
    "conformance-run-report-json": (["conformance", "run", "--fixtures", str(FIXTURE), "--report", "json"], None),
    "conformance-list-json": (["conformance", "list", "--json", "--fixtures", str(FIXTURE)], None),
    "conformance-coverage": (["conformance", "coverage", "--fixtures", str(FIXTURE)], None),
    "evaluate": (["evaluate", "--game", "horse-race", str(LAYOUT)], None),
    "evaluate-jsonl": (["evaluate", "--jsonl"], REQUESTS.read_bytes()),
    "play-out-stdout": (["play", "--game", "horse-race", "--players", "2", "--seed", "1", "--out", "-"], None),
    "render": (["render", "--game", "horse-race", str(LAYOUT)], None),
    "tally": (["tally", "--game", "american-sniff", "35"], None),
    "perft": (["perft", "--game", "horse-race", "--depth", "2"], None),
    "serve": (["serve"], (HELLO + REQUESTS.read_text()).encode()),
    "replay": (["replay", "RECORD"], None),
    "golden-verify": (["golden", "verify", "GOLDEN"], None),
}


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", sorted(STDOUT_COMMANDS))
def test_standard_output_on_a_full_disk(command: str, record: Path, golden: Path) -> None:
    args, stdin = STDOUT_COMMANDS[command]
    args = [str(record) if a == "RECORD" else str(golden) if a == "GOLDEN" else a for a in args]
    with open("/dev/full", "w") as full:
        p = fives(*args, stdout=full, stdin=stdin)
    assert one_error(p) == FULL


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_still_leaves_the_file_reports(tmp_path: Path) -> None:
    report, results = tmp_path / "report.json", tmp_path / "results.jsonl"
    with open("/dev/full", "w") as full:
        p = fives("conformance", "run", "--fixtures", FIXTURE, "--report", f"json:{report}", "--results", results,
                  stdout=full)
    assert one_error(p) == FULL
    cases = json.loads(report.read_text())["cases"]
    assert len(cases) == len(results.read_text().splitlines()) > 0


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_still_leaves_the_file_reports_of_several_engines(tmp_path: Path) -> None:
    # issue 36: the guard was the one-engine path's only; several engines lost the file reports
    report = tmp_path / "report.json"
    with open("/dev/full", "w") as full:
        p = fives("conformance", "run", "--fixtures", FIXTURE, "--engine", "fives serve",
                  "--engine", "fives serve --mutant drawn-tile-continues", "--report", f"json:{report}", stdout=full)
    assert one_error(p) == FULL
    engines = json.loads(report.read_text())["engines"]
    assert [len(e["cases"]) for e in engines] == [len(engines[0]["cases"])] * 2 and engines[0]["cases"]

def test_standard_output_a_closed_pipe_ends_quietly() -> None:
    # issue 40: a reader that is gone (`| head`) took what it wanted: no line, exit 0 (tests/test_cli_habits.py
    # pins it for every command)
    argv = [sys.executable, "-m", "fives.cli", "perft", "--game", "horse-race", "--depth", "3", "--divide"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=_limits)
    proc.stdout.close()  # type: ignore[union-attr]  # the reader is gone before the first line
    _, err = proc.communicate(timeout=SECONDS)
    assert (proc.returncode, err) == (0, "")


# -- a file output on a full disk (RLIMIT_FSIZE: EFBIG) ---------------------------------------------

def test_results_on_a_full_disk_end_on_a_complete_line(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    p = fives("conformance", "run", "--fixtures", FIXTURE, "--results", results, fsize=4000)
    line = one_error(p)
    assert line.startswith(f"fives: error: --results {results}: cannot write (File too large); it holds the first ")
    data = results.read_bytes()
    assert 0 < len(data) <= 4000 and data.endswith(b"\n")
    kept = [json.loads(x) for x in data.decode().splitlines()]  # every line whole, strict JSON
    assert line.endswith(f"the first {len(kept)} result line{'' if len(kept) == 1 else 's'}")
    assert [r["id"] for r in kept] == [r["id"] for r in map(json.loads, _clean_results(tmp_path))][:len(kept)]


def _clean_results(tmp_path: Path) -> list[str]:
    clean = tmp_path / "clean.jsonl"
    assert fives("conformance", "run", "--fixtures", FIXTURE, "--results", clean, "-q").returncode == 0
    return clean.read_text().splitlines()


@pytest.mark.parametrize("args", [
    ["render", "--game", "horse-race", str(LAYOUT), "--out", "OUT"],
    ["conformance", "run", "--fixtures", str(FIXTURE), "-q", "--report", "json:OUT"],
    ["conformance", "run", "--fixtures", str(FIXTURE), "-q", "--report", "junit:OUT"],
], ids=["render-out", "report-json", "report-junit"])
def test_a_file_output_on_a_full_disk_leaves_no_file(tmp_path: Path, args: list[str]) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "target"
    p = fives(*[a.replace("OUT", str(out)) for a in args], fsize=200)
    assert one_error(p).endswith(": cannot write (File too large)")
    assert list(folder.iterdir()) == []  # neither the target nor a temporary file


# -- a user without root --------------------------------------------------------------------------

def _can_drop_root() -> str | None:
    if not LINUX:
        return "permissions probes use Linux setpriv semantics"
    if os.geteuid() != 0:
        return None  # already not root: permissions hold as they are
    if shutil.which("setpriv") is None:
        return "running as root without setpriv: cannot become a user permissions apply to"
    probe = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                            sys.executable, "-c", "import fives"], capture_output=True, cwd=ROOT)
    if probe.returncode != 0:
        return f"user {NOBODY} cannot run this Python or import fives here"
    return None


@pytest.fixture
def playground() -> Iterator[Path]:
    """A folder the unprivileged user can enter (pytest's tmp_path is root's, mode 0700)."""
    base = Path(tempfile.mkdtemp(prefix="fives-nobody-"))
    base.chmod(0o755)
    (base / "home").mkdir(mode=0o777)
    (base / "home").chmod(0o777)
    locked = base / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        yield base
    finally:
        for p in base.rglob("*"):
            if not p.is_symlink():
                p.chmod(0o755 if p.is_dir() else 0o644)
        shutil.rmtree(base)


needs_user = pytest.mark.skipif(_can_drop_root() is not None, reason=str(_can_drop_root()))


@needs_user
@pytest.mark.parametrize("command", ["golden-verify", "conformance-run"])
def test_an_unreadable_case_file_is_one_line(playground: Path, golden: Path, command: str) -> None:
    suite = playground / "suite"
    shutil.copytree(golden, suite)
    for p in [suite, *suite.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    hidden = sorted((suite / "horse-race").glob("*.yaml"))[0]
    hidden.chmod(0o000)
    args = ["golden", "verify", suite] if command == "golden-verify" else ["conformance", "run", "--fixtures", suite]
    line = one_error(fives(*args, user=True, home=playground / "home"))
    assert line == f"fives: error: {hidden}: Permission denied"


@needs_user
def test_an_unreadable_folder_is_one_line_not_a_smaller_suite(playground: Path, golden: Path) -> None:
    suite = playground / "suite"
    shutil.copytree(golden, suite)
    for p in [suite, *suite.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    shutil.copy(sorted((suite / "horse-race").glob("*.yaml"))[0], suite / "readable.yaml")
    (suite / "horse-race").chmod(0o000)
    p = fives("conformance", "run", "--no-verify", "--fixtures", suite, user=True, home=playground / "home")
    assert one_error(p) == f"fives: error: {suite / 'horse-race'}: cannot read this folder (Permission denied)"


@needs_user
@pytest.mark.parametrize("args", [
    ["render", "--game", "horse-race", str(LAYOUT), "--out", "LOCKED/x.svg"],
    ["conformance", "run", "--fixtures", str(FIXTURE), "--results", "LOCKED/r.jsonl"],
    ["conformance", "run", "--fixtures", str(FIXTURE), "--report", "junit:LOCKED/j.xml"],
    ["conformance", "run", "--fixtures", str(FIXTURE), "--write-known-failures", "LOCKED/k.yaml"],
    ["golden", "generate", "--game", "horse-race", "--cases", "2", "--seed", "1", "--out", "LOCKED/suite"],
], ids=["render-out", "results", "report-junit", "write-known-failures", "golden-generate-out"])
def test_an_unwritable_output_is_one_line(playground: Path, args: list[str]) -> None:
    locked = playground / "locked"
    p = fives(*[a.replace("LOCKED", str(locked)) for a in args], user=True, home=playground / "home")
    assert one_error(p).endswith("(Permission denied)")
    assert list(locked.iterdir()) == []


# -- a lost worker ------------------------------------------------------------------------------

def _workers(pid: int, at_least: int, deadline: float) -> list[int]:
    while time.monotonic() < deadline:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
        if len(found := [int(p) for p in out.split()]) >= at_least:
            return found
        time.sleep(0.05)
    raise AssertionError("the workers never started")


def _run_killing_a_worker(args: list[str], after: float) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "fives.cli", *args]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=_limits)
    try:
        workers = _workers(proc.pid, 2, time.monotonic() + 120)
        time.sleep(after)  # likely mid-unit; no verdict hangs on it: an idle worker killed must give the same output
        assert proc.poll() is None, "the run ended before a worker could be killed: make it longer"
        os.kill(workers[-1], signal.SIGKILL)  # as the OOM killer would
        out, err = proc.communicate(timeout=SECONDS)
    finally:
        proc.kill()
        proc.wait()
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.mark.skipif(not LINUX, reason="finds the workers with ps --ppid")
def test_perft_with_a_killed_worker_gives_the_clean_count() -> None:
    # depth 8: about 17 CPU s in the compiled walker (9 s on two workers), long enough to kill one mid-way
    p = _run_killing_a_worker(["perft", "--game", "horse-race", "--depth", "8", "--jobs", "2"], after=0.5)
    assert "Traceback" not in p.stderr, p.stderr[-2000:]
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout == "horse-race depth 8: nodes 3843859320 points 8235772120\n"  # conformance/perft/perft.yaml


@pytest.mark.skipif(not LINUX, reason="finds the workers with ps --ppid")
def test_golden_generate_with_a_killed_worker_gives_the_clean_files(tmp_path: Path) -> None:
    args = ["golden", "generate", "--game", "horse-race", "--game", "american-sniff", "--cases", "600", "--seed", "5"]
    clean = tmp_path / "clean"
    assert fives(*args, "--out", clean).returncode == 0
    killed = tmp_path / "killed"
    p = _run_killing_a_worker([*args, "--jobs", "2", "--out", str(killed)], after=0.3)
    assert "Traceback" not in p.stderr and p.returncode == 0, p.stderr[-2000:]
    files = sorted(f.relative_to(clean) for f in clean.rglob("*") if f.is_file())
    assert files == sorted(f.relative_to(killed) for f in killed.rglob("*") if f.is_file())
    for f in files:  # the manifest too: it leaves --jobs and --out out of its command
        assert (clean / f).read_bytes() == (killed / f).read_bytes(), f


# -- a hostile handshake ------------------------------------------------------------------------

def engine(script: str, *args: str) -> str:
    return shlex.join([sys.executable, str(HOSTILE / script), *args])


@pytest.mark.parametrize("script,args,problem", [
    ("bad_capabilities.py", [], 'hello reply capabilities must be a list of names, found {"name": "evaluate"}'),
    ("bad_capabilities.py", ["--games"], 'hello reply games must be a list of names, found {"name": "american-sniff"}'),
    ("hello_wrong_id.py", [], 'hello reply id "not-hello" is not "hello"'),
], ids=["capabilities", "games", "wrong-id"])
def test_a_hostile_hello_fails_the_handshake_and_still_writes_the_reports(tmp_path: Path, script: str,
                                                                       args: list[str], problem: str) -> None:
    report, results = tmp_path / "report.json", tmp_path / "results.jsonl"
    command = engine(script, *args)
    p = fives("conformance", "run", "--fixtures", FIXTURE, "--engine", command, "--report", f"json:{report}",
              "--results", results)
    assert one_error(p, code=3) == f"fives: error: engine {command!r}: handshake failed: {problem}"
    doc = json.loads(report.read_text())
    assert doc["summary"]["errored"] == len(doc["cases"]) > 0 and doc["summary"]["passed"] == 0
    lines = [json.loads(x) for x in results.read_text().splitlines()]
    assert len(lines) == len(doc["cases"])
    assert {x["message"] for x in lines} == {f"engine did not start: handshake failed: {problem}"}


# -- symbolic links as outputs --------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--out", "--results", "--report"])
def test_a_dangling_link_never_creates_its_target(tmp_path: Path, option: str) -> None:
    target = tmp_path / "elsewhere" / "created.txt"
    target.parent.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    if option == "--out":
        args = ["render", "--game", "horse-race", LAYOUT, "--out", link]
    elif option == "--results":
        args = ["conformance", "run", "--fixtures", FIXTURE, "--results", link]
    else:
        args = ["conformance", "run", "--fixtures", FIXTURE, "--report", f"json:{link}"]
    line = one_error(fives(*args))
    assert line.startswith(f"fives: error: {link}: is a symbolic link")
    assert not target.exists() and link.is_symlink()


@pytest.mark.skipif(not LINUX, reason="chown of a link and sticky folders as on Linux")
def test_a_link_planted_in_a_sticky_folder_cannot_aim_a_write(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    sticky = tmp_path / "shared"
    sticky.mkdir()
    sticky.chmod(0o1777)
    planted = sticky / "picture.svg"
    planted.symlink_to(victim)
    if os.geteuid() == 0:
        os.lchown(planted, NOBODY, NOBODY)  # another user's link, as in a shared /tmp
    line = one_error(fives("render", "--game", "horse-race", LAYOUT, "--out", planted))
    assert "is a symbolic link" in line
    assert victim.read_text() == "precious\n"


def test_a_link_to_standard_output_is_still_written() -> None:
    p = fives("render", "--game", "horse-race", LAYOUT, "--out", "/dev/stdout")
    assert p.returncode == 0 and p.stdout.startswith("<svg"), p.stderr


# -- an engine's session ------------------------------------------------------------------------

from test_distribute import _alive  # noqa: E402 - a live, non-zombie process


@pytest.mark.skipif(not LINUX, reason="the session sweep reads /proc")
@pytest.mark.parametrize("mode", [[], ["--oneshot"]], ids=["persistent", "oneshot"])
def test_an_engine_s_setsid_daemon_dies_with_it(tmp_path: Path, mode: list[str]) -> None:
    pids = tmp_path / "pids"
    target = "SN-ILL-UNKNOWN-SIDE"
    p = fives("conformance", "run", "--fixtures", FIXTURE, "-q", *mode,
              "--engine", engine("setsid_daemon.py", "--case", target, "--pids", str(pids)))
    assert p.returncode == 0, p.stderr
    daemons = [int(x) for x in pids.read_text().split()]
    assert daemons  # the engine did start one
    deadline = time.monotonic() + 60  # generous: a loaded machine reaps slowly
    while any(_alive(d) for d in daemons) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(d) for d in daemons)


# -- perft --engine --timeout ---------------------------------------------------------------------

def test_perft_engine_timeout_bounds_a_silent_engine() -> None:
    command = engine("hang.py")
    t0 = time.monotonic()
    p = fives("perft", "--engine", command, "--game", "horse-race", "--depth", "2", "--timeout", "1", timeout=60)
    assert time.monotonic() - t0 < 30
    assert one_error(p, code=3).startswith(f"fives: error: engine {command!r}: ")
    assert "1s" in p.stderr


def test_perft_timeout_needs_an_engine() -> None:
    assert one_error(fives("perft", "--game", "horse-race", "--depth", "1", "--timeout", "5")) \
        == "fives: error: --timeout goes with --engine CMD"


# -- a read-only file system ----------------------------------------------------------------------

def test_a_read_only_file_system_is_one_line_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No read-only mount to probe here without privileges: statvfs says read-only instead."""
    from types import SimpleNamespace

    from fives.support import writing
    from fives.support.errors import UserError

    monkeypatch.setattr(writing.os, "statvfs", lambda path: SimpleNamespace(f_flag=os.ST_RDONLY))
    with pytest.raises(UserError, match=r"x\.svg: cannot write \(Read-only file system\)"):
        writing.write_output("<svg/>", tmp_path / "x.svg")
    assert list(tmp_path.iterdir()) == []
