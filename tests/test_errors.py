"""UserError keeps its exit code across a process boundary (pool and Dask workers pickle it)."""
from __future__ import annotations

import pickle

from fives.support.errors import EXIT_ENGINE, UserError


def test_user_error_pickles_with_its_exit_code() -> None:
    e = pickle.loads(pickle.dumps(UserError("engine gone", EXIT_ENGINE)))
    assert type(e) is UserError and str(e) == "engine gone" and e.exit_code == EXIT_ENGINE
