"""The mutants' kill matrix: the suite run against every mutant engine (each with one classic
misreading, fives/conformance/mutants/), and which fixtures kill which mutant.

`kill_matrix(MutantsOptions(...))` is the Python entry point of `fives conformance mutants`: it
holds the thread pool (`jobs` mutants at once) and the stop. On Ctrl-C or SIGTERM every mutant
stops after the case in hand, every live mutant engine is killed, and the matrix keeps the
mutants finished so far (`interrupted`, `not_run`). The rendering (`listing`, `matrix_text`,
`matrix_json`, `summary`) is here too, as pure functions the CLI prints.
"""
from __future__ import annotations

import json
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from fives.conformance.mutants.registry import MUTANT_PERFT_NODES, Mutant, MutantResult, all_mutants, run_mutant
from fives.support.errors import UserError
from fives.support.progress import Progress
from fives.support.stop import signals_held
from fives.support.wording import plural

if TYPE_CHECKING:
    from fives.conformance.cases.expected_under import ProfilePlan
    from fives.conformance.cases.fixtures import Case
    from fives.conformance.engines.drivers import Engine
    from fives.profiles import Profile

__all__ = ["KillMatrix", "MutantsOptions", "interruption", "kill_matrix", "listing", "matrix_json", "matrix_text",
           "select_mutants", "summary"]


@dataclass(frozen=True)
class MutantsOptions:
    """What `kill_matrix` runs. `names`: only these mutants (empty: all); `roots`: fixture files
    or folders (empty: the default suite); `in_process`: the mutants as in-process engines
    rather than `fives serve --mutant NAME` through the protocol; `jobs`: mutants run at once;
    `timeout`: seconds per case; `profile`: every mutant plays it, checked against its
    expectations (--rules P)."""

    names: tuple[str, ...] = ()
    roots: tuple[Path, ...] = ()
    in_process: bool = False
    jobs: int = 2
    timeout: float = 20.0
    profile: Profile | None = None


@dataclass
class KillMatrix:
    """The mutants asked for, the results of those run to the end (in the order asked), and
    whether a stop cut the run short."""

    mutants: list[Mutant]
    results: list[MutantResult] = field(default_factory=list)
    interrupted: bool = False

    @property
    def not_run(self) -> int:
        """Mutants not run to the end (only after a stop)."""
        return len(self.mutants) - len(self.results)

    @property
    def survivors(self) -> list[str]:
        return [r.mutant.name for r in self.results if not r.killed]


def select_mutants(names: tuple[str, ...] = ()) -> list[Mutant]:
    """The named mutants in registry order (all for none); UserError for an unknown name."""
    mutants = all_mutants()
    known = {m.name for m in mutants}
    for n in names:
        if n not in known:
            raise UserError(f"unknown mutant {n!r}: one of {', '.join(sorted(known))}")
    return [m for m in mutants if not names or m.name in names]


def _cases(options: MutantsOptions) -> tuple[list[Case], ProfilePlan | None]:
    from fives.conformance.cases.fixtures import load_cases

    cases = load_cases(options.roots or None)
    if options.profile is None:
        return cases, None
    # every mutant plays P with its misreading, against P's expectations
    from fives.conformance.cases.expected_under import plan_under

    # only the perft rows mutants run (run_mutant): the deep ones would cost minutes each
    cases = [c for c in cases if c.kind != "perft" or c.expect["nodes"] <= MUTANT_PERFT_NODES]
    return plan_under(options.profile, cases)


def kill_matrix(options: MutantsOptions, on_progress: Callable[[MutantResult], None] | None = None) -> KillMatrix:
    """Run the cases against every mutant asked for, `options.jobs` at once; `on_progress` is
    called with each result, in order, as it is collected. A stop (KeyboardInterrupt, or
    Terminated after SIGTERM) ends the run cleanly: the matrix says `interrupted`."""
    mutants = select_mutants(options.names)
    cases, plan = _cases(options)
    matrix = KillMatrix(mutants)
    stop = threading.Event()
    live: list[Engine] = []  # the started engines, for the main thread to kill on a stop
    with Progress(len(mutants), "mutants") as bar, ThreadPoolExecutor(max(1, options.jobs)) as pool:
        futures = [pool.submit(run_mutant, m, cases, not options.in_process, options.timeout, plan, stop, live)
                   for m in mutants]
        try:
            for f in futures:
                result = f.result()
                if result is not None:
                    matrix.results.append(result)
                    bar.advance(note=result.mutant.name)
                    if on_progress is not None:
                        on_progress(result)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: stop every mutant, kill their engines, keep what is done
            matrix.interrupted = True
            matrix.results = _halt(pool, futures, stop, live)
    return matrix


def _halt(pool: ThreadPoolExecutor, futures: list[Future[MutantResult | None]], stop: threading.Event,
          live: list[Engine]) -> list[MutantResult]:
    """Stop every mutant and kill its engine; the results finished before the stop."""
    stop.set()
    for e in list(live):
        e.abort()
    with signals_held():
        pool.shutdown(wait=True, cancel_futures=True)
    done = [f.result() for f in futures if f.done() and not f.cancelled() and f.exception() is None]
    return [r for r in done if r is not None]


# -- what the CLI prints --------------------------------------------------------------------
def listing(mutants: list[Mutant]) -> str:
    """`--list`: one line per mutant, its clause and misreading."""
    return "".join(f"{m.name:<36} {m.clause:<12} {m.misreading}\n" for m in mutants)


def matrix_json(matrix: KillMatrix) -> str:
    """The kill matrix as JSON (`--json`), without a final newline."""
    return json.dumps([{"mutant": r.mutant.name, "misreading": r.mutant.misreading, "clause": r.mutant.clause,
                        "killed": r.killed, "cases": r.ran,
                        "killers": [{"id": k.case.id, "clauses": list(k.case.clauses), "status": k.status}
                                    for k in r.killers]} for r in matrix.results], indent=1)


def matrix_text(matrix: KillMatrix, show: int) -> str:
    """The kill matrix as text: each mutant, and its first `show` killing fixtures."""
    lines = []
    for r in matrix.results:
        status = f"KILLED by {len(r.killers):4d}" if r.killed else "SURVIVED      "
        lines.append(f"{status}  {r.mutant.name:<34} ({r.mutant.clause}) {r.mutant.misreading}")
        lines += [f"      {k.case.id:<34} {k.status:<7} clauses {', '.join(k.case.clauses)}" for k in r.killers[:show]]
        if len(r.killers) > show:
            lines.append(f"      ... {len(r.killers) - show} more")
    return "".join(line + "\n" for line in lines)


def summary(matrix: KillMatrix) -> str:
    """`N mutants, K killed, S survived[: names]`."""
    survivors = matrix.survivors
    return (f"{plural(len(matrix.results), 'mutant')}, {len(matrix.results) - len(survivors)} killed, "
            f"{len(survivors)} survived" + (f": {', '.join(survivors)}" if survivors else ""))


def interruption(matrix: KillMatrix) -> str:
    """The note after a stop: how many mutants were not run to the end."""
    return f"fives: interrupted: {plural(matrix.not_run, 'mutant')} not run to the end"
