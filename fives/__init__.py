"""fives: the reference rules engine for the Fives family of domino games.

The core is small, as in python-chess: tiles (`fives.tiles`), the layout with incremental
placement and exact undo (`fives.layout`), and game parameters read from `spec/games/`
(`fives.rules`)::

    >>> import fives
    >>> layout = fives.Layout("horse-race")
    >>> layout.push("[1|4]")
    5

`fives.evaluate(game, placements)` returns the `fives evaluate` JSON object. The match engine
is `fives.match`, the conformance suite from Python `fives.suite`. Full guide: docs/api.md.

Names are loaded on first use (PEP 562), so `import fives` (and so every `fives` command)
starts without loading modules it does not need.
"""
from __future__ import annotations

import importlib
import sys
import types
TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing (start-up)

__version__ = "0.1.0"

#: public name -> module (relative to this package) that defines it
_EXPORTS: dict[str, str] = {
    "ALL_TILES": "tiles", "Side": "tiles", "Tile": "tiles", "parse_tile": "tiles", "tile": "tiles",
    "Contribution": "layout", "IllegalCode": "layout", "IllegalPlacement": "layout", "Layout": "layout",
    "Placement": "layout", "Position": "layout",
    "GameRules": "rules", "game_ids": "rules", "load_rules": "rules",
    "UserError": "errors",
}
#: submodules reachable as attributes after a bare `import fives` (fives.match, fives.suite, ...)
_SUBMODULES = frozenset({"errors", "evaluate", "fixtures", "layout", "match", "paths", "perft", "rules",
                         "settlement", "strategies", "suite", "svg", "tiles"})

__all__ = sorted([*_EXPORTS, "__version__", "evaluate"])

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load lazily
    from .errors import UserError
    from .evaluate import evaluate
    from .layout import Contribution, IllegalCode, IllegalPlacement, Layout, Placement, Position
    from .rules import GameRules, game_ids, load_rules
    from .tiles import ALL_TILES, Side, Tile, parse_tile, tile


def __getattr__(name: str) -> object:
    if name == "evaluate":
        return _bind_evaluate()
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | _SUBMODULES)


def _bind_evaluate() -> object:
    importlib.import_module(".evaluate", __name__)  # binds fives.evaluate through _Package.__setattr__
    return globals()["evaluate"]


class _Package(types.ModuleType):
    """`fives.evaluate` is the function, although a submodule has the same name.

    Importing the submodule `fives.evaluate` (as the CLI does) would rebind the package's
    `evaluate` attribute to the module; this keeps the function there. The module stays
    importable by name: `from fives.evaluate import build_layout`.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name == "evaluate" and isinstance(value, types.ModuleType):
            value = value.evaluate  # type: ignore[attr-defined]
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
