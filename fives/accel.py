"""The optional compiled fast paths of `fives evaluate --jsonl` (`fives/_accel.c`) and of
perft (`fives/_perft.c`, `perft_counter` below).

Why compiled: in pure Python the stream spends more per line on JSON reading and writing
alone than the 2x-the-JavaScript-engine goal allows (issue 12); the C function reads a
plainly spelled request line, places it with the layout's own tables and writes the output
line in one pass. It answers only lines whose result is certain to be byte-identical to
the pure-Python path (a legal layout, canonical spellings, no escapes, no extra keys) and
returns None for every other line, which then takes the pure-Python path (the reference,
owner of every error message).

Both paths share every limit of fives.support.reading (size, depth, digits, line length,
escapes): the C function answers only lines within them, and declines (None) every line the
Python reader refuses or spells otherwise, so the two give the same bytes, exit code and
stderr for every input (tests/test_accel.py checks each limit's edge and a 20,000-line
mutated corpus).

The extension is built at install time when a C compiler is present (setup.py marks it
optional); without it, or with the environment variable FIVES_PURE_PYTHON=1, everything runs
in pure Python with the same output. tests/test_accel.py runs both paths against each other.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Iterable

from fives.support.errors import UserError
from fives.support.reading import MAX_DOCUMENT_BYTES
from fives.layout import Layout
from fives.layout_tables import Tables, tables_for
from fives.rules import load_rules

if TYPE_CHECKING:
    from fives.rules import GameRules

LineEvaluator = Callable[[str, "str | None"], "str | None"]
PerftCounter = Callable[[int], "tuple[int, int]"]


def available() -> bool:
    """Whether the compiled extension is importable (and not switched off)."""
    return _module() is not None


def _module():  # type: ignore[no-untyped-def]
    if os.environ.get("FIVES_PURE_PYTHON"):
        return None
    try:
        from fives import _accel  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _accel


def line_evaluator(game_ids: Iterable[str]) -> LineEvaluator | None:
    """`fn(line, default_game) -> output line or None` for the games given by id, or None
    without the compiled extension. A game whose rules fail to load stays in Python (which
    reports the failure on the lines that name it)."""
    accel = _module()
    if accel is None:
        return None
    registry = {}
    for key in game_ids:
        try:
            rules = load_rules(key)
        except UserError:
            continue
        if rules.spinner_policy not in ("first-double", "every-double"):
            continue  # the C tables know only these two: other rules stay in Python
        t = tables_for(rules, Layout)
        try:
            registry[key] = accel.tables(rules.id, t.count, t.opens, t.parts, t.score,
                                         rules.spinner_policy == "every-double", rules.display_divisor)
        except ValueError:  # rules the C tables cannot hold: that game stays in Python
            continue
    evaluate_line = accel.evaluate_line

    def fn(line: str, default_game: str | None) -> str | None:
        # one limit for both paths: a line the Python reader refuses is never answered here
        # (fives.support.reading.read_lines already holds lines to it; this keeps it so for
        # any other caller)
        if len(line) > MAX_DOCUMENT_BYTES:
            return None
        return evaluate_line(line, default_game, registry)

    return fn


# -- perft -----------------------------------------------------------------------------------
#: The spinner policies as fives/_perft.c numbers them (the four Layout._hook_is_spinner knows).
PERFT_POLICIES = {"first-double": 0, "every-double": 1, "none": 2, "opening-double": 3}
#: Layout's methods the compiled walker stands for: a class overriding any of them (a mutant,
#: a variant with its own hooks) keeps the Python walker, which asks its hooks.
PERFT_METHODS = ("moves", "push_move", "pop_move", "leaf_counts", "score_move", "_spins", "_derive",
                 "_hook_is_spinner", "_hook_branches_open", "_hook_double_contributions", "_contributions_of",
                 "_open_sides")
_PERFT_TABLES: dict[int, tuple[Tables, object]] = {}  # a cache: id(Tables) -> (it, its capsule)


def perft_supported(layout_class: type, rules: "GameRules") -> bool:
    """Whether the compiled walker counts exactly as `layout_class` does under `rules`."""
    return (_module() is not None and rules.spinner_policy in PERFT_POLICIES
            and all(getattr(layout_class, name) is getattr(Layout, name) for name in PERFT_METHODS))


def perft_counter(layout: Layout) -> PerftCounter | None:
    """`fn(depth) -> (nodes, points)`, the compiled count of the sequences of `depth` >= 1
    placements from `layout` as it is now, or None when the compiled walker cannot count for
    this layout (no extension, FIVES_PURE_PYTHON, or a class or rules it does not cover): the
    capability check that keeps every other layout on the Python walker."""
    rules = layout.rules
    if not perft_supported(type(layout), rules):
        return None
    perft, capsule = _module().perft, perft_tables(rules)
    policy, codes = PERFT_POLICIES[rules.spinner_policy], [p.code for p in layout.history()]
    return lambda depth: perft(capsule, policy, codes, depth)  # type: ignore[no-any-return]


def perft_tables(rules: "GameRules") -> object:
    """The compiled walker's copy of the counting tables of `rules` (made once per process
    per tables: fives.layout_tables shares one Tables among rules that count alike)."""
    t = tables_for(rules, Layout)
    got = _PERFT_TABLES.get(id(t))
    if got is None or got[0] is not t:
        # "perft" is the id the evaluate stream would write: perft never writes it
        got = _PERFT_TABLES[id(t)] = (t, _module().tables("perft", t.count, t.opens, t.parts, t.score, False, 1))
    return got[1]
