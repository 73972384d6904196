"""`conformance run --rules P`: cases that pin every value P sets (spec/variants.md, "What a run
under a profile pins").

The suite's cases are answered again under P (expected_under.py), but a case only shows a value
if its state reads it: an engine that plays another value of a parameter P sets can pass every
one of them. So, for every parameter P overrides, every *rival* value an engine could play
instead (the game's own value, the profile space's alternatives, and for a number its
neighbours) is played too, and the run gets cases where P's answer and the rival's differ:
- questions that need no play (`setup`, `next-leader` of a first hand or after a hand);
- for an order of opening tiles, a first deal per adjacent pair of the order, where only those
  two tiles of it are dealt (who leads; and, when the leader holds both, which one it must open
  with), so every other order fails one of them;
- states reached by seeded play under P (`legal-placements`, `turn`, `settle`, `next-leader`).
Every case is a state play under P reaches from a deal and carries P's answer; a case is kept
only when the rival engine's answer fails its comparison. The same profile gives the same cases.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import kind_named

if TYPE_CHECKING:
    from fives.conformance.cases.expected_under import ProfilePlan
    from fives.conformance.cases.selection import CaseFilters, Selection
    from fives.profiles import Profile
    from fives.rules import GameRules

SEEDS = 24  # seeded matches played under P at most; most rivals fall to the questions before play
FILE = "generated from the profile (fives/conformance/cases/profile_pins.py)"


@dataclass(frozen=True)
class Rival:
    """P with one parameter it sets played otherwise: what an engine that misreads it plays."""
    path: str
    value: Any
    rules: GameRules

    @property
    def label(self) -> str:
        return f"{self.path} = {_text(self.value)}"


@dataclass(frozen=True)
class Pins:
    """The cases that pin P's values, and the rivals no case separated from P (play under P
    never shows the difference: they play alike wherever play under P goes)."""
    cases: tuple[Case, ...]
    unpinned: tuple[str, ...]
    rivals: int
    pins: dict[str, str] = dataclasses.field(default_factory=dict)  # case ID -> the parameter it pins first


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return " ".join(map(str, value))
    return json.dumps(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def _neighbours(value: Any) -> list[Any]:
    """A number's neighbours (and for a mapping by number of players, each count's); for an
    order, the orders with one adjacent pair swapped (any other order ranks some pair otherwise)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, list):
        return [value[:i] + [value[i + 1], value[i]] + value[i + 2:] for i in range(len(value) - 1)]
    if isinstance(value, int):
        return [value - 1, value + 1]
    if isinstance(value, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        return [{**value, n: v + d} for n, v in value.items() for d in (-1, 1)]
    return []


def _schema_values(path: str) -> list[Any]:
    """Every value the game schema allows for an enum or a flag (nothing for other types)."""
    from fives.support import paths
    from fives.support.reading import load_json_schema

    node: Any = load_json_schema(paths.SPEC_SCHEMAS / "game.schema.json")["properties"]
    parts = path.split(".")
    try:
        for p in parts[:-1]:
            node = node[p]["properties"]
        leaf = node[parts[-1]]
    except (KeyError, TypeError):
        return []
    if "enum" in leaf:
        return list(leaf["enum"])
    return [True, False] if leaf.get("type") == "boolean" else []


def rival_values(game: str, path: str, value: Any) -> list[Any]:
    """Every other value of `path` an engine could play: the game's own, the profile space's
    alternatives (or the schema's values), a number's neighbours; each once, in that order."""
    from fives.profile_space import alternatives
    from fives.profiles import _canonical_value, parameters

    own = parameters(game).get(path)
    offered = alternatives(game).get(path) or _schema_values(path)
    out: list[Any] = []
    for v in [own, *offered, *_neighbours(value)]:
        v = _canonical_value(v)
        if v is not None and v != value and v not in out:
            out.append(v)
    return out


def _alike_where_played(mine: Any, other: Any, counts: set[int] | None) -> bool:
    """Whether two values by number of players agree at every count P's book plays: a rival
    that differs only at a count the run under P skips as out of its scope plays as P there."""
    if counts is None or not (isinstance(mine, dict) and isinstance(other, dict)):
        return False
    return all(mine.get(n) == other.get(n) for n in counts)


def rivals(profile: Profile) -> list[Rival]:
    """P with each parameter it sets changed to each rival value; a rival that is no valid
    profile (a deal too big for the set, a negative count) is no engine, and is left out, and
    so is one that differs only for setups P's book never plays (`players:`)."""
    from fives.profile_space import alternative_overrides
    from fives.profiles import make_profile, rules_under
    from fives.support.errors import UserError

    counts = None if profile.players is None else {n for n, _ in profile.players}
    out = []
    for path in sorted(profile.overrides):
        if path == "points.unit":  # set with points.display_divisor, its one dimension
            continue
        for value in rival_values(profile.extends, path, profile.overrides[path]):
            if _alike_where_played(profile.overrides[path], value, counts):
                continue
            overrides = {**profile.overrides, **alternative_overrides(profile.extends, path, value)}
            overrides[path] = value
            try:
                other = make_profile(profile.extends, overrides, source="rival")
                rules = rules_under(other, profile.extends)
            except (UserError, ValueError, KeyError, TypeError):
                continue
            if other.digest != profile.digest:
                out.append(Rival(path, value, rules))
    return out


def _answer(kind: str, rules: GameRules, input: dict[str, Any]) -> Any:
    try:
        return kind_named(kind).run(rules, input, {})
    except Exception as e:  # noqa: BLE001 - the reference refuses the input under these rules
        return {"refused": f"{type(e).__name__}: {e}"}


def _fails(kind: str, expect: Any, answer: Any) -> bool:
    """Whether `answer` fails a case expecting `expect` (the run's own comparison)."""
    try:
        return bool(kind_named(kind).compare(expect, answer))
    except Exception:  # noqa: BLE001 - an answer of another shape fails
        return True


def _strip_messages(x: Any) -> Any:
    """Free-text messages are never compared: left out of the expectation."""
    if isinstance(x, dict):
        return {k: _strip_messages(v) for k, v in x.items() if not (k == "message" and isinstance(v, str))}
    if isinstance(x, list):
        return [_strip_messages(v) for v in x]
    return x


def _questions(rules: GameRules, seeds: int, setups: list[tuple[int, bool]] | None
               ) -> Iterator[tuple[str, dict[str, Any], str]]:
    from fives.conformance.cases.pin_play import order_questions, played_questions, rule_questions

    yield from rule_questions(rules, setups)
    yield from order_questions(rules, setups)
    for turns in (False, True):  # the cheap questions of every match first: a turn replays its actions
        for seed in range(seeds):
            yield from played_questions(rules, seed, turns, setups)


def _refused(answer: Any) -> bool:
    return "refused" in answer or (isinstance(answer.get("error"), dict)
                                   and answer["error"].get("code") == "malformed-input")


def pin_cases(profile: Profile, seeds: int = SEEDS) -> Pins:
    """The cases that separate P from every rival of every value it sets (none without overrides)."""
    from fives.conformance.cases.clauses import load_clauses
    from fives.profile_space import dimensions
    from fives.profiles import rules_under

    if not profile.overrides:
        return Pins((), (), 0, {})
    game = profile.extends
    rules = rules_under(profile, game)
    todo = rivals(profile)
    total = len(todo)
    book = load_clauses()
    clauses_of = {d.path: tuple(c for c in d.clauses if c in book and book[c].game == game) for d in dimensions(game)}
    numbered: dict[str, int] = {}
    pins: dict[str, str] = {}
    cases: list[Case] = []
    # only in the setups P's book plays: a run under P skips the others as out of its scope
    setups = list(profile.players) if profile.players is not None else None
    for kind, input, where in _questions(rules, seeds, setups):
        if not todo:
            break
        got = _answer(kind, rules, input)
        if not isinstance(got, dict) or _refused(got):
            continue
        expect = _strip_messages(got)
        if _fails(kind, expect, got):  # never a case the reference under P fails
            continue
        beaten = [r for r in todo if _fails(kind, expect, _answer(kind, r.rules, input))]
        if not beaten:
            continue
        todo = [r for r in todo if r not in beaten]
        path = beaten[0].path
        numbered[path] = numbered.get(path, 0) + 1
        cid = f"PIN-{game}-{path.replace('.', '-').replace('_', '-')}-{numbered[path]}"
        pins[cid] = path
        clauses = sorted({c for r in beaten for c in clauses_of.get(r.path, ())}) or list(clauses_of.get(path, ()))
        cases.append(Case(
            cid, kind, game, tuple(clauses),
            {"derived": f"reference under {profile.name} ({profile.digest}); {where} "
                        "(fives/conformance/cases/profile_pins.py)"},
            input, expect, FILE,
            description=(f"under {profile.name}, an engine that plays " + "; or ".join(r.label for r in beaten)
                         + " answers otherwise."),
            tags=("profile-pin",)))
    return Pins(tuple(cases), tuple(r.label for r in todo), total, pins)


#: the kinds of the questions pin_play.py asks
PIN_KINDS = ("setup", "next-leader", "legal-placements", "turn", "settle")


def _names_pin(glob: str) -> bool:
    """Whether an ID glob may match a pin (its ID starts PIN-)."""
    return glob[:1] in "*?[P"


def _may_select(filters: CaseFilters | None, game: str) -> bool:
    """Whether the pins are needed: the filters can select one, or an ID option may name one
    (judged against them: `--kind evaluate --id PIN-...` selects nothing, it is no typo).
    `--id ONE-CASE` must not pay for pins it drops."""
    if filters is None:
        return True
    if any(_names_pin(g) for g in (*filters.ids, *filters.deselect, *filters.exclude)):
        return True
    caps = {kind_named(k).capability for k in PIN_KINDS}
    return ((not filters.games or game in filters.games) and (not filters.kinds or bool(set(filters.kinds) & set(PIN_KINDS)))
            and (not filters.capabilities or bool(set(filters.capabilities) & caps)) and not filters.ids)


def _pins_for(profile: Profile, filters: CaseFilters | None, unchanged_only: bool, seeds: int = SEEDS) -> Pins | None:
    """P's pins when the run may hold one; None under --unchanged-only (an engine of the seeds'
    rules plays none of P's values) or for a profile that sets nothing."""
    if unchanged_only or not profile.overrides or not _may_select(filters, profile.extends):
        return None
    return pin_cases(profile, seeds)


def _joined(cases: list[Case], plan: ProfilePlan, chosen: list[Case], pins: Pins) -> tuple[list[Case], ProfilePlan]:
    """The run's cases with the chosen pins after them, and the plan that names them (in
    `changed` too: their expectation is P's)."""
    ids = {c.id: pins.pins[c.id] for c in chosen}
    return cases + chosen, dataclasses.replace(plan, changed=plan.changed | frozenset(ids), pinned=ids,
                                               unpinned=pins.unpinned)


def with_pins(cases: list[Case], plan: ProfilePlan, filters: CaseFilters | None = None,
              seeds: int = SEEDS) -> tuple[list[Case], ProfilePlan]:
    """The run's cases with P's pins added (those the filters select), and the plan that names
    them. None under --unchanged-only."""
    pins = _pins_for(plan.profile, filters, plan.unchanged_only, seeds)
    if pins is None:
        return cases, plan
    have = {c.id for c in cases}
    return _joined(cases, plan, [c for c in pins.cases if c.id not in have and (filters is None or filters.matches(c))],
                   pins)


def plan_run(profile: Profile, cases: list[Case], filters: CaseFilters | None = None,
             unchanged_only: bool = False) -> tuple[list[Case], ProfilePlan]:
    """`conformance run --rules P`'s cases and plan for cases already selected: the suite's
    expectations under P (expected_under.plan_under), then the cases that pin P's values."""
    from fives.conformance.cases.expected_under import plan_under

    return with_pins(*plan_under(profile, cases, unchanged_only=unchanged_only), filters)


def select_run(roots: list[Path] | None, filters: CaseFilters, profile: Profile | None = None,
               unchanged_only: bool = False) -> tuple[Selection, ProfilePlan | None]:
    """The cases `conformance run` and `list` (and the pytest plugin) choose, and under --rules P
    the plan: P's pins are cases of the suite like the others, so `--id`, `--deselect` and
    `--exclude` name them and a glob is judged against the suite and the pins together; the
    suite's cases chosen get their expectations under P, the pins chosen follow them."""
    from fives.conformance.cases.expected_under import plan_under
    from fives.conformance.cases.selection import load_selection

    if profile is None:
        return load_selection(roots, filters), None
    pins = _pins_for(profile, filters, unchanged_only)
    generated = {id(c) for c in pins.cases} if pins is not None else set()
    chosen = load_selection(roots, filters, pins.cases if pins is not None else (), under_rules=True)
    cases, plan = plan_under(profile, [c for c in chosen.cases if id(c) not in generated], unchanged_only=unchanged_only)
    if pins is not None:
        cases, plan = _joined(cases, plan, [c for c in chosen.cases if id(c) in generated], pins)
    return dataclasses.replace(chosen, cases=cases), plan
