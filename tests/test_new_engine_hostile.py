"""`fives conformance new-engine` under hostile folder names (issue 40): a name holding a line end
of some language (U+2028, U+2029, U+0085), a leading `-`, quotes, `$` or a backquote gives a
skeleton that starts and answers the hello, through the command new-engine prints, and nothing
is written outside its folder; a name that is not UTF-8 or a symbolic-link loop is refused in
one line; `--force` knows its own skeleton by content and stops at the first file that is not."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fives.conformance.engines import skeleton as skeleton_module
from fives.support.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (node is not installed)")
LANGUAGES = ["python", pytest.param("javascript", marks=needs_node)]
HELLO = json.dumps({"id": "hello", "type": "hello", "protocol": 1}) + "\n"
#: the folder names of the issue's probes; the first two ran their own name as code in engine.js
HOSTILE = ["inj\u2028process.exit(7);/*", "inj\u2029process.exit(7);/*", "inj\u0085exit(7)", "-x", "--x",
           'bob"s', "bob's", "x$(exit 7)y", "x`exit 7`y", "a\\b", "it's \"mine\" $HOME !"]


def fives(*args: str | bytes, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("FIVES_ROOT", None)
    return subprocess.run([sys.executable, "-m", "fives", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def everything(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", HOSTILE, ids=[ascii(n) for n in HOSTILE])
def test_a_skeleton_under_a_hostile_name_starts_and_answers_the_hello(tmp_path: Path, name: str,
                                                                      language: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    r = fives("conformance", "new-engine", "--language", language, "--", name, cwd=work)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "" and len(r.stdout.split("\n")) == 3  # two lines (str.splitlines would split at U+2028)
    # nothing beside the folder (a name with `/` is a folder in a folder), no staging folder left
    assert everything(work) == {"/".join(name.split("/")[:i]) for i in range(1, name.count("/") + 1)} | {
        f"{name}/{rel}" for rel in everything(work / name)} | {name}
    assert {p.parent for p in (work / name).rglob("*")} <= {work / name, work / name / "kinds"}
    # the printed command, as a shell reads it, runs the engine: the folder's name is one word
    words = shlex.split(r.stdout.split("\n")[-2])
    assert words[:4] == ["fives", "conformance", "run", "--engine"] and words[5:] == ["--validate"]
    argv = shlex.split(words[4])
    assert argv[1] == f"{'./' if name.startswith('-') else ''}{name}/engine.{'py' if language == 'python' else 'js'}"
    before = everything(tmp_path)
    started = subprocess.run(argv, cwd=work, input=HELLO, capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    hello = json.loads(started.stdout)
    assert hello["type"] == "hello" and hello["capabilities"] == []
    assert set(hello["engine"]["name"]) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    assert everything(tmp_path) - before <= {f"work/{name}/kinds/__pycache__"} | {
        f"work/{name}/kinds/__pycache__/{p.name}" for p in (work / name / "kinds").glob("__pycache__/*")}
    # the folder's path is in no code and no comment: only in the README's commands
    for path in (work / name).rglob("*.*"):
        if path.is_file() and path.suffix in (".py", ".js"):
            assert name not in path.read_text(encoding="utf-8"), path


def test_a_name_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    r = fives("conformance", "new-engine", "--language", "javascript", "--", b"bad\xff\xfe", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1
    assert "whose name is UTF-8 text" in r.stderr and "Traceback" not in r.stderr
    assert not any(tmp_path.iterdir())


def test_a_symbolic_link_loop_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop")
    for target in ("loop", "loop/engine"):
        r = fives("conformance", "new-engine", "--language", "python", target, cwd=tmp_path)
        assert r.returncode == 2 and r.stdout == "", r.stderr
        assert r.stderr == f"fives: error: {target}: cannot be followed (a symbolic link loop)\n"
    assert [p.name for p in tmp_path.iterdir()] == ["loop"]


def test_force_never_replaces_a_users_own_engine_and_readme(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    (mine / "kinds").mkdir(parents=True)
    own = {"engine.py": "print('my own engine')\n", "README.md": "# mine\n", "kinds/evaluate.py": "STUB = False\n"}
    for rel, text in own.items():
        (mine / rel).write_text(text)
    r = fives("conformance", "new-engine", "--language", "python", "--force", "mine", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1
    assert "not a file of a skeleton engine; nothing was replaced" in r.stderr
    assert {rel: (mine / rel).read_text() for rel in own} == own
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_force_knows_its_skeleton_by_content_moved_or_edited(tmp_path: Path) -> None:
    assert fives("conformance", "new-engine", "--language", "javascript", "first", cwd=tmp_path).returncode == 0
    (tmp_path / "first").rename(tmp_path / "moved")  # another name: still a skeleton, by content
    r = fives("conformance", "new-engine", "--language", "python", "--force", "moved", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "moved" / "engine.py").is_file() and not (tmp_path / "moved" / "engine.js").exists()
    engine = tmp_path / "moved" / "engine.py"
    engine.write_text(engine.read_text().replace('"version": "0.1"', '"version": "0.2"'))  # the user's now
    r = fives("conformance", "new-engine", "--language", "python", "--force", "moved", cwd=tmp_path)
    assert r.returncode == 2 and "moved/engine.py: not a file of a skeleton engine" in r.stderr
    assert '"version": "0.2"' in engine.read_text()


def test_force_refuses_at_the_first_foreign_file_without_walking_further(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    for i in range(50):
        (home / f"project-{i}" / "src").mkdir(parents=True)
        (home / f"project-{i}" / "src" / "main.py").write_text("")
    listed: list[str] = []
    real = os.scandir

    def counting(path: object) -> object:
        listed.append(str(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(skeleton_module.os, "scandir", counting)
    with pytest.raises(UserError, match="not a file of a skeleton engine"):
        skeleton_module.skeleton_files(home)
    assert listed == [str(home)]  # one listing of the top folder, refused at its first entry
