"""Checks that spec/rules.md keeps its contract with the code, fixtures and seeds.

The contract: every clause ID listed below is present exactly once, in this
order, under its game's section; every clause cites at least one seed passage
by file, heading and a verbatim quote that really lies under that heading.
"""

import re
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
RULES_MD = REPO_ROOT / "spec" / "rules.md"


def _seeds_dir() -> Path:
    own = REPO_ROOT / "seeds"
    if own.is_dir():
        return own
    return REPO_ROOT.parent / "shared" / "seeds"


SEEDS_DIR = _seeds_dir()
SNIFF_SEED = "000_751b9fb83a3774b3.txt"
HORSE_SEED = "001_4a8ab5b829773601.txt"

# The contract: code and fixtures reference these IDs. Never renumber.
EXPECTED_SN = [
    "SN-SET-1", "SN-PLAYERS-1", "SN-TARGET-1", "SN-MATCH-1",
    "SN-DEAL-1", "SN-DEAL-2",
    "SN-LEAD-1", "SN-LEAD-2", "SN-LEAD-3",
    "SN-PLACE-1", "SN-PLACE-2", "SN-TURN-1",
    "SN-SPIN-1", "SN-SPIN-2",
    "SN-COUNT-1", "SN-COUNT-2", "SN-COUNT-3", "SN-COUNT-4", "SN-COUNT-5",
    "SN-SCORE-1", "SN-SCORE-2", "SN-SCORE-3",
    "SN-DRAW-1", "SN-DRAW-2", "SN-DRAW-3", "SN-DRAW-4",
    "SN-END-1", "SN-END-2",
    "SN-SETTLE-1", "SN-SETTLE-2", "SN-SETTLE-3", "SN-SETTLE-4",
    "SN-RECORD-1", "SN-RECORD-2",
]
EXPECTED_HR = [
    "HR-SET-1", "HR-PLAYERS-1", "HR-DEAL-1", "HR-DEAL-2", "HR-POINTS-1",
    "HR-LEAD-1", "HR-LEAD-2", "HR-LEAD-3",
    "HR-PLACE-1",
    "HR-CONT-1", "HR-CONT-2", "HR-CONT-3", "HR-CONT-4", "HR-CONT-5", "HR-CONT-6",
    "HR-SPIN-1", "HR-SPIN-2",
    "HR-COUNT-1", "HR-COUNT-2", "HR-COUNT-3", "HR-COUNT-4",
    "HR-SCORE-1", "HR-SCORE-2",
    "HR-DRAW-1", "HR-DRAW-2", "HR-DRAW-3", "HR-DRAW-4",
    "HR-END-1",
    "HR-SETTLE-1", "HR-SETTLE-2", "HR-SETTLE-3", "HR-SETTLE-4",
    "HR-SETTLE-5", "HR-SETTLE-6", "HR-SETTLE-7",
    "HR-MATCH-1", "HR-MATCH-2",
    "HR-RECORD-1",
]
EXPECTED_IDS = EXPECTED_SN + EXPECTED_HR
# Clauses that must carry a digest ruling line.
REQUIRED_RULINGS = {"HR-CONT-6", "SN-SETTLE-4"}

ID_RE = re.compile(r"^(SN|HR)-[A-Z]+-\d+$")
CLAUSE_RE = re.compile(r"^### (\S+): (\S.*)$")
SOURCE_RE = re.compile(r"^Source: `([^`]+)`, heading «([^«»]+)», quote «([^«»]+)»$")
RULING_PREFIX = "Ruling: rules-digest.md"
INTRO = "(intro)"
SECTIONS = ["## American Sniff", "## Horse Race", "## Digest disagreements"]
SEED_FOR_PREFIX = {"SN": SNIFF_SEED, "HR": HORSE_SEED}


# ---------------------------------------------------------------- parsing


def parse_rules(text):
    """Return (section headings in order, list of clause dicts)."""
    sections = []
    clauses = []
    current_section = None
    current = None
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            current_section = line.strip()
            sections.append(current_section)
            current = None
            continue
        m = CLAUSE_RE.match(line)
        if m:
            current = {
                "id": m.group(1),
                "title": m.group(2),
                "section": current_section,
                "line": lineno,
                "sources": [],
                "bad_sources": [],
                "rulings": [],
                "body": [],
            }
            clauses.append(current)
            continue
        if current is None:
            continue
        if line.startswith("Source:"):
            sm = SOURCE_RE.match(line)
            if sm:
                current["sources"].append(sm.groups())
            else:
                current["bad_sources"].append(line)
        elif line.startswith("Ruling:"):
            current["rulings"].append(line)
        elif line.strip():
            current["body"].append(line)
    return sections, clauses


def is_heading(line):
    """A seed heading line: a short line with no sentence punctuation.

    Figure legends (with ':'), figure captions (with '[') and prose sentences
    (with '.', '،' or '؛') are not headings.
    """
    s = line.strip()
    if not s or len(s) > 80:
        return False
    return not any(ch in s for ch in ".:[]،؛")


