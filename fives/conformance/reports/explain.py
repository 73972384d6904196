"""Why a case failed: a difference per element and key between the expected and actual answer.

The verdict stays with each kind's comparer (fives/conformance/cases/kinds/*); this module only explains it,
following the same rules: only the keys a fixture states are compared; lists the kind treats
as multisets (positions, contributions, connections, legal placements, winners) are matched
entry by entry, an expected entry matching any actual entry that agrees on every key it
states; `turn` and `settle` compare nested mappings by their stated keys and lists in order;
an expected `error` compares `index` and `code` only. A difference names one path
(`results[1].continues`), never two whole lists side by side.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

#: Differences beyond this many per case are summarised in one line.
MAX_DIFFERENCES = 40
#: Leftover list entries beyond this many are not paired up (pairing is quadratic).
MAX_PAIRING = 200
#: Keys that identify a list entry, most telling first, for pairing and for labels.
IDENTITY_KEYS = ("tile", "seat", "id", "action", "side")

DIFFERS, MISSING, UNEXPECTED = "differs", "missing", "unexpected"
MISSING_ELEMENT, UNEXPECTED_ELEMENT, NOTE = "missing-element", "unexpected-element", "note"


def render(value: Any, limit: int = 160) -> str:
    """A value as compact JSON (false, null, [1,2]), cut to `limit` characters."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _same(a: Any, b: Any) -> bool:
    try:
        return render(a, 1 << 30) == render(b, 1 << 30)
    except RecursionError:
        return False


@dataclass(frozen=True)
class Difference:
    path: str  # "results[1].continues", "contributions", "" for the whole answer
    kind: str  # differs | missing | unexpected | missing-element | unexpected-element | note
    expected: Any = None
    actual: Any = None
    text: str = ""  # for kind "note": a comparer's own line

    def __str__(self) -> str:
        where = self.path or "answer"
        if self.kind == DIFFERS:
            return f"{where}: expected {render(self.expected)}, got {render(self.actual)}"
        if self.kind == MISSING:
            return f"{where}: missing (expected {render(self.expected)})"
        if self.kind == UNEXPECTED:
            return f"{where}: not expected (got {render(self.actual)})"
        if self.kind == MISSING_ELEMENT:
            return f"{where}: missing element {render(self.expected)}"
        if self.kind == UNEXPECTED_ELEMENT:
            return f"{where}: unexpected element {render(self.actual)}"
        return f"{where}: {self.text}" if self.path else self.text

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"path": self.path, "kind": self.kind}
        if self.kind in (DIFFERS, MISSING, MISSING_ELEMENT):
            d["expected"] = self.expected
        if self.kind in (DIFFERS, UNEXPECTED, UNEXPECTED_ELEMENT):
            d["actual"] = self.actual
        d["text"] = str(self)
        return d


@dataclass(frozen=True)
class Policy:
    """How a kind compares (mirrors its comparer in fives/conformance/kinds)."""
    nested_subset: bool = False  # turn, settle: nested mappings by stated keys, lists in order
    unordered: frozenset[str] = frozenset()  # top-level keys compared as multisets
    ignore: frozenset[str] = frozenset()  # top-level keys never compared (free text)
    errors: str = "none"  # "first": an error mismatch is the whole story; "also": errors then the rest


def _policies() -> dict[str, Policy]:
    from fives.conformance.cases.kinds.evaluate import UNORDERED
    return {
        "evaluate": Policy(unordered=UNORDERED, errors="first"),
        "legal-placements": Policy(unordered=frozenset({"placements"}), errors="first"),
        "turn": Policy(nested_subset=True, errors="also"),
        "settle": Policy(nested_subset=True, errors="first"),
        "match-end": Policy(unordered=frozenset({"winners"}), errors="first"),
        "setup": Policy(ignore=frozenset({"reason"})),
    }


def policy_for(kind: str) -> Policy:
    return _policies().get(kind, Policy())


def explain(kind: str, expected: Any, actual: Any, fallback: list[str] | None = None) -> list[Difference]:
    """The differences between a case's `expect` and an engine's answer, per path.

    `fallback` is the comparer's own lines: used when this explanation finds nothing the
    comparer found (so a report never shows a failure without its reason).
    """
    policy = policy_for(kind)
    try:
        diffs = _explain(policy, expected, actual)
    except RecursionError:
        diffs = []
    if not diffs and fallback:
        diffs = [Difference("", NOTE, text=line) for line in fallback]
    if len(diffs) > MAX_DIFFERENCES:
        rest = len(diffs) - MAX_DIFFERENCES
        diffs = diffs[:MAX_DIFFERENCES] + [Difference("", NOTE, text=f"... and {rest} more differences")]
    return diffs


