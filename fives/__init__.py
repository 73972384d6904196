"""fives: the reference rules engine for the Fives family of domino games.

The core is small, as in python-chess: tiles (`fives.tiles`), the layout with incremental
placement and exact undo (`fives.layout`), and game parameters read from `spec/games/`
(`fives.rules`).
"""
from __future__ import annotations

from .layout import Contribution, IllegalCode, IllegalPlacement, Layout, Placement, Position
from .rules import GameRules, game_ids, load_rules
from .tiles import ALL_TILES, Side, Tile, parse_tile, tile

__version__ = "0.1.0"

__all__ = ["ALL_TILES", "Contribution", "GameRules", "IllegalCode", "IllegalPlacement", "Layout", "Placement",
           "Position", "Side", "Tile", "__version__", "game_ids", "load_rules", "parse_tile", "tile"]