def seed_sections(path):
    """Map heading text -> list of section texts (lines under that heading)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    result = {}
    heading = INTRO
    body = []
    for line in lines:
        if is_heading(line):
            result.setdefault(heading, []).append("\n".join(body))
            heading = line.strip()
            body = []
        else:
            body.append(line)
    result.setdefault(heading, []).append("\n".join(body))
    return result


@pytest.fixture(scope="module")
def rules_text():
    assert RULES_MD.is_file(), f"missing {RULES_MD}"
    return RULES_MD.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def parsed(rules_text):
    return parse_rules(rules_text)


@pytest.fixture(scope="module")
def clauses(parsed):
    return parsed[1]


# ---------------------------------------------------------------- structure


def test_title_and_sections(rules_text, parsed):
    sections, _ = parsed
    assert rules_text.splitlines()[0] == "# Rules of American Sniff and Horse Race"
    assert sections == SECTIONS


def test_digest_disagreements_section_not_empty(rules_text):
    tail = rules_text.split("## Digest disagreements", 1)[1]
    assert tail.strip(), "write 'None found.' when there is no disagreement"


def test_ids_well_formed_and_unique(clauses):
    ids = [c["id"] for c in clauses]
    for cid in ids:
        assert ID_RE.match(cid), f"bad clause ID {cid!r}"
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    assert not dupes, f"duplicate clause IDs: {dupes}"


def test_all_expected_ids_present(clauses):
    ids = {c["id"] for c in clauses}
    missing = [i for i in EXPECTED_IDS if i not in ids]
    assert not missing, f"missing clause IDs: {missing}"


def test_expected_ids_in_order(clauses):
    ids = [c["id"] for c in clauses]
    positions = [ids.index(i) for i in EXPECTED_IDS if i in ids]
    assert positions == sorted(positions), "expected IDs are out of order"


def test_extra_ids_use_next_free_number(clauses):
    """An extra clause continues its area's numbering and follows the area."""
    ids = [c["id"] for c in clauses]
    expected = set(EXPECTED_IDS)
    for pos, cid in enumerate(ids):
        if cid in expected:
            continue
        area, num = cid.rsplit("-", 1)
        earlier = [
            int(i.rsplit("-", 1)[1]) for i in ids[:pos] if i.rsplit("-", 1)[0] == area
        ]
        assert earlier, f"extra clause {cid} opens an area of its own"
        assert int(num) == max(earlier) + 1, f"{cid} skips a number"
        assert ids[pos - 1].rsplit("-", 1)[0] == area, f"{cid} is not at the end of its area"


def test_clauses_in_their_game_section(clauses):
    for c in clauses:
        want = "## American Sniff" if c["id"].startswith("SN-") else "## Horse Race"
        assert c["section"] == want, f"{c['id']} is under {c['section']!r}"


def test_every_clause_has_source_and_body(clauses):
    for c in clauses:
        assert not c["bad_sources"], f"{c['id']}: malformed Source line {c['bad_sources']}"
        assert c["sources"], f"{c['id']} has no Source line"
        assert c["body"], f"{c['id']} has no rule text"


def test_ruling_lines(clauses):
    by_id = {c["id"]: c for c in clauses}
    for cid in REQUIRED_RULINGS:
        assert by_id[cid]["rulings"], f"{cid} must carry a 'Ruling:' line"
    for c in clauses:
        for line in c["rulings"]:
            assert line.startswith(RULING_PREFIX), f"{c['id']}: bad ruling line {line!r}"
            assert len(line) > len(RULING_PREFIX) + 5, f"{c['id']}: ruling text missing"


# ---------------------------------------------------------------- sources


def test_seed_directory_exists():
    assert SEEDS_DIR.is_dir(), f"seed directory not found: {SEEDS_DIR}"


def test_sources_cite_own_game_seed(clauses):
    for c in clauses:
        want = SEED_FOR_PREFIX[c["id"].split("-", 1)[0]]
        for fname, _, _ in c["sources"]:
            assert fname == want, f"{c['id']} cites {fname}, expected {want}"


def test_cited_files_exist(clauses):
    for c in clauses:
        for fname, _, _ in c["sources"]:
            assert (SEEDS_DIR / fname).is_file(), f"{c['id']}: no seed file {fname}"


def test_cited_headings_are_heading_lines(clauses):
    for c in clauses:
        for fname, heading, _ in c["sources"]:
            if heading == INTRO:
                continue
            lines = [
                l.strip()
                for l in (SEEDS_DIR / fname).read_text(encoding="utf-8").splitlines()
            ]
            assert heading in lines, f"{c['id']}: «{heading}» is not a line of {fname}"
            assert is_heading(heading), f"{c['id']}: «{heading}» is not a heading line"


def test_quotes_verbatim_and_under_heading(clauses):
    cache = {}
    for c in clauses:
        for fname, heading, quote in c["sources"]:
            path = SEEDS_DIR / fname
            if fname not in cache:
                cache[fname] = (path.read_text(encoding="utf-8"), seed_sections(path))
            text, sections = cache[fname]
            assert quote in text, f"{c['id']}: quote not verbatim in {fname}: «{quote}»"
            under = sections.get(heading, [])
            assert any(quote in body for body in under), (
                f"{c['id']}: quote «{quote}» does not lie under heading «{heading}»"
            )


def test_parser_sees_expected_seed_headings():
    """Guard the heading detector against silently changing seed layouts."""
    s0 = seed_sections(SEEDS_DIR / SNIFF_SEED)
    s1 = seed_sections(SEEDS_DIR / HORSE_SEED)
    assert "الإعداد والبدء" in s0 and "نهاية الجولة والخصم" in s0
    assert "بدء الجولة" in s1 and "تعادل أصغر المجاميع" in s1
    assert not any(h.startswith("القطعة الموضوعة") for h in list(s0) + list(s1))
