"""`fives rules show|compare`: what rule profiles say, and which cases they answer differently.

`show` puts the profiles side by side, one row per rule dimension (fives.profile_space.DIMENSIONS).
`compare` answers every shipped case of a pair's game with the reference engine under each
profile of the pair and lists the cases whose answers differ. A bare game id stands for the
seeds' rules. Cases that state their own rules (variant fixtures) are left out: they are
played under those rules whatever the profile.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import load_kinds
from fives.profile_space import Dimension, dimensions
from fives.profiles import Profile, load_profile, parameters, rules_under
from fives.rules import game_ids


@dataclass(frozen=True)
class Ref:
    """A profile as the user named it: a game's own rules (profile None) or a Profile."""

    label: str
    game: str
    profile: Profile | None

    @property
    def digest(self) -> str:
        return self.profile.digest if self.profile is not None else "seeds"


def resolve(ref: str) -> Ref:
    """A game id (its seeds' rules), a shipped profile's name, or a profile file."""
    if ref in game_ids():
        return Ref(ref, ref, None)
    p = load_profile(ref)
    return Ref(p.name, p.extends, p)


def value_text(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, list):  # an order of tiles (`opening.order`)
        return " ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def show_rows(refs: list[Ref]) -> list[dict[str, Any]]:
    """One row per dimension of any of the refs' games: each ref's value (None where the
    dimension is not of its game) and whether it differs from that game's seeds."""
    games = {r.game for r in refs}
    rows = []
    for d in dimensions():
        if not games & set(d.games) or _inert(d, refs):
            continue
        cells = []
        for r in refs:
            if r.game not in d.games:
                cells.append({"value": None, "changed": False})
                continue
            seed = parameters(r.game)[d.path]
            value = r.profile.overrides.get(d.path, seed) if r.profile is not None else seed
            cells.append({"value": value, "changed": value != seed,
                          "source": None if r.profile is None else r.profile.sources.get(d.path)})
        rows.append({"parameter": d.path, "what": d.what, "values": cells})
    return rows


def _inert(d: Dimension, refs: list[Ref]) -> bool:
    """Whether `d` changes nothing under every ref (`Dimension.inert_under`)."""
    if d.inert_under is None:
        return False
    path, value = d.inert_under
    return all(r.game not in d.games or _value(r, path) == value for r in refs)


def _value(r: Ref, path: str) -> Any:
    seed = parameters(r.game)[path]
    return r.profile.overrides.get(path, seed) if r.profile is not None else seed


def source_text(source: Any) -> str:
    """Where a profile's value comes from, one line: `book: what it says`, `departs: why`, both,
    and `unverified: what the stored page could not show` where that is so."""
    if not source:
        return "(not traced)"
    parts = [f"{source['book']}: {source['says']}"] if "book" in source else []
    parts += [f"{key}: {source[key]}" for key in ("departs", "unverified") if key in source]
    return "; ".join(parts)


def show_json(refs: list[Ref]) -> dict[str, Any]:
    profiled = any(r.profile is not None for r in refs)  # the seeds' document keeps its keys
    return {"profiles": [{"name": r.label, "extends": r.game, "digest": r.digest,
                          "source": r.profile.source if r.profile is not None else "the seeds"} for r in refs],
            "dimensions": [{"parameter": row["parameter"], "what": row["what"],
                            "values": [json.loads(json.dumps(c["value"])) for c in row["values"]],
                            **({"sources": [c["source"] for c in row["values"]]} if profiled else {})}
                           for row in show_rows(refs)]}


def show_text(refs: list[Ref]) -> str:
    """A plain table: a changed value is marked with `*`; `-` where a dimension is not of the game."""
    rows = show_rows(refs)
    traced = [i for i, r in enumerate(refs) if r.profile is not None]  # a source column per profile
    head = ["parameter"] + [r.label for r in refs] + [f"{refs[i].label}: source" for i in traced]
    body = [[row["parameter"]] + ["-" if r.game not in _games(row) else value_text(c["value"]) + (" *" if c["changed"] else "")
                                  for c, r in zip(row["values"], refs)]
            + ["-" if refs[i].game not in _games(row) else source_text(row["values"][i]["source"]) for i in traced]
            for row in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip() for line in [head] + body]
    lines.append("* differs from the seeds' value; - not a rule of that game")
    return "\n".join(lines) + "\n"


def _games(row: dict[str, Any]) -> tuple[str, ...]:
    return next(d.games for d in dimensions() if d.path == row["parameter"])


def show_markdown(refs: list[Ref]) -> str:
    """The table of spec/variants.md: one column per profile, changed values in bold."""
    rows = show_rows(refs)
    out = ["| parameter | " + " | ".join(f"`{r.label}`" for r in refs) + " |",
           "|---|" + "---|" * len(refs)]
    for row in rows:
        cells = []
        for c, r in zip(row["values"], refs):
            if r.game not in _games(row):
                cells.append("–")
            else:
                text = value_text(c["value"]).replace("|", "\\|")
                cells.append(f"**{text}**" if c["changed"] else text)
        out.append(f"| `{row['parameter']}` | " + " | ".join(cells) + " |")
    out.append("")
    out.append("| profile | extends | digest | source |")
    out.append("|---|---|---|---|")
    for r in refs:
        src = (r.profile.source if r.profile is not None else "the seeds").replace("|", "\\|").strip()
        out.append(f"| `{r.label}` | {r.game} | `{r.digest}` | {src} |")
    return "\n".join(out) + "\n"


def answers(ref: Ref, cases: list[Case]) -> dict[str, str]:
    """case id -> the reference's answer under `ref` (canonical JSON), for the ref's game."""
    rules, kinds = rules_under(ref.profile, ref.game), load_kinds()
    out = {}
    for c in cases:
        if c.game != ref.game or c.profile is not None or "slow" in c.tags:
            continue
        try:
            got: Any = kinds[c.kind].run(rules, c.input, {})
        except ValueError as e:  # the input is illegal under these rules (a deal size, ...)
            got = {"refused": str(e)}
        out[c.id] = json.dumps(got, sort_keys=True, default=str)
    return out


def compare(refs: list[Ref], cases: list[Case]) -> list[dict[str, Any]]:
    """Per pair of refs: the cases of their game whose answers differ."""
    memo: dict[str, dict[str, str]] = {}

    def of(r: Ref) -> dict[str, str]:
        key = f"{r.game}/{r.digest}"
        if key not in memo:
            memo[key] = answers(r, cases)
        return memo[key]

    pairs = []
    for a, b in combinations(refs, 2):
        entry: dict[str, Any] = {"a": a.label, "b": b.label}
        if a.game != b.game:
            entry.update({"game": None, "cases": 0, "differ": []})
        else:
            x, y = of(a), of(b)
            entry.update({"game": a.game, "cases": len(x), "differ": [cid for cid in x if x[cid] != y.get(cid)]})
        pairs.append(entry)
    return pairs


def compare_text(pairs: list[dict[str, Any]], limit: int) -> str:
    lines = []
    for p in pairs:
        if p["game"] is None:
            lines.append(f"{p['a']} vs {p['b']}: different games, no case in common")
            continue
        lines.append(f"{p['a']} vs {p['b']}: {len(p['differ'])} of {p['cases']} {p['game']} cases answer differently")
        shown = p["differ"] if limit <= 0 else p["differ"][:limit]
        lines.extend(f"  {cid}" for cid in shown)
        if len(shown) < len(p["differ"]):
            lines.append(f"  ... and {len(p['differ']) - len(shown)} more (--limit 0: all)")
    return "\n".join(lines) + "\n"
