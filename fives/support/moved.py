"""Names that moved to another module and still import from the old one (PEP 562).

`moved_names("fives.tally", "fives.draw.tally_text", NAMES, deprecated=True)` is a module
`__getattr__`: each name is looked up in its new home, imported by name on first use, so the
old module needs no import of the new one (which may import the old one, or be a layer the
old one must not load).
"""
from __future__ import annotations

import importlib
import warnings
from typing import Callable, Iterable


def moved_names(module: str, home: str, names: Iterable[str], *,
                deprecated: bool = False) -> Callable[[str], object]:
    """A module `__getattr__` serving `names` from `home`; with `deprecated`, each use warns."""
    wanted = frozenset(names)

    def __getattr__(name: str) -> object:
        if name not in wanted:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        if deprecated:
            warnings.warn(f"{module}.{name} moved to {home}.{name}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)

    return __getattr__
