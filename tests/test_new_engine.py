"""`fives conformance new-engine DIR --language python|javascript`: the skeleton passes the
handshake and `--validate` as written, dispatches every kind, replies in the protocol's shape,
gains the evaluate cases once `kinds/evaluate` is filled in, and never writes over a folder
that is not its own."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from fives.conformance.cases.kinds import load_kinds
from fives.conformance.engines.skeleton import KIND_NOTES, skeleton
from fives.support import paths

ROOT = Path(__file__).resolve().parents[1]
FILLED = ROOT / "tests" / "new_engine"
JS_LAYOUT = ROOT / "conformance" / "examples" / "js-engine" / "layout.js"
SUMMARY = "{} passed, {} failed, {} errored, {} skipped"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (node is not installed)")


def env() -> dict[str, str]:
    out = dict(os.environ, PYTHONPATH=str(ROOT), FIVES_JS_LAYOUT=str(JS_LAYOUT))
    out.pop("FIVES_ROOT", None)
    return out


def fives(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fives", *args], cwd=cwd, env=env(), capture_output=True,
                          text=True, timeout=600, stdin=subprocess.DEVNULL)


def engine_argv(language: str, folder: Path) -> list[str]:
    # the test's own interpreter, so that a filled-in kind can import fives
    return [sys.executable, str(folder / "engine.py")] if language == "python" else ["node", str(folder / "engine.js")]


def talk(language: str, folder: Path, *messages: object) -> list[dict]:
    """Send raw lines (a str as is, anything else as JSON) and read one reply per line."""
    lines = "".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in messages)
    r = subprocess.run(engine_argv(language, folder), input=lines, capture_output=True, text=True, timeout=60,
                       env=env())
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def schema(name: str) -> dict:
    return json.loads((paths.data_root() / "spec" / "protocol" / name).read_text(encoding="utf-8"))


def counts(stdout: str) -> tuple[int, int, int, int]:
    last = stdout.strip().splitlines()[-1]
    words = last.replace(",", "").split()
    return int(words[0]), int(words[2]), int(words[4]), int(words[6])


LANGUAGES = ["python", pytest.param("javascript", marks=needs_node)]


def test_the_skeleton_dispatches_every_kind_of_the_protocol() -> None:
    assert [n.kind for n in KIND_NOTES][:3] == ["evaluate", "legal-placements", "turn"]  # the guide's order
    assert {n.kind for n in KIND_NOTES} == set(load_kinds()) and len(KIND_NOTES) == 9
    for language, suffix in (("python", ".py"), ("javascript", ".js")):
        made = skeleton(Path("my-engine"), language)
        stubs = sorted(n for n in made.files if n.startswith("kinds/") and n != "kinds/__init__.py")
        assert len(stubs) == 9 and all(n.endswith(suffix) for n in stubs)
        engine = made.files[f"engine{suffix}"]
        for note in KIND_NOTES:  # the engine lists every kind, and each stub names its own
            assert f"'{note.kind}'" in engine or f'"{note.kind}"' in engine
            assert note.kind in made.files[f"kinds/{note.stem(language)}{suffix}"]
        assert "{{" not in "".join(made.files.values())  # every marker filled
    assert skeleton(Path("my-engine"), "python").command == "python3 my-engine/engine.py"
    assert skeleton(Path("my engine"), "javascript").command == "node 'my engine/engine.js'"


@pytest.mark.parametrize("language", LANGUAGES)
def test_as_written_it_passes_the_handshake_and_validate(tmp_path: Path, language: str) -> None:
    r = fives("conformance", "new-engine", "my-engine", "--language", language, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    command = "python3 my-engine/engine.py" if language == "python" else "node my-engine/engine.js"
    assert r.stdout.splitlines()[-1] == f'fives conformance run --engine "{command}" --validate'
    folder = tmp_path / "my-engine"
    assert (folder / "README.md").is_file() and os.access(folder / engine_argv(language, folder)[1], os.X_OK)
    # the handshake: a valid hello reply that declares no kind yet
    hello = talk(language, folder, {"id": "hello", "type": "hello", "protocol": 1})[0]
    jsonschema.validate(hello, schema("hello-reply.schema.json"))
    assert hello["capabilities"] == [] and hello["games"] == ["american-sniff", "horse-race"]
    assert hello["engine"] == {"name": "my-engine", "version": "0.1", "language": language}
    # every case skipped, every message valid: exit 5, nothing run is not a pass (issue 40)
    run = fives("conformance", "run", "--engine", " ".join(engine_argv(language, folder)), "--validate", cwd=tmp_path)
    assert run.returncode == 5, run.stdout + run.stderr
    assert run.stderr.splitlines()[-1] == "fives: no case ran: the engine's scope leaves no case"
    passed, failed, errored, skipped = counts(run.stdout)
    assert (passed, failed, errored) == (0, 0, 0) and skipped > 3000


def filled_skeleton(tmp_path: Path, language: str, name: str) -> Path:
    """A new skeleton in tmp_path/name with `evaluate` filled in from tests/data."""
    assert fives("conformance", "new-engine", name, "--language", language, cwd=tmp_path).returncode == 0
    folder = tmp_path / name
    suffix = ".py" if language == "python" else ".js"
    shutil.copy(FILLED / f"evaluate{suffix}", folder / "kinds" / f"evaluate{suffix}")
    return folder


@pytest.mark.parametrize("language", LANGUAGES)
def test_replies_are_in_the_protocols_shape(tmp_path: Path, language: str) -> None:
    folder = filled_skeleton(tmp_path, language, "e")
    replies = talk(language, folder,
                   {"id": "hello", "type": "hello", "protocol": 1},
                   {"id": "a", "type": "turn", "game": "horse-race", "input": {}},          # a stub
                   {"id": "b", "type": "castle", "game": "horse-race", "input": {}},        # no such kind
                   {"id": "c", "type": "evaluate", "game": "chess", "input": {"placements": []}},
                   {"id": "d", "type": "evaluate", "game": "horse-race"},                   # no input
                   {"id": "e", "type": "evaluate", "game": "horse-race", "input": {}},      # the kind trips
                   "{not json",
                   [1, 2],
                   {"id": "f", "type": "evaluate", "game": "horse-race",
                    "input": {"placements": [{"tile": "[1|4]"}, {"tile": "[2|2]", "to": "[1|4]", "side": "low"}]}},
                   {"id": "g", "type": "evaluate", "game": "horse-race", "input": {"placements": [{"tile": "[5|5]"}]}})
    assert replies[0]["capabilities"] == ["evaluate"]
    assert replies[1] == {"id": "a", "skipped": 'request type "turn": not written yet (a stub)'}
    assert replies[2] == {"id": "b", "skipped": 'request type "castle": unknown'}
    assert replies[3] == {"id": "c", "skipped": 'game "chess" not supported'}
    assert replies[4] == {"id": "d", "error": "a request needs an input object"}
    if language == "python":  # KeyError in the filled-in kind (layout.js answers a missing list as an illegality)
        assert replies[5]["id"] == "e" and replies[5]["error"].startswith("internal error: KeyError")
    assert replies[6]["id"] is None and replies[6]["error"].startswith("malformed JSON: ")
    assert replies[7] == {"id": None, "error": "a request is a JSON object"}
    # a rules illegality is an answer; the engine went on after its internal error
    assert replies[8]["id"] == "f" and replies[8]["result"]["error"]["code"] == "value-mismatch"
    assert replies[9]["id"] == "g" and replies[9]["result"]["sum"] == 10
    reply_schema = schema("reply.schema.json")
    for r in replies[1:6] + replies[8:]:
        jsonschema.validate(r, reply_schema)


@pytest.mark.parametrize("language", LANGUAGES)
def test_filling_in_evaluate_gains_the_evaluate_cases(tmp_path: Path, language: str) -> None:
    folder = filled_skeleton(tmp_path, language, "my-engine")
    command = " ".join(engine_argv(language, folder))
    listed = fives("conformance", "list", "--kind", "evaluate", "--json", cwd=tmp_path)
    evaluate_cases = len(json.loads(listed.stdout))
    assert evaluate_cases > 1000
    run = fives("conformance", "run", "--engine", command, "--validate", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    passed, failed, errored, skipped = counts(run.stdout)
    # the evaluate cases that play their own rules wait for the `rules` capability
    from fives.conformance.cases.fixtures import load_cases

    own_rules = sum(1 for c in load_cases() if c.kind == "evaluate" and c.profile is not None and "slow" not in c.tags)
    assert (passed, failed, errored) == (evaluate_cases - own_rules, 0, 0) and skipped > 1000
    assert "capabilities: evaluate" in run.stdout


def test_a_non_empty_folder_is_refused_without_force(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "engine.py").write_text("my own work\n")
    r = fives("conformance", "new-engine", "mine", "--language", "python", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("fives: error: mine: not empty; give a new folder, or add --force to replace a "
                        "skeleton there\n")
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["engine.py"]
    # --force replaces only a folder that holds nothing but a skeleton's files
    (tmp_path / "mine" / "notes.txt").write_text("keep me\n")
    r = fives("conformance", "new-engine", "mine", "--language", "python", "--force", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "not a file of a skeleton engine" in r.stderr
    assert "mine/notes.txt" in r.stderr or "mine/engine.py" in r.stderr  # the first found: both are the user's
    assert (tmp_path / "mine" / "engine.py").read_text() == "my own work\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]  # no staging folder left behind
    r = fives("conformance", "new-engine", ".", "--language", "python", cwd=tmp_path / "mine")
    assert r.returncode == 2 and "give the engine a folder of its own" in r.stderr


def test_force_replaces_a_skeleton(tmp_path: Path) -> None:
    assert fives("conformance", "new-engine", "e", "--language", "python", cwd=tmp_path).returncode == 0
    evaluate = tmp_path / "e" / "kinds" / "evaluate.py"
    evaluate.write_text("def answer(game, input):\n    return {}\n")
    # a run leaves kinds/__pycache__/ behind: still a skeleton's folder
    subprocess.run([sys.executable, str(tmp_path / "e" / "engine.py")], input="", text=True, check=True, timeout=60,
                   env={k: v for k, v in env().items() if k != "PYTHONDONTWRITEBYTECODE"})
    assert list((tmp_path / "e" / "kinds" / "__pycache__").glob("*.pyc"))
    r = fives("conformance", "new-engine", "e", "--language", "javascript", "--force", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "e" / "engine.js").is_file() and not evaluate.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e"]


def test_a_folder_path_that_would_break_the_printed_command_is_refused(tmp_path: Path) -> None:
    for bad in ("a\nb", "a\rb", "x\x1by"):
        r = fives("conformance", "new-engine", bad, "--language", "python", cwd=tmp_path)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, (bad, r.stderr)
        assert "give a folder whose path holds no control character" in r.stderr
    assert not any(tmp_path.iterdir())
    # a space is quoted; the engine's name keeps to letters, digits, '.', '_' and '-'
    r = fives("conformance", "new-engine", "my engine", "--language", "python", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == (
        "fives conformance run --engine \"python3 'my engine/engine.py'\" --validate")
    hello = talk("python", tmp_path / "my engine", {"id": "hello", "type": "hello", "protocol": 1})[0]
    assert hello["engine"]["name"] == "my-engine"
