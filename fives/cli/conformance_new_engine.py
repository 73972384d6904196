"""`fives conformance new-engine`: write a skeleton engine to start from (docs/engine-authors.md).

A module of its own that adds the command to the `conformance` group, as `conformance fuzz`
does, so the group's file stays as it is."""
from __future__ import annotations

import os
from pathlib import Path

import click

from fives.support.errors import UserError
from fives.support.sanitize import clean_name


@click.command("new-engine")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--language", type=click.Choice(["python", "javascript"]), required=True,
              help="The skeleton's language: python (Python 3, no packages) or javascript (Node 18+, no npm packages).")
@click.option("--force", is_flag=True,
              help="Replace a non-empty DIR, only if it holds nothing but a skeleton's files, known by their "
                   "content: an engine and README as new-engine wrote them (your filled-in kinds included: "
                   "they are replaced by stubs).")
def new_engine_cmd(folder: Path, language: str, force: bool) -> None:
    """Write a small skeleton engine into DIR (a new or empty folder): the line loop, the hello,
    every case kind dispatched to a stub of its own (kinds/), error replies in the protocol's
    shape, and a README. The hello declares only the kinds whose stub is filled in, so the
    skeleton passes the handshake and `--validate` as written (every case skipped) and gains
    cases kind by kind. Prints the command that runs it:

        fives conformance run --engine "python3 DIR/engine.py" --validate

    (single-quoted when DIR holds a quote, `$` or a backquote; `./-x` for a DIR starting with
    `-`). DIR is written into no code and no comment. The walk from here to a passing engine:
    docs/engine-authors.md. Exit 0 when written, 2 for a non-empty DIR without --force (nothing
    is written), a DIR that cannot be written, one whose path holds a control character or is
    not UTF-8, or a symbolic-link loop. The folder is written as one set, renamed into place:
    it is never left half written.
    """
    from fives.conformance.engines.skeleton import engine_arg, skeleton, skeleton_files
    from fives.support.staging import staged_folder
    from fives.support.writing import write_output

    shown = clean_name(str(folder))
    made = skeleton(folder, language)  # first: it refuses a path that cannot be printed or followed
    if folder.name in ("", ".", "..") or folder.resolve() == Path.cwd().resolve():
        raise UserError(f"{shown}: give the engine a folder of its own, e.g. my-engine (it is written as one set "
                        "and renamed into place)")
    if folder.is_dir() and not folder.is_symlink() and any(folder.iterdir()) and not force:
        raise UserError(f"{shown}: not empty; give a new folder, or add --force to replace a skeleton there")
    with staged_folder(folder, force, skeleton_files, "skeleton") as stage:
        (stage / "kinds").mkdir()
        for name, text in made.files.items():
            write_output(text, stage / name)
        os.chmod(stage / f"engine.{'py' if language == 'python' else 'js'}", 0o755)
    click.echo(f"fives: wrote a {language} skeleton engine in {shown} ({len(made.files)} files; README.md says "
               "what to fill in first)")
    click.echo(f"fives conformance run --engine {engine_arg(made.command)} --validate")


def add_to(group: click.Group) -> None:
    group.add_command(new_engine_cmd)
