"""Every shipped profile's parameters are traced to a source sentence in spec/variants.md, and every
value of every rule dimension names the rule books that state it (issue 27)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from fives.profile_space import DIMENSIONS, alternatives
from fives.profiles import load_profile, parameters, shipped_profiles

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "spec" / "variants.md").read_text(encoding="utf-8")


def shown(value: Any) -> str:
    """A value as the tables write it (as `fives rules show` does): `2:7 3:6 4:5`, `true`, `first-double`."""
    if isinstance(value, dict):
        return " ".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):  # an order of tiles: `[6|6] [5|5] ...`
        return " ".join(str(v) for v in value)
    return str(value)


def rows(section: str) -> list[list[str]]:
    """The rows of the markdown tables in `section` (header and rule lines left out)."""
    out = []
    for line in section.splitlines():
        # a tile's bar inside a cell is escaped (`[6\\|6]`)
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))] \
            if line.startswith("|") else []
        if len(cells) >= 3 and not set(cells[0]) <= set("-") and cells[0] not in ("parameter", "key"):
            out.append(cells)
    return out


def book_keys() -> set[str]:
    keys_part = TEXT.split("## Rule books surveyed", 1)[1].split("### Values and the books", 1)[0]
    return {line.split("|")[1].strip() for line in keys_part.splitlines()
            if line.startswith("| ") and not line.startswith("| key")}


def survey() -> dict[tuple[str, str], str]:
    table = re.search(r"<!-- survey-table:start -->\n(.*?)<!-- survey-table:end -->", TEXT, re.S)
    assert table is not None, "spec/variants.md has no survey table"
    return {(r[0].strip("`"), r[1]): r[2] for r in rows(table.group(1))}


def test_the_survey_names_known_books_for_every_value_of_every_dimension() -> None:
    books, table = book_keys(), survey()
    assert {"seeds", "pagat-sniff", "pagat-five-up", "hoyle", "gambit"} <= books
    missing = []
    for d in DIMENSIONS:
        for game in d.games:
            for value in [parameters(game)[d.path], *alternatives(game).get(d.path, [])]:
                said = table.get((d.path, shown(value)))
                if said is None:
                    missing.append(f"{d.path} = {shown(value)}")
                    continue
                named = set(re.findall(r"[a-z][a-z0-9-]+", said)) & books
                assert named, f"{d.path} = {shown(value)}: names no surveyed book: {said!r}"
    assert missing == [], "values without a survey row in spec/variants.md"


def test_the_survey_lists_only_parameters_and_defaults_are_the_seeds() -> None:
    table = survey()
    paths = {d.path for d in DIMENSIONS}
    assert {p for p, _ in table} == paths
    for d in DIMENSIONS:
        for game in d.games:
            assert "seeds" in table[(d.path, shown(parameters(game)[d.path]))], (d.path, game)


@pytest.mark.parametrize("name", shipped_profiles())
def test_every_parameter_of_a_shipped_profile_is_traced_to_a_source_sentence(name: str) -> None:
    head = f"### Sources of `{name}`"
    assert head in TEXT, f"spec/variants.md has no '{head}' section"
    section = TEXT.split(head, 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    traced = {r[0].strip("`"): r for r in rows(section)}
    profile, books = load_profile(name), book_keys()
    assert profile.overrides, name
    for path, value in profile.overrides.items():
        assert path in traced, f"{name}: {path} is not traced to a source in spec/variants.md"
        _, said, sentence = traced[path][:3]
        assert said == shown(value), f"{name}: {path}: the table says {said}, the profile {shown(value)}"
        key = sentence.split(":", 1)[0]
        assert key in books and len(sentence) > len(key) + 20, f"{name}: {path}: {sentence!r}"
        assert key in profile.source.lower().replace(" ", "-") or _source_named(key, profile.source), \
            f"{name}: {path} cites {key}, which the profile's `source` does not name"
    assert set(traced) == set(profile.overrides), f"{name}: rows for parameters it does not set"


def _source_named(key: str, source: str) -> bool:
    """Whether a profile's `source` text names the book `key` stands for (its site or title)."""
    row = next(line for line in TEXT.splitlines() if line.startswith(f"| {key} |"))
    title = row.split("|")[2]
    words = [w for w in re.findall(r"[A-Za-z][\w.-]+", title) if len(w) > 4]
    return any(w.lower() in source.lower() for w in words)


@pytest.mark.parametrize("name", shipped_profiles())
def test_every_value_a_shipped_profile_plays_names_its_book_sentence_or_its_departure(name: str) -> None:
    """Issue 38: set or inherited, each value `fives rules show` prints for the profile is traced
    to a sentence of the profile's book, or the profile states where and why it departs."""
    from fives.conformance.diagnose.variant_compare import resolve, show_rows

    profile, books = load_profile(name), book_keys()
    rows = show_rows([resolve(name)])
    assert len(rows) >= 22, name
    for row in rows:
        path, src = row["parameter"], row["values"][0]["source"]
        assert src, f"{name}: {path} = {shown(row['values'][0]['value'])} has neither a source sentence nor a departure"
        if "book" in src:
            assert src["book"] in books, f"{name}: {path}: unknown book {src['book']!r}"
            assert src["book"] in profile.source.lower().replace(" ", "-") or _source_named(src["book"], profile.source), \
                f"{name}: {path} cites {src['book']}, which the profile's `source` does not name"
        if path in profile.overrides:  # a value the profile sets is the book's (a departure may qualify it)
            assert "book" in src, f"{name}: {path} is set, so its book must state it"
    assert set(profile.sources) == {r["parameter"] for r in rows}, f"{name}: sources for values it does not show"


def test_an_untraced_value_fails_the_trace(tmp_path: Path) -> None:
    """The check above can fail: a profile whose sources leave one value out shows it untraced."""
    from fives.conformance.diagnose.variant_compare import Ref, show_rows, source_text

    text = (ROOT / "spec" / "variants" / "racehorse-rice.yaml").read_text(encoding="utf-8")
    cut = "\n".join(line for line in text.splitlines() if not line.startswith("  settlement.ties:")) + "\n"
    (tmp_path / "p.yaml").write_text(cut, encoding="utf-8")
    p = load_profile(str(tmp_path / "p.yaml"))
    row = next(r for r in show_rows([Ref(p.name, p.extends, p)]) if r["parameter"] == "settlement.ties")
    assert row["values"][0]["source"] is None and source_text(None) == "(not traced)"
