"""A click type for arguments that name a file or folder or a bundled sample (`fives data list`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click


class SamplePath(click.ParamType):
    """A path, or `bundled:NAME`, or a bare bundled NAME when nothing of that name is here.

    Converts to a `Path` (`as_path`) or a `str`, so a command's own reading is unchanged."""

    name = "path"

    def __init__(self, *kinds: str, as_path: bool = True) -> None:
        self.kinds = kinds
        self.as_path = as_path

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from fives.support.bundled import resolve

        if isinstance(value, Path):
            return value if self.as_path else str(value)
        text = resolve(str(value), self.kinds)
        return Path(text) if self.as_path else text


def fixture_roots() -> SamplePath:
    """Fixture files or folders: `fixtures`, `fixtures-seed`, `golden`, ... by name too."""
    from fives.support.bundled import FIXTURES, GOLDEN

    return SamplePath(FIXTURES, GOLDEN)