def _explain(policy: Policy, expected: Any, actual: Any) -> list[Difference]:
    if not isinstance(expected, dict):
        return [] if _same(expected, actual) else [Difference("", DIFFERS, expected, actual)]
    if not isinstance(actual, dict):
        return [Difference("", DIFFERS, expected, actual)]
    out: list[Difference] = []
    if policy.errors != "none":
        out = _errors(expected, actual)
        if out and policy.errors == "first":
            return out
        if "error" in expected and policy.errors == "first":
            return []
    for key, want in expected.items():
        if key in policy.ignore or (key == "error" and policy.errors != "none"):
            continue
        if key not in actual:
            out.append(Difference(key, MISSING, expected=want))
        elif key in policy.unordered and isinstance(want, list) and isinstance(actual[key], list):
            out += _multiset(key, want, actual[key])
        elif policy.nested_subset:
            out += _subset(key, want, actual[key])
        else:
            out += _strict(key, want, actual[key])
    return out


def _errors(expected: dict[str, Any], actual: dict[str, Any]) -> list[Difference]:
    if "error" not in expected:
        return [Difference("error", UNEXPECTED, actual=actual["error"])] if "error" in actual else []
    want, got = expected["error"], actual.get("error")
    if not isinstance(got, dict):
        return [Difference("error", MISSING, expected=want)]
    if not isinstance(want, dict):
        return [] if _same(want, got) else [Difference("error", DIFFERS, want, got)]
    return [Difference(f"error.{k}", DIFFERS, v, got.get(k))
            for k, v in want.items() if k != "message" and not _same(v, got.get(k))]


def _strict(path: str, want: Any, got: Any) -> list[Difference]:
    """Whole-value equality, explained: every key both ways, lists aligned in order."""
    if _same(want, got):
        return []
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for k, v in want.items():
            if k not in got:
                out.append(Difference(f"{path}.{k}", MISSING, expected=v))
            else:
                out += _strict(f"{path}.{k}", v, got[k])
        out += [Difference(f"{path}.{k}", UNEXPECTED, actual=v) for k, v in got.items() if k not in want]
        return out
    if isinstance(want, list) and isinstance(got, list):
        return _ordered(path, want, got, _same, _strict)
    return [Difference(path, DIFFERS, want, got)]


