"""Diagnose seeded random profiles, each served as `fives serve --rules P` (a black box): which
dimensions `fives conformance diagnose` (its Python entry point) names against those planted, the engine requests and
the time of each.

    python benchmarks/diagnose_random.py [--profiles 20] [--seed 2027] [--mutants]
    python benchmarks/diagnose_random.py --misreading [--profiles 10]
    python benchmarks/diagnose_random.py --joint | --orders [--profiles 10]

By default each profile sets one to three dimensions, at least one of them a dimension issue
27 added or widened (NEW below), so the search is shown to offer them. With `--misreading` a
random shipped misreading (a mutant no profile expresses) is served on top
(`fives serve --rules P --mutant M`, searched `--no-mutants`): the causes must be exactly
the planted rules, and the misreading one unexplained cluster with a minimal case and a value
label. `--legacy` draws the ten profiles of the first version (random.Random(2026)).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import yaml

from fives.conformance.engines.handle import EngineSpec, EngineStartError
from fives.conformance.sessions.diagnose import DiagnoseOptions, diagnose
from fives.profile_space import AWARD_PARAMETERS, ORDER_COMPANIONS, alternative_overrides, alternatives, random_profile
from fives.profiles import Profile, make_profile, parameters
from fives.support.errors import UserError

#: shipped "misreadings" that a dimension of issue 27 now states (counting.open_branch_side):
#: rule variants, named as such, so not drawn as bugs here
NOW_RULES = ("sniff-branch-halves-not-counted", "unused-branches-counted")

#: the dimensions issue 27 added or widened to both games
NEW = ("opening.requires", "spinners.policy", "counting.open_branch_side", "settlement.kind",
       "drawing.while_playable", "deal.hand_size", "deal.reserve", "settlement.rounding.multiple",
       "settlement.rounding.round_up_from_remainder", "settlement.award_rounding", "settlement.blocked_winner",
       "settlement.subtract_winner_own", "continuation.enabled", "opening.order", "drawing.limit")


def new_profile(rng: random.Random, game: str) -> Profile:
    """One to three dimensions, the first drawn from NEW; a combination the schema refuses is drawn again."""
    alts = alternatives(game)
    while True:
        first = rng.choice([p for p in NEW if p in alts])
        others = rng.sample(sorted(p for p in alts if p != first), rng.randint(0, 2))
        if "opening.order" in (first, *others):  # it sets the rules that read it
            others = [p for p in others if p not in ORDER_COMPANIONS]
            if first in ORDER_COMPANIONS:
                continue
        overrides: dict[str, object] = {}
        for p in sorted([first, *others]):
            for k, v in alternative_overrides(game, p, rng.choice(alts[p])).items():
                overrides.setdefault(k, v)
        # a rule no play can show is not planted: an award's details without an award, a
        # rounding step without rounding
        if overrides.get("settlement.kind", parameters(game)["settlement.kind"]) != "award-to-winner":
            for k in AWARD_PARAMETERS:
                overrides.pop(k, None)
        if overrides.get("settlement.blocked_winner") == "nobody":  # no blocked winner: no tie for it
            overrides.pop("settlement.ties", None)
        if overrides.get("settlement.rounding.multiple") == 1:
            overrides.pop("settlement.rounding.round_up_from_remainder", None)
        if not overrides:
            continue
        try:
            return make_profile(game, overrides, source="random (benchmarks/diagnose_random.py)")
        except UserError:
            continue


def joint_profile(rng: random.Random, game: str) -> Profile:
    """`--joint` (issue 39): a hand size and a target of one player count, drawn at random: both
    differ in the same setup answer, so neither value alone explains it."""
    while True:
        n = rng.choice([2, 3, 4])
        overrides = {"deal.hand_size": {n: rng.randint(3, 9)}, "target.raw": {n: 5 * rng.randint(20, 80)}}
        if overrides["deal.hand_size"][n] == parameters(game)["deal.hand_size"][n]:
            continue
        try:
            return make_profile(game, overrides, source="random joint (benchmarks/diagnose_random.py)")
        except UserError:
            continue


def order_profile(rng: random.Random, game: str) -> Profile:
    """`--orders` (issue 39): a fixed order of the doubles that agrees with the game's on its first
    tile and differs after it, drawn at random (an order no rule book lists)."""
    first, *rest = list(parameters(game)["opening.order"])
    while True:
        rng.shuffle(rest)
        order = [first, *rest]
        if order != parameters(game)["opening.order"]:
            return make_profile(game, alternative_overrides(game, "opening.order", order),
                                source="random order (benchmarks/diagnose_random.py)")


def shows(bug: object, prof: Profile) -> int:
    """How many suite cases of the profile's game the bug fails on top of the profile (in process)."""
    from fives.conformance.cases.fixtures import load_cases
    from fives.conformance.engines.drivers import ReferenceEngine
    from fives.conformance.runner import run_cases

    cases = [c for c in load_cases() if c.game == prof.extends and c.profile is None and "slow" not in c.tags]
    plain = {r.case.id: r for r in run_cases(ReferenceEngine(profile=prof), cases)}
    buggy = run_cases(ReferenceEngine(bug.hooks(), profile=prof), cases)  # type: ignore[attr-defined]
    return sum(1 for r in buggy if r.status != plain[r.case.id].status)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--profiles", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--mutants", action="store_true", help="search the mutants too")
    ap.add_argument("--misreading", action="store_true", help="a random misreading served on top of each profile")
    ap.add_argument("--legacy", action="store_true", help="the first version's ten profiles")
    ap.add_argument("--joint", action="store_true", help="a hand size and a target of one player count at random")
    ap.add_argument("--orders", action="store_true", help="an order of doubles differing after its first tile")
    args = ap.parse_args()
    from fives.conformance.mutants.registry import all_mutants

    misreadings = [m for m in all_mutants() if not m.variant and m.name not in NOW_RULES]
    count = args.profiles or (10 if args.misreading or args.legacy else 20)
    rng = random.Random(2026 if args.legacy else args.seed)
    exact = 0
    mutants = args.mutants and not args.misreading
    for i in range(count):
        game = rng.choice(["horse-race", "american-sniff"])
        prof = random_profile(rng, game, rng.randint(1, 3)) if args.legacy else joint_profile(rng, game) \
            if args.joint else order_profile(rng, game) if args.orders else new_profile(rng, game)
        bug = None
        while args.misreading and bug is None:  # a bug the profile's game shows (a Sniff bug in Sniff)
            bug = rng.choice(misreadings)
            if not shows(bug, prof):
                bug = None
        d = Path(tempfile.mkdtemp(prefix="diag-"))
        pf = d / "p.yaml"
        pf.write_text(yaml.safe_dump({"extends": prof.extends, "name": f"random-{i}", "source": "test",
                                      "rules": dict(prof.overrides)}, sort_keys=True))
        serve = f"{sys.executable} -m fives serve --rules {pf}" + (f" --mutant {bug.name}" if bug else "")
        t0 = time.monotonic()
        try:  # `conformance diagnose --engine SERVE --game G --json --out D/out`, from Python
            outcome = diagnose(DiagnoseOptions(EngineSpec(serve), (game,), mutants=mutants))
        except (EngineStartError, UserError) as e:
            print(i, game, dict(prof.overrides), "no diagnosis", str(e)[-300:], flush=True)
            continue
        outcome.write(d / "out")
        dt = time.monotonic() - t0
        diag, rc = outcome.to_json(), 0 if outcome.conforms else 1
        named: dict[str, object] = {}
        for c in diag["causes"]:
            named.update(c["overrides"] or {f"mutant {c['mutant']}": True})
        named = json.loads(json.dumps(named))  # by-players keys as JSON has them, on both sides
        planted = json.loads(json.dumps(dict(prof.overrides)))
        left = diag["unexplained"]
        if bug is None:
            ok = named == planted and not left
            note = ""
        else:
            # does the bug fail anything under these rules? (in process: the same answers)
            one = len(left) == 1
            g = left[0] if one else {}
            shrunk = one and str(g.get("example", "")).startswith("DX-")
            label = one and bool(g.get("label"))
            ok = named == planted and one and shrunk and label
            note = (f"; bug {bug.name}: {len(left)} cluster(s)"
                    + "".join(f" [{x['cases']} case(s) {x['group']}{'; ' + x['label'] if x.get('label') else ''}"
                              f"{'; ' + x['relation'] if x.get('relation') else ''}; e.g. {x['example']}"
                              f"{' (' + x['shrunk'] + ')' if x.get('shrunk') else ''}]" for x in left))
        exact += ok
        req = diag["requests"]
        print(f"{i} {game}: planted {json.dumps(dict(prof.overrides), sort_keys=True)}; "
              f"named {json.dumps(named, sort_keys=True)}; {'exact' if ok else 'MISSED'}{note}; "
              f"unexplained {sum(g['cases'] for g in left)}; exit {rc}; "
              f"requests {req['suite']}+{req['fuzz']}+{req['shrink']}+{req.get('verify', 0)}+{req.get('recheck', 0)} "
              f"(suite+fuzz+shrink+verify+recheck); {dt:.1f} s", flush=True)
    print(f"{exact} of {count} {'with the misreading as one shrunk, labelled cluster' if args.misreading else ''}"
          f"{' and ' if args.misreading else ''}named exactly")
    return 0 if exact == count else 1


if __name__ == "__main__":
    sys.exit(main())
