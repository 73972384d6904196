"""Shared test helpers: random legal layouts built from a seed, and a private fixture cache."""
from __future__ import annotations

import random
import signal
from typing import Iterator

import pytest

from fives.layout import Layout
from fives.rules import load_rules
from fives.tiles import ALL_TILES

# A suite started in the background by a shell without job control (`cmd &`, nohup) inherits
# SIGINT ignored, and so would every command a test starts: Python then installs no Ctrl-C
# handler, and each SIGINT test sees exit 0. A handler here makes the children start with the
# default disposition again (an ignored signal stays ignored across exec; a handled one resets).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

GAMES = ("american-sniff", "horse-race")


def random_layout(game: str, rng: random.Random, size: int | None = None) -> Layout:
    """Random legal play from the full set until `size` tiles or no placement is left."""
    layout = Layout(load_rules(game))
    target = size if size is not None else rng.randint(1, 28)
    while len(layout) < target:
        moves = layout.legal_placements(ALL_TILES)
        if not moves:
            break
        layout.push(rng.choice(moves))
    return layout


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def module_fixture_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One private fixture cache for a module: its first suite load fills it, the rest are
    quick (a module opts in with `pytestmark = pytest.mark.usefixtures("module_fixture_cache")`)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FIVES_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        mp.delenv("FIVES_NO_CACHE", raising=False)
        yield
