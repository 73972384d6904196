"""The numbered rule clauses of spec/rules.md, with their seed citations."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from fives.support import paths

HEADING = re.compile(r"^### ((?:SN|HR)-[A-Z]+-\d+): (.+)$")
SOURCE = re.compile(r"^Source: `([^`]+)`, heading «(.+?)», quote «(.+?)»\s*$")


@dataclass(frozen=True)
class Citation:
    seed: str
    heading: str
    quote: str


@dataclass(frozen=True)
class Clause:
    id: str
    title: str
    sources: tuple[Citation, ...]
    text: str

    @property
    def game(self) -> str:
        return "american-sniff" if self.id.startswith("SN-") else "horse-race"

    @property
    def area(self) -> str:
        return self.id.split("-")[1]


def load_clauses(path: Path | None = None) -> dict[str, Clause]:
    """Clauses by ID, in document order."""
    path = path or paths.SPEC / "rules.md"
    out: dict[str, Clause] = {}
    current: tuple[str, str] | None = None
    sources: list[Citation] = []
    text: list[str] = []

    def flush() -> None:
        if current:
            out[current[0]] = Clause(current[0], current[1], tuple(sources), " ".join(text).strip())

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            flush()
            current, sources, text = None, [], []
            m = HEADING.match(line)
            if m:
                current = (m[1], m[2])
            continue
        if current is None:
            continue
        s = SOURCE.match(line)
        if s:
            sources.append(Citation(s[1], s[2], s[3]))
        elif line.strip() and not line.startswith("Ruling:"):
            text.append(line.strip())
    flush()
    return out
