"""The z3 encoding of a puzzle: steps choosing (tile, slot) candidates over a fixed slot table.

A slot is one side of a tile that is on the table or may come onto it. Step i picks one
candidate (a tile from the hand and a slot whose value it matches) with a one-hot vector of
Booleans; the occupancy of every slot and the presence of every tile are Boolean state
vectors per step; each tile's counted contribution is a term over its own slots, read from
the game's rules (end double 2v, internal double 0, Sniff open branch v). Uniqueness: solve,
block the answer found, and get unsat. Import lazily: z3 is heavy.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import z3

from fives.layout import Layout, Placement
from fives.tiles import Side, Tile
from fives.puzzles.model import Problem
from fives.puzzles.space import start

LINE_A, LINE_B, BRANCH_A, BRANCH_B = Side.LINE_A, Side.LINE_B, Side.BRANCH_A, Side.BRANCH_B
#: Default seconds `fives puzzles solve` and `verify` give z3 per puzzle (`--time-limit`).
DEFAULT_TIME_LIMIT = 60.0
Slot = tuple[Tile, Side]
#: z3's reasons for an "unknown" a Ctrl-C caused (its handler, or an interrupt of the solver)
INTERRUPTED = frozenset({"interrupted from keyboard", "interrupted"})
#: seconds an interrupted check is given to return before the stop goes on without it
INTERRUPT_GRACE = 5.0


class OverBudget(RuntimeError):
    """z3 could not decide within its time budget (or gave up): the puzzle is undecided."""


@dataclass(frozen=True)
class Candidate:
    tile: Tile
    slot: Slot | None  # None: the opening
    own: Side | None  # the side of `tile` that joins the slot

    def placement(self) -> Placement:
        return Placement(self.tile) if self.slot is None else Placement(self.tile, self.slot[0], self.slot[1])


def joining_side(t: Tile, value: int) -> Side:
    """The engine's choice: a double joins by line A, a non-double by the half that matches."""
    if t.is_double:
        return LINE_A
    return Side.LOW if t.low == value else Side.HIGH


