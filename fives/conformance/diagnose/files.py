"""The files of a diagnosis (`fives conformance diagnose --out DIR`, spec/diagnose.md): the
inferred profile (profile.yaml, and profile-GAME.yaml per game with causes), diagnosis.json and,
in fixtures/, one minimal fixture per cause and per unexplained cluster, written as one set.

The lines that tell the user what to run next ("the examples: ...", "check: ...") go to the
caller's `note`, in the order the files are written."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from fives.conformance.diagnose import diagnosis as dx
from fives.rules import game_ids
from fives.support.errors import UserError
from fives.support.sanitize import clean_name

Note = Callable[[str], None]


def profile_game(d: dx.Diagnosis, chosen: list[str]) -> str | None:
    """The game whose inferred profile is DIR/profile.yaml: the one game with rule causes (or
    the one game diagnosed); None when two games have them (a profile is of one game)."""
    ruled = [g for g in chosen if d.combined.get(g)]
    if len(ruled) == 1:
        return ruled[0]
    if not ruled and len(chosen) == 1:
        return chosen[0]
    return None


def diagnosis_files(folder: Path) -> list[Path]:
    """Every file in `folder` when all are what diagnose writes (profile.yaml, profile-GAME.yaml,
    diagnosis.json, fixtures/*.yaml); UserError naming the first that is not (--force replaces
    only such a folder)."""
    shown = clean_name(str(folder))
    ours = {"profile.yaml", "diagnosis.json"} | {f"profile-{g}.yaml" for g in game_ids()}
    out: list[Path] = []
    for entry in sorted(folder.iterdir()):
        if entry.name == "fixtures" and entry.is_dir() and not entry.is_symlink():
            inner = sorted(entry.iterdir())
            bad = [f for f in inner if not (f.suffix == ".yaml" and f.is_file() and not f.is_symlink())]
            if not bad:
                out.extend(inner)
                continue
            entry = bad[0]
        elif entry.name in ours and entry.is_file() and not entry.is_symlink():
            out.append(entry)
            continue
        raise UserError(f"--out {shown}: holds {clean_name(str(entry))}, which diagnose does not write: --force "
                        "replaces only a diagnosis; move it away or choose another --out")
    return out


def check_out_folder(out: Path, force: bool) -> None:
    """UserError, before any work, for an --out folder that cannot take the diagnosis: a folder
    that cannot be written costs nothing."""
    from fives.support.staging import check_out

    if out.exists() and not out.is_dir():  # the wording of earlier versions, kept
        raise UserError(f"--out {out}: not a folder")
    if any(p.exists() and not p.is_dir() for p in out.parents):
        raise UserError(f"--out {out}: cannot create the folder (Not a directory)")
    check_out(out, force, diagnosis_files, "diagnosis")


def write_diagnosis(d: dx.Diagnosis, final: Path, chosen: list[str], command: str, force: bool,
                    note: Note) -> None:
    """The set of files into `final` (staged, renamed into place; a second signal held off, so it
    is never half written); `command` is the engine's, for the lines that say what to run."""
    from fives.support.staging import staged_folder
    from fives.support.stop import signals_held

    with signals_held(), staged_folder(final, force, diagnosis_files, "diagnosis") as stage:
        _write_set(d, stage, final, chosen, command, note)


def _write_set(d: dx.Diagnosis, out: Path, final: Path, chosen: list[str], command: str, note: Note) -> None:
    """The diagnosis's files into `out` (the staging folder); the lines name `final`."""
    from fives.support.writing import write_output

    (out / "fixtures").mkdir()
    game = profile_game(d, chosen)
    for g in chosen:
        if g in d.combined or g == game:
            write_output(dx.profile_yaml(d, g), out / f"profile-{g}.yaml")
    if game is not None:
        write_output(dx.profile_yaml(d, game), out / "profile.yaml")
    elif any(d.combined.get(g) for g in chosen):
        note(f"fives: causes in {' and '.join(g for g in chosen if d.combined.get(g))}: a profile is of one "
             f"game, run each with --game G --rules {final}/profile-G.yaml")
    write_output(json.dumps(dx.to_json(d), indent=1, sort_keys=True) + "\n", out / "diagnosis.json")
    _write_fixtures(d, out / "fixtures")
    if d.causes or d.clusters:
        note(f"the examples: fives conformance run --engine {command!r} --fixtures {final / 'fixtures'}")
    if game is not None and any(c.candidate.mutant is None and c.candidate.game == game for c in d.causes):
        note(f"check: fives conformance run --engine {command!r} --rules {final / 'profile.yaml'}"
             + _still_failing(d, game))


def _write_fixtures(d: dx.Diagnosis, fixtures: Path) -> None:
    """In a folder of their own: `conformance run --fixtures DIR/fixtures` reads them all."""
    from fives.support.writing import write_output

    for c in d.causes:
        if not dx.reachable_example(d, c):
            continue  # every fixture written is a state play reaches (the report says why there is none)
        case = dx.example_case(d, c)
        write_output(dx.fixture_text(case, f"diagnose: {c.candidate.name}"), fixtures / f"{case['id']}.yaml")
    for key, case in sorted(d.clusters.items()):
        write_output(dx.fixture_text(case, f"diagnose: unexplained, {key}"), fixtures / f"{case['id']}.yaml")


def _still_failing(d: dx.Diagnosis, game: str) -> str:
    """The profile holds the rule causes only: it promises nothing about a bug (a misreading
    named, a cluster), whose cases fail under it as under the seeds."""
    bugs = [c.candidate.name for c in d.misreadings if c.candidate.game == game]
    if not (bugs or d.unexplained):
        return ""
    return ("; the profile holds the rules only: the cases of "
            + " and ".join(bugs + (["the unexplained clusters"] if d.unexplained else [])) + " still fail under it")
