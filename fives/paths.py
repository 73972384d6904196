"""Where the project's data lives: spec/, conformance/, seeds/ beside the package."""
from __future__ import annotations

import os
from pathlib import Path

#: The checkout root (the package is installed editable, so data stays in the tree).
ROOT: Path = Path(os.environ.get("FIVES_ROOT", Path(__file__).resolve().parent.parent))
SPEC: Path = ROOT / "spec"
GAMES: Path = SPEC / "games"
SPEC_SCHEMAS: Path = SPEC / "schema"
CONFORMANCE: Path = ROOT / "conformance"
FIXTURES: Path = CONFORMANCE / "fixtures"
CONFORMANCE_SCHEMAS: Path = CONFORMANCE / "schema"
SEEDS: Path = ROOT / "seeds"