def _subset_matches(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _subset_matches(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return all(_subset_matches(w, g) for w, g in zip(want, got))
    return _same(want, got)


def _subset(path: str, want: Any, got: Any) -> list[Difference]:
    """As compare_subset (fives/conformance/cases/kinds/play.py): mappings by stated keys, lists in order."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [Difference(path, DIFFERS, want, got)]
        out = []
        for k, v in want.items():
            if k not in got:
                out.append(Difference(f"{path}.{k}", MISSING, expected=v))
            else:
                out += _subset(f"{path}.{k}", v, got[k])
        return out
    if isinstance(want, list) and isinstance(got, list):
        return _ordered(path, want, got, _subset_matches, _subset)
    return [] if _same(want, got) else [Difference(path, DIFFERS, want, got)]


Matcher = Callable[[Any, Any], bool]
Recurse = Callable[[str, Any, Any], list[Difference]]


def _ordered(path: str, want: list[Any], got: list[Any], match: Matcher, recurse: Recurse) -> list[Difference]:
    """Lists in order. Same length: element by element. Otherwise the longest run of matching
    entries is kept in place and the gaps between them are paired up, the rest missing or extra."""
    if len(want) == len(got):
        return [d for i, (w, g) in enumerate(zip(want, got)) for d in recurse(f"{path}[{i}]", w, g)]
    pairs = _align(want, got, match)
    out: list[Difference] = []
    i = j = 0
    for a, b in pairs + [(len(want), len(got))]:
        gap_w, gap_g = list(range(i, a)), list(range(j, b))
        for x, y in zip(gap_w, gap_g):
            out += recurse(f"{path}[{x}]", want[x], got[y])
        out += [Difference(f"{path}[{x}]", MISSING_ELEMENT, expected=want[x]) for x in gap_w[len(gap_g):]]
        out += [Difference(f"{path}[{y}]", UNEXPECTED_ELEMENT, actual=got[y]) for y in gap_g[len(gap_w):]]
        i, j = a + 1, b + 1
    return out


def _align(want: list[Any], got: list[Any], match: Matcher) -> list[tuple[int, int]]:
    """Index pairs of a longest common subsequence under `match` (positional past a size cap)."""
    n, m = len(want), len(got)
    if n * m > MAX_PAIRING * MAX_PAIRING:
        return [(k, k) for k in range(min(n, m)) if match(want[k], got[k])]
    length = [[0] * (m + 1) for _ in range(n + 1)]
    for x in range(n - 1, -1, -1):
        for y in range(m - 1, -1, -1):
            length[x][y] = (length[x + 1][y + 1] + 1 if match(want[x], got[y])
                            else max(length[x + 1][y], length[x][y + 1]))
    pairs, x, y = [], 0, 0
    while x < n and y < m:
        if match(want[x], got[y]) and length[x][y] == length[x + 1][y + 1] + 1:
            pairs.append((x, y))
            x, y = x + 1, y + 1
        elif length[x + 1][y] >= length[x][y + 1]:
            x += 1
        else:
            y += 1
    return pairs


def _entry_matches(want: Any, got: Any) -> bool:
    """As fives.conformance.cases.kinds.match_multiset: an expected mapping matches on the keys it states."""
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and _same(v, got[k]) for k, v in want.items())
    return _same(want, got)


def _multiset(path: str, want: list[Any], got: list[Any]) -> list[Difference]:
    """Multisets: matched entries say nothing; an unmatched expected entry is paired with the
    unmatched actual entry that agrees with it most (same tile first) and only the keys that
    differ are named; what stays unpaired is a missing or an unexpected element."""
    left = list(range(len(got)))
    missing: list[int] = []
    # most specific entries first, so a partial entry cannot steal a full entry's match (as the comparer)
    for w in sorted(range(len(want)), key=lambda k: -len(want[k]) if isinstance(want[k], dict) else 0):
        hit = next((p for p, g in enumerate(left) if _entry_matches(want[w], got[g])), None)
        if hit is None:
            missing.append(w)
        else:
            del left[hit]
    pairs: list[tuple[int, int]] = []
    if len(missing) * len(left) <= MAX_PAIRING * MAX_PAIRING:
        scored = sorted(((s, w, g) for w in missing for g in left if (s := _affinity(want[w], got[g])) is not None),
                        key=lambda t: (-t[0][0], -t[0][1], t[1], t[2]))
        used_w: set[int] = set()
        used_g: set[int] = set()
        for _, w, g in scored:
            if w not in used_w and g not in used_g:
                pairs.append((w, g))
                used_w.add(w)
                used_g.add(g)
    out: list[Difference] = []
    paired_w = {w for w, _ in pairs}
    paired_g = {g for _, g in pairs}
    for w, g in sorted(pairs):
        label = f"{path}[{_label(want[w], got[g])}]"
        out += [Difference(f"{label}.{k}", MISSING, expected=v) if k not in got[g]
                else Difference(f"{label}.{k}", DIFFERS, v, got[g][k])
                for k, v in want[w].items() if k not in got[g] or not _same(v, got[g][k])]
    out += [Difference(path, MISSING_ELEMENT, expected=want[w]) for w in sorted(missing) if w not in paired_w]
    out += [Difference(path, UNEXPECTED_ELEMENT, actual=got[g]) for g in sorted(left) if g not in paired_g]
    return out


def _affinity(want: Any, got: Any) -> tuple[int, int] | None:
    """How alike two entries are: (agree on their identity key, keys agreeing); None: unrelated."""
    if not isinstance(want, dict) or not isinstance(got, dict) or not want:
        return None
    agree = [k for k, v in want.items() if k in got and _same(v, got[k])]
    ident = next((k for k in IDENTITY_KEYS if k in want), None)
    if not agree or 2 * len(agree) < len(want) or (ident is not None and ident not in agree):
        return None
    return (1 if ident is not None else 0, len(agree))


def _label(want: dict[str, Any], got: dict[str, Any]) -> str:
    """The keys two paired entries agree on, identity keys first: `tile=[4|4], side=branch-b`."""
    agree = [k for k, v in want.items() if k in got and _same(v, got[k])]
    keys = sorted(agree, key=lambda k: (IDENTITY_KEYS.index(k) if k in IDENTITY_KEYS else len(IDENTITY_KEYS), k))[:3]
    return ", ".join(f"{k}={_plain(want[k])}" for k in keys)


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else render(value, 40)
