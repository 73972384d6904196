"""Diagnose seeded random profiles, each served as `fives serve --rules P` (a black box): which
dimensions `fives conformance diagnose` (its Python entry point) names against those planted, the engine requests and
the time of each.

    python benchmarks/diagnose_random.py [--profiles 20] [--seed 2027] [--mutants]
    python benchmarks/diagnose_random.py --misreading [--profiles 10]
    python benchmarks/diagnose_random.py --joint | --orders [--profiles 10]
    python benchmarks/diagnose_random.py --all [--misreading] [--table FILE]

`--all` is issue 39's done-when: each profile is drawn over every dimension, a joint hand size
and target of one player count (values that differ in the same setup answers) on top of a
third of them and an order of the doubles agreeing with the game's on its first tile on a fifth.
Whatever the draw, "named exactly" is the issue's: every planted value appears in the profile
diagnose wrote, and the engine (without its misreading) passes the default run (`fives
conformance run --rules PROFILE`) and 3,000 fuzz requests, seed 0, under that profile (`fives
conformance fuzz --rules PROFILE --cases 3000`); and every cluster has a minimal case written by
diagnose (`DX-...`) or a stated reason (counted). `--table FILE` appends the per-engine rows
(markdown) to FILE.

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
import subprocess
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
        if overrides.get("settlement.blocked_winner") == "nobody":  # no blocked winner: no tie, no award for it
            for k in ("settlement.ties", "settlement.tie_break", "settlement.blocked_award"):
                overrides.pop(k, None)
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


def all_profile(rng: random.Random, game: str) -> Profile:
    """`--all` (issue 39's done-when): a profile over every dimension (new_profile's draw), with a
    joint hand size and target of one player count on top of a third of them and an order of the
    doubles agreeing with the game's first tile on a fifth (where nothing else sets the opening)."""
    while True:
        prof = new_profile(rng, game)
        overrides = dict(prof.overrides)
        if rng.random() < 1 / 3 and not {"deal.hand_size", "target.raw", "deal.reserve"} & set(overrides):
            overrides.update(joint_profile(rng, game).overrides)
        if rng.random() < 1 / 5 and not {"opening.order", *ORDER_COMPANIONS} & set(overrides):
            overrides.update(order_profile(rng, game).overrides)
        try:
            return make_profile(game, overrides, source="random all (benchmarks/diagnose_random.py)")
        except UserError:
            continue


def appears(game: str, planted: dict[str, object], written: dict[str, object]) -> tuple[int, list[str]]:
    """How many planted values the written profile states (a by-players value: the value of
    every count where it is not the game's own), and the parameters it misses."""
    missed = []
    own = json.loads(json.dumps(parameters(game)))
    for k, v in planted.items():
        w = written.get(k)
        if isinstance(v, dict):
            w = {str(x): y for x, y in w.items()} if isinstance(w, dict) else {}
            ok = all(w.get(str(n)) == y for n, y in v.items() if y != own.get(k, {}).get(str(n)))
        else:
            ok = w == v
        if not ok:
            missed.append(k)
    return len(planted) - len(missed), missed


def check_written(serve: str, profile: Path, game: str, work: Path) -> tuple[bool, bool, str]:
    """The done-when's check: the engine passes the default run and 3,000 fuzz requests (seed 0)
    under the written profile (through the command line, as a user checks it)."""
    fives = [sys.executable, "-m", "fives", "conformance"]
    run = subprocess.run([*fives, "run", "--engine", serve, "--rules", str(profile), "-q"],
                         capture_output=True, text=True)
    fz = subprocess.run([*fives, "fuzz", "--engine", serve, "--rules", str(profile), "--game", game,
                         "--cases", "3000", "--seed", "0", "--out", str(work / "fuzz3000")],
                        capture_output=True, text=True)
    last = (run.stdout.strip().splitlines() or ["?"])[-1] + "; fuzz: " + \
        ((fz.stdout.strip().splitlines() or ["?"])[-1])
    return run.returncode == 0, fz.returncode == 0, last