class PuzzleModel:
    """One puzzle as z3 constraints; `solve()` gives the answers (up to a limit)."""

    def __init__(self, problem: Problem, seed: int = 0) -> None:
        self.problem = problem
        self.rules = rules = problem.rules
        self.l0: Layout = start(problem)
        self.pool: tuple[Tile, ...] = problem.tiles
        self.steps = 1 if problem.kind == "single" else len(self.pool)
        self.solver = z3.Solver()
        self.solver.set("random_seed", seed)
        self.solver.set("ctrl_c", False)  # z3's own SIGINT handler would turn Ctrl-C into "unknown": see _check
        self.every_double_spins = rules.spinner_policy == "every-double"
        self.l0_spinners = set(self.l0.spinners)
        self.root: Tile | None = self.l0.tiles[0] if len(self.l0) else None
        self._slots()
        self._candidates()
        self._variables()
        self._constraints()

    # -- the fixed tables ---------------------------------------------------------------
    def _slots(self) -> None:
        """Open sides of table tiles that could ever take a tile, and every side of hand tiles."""
        self.slots: list[Slot] = []
        self.l0_occupied: set[Slot] = set()
        for t in self.l0.tiles:
            occ = self.l0.placed(t).occupied
            for s in t.sides:
                if s in occ:
                    self.l0_occupied.add((t, s))
                elif not (s.is_branch and not self._may_spin(t)):
                    self.slots.append((t, s))
        for t in self.pool:
            for s in t.sides:
                if not (s.is_branch and not self._may_spin(t)):
                    self.slots.append((t, s))
        self.slot_set = set(self.slots)

    def _may_spin(self, t: Tile) -> bool:
        if not t.is_double:
            return False
        if self.every_double_spins or t in self.l0_spinners:
            return True
        return t not in self.l0 and not self.l0_spinners  # first-double: only if none spins yet

    def _candidates(self) -> None:
        self.cands: list[Candidate] = []
        if not len(self.l0):
            self.cands += [Candidate(t, None, None) for t in self.pool]
        for t in self.pool:
            for slot in self.slots:
                owner, side = slot
                v = owner.value(side)
                if owner != t and t.has(v):
                    self.cands.append(Candidate(t, slot, joining_side(t, v)))
        self.by_slot: dict[Slot, list[int]] = {s: [] for s in self.slots}
        self.by_own: dict[Slot, list[int]] = {s: [] for s in self.slots}
        self.by_tile: dict[Tile, list[int]] = {t: [] for t in self.pool}
        for k, c in enumerate(self.cands):
            self.by_tile[c.tile].append(k)
            if c.slot is not None:
                self.by_slot[c.slot].append(k)
                if (c.tile, c.own) in self.by_own:
                    self.by_own[(c.tile, c.own)].append(k)

    # -- variables: x[i][k] (step i takes candidate k), state before each step -----------
    def _variables(self) -> None:
        n, K = len(self.cands), self.steps
        self.x = [[z3.Bool(f"x_{i}_{k}") for k in range(n)] for i in range(K)]
        self.act = [z3.Bool(f"act_{i}") for i in range(K)]
        # placed[i][t], occ[i][slot]: state before step i (i = K is the final state)
        self.placed: list[dict[Tile, z3.BoolRef]] = []
        self.occ: list[dict[Slot, z3.BoolRef]] = []
        defs = []
        for i in range(K + 1):
            pl, oc = {}, {}
            for t in self.pool:
                pl[t] = z3.Bool(f"placed_{i}_{t}")
                if i == 0:
                    defs.append(z3.Not(pl[t]))
                else:
                    defs.append(pl[t] == z3.Or([self.placed[i - 1][t]] + [self.x[i - 1][k] for k in self.by_tile[t]]))
            for s in self.slots:
                oc[s] = z3.Bool(f"occ_{i}_{s[0]}_{s[1]}")
                if i == 0:
                    defs.append(z3.Not(oc[s]))  # the table's occupied sides are not slots
                else:
                    step = [self.x[i - 1][k] for k in self.by_slot[s] + self.by_own[s]]
                    defs.append(oc[s] == z3.Or([self.occ[i - 1][s]] + step))
            self.placed.append(pl)
            self.occ.append(oc)
        self.solver.add(defs)
        self._spinner_vars()
        self._root_vars()

    def _spinner_vars(self) -> None:
        """spin[t]: the double t is a spinner (every double, or the first double placed)."""
        self.spin: dict[Tile, z3.BoolRef | bool] = {}
        doubles = [t for t in self.pool if t.is_double]
        for t in doubles:
            if not self._may_spin(t):
                self.spin[t] = False
            elif self.every_double_spins:
                self.spin[t] = True
            else:  # first double placed: placed at a step with no double placed before it
                terms = []
                for i in range(self.steps):
                    before = [self.placed[i][d] for d in doubles if d != t]
                    terms.append(z3.And(z3.Or([self.x[i][k] for k in self.by_tile[t]]), z3.Not(z3.Or(before))))
                self.spin[t] = z3.Or(terms)
        for t in self.l0.tiles:
            if t.is_double:
                self.spin[t] = t in self.l0_spinners

    def _root_vars(self) -> None:
        """is_root[t]: t is the opening tile (fixed by the table, or chosen at step 0)."""
        self.is_root: dict[Tile, Any] = {t: (t == self.root) for t in self.l0.tiles}
        for t in self.pool:
            opening = [k for k in self.by_tile[t] if self.cands[k].slot is None]
            self.is_root[t] = self.x[0][opening[0]] if opening else False

    # -- terms over a state ---------------------------------------------------------------
    def occupied(self, i: int, t: Tile, s: Side) -> Any:
        if (t, s) in self.l0_occupied:
            return True
        return self.occ[i][(t, s)] if (t, s) in self.slot_set else False

    def present(self, i: int, t: Tile) -> Any:
        return True if t in self.l0 else self.placed[i][t]

    def legal(self, i: int, k: int) -> Any:
        """Candidate k may be taken at step i (legality and the mirror rule)."""
        c = self.cands[k]
        conds: list[Any] = [z3.Not(self.placed[i][c.tile])]
        if c.slot is None:
            return z3.And(conds) if i == 0 else False
        owner, side = c.slot
        conds += [self.present(i, owner), z3.Not(self.occ[i][c.slot])]
        if side.is_branch:
            conds.append(self.spin.get(owner, False))
            if self.rules.branches_require_both_lines:
                conds += [self.occupied(i, owner, LINE_A), self.occupied(i, owner, LINE_B)]
        if side is BRANCH_B:
            conds.append(self.occupied(i, owner, BRANCH_A))
        if side is LINE_B:
            conds.append(z3.Implies(self.is_root.get(owner, False), self.occupied(i, owner, LINE_A)))
        return z3.And(conds)

    def contribution(self, i: int, t: Tile) -> Any:
        if not t.is_double:
            return z3.Sum([z3.If(self.occupied(i, t, s), 0, t.value(s)) for s in (Side.LOW, Side.HIGH)])
        v = t.low
        lines = z3.And(self.occupied(i, t, LINE_A), self.occupied(i, t, LINE_B))
        inner: Any = 0
        if self.rules.open_branch_side == "one-half":
            half = z3.Sum([z3.If(self.occupied(i, t, b), 0, v) for b in (BRANCH_A, BRANCH_B)])
            inner = z3.If(self.spin.get(t, False), half, 0)
        return z3.If(lines, inner, 2 * v)

    def counted_sum(self, i: int) -> Any:
        terms = [self.contribution(i, t) for t in self.l0.tiles]
        terms += [z3.If(self.placed[i][t], self.contribution(i, t), 0) for t in self.pool]
        return z3.Sum(terms)

    def unit_points(self, total: Any) -> Any:
        """Points of a placement whose counted sum is `total`, in the puzzle's unit."""
        m, div = self.rules.scoring_multiple, self.rules.display_divisor
        positive = total >= 0 if self.rules.zero_scores else total > 0
        return z3.If(z3.And(positive, total % m == 0), total / div, 0)

    # -- the puzzle ---------------------------------------------------------------------------
    def _constraints(self) -> None:
        s, K, kind = self.solver, self.steps, self.problem.kind
        self.pts = []
        for i in range(K):
            s.add(z3.PbEq([(v, 1) for v in self.x[i]] + [(z3.Not(self.act[i]), 1)], 1))
            for k in range(len(self.cands)):
                s.add(z3.Implies(self.x[i][k], self.legal(i, k)))
            p = z3.Int(f"pts_{i}")
            s.add(p == self.unit_points(self.counted_sum(i + 1)))
            self.pts.append(p)
        if kind == "build":
            s.add([self.act[i] for i in range(K)])
            s.add([self.pts[i] == t for i, t in enumerate(self.problem.target)])
        elif kind == "single":
            s.add(self.act[0], self.pts[0] == self.problem.target)
        else:
            self._turn_constraints()

    def exists_legal(self, i: int) -> Any:
        return z3.Or([self.legal(i, k) for k in range(len(self.cands))])

    def _turn_constraints(self) -> None:
        s, c = self.solver, self.rules.continuation
        s.add(self.act[0] == self.exists_legal(0))
        for i in range(1, self.steps):
            picked = self.x[i - 1]
            double = z3.Or([picked[k] for k, cd in enumerate(self.cands) if cd.tile.is_double])
            grants = z3.Or(z3.And(bool(c.get("from_hand_double")), double),
                           z3.And(bool(c.get("from_hand_scoring")), self.pts[i - 1] > 0))
            # A continuation must be used when a placement is legal (HR-CONT-6, HR-DRAW-1)
            s.add(self.act[i] == z3.And(self.act[i - 1], grants, self.exists_legal(i)))
        s.add(z3.Sum([z3.If(self.act[i], self.pts[i], 0) for i in range(self.steps)]) == self.problem.target)

    # -- answers ------------------------------------------------------------------------------
    def _answer(self, m: z3.ModelRef) -> tuple[list[int], tuple[Placement, ...], tuple[int, ...]]:
        ks, pts = [], []
        for i in range(self.steps):
            if not z3.is_true(m.eval(self.act[i], model_completion=True)):
                break
            k = next(k for k, v in enumerate(self.x[i]) if z3.is_true(m.eval(v, model_completion=True)))
            ks.append(k)
            pts.append(m.eval(self.pts[i], model_completion=True).as_long())
        return ks, tuple(self.cands[k].placement() for k in ks), tuple(pts)

    def _block(self, ks: list[int]) -> None:
        same = [self.x[i][k] for i, k in enumerate(ks)]
        if len(ks) < self.steps:
            same.append(z3.Not(self.act[len(ks)]))
        self.solver.add(z3.Not(z3.And(same)))

    def solve(self, limit: int = 2,
              time_limit: float | None = None) -> list[tuple[tuple[Placement, ...], tuple[int, ...]]]:
        """Up to `limit` answers, found one by one and blocked; fewer than `limit` is a proof
        that there are no others. Sorted, so the output does not depend on z3's model order.

        `time_limit`: seconds for the whole search; OverBudget when z3 has not decided by then
        (a bare build of many tiles can take minutes)."""
        out = []
        deadline = None if time_limit is None else time.monotonic() + time_limit
        while len(out) < limit:
            if deadline is not None:
                left_ms = int((deadline - time.monotonic()) * 1000)
                if left_ms <= 0:
                    raise OverBudget(f"z3 did not decide within the time budget of {time_limit:g} s")
                self.solver.set("timeout", left_ms)
            r = self._check()
            if r == z3.unknown:
                reason = self.solver.reason_unknown()
                if reason in INTERRUPTED:  # a Ctrl-C z3 took for itself after all: it is the user's
                    raise KeyboardInterrupt()
                if deadline is not None and reason in ("timeout", "canceled"):
                    raise OverBudget(f"z3 did not decide within the time budget of {time_limit:g} s")
                raise OverBudget(f"z3 gave up: {reason}")
            if r == z3.unsat:
                break
            ks, placements, pts = self._answer(self.solver.model())
            out.append((placements, pts))
            self._block(ks)
        out.sort(key=lambda a: [str(p) for p in a[0]])
        return out

    def _check(self) -> Any:
        """`solver.check()`, in a worker thread while this one waits: z3 handles no signal here
        (`ctrl_c` off), so a Ctrl-C or SIGTERM reaches Python's handler at once, in the waiting
        thread, and is the user's stop (fives/support/stop.py), never a verdict on the puzzle;
        the solver is interrupted and its thread waited for before the stop goes on."""
        if threading.current_thread() is not threading.main_thread():
            return self.solver.check()  # signals reach only the main thread: nothing to wait for
        box: list[Any] = []

        def run() -> None:
            try:
                box.append(self.solver.check())
            except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                box.append(e)

        worker = threading.Thread(target=run, name="z3-check", daemon=True)
        worker.start()
        try:
            worker.join()
        except BaseException:
            self.solver.interrupt()
            worker.join(INTERRUPT_GRACE)
            raise
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    def statistics(self) -> dict[str, float]:
        st = self.solver.statistics()
        return {k: st.get_key_value(k) for k in st.keys()}


def z3_solutions(problem: Problem, limit: int = 2,
                 time_limit: float | None = None) -> list[tuple[tuple[Placement, ...], tuple[int, ...]]]:
    return PuzzleModel(problem).solve(limit, time_limit)
