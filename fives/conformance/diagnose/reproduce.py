"""What diagnose names, asked again (spec/diagnose.md, "Asked again"): each cause's example and each
cluster's minimal case (its smallest suite case when none was made) is asked again before it is
reported or written, twice of the engine and once of the engine started afresh
(fives/conformance/fuzz/recheck.py). A reply that changes is the engine answering inconsistently:
the cause is not named (nor its value put in the profile), the cluster's case is not written, and
the request with both replies is reported instead (`Diagnosis.inconsistent`), so every case
diagnose writes fails a deterministic engine on every re-run."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from fives.conformance.diagnose.diagnosis import Cause, Diagnosis, _size, combined, example_case, reachable_example
from fives.conformance.engines.drivers import Engine
from fives.conformance.fuzz.recheck import FRESH, Inconsistency, ask, changed, reply_of

#: the shrink note of a cluster whose minimal case was answered two ways
NOT_WRITTEN = "not written: the engine answered its minimal case two ways (see inconsistent)"


@dataclass
class _Asked:
    """One case diagnose would report: `what` is a Cause or a cluster key."""

    what: Any
    about: str
    game: str
    kind: str
    input: dict[str, Any]
    expected: Any
    first: Any


def _items(d: Diagnosis) -> list[_Asked]:
    out = []
    for c in d.causes:
        if not reachable_example(d, c):
            continue  # neither written nor shrunk: the report says it is out of reach
        case = example_case(d, c)
        first = d.replies.get(case["id"]) if c.fixture else \
            (reply_of(c.example.outcome) if c.example.outcome is not None else None)
        out.append(_Asked(c, f"the example {case['id']} of {c.candidate.name} (so the cause is not named)",
                          case["game"], case["kind"], case["input"], case["expect"], first))
    for g in d.unexplained:
        fixture = d.clusters.get(g.key)
        if fixture is not None:
            out.append(_Asked(g.key, f"the minimal case {fixture['id']} of the cluster {g.key}", fixture["game"],
                              fixture["kind"], fixture["input"], fixture["expect"], d.replies.get(fixture["id"])))
            continue
        answered = [ex.result for ex in g.explanations if ex.result.status == "failed" and ex.result.outcome]
        if answered:  # errors (a crash, a hang) are not asked again: they are engine errors already
            r = min(answered, key=_size)
            out.append(_Asked(g.key, f"the case {r.case.id} of the cluster {g.key}", r.case.game, r.case.kind,
                              r.case.input, r.case.expect, reply_of(r.outcome)))
    return out


def reproduce(d: Diagnosis, engine: Engine, fresh: Callable[[], Engine | None]) -> None:
    """Ask every example again (`fresh` starts the engine anew, None when it cannot); what changes
    is moved to `d.inconsistent`. The requests are counted as `d.requests["recheck"]`."""
    todo = _items(d)
    asked = 0
    odd: list[tuple[_Asked, Inconsistency]] = []
    for it in todo:
        if it.first is None:  # no answer kept: this one is the first
            it.first = ask(engine, it.game, it.kind, it.input, it.expected)
            asked += 1
        found, n = changed(engine, it.game, it.kind, it.input, it.expected, it.first, it.about)
        asked += n
        if found is not None:
            odd.append((it, found))
    left = [it for it in todo if all(it is not o for o, _ in odd)]
    again = fresh() if left else None
    if again is not None:
        try:
            for it in left:
                found, n = changed(again, it.game, it.kind, it.input, it.expected, it.first, it.about, 1, FRESH)
                asked += n
                if found is not None:
                    odd.append((it, found))
        finally:
            again.close()
    d.requests["recheck"] = d.requests.get("recheck", 0) + asked
    for it, found in odd:
        d.inconsistent.append(found)
        if isinstance(it.what, Cause):
            _unname(d, it.what)
        else:
            d.clusters.pop(it.what, None)
            d.shrink_notes[f"cluster {it.what}"] = NOT_WRITTEN


def _unname(d: Diagnosis, c: Cause) -> None:
    """A cause whose example the engine answers two ways is no rule of the engine's: out of the
    causes and of its game's inferred profile."""
    game = c.candidate.game
    d.causes = [x for x in d.causes if x is not c]
    scorer = d.scorers.get(game)
    chosen = tuple(x for x in d.chosen.get(game, ()) if x is not c.candidate)
    if scorer is None:
        return
    before = d.chosen.get(game, ())
    d.combined_explained -= len(scorer.explained(before)) - len(scorer.explained(chosen))
    d.combined_broken -= scorer.broken(before) - scorer.broken(chosen)
    d.chosen[game] = chosen
    if chosen:
        d.combined[game] = combined(scorer, chosen)
    else:
        d.combined.pop(game, None)