def cluster_cases(left: list[dict[str, object]]) -> tuple[int, int, int]:
    """Clusters with a diagnose-written minimal case, with a stated reason for none, with neither."""
    written = sum(1 for g in left if str(g.get("example", "")).startswith("DX-"))
    reason = sum(1 for g in left if not str(g.get("example", "")).startswith("DX-")
                 and str(g.get("shrunk") or "").startswith(("not ", "shrunk partly")))
    return written, reason, len(left) - written - reason


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
    ap.add_argument("--all", action="store_true", help="issue 39's done-when draw: every dimension, joint values, orders")
    ap.add_argument("--table", type=Path, default=None, help="append the per-engine markdown rows to this file")
    ap.add_argument("--start", type=int, default=0, help="skip the first N profiles drawn (to resume)")
    args = ap.parse_args()
    from fives.conformance.mutants.registry import all_mutants

    misreadings = [m for m in all_mutants() if not m.variant and m.name not in NOW_RULES]
    count = args.profiles or (10 if args.misreading or args.legacy else 20)
    rng = random.Random(2026 if args.legacy else args.seed)
    exact = 0
    all_clusters = [0, 0, 0]  # clusters, with a diagnose-written minimal case, with a stated reason
    clusters_all_ok = True
    mutants = args.mutants and not args.misreading
    for i in range(count):
        game = rng.choice(["horse-race", "american-sniff"])
        prof = random_profile(rng, game, rng.randint(1, 3)) if args.legacy else joint_profile(rng, game) \
            if args.joint else order_profile(rng, game) if args.orders else all_profile(rng, game) \
            if args.all else new_profile(rng, game)
        bug = None
        while args.misreading and bug is None:  # a bug the profile's game shows (a Sniff bug in Sniff)
            bug = rng.choice(misreadings)
            if not shows(bug, prof):
                bug = None
        if i < args.start:  # drawn as before, so the draws after it are the same
            continue
        d = Path(tempfile.mkdtemp(prefix="diag-"))
        pf = d / "p.yaml"
        pf.write_text(yaml.safe_dump({"extends": prof.extends, "name": f"random-{i}", "source": "test",
                                      "rules": dict(prof.overrides)}, sort_keys=True))
        plain = f"{sys.executable} -m fives serve --rules {pf}"
        serve = plain + (f" --mutant {bug.name}" if bug else "")
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
        profile_file = d / "out" / "profile.yaml"
        written = (yaml.safe_load(profile_file.read_text()) or {}).get("rules") or {} if profile_file.exists() else {}
        written = json.loads(json.dumps(written))
        shown, missed = appears(game, planted, written)
        passes = fuzzes = False
        checked = "no profile written"
        if profile_file.exists():  # the engine without its misreading: the profile is of the rules
            passes, fuzzes, checked = check_written(plain, profile_file, game, d)
        with_case, with_reason, bare = cluster_cases(left)
        clusters_ok = bare == 0
        if bug is None:
            ok = not missed and passes and fuzzes and not left
            note = ""
        else:
            one = len(left) == 1
            g = left[0] if one else {}
            label = one and bool(g.get("label"))
            ok = not missed and passes and fuzzes and one and with_case == 1 and label
            note = (f"; bug {bug.name}: {len(left)} cluster(s)"
                    + "".join(f" [{x['cases']} case(s) {x['group']}{'; ' + x['label'] if x.get('label') else ''}"
                              f"{'; ' + x['relation'] if x.get('relation') else ''}; e.g. {x['example']}"
                              f"{' (' + x['shrunk'] + ')' if x.get('shrunk') else ''}]" for x in left))
        exact += ok
        all_clusters[0] += len(left)
        all_clusters[1] += with_case
        all_clusters[2] += with_reason
        req = diag["requests"]
        total = sum(int(req.get(k, 0)) for k in ("suite", "fuzz", "shrink", "verify", "recheck"))
        print(f"{i} {game}: planted {json.dumps(dict(prof.overrides), sort_keys=True)}; "
              f"named {json.dumps(named, sort_keys=True)}; written {json.dumps(written, sort_keys=True)}; "
              f"{'exact' if ok else 'MISSED'}{note}; planted values in the written profile {shown} of "
              f"{len(planted)}{' (missed ' + ', '.join(missed) + ')' if missed else ''}; "
              f"under it: {checked}; "
              f"clusters {len(left)} ({with_case} with a minimal case, {with_reason} with a reason, {bare} with "
              f"neither); unexplained {sum(g['cases'] for g in left)}; exit {rc}; "
              f"requests {req['suite']}+{req['fuzz']}+{req['shrink']}+{req.get('verify', 0)}+{req.get('recheck', 0)} "
              f"(suite+fuzz+shrink+verify+recheck); {dt:.1f} s", flush=True)
        if args.table:
            with args.table.open("a") as t:
                t.write(f"| {i} | {game} | {'`' + bug.name + '`' if bug else ''} | {len(planted)} | "
                        f"{len([k for k in named if not k.startswith('mutant ')])} | {shown} | "
                        f"{'yes' if passes else 'NO'} | {'yes' if fuzzes else 'NO'} | "
                        f"{len(left)}: {with_case} case, {with_reason} reason | {'exact' if ok else 'MISSED'} | "
                        f"{dt:.1f} | {total} ({req['suite']}+{req['fuzz']}+{req['shrink']}+"
                        f"{req.get('verify', 0)}+{req.get('recheck', 0)}) |\n")
        clusters_all_ok = clusters_all_ok and clusters_ok
    print(f"{exact} of {count} {'with the misreading as one shrunk, labelled cluster' if args.misreading else ''}"
          f"{' and ' if args.misreading else ''}named exactly")
    print(f"clusters: {all_clusters[0]}, {all_clusters[1]} with a minimal case diagnose wrote, {all_clusters[2]} "
          f"with a stated reason, {all_clusters[0] - all_clusters[1] - all_clusters[2]} with neither")
    return 0 if exact == count - args.start and clusters_all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
