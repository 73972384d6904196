"""`fives data`: list, locate and copy out the samples bundled in the package."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import click

from fives.support.bundled import PREFIX, Sample, find, samples
from fives.support.errors import UserError
from fives.support.sanitize import clean_name


def _sample(name: str) -> Sample:
    return find(name[len(PREFIX):] if name.startswith(PREFIX) else name)


@click.group("data")
def data() -> None:
    """The samples bundled in the package: puzzle sets, fixtures, the golden suite, the perft
    table, the JavaScript example engine, the seeds and the spec.

    Every command that reads a sample also takes its name (`fives book book-sample`) or
    `bundled:NAME`; a file or folder of that name in the current folder wins over a bare name.
    """


@data.command("list")
@click.option("--json", "json_flag", is_flag=True, help="Print a JSON list of {name, kind, path, about}.")
def list_cmd(json_flag: bool) -> None:
    """List the bundled samples: name, kind and what it is."""
    found = samples()
    if json_flag:
        click.echo(json.dumps([{"name": s.name, "kind": s.kind, "path": str(s.path), "about": s.about}
                               for s in found], indent=1))
        return
    width = max(len(s.name) for s in found)
    kind_width = max(len(s.kind) for s in found)
    for s in found:
        click.echo(f"{s.name:<{width}}  {s.kind:<{kind_width}}  {s.about}")


@data.command("path")
@click.argument("name")
def path_cmd(name: str) -> None:
    """Print the absolute path of the bundled sample NAME (a file or a folder)."""
    click.echo(str(_sample(name).path.resolve()))


@data.command("copy")
@click.argument("name")
@click.argument("dest", required=False)
@click.option("--force", is_flag=True, help="Replace DEST if it already exists.")
def copy_cmd(name: str, dest: str | None, force: bool) -> None:
    """Copy the bundled sample NAME to DEST (default: its own name in the current folder; into
    DEST if DEST is a folder). Refuses to replace anything without --force."""
    s = _sample(name)
    src = s.path
    if not src.exists():
        raise UserError(f"bundled sample {name}: {src} is missing from this installation")
    if dest is not None and not dest.strip():
        raise UserError("DEST is empty: give a file or folder name (or leave DEST out for the sample's own name)")
    target = Path(dest) if dest is not None else Path(src.name)
    if dest is not None and (dest.endswith(("/", os.sep)) or target.is_dir() and not target.is_symlink()):
        target = target / src.name  # into an existing folder, as `cp -r` does
    real_src, real_target = os.path.realpath(src), os.path.realpath(target)
    if os.path.commonpath([real_src, real_target]) in (real_src, real_target):
        raise UserError(f"{clean_name(str(target))}: is the bundled sample {name} itself, or holds it: "
                        "copy it somewhere else")
    if os.path.lexists(target):
        if not force:
            raise UserError(f"{clean_name(str(target))}: already exists (give --force to replace it)")
        if target.is_dir() != src.is_dir() or target.is_symlink():
            raise UserError(f"{clean_name(str(target))}: exists and is not a {'folder' if src.is_dir() else 'file'}")
    _copy(src, target)
    click.echo(str(target))


def _copy(src: Path, target: Path) -> None:
    """Copy into a hidden temporary sibling and rename it into place: no half copy is ever left."""
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=parent))
    except OSError as e:
        raise UserError(f"{clean_name(str(target))}: cannot write here ({e.strerror})") from None
    staged = tmp / src.name
    try:
        if src.is_dir():
            shutil.copytree(src, staged, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(src, staged)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        os.replace(staged, target)
    except OSError as e:
        raise UserError(f"{clean_name(str(target))}: cannot copy ({e.strerror or e})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def register(main: click.Group) -> None:
    main.add_command(data)
