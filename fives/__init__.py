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
TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing (start-up)

__version__ = "0.1.0"

#: public name -> module (relative to this package) that defines it
_EXPORTS: dict[str, str] = {
    "ALL_TILES": "tiles", "Side": "tiles", "Tile": "tiles", "parse_tile": "tiles", "tile": "tiles",
    "Contribution": "layout", "IllegalCode": "layout", "IllegalPlacement": "layout", "Layout": "layout",
    "Placement": "layout", "Position": "layout",
    "GameRules": "rules", "game_ids": "rules", "load_rules": "rules",
    "evaluate": "evaluation",  # the function; its module is fives.evaluation (one name, one meaning)
    "UserError": "support.errors",
}
#: submodules and parts reachable as attributes after a bare `import fives` (fives.match, fives.suite, ...)
_SUBMODULES = frozenset({"conformance", "draw", "evaluation", "layout", "match", "perft", "puzzles", "record",
                         "rules", "settlement", "strategies", "suite", "support", "tally", "tiles"})

__all__ = sorted([*_EXPORTS, "__version__"])

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load lazily
    # `X as X`: an explicit re-export, so `fives.Layout` type-checks under mypy --strict
    from fives.evaluation import evaluate as evaluate
    from fives.layout import Contribution as Contribution, IllegalCode as IllegalCode
    from fives.layout import IllegalPlacement as IllegalPlacement, Layout as Layout
    from fives.layout import Placement as Placement, Position as Position
    from fives.rules import GameRules as GameRules, game_ids as game_ids, load_rules as load_rules
    from fives.support.errors import UserError as UserError
    from fives.tiles import ALL_TILES as ALL_TILES, Side as Side, Tile as Tile
    from fives.tiles import parse_tile as parse_tile, tile as tile


def __getattr__(name: str) -> object:
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
