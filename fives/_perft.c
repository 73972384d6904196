/* fives._accel.perft: the compiled perft walker (see fives/accel.py `perft_counter`).
 *
 * perft(tables, policy, codes, depth) replays the move codes `codes` (the start layout, in
 * play order, each checked as Layout.push_move checks it) and returns (nodes, points) of the
 * placement sequences of length `depth` >= 1 from there, as fives.perft.walk counts them:
 * make/unmake on the same state as Layout's int core (occupied and open sides per tile, the
 * counted value per tile, the sum), read from the same tables (fives.layout_tables, handed
 * over by fives.accel: no rule is restated here), and bulk counting at the last ply: the
 * leaf's parent counts its legal placements and sums the points each would score without
 * making any (as Layout.leaf_counts does).
 *
 * `policy` is the spinner policy as Layout._hook_is_spinner reads it: 0 first-double, 1
 * every-double, 2 none, 3 opening-double. Layout classes with their own hooks (mutants) never
 * get here: fives.accel checks that the class counts and moves with Layout's own methods.
 */
#include "_accel.h"
#include <string.h>

static int P_LOW[28], P_HIGH[28], P_DOUBLE[28];
static int POS_VALUE[168];    /* the pip value position to * 6 + side needs */
static int JOIN[28 * 7];      /* the side a tile joins a position of that value by, -1: none */
static unsigned int PIP_MASK[7];  /* the tiles holding each pip value */

void fives_perft_init(void) {
    int i = 0;
    for (int a = 0; a <= 6; a++)
        for (int b = a; b <= 6; b++, i++) {
            P_LOW[i] = a;
            P_HIGH[i] = b;
            P_DOUBLE[i] = a == b;
        }
    for (int v = 0; v < 7; v++) PIP_MASK[v] = 0;
    for (int t = 0; t < 28; t++) {
        for (int s = 0; s < 6; s++) POS_VALUE[t * 6 + s] = s == 1 ? P_HIGH[t] : P_LOW[t];
        for (int v = 0; v < 7; v++) {
            int has = P_LOW[t] == v || P_HIGH[t] == v;
            /* as fives.moves.JOIN: a double by line-a (2), else the matching half */
            JOIN[t * 7 + v] = !has ? -1 : P_DOUBLE[t] ? 2 : P_LOW[t] == v ? 0 : 1;
            if (has) PIP_MASK[v] |= 1u << t;
        }
    }
}

static inline int ctz(unsigned int x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
#endif
}

static inline int popcount(unsigned int x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcount(x);
#else
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}

typedef struct {
    const int *count, *opens, *score;
    int nscore, policy;
    unsigned int mask;       /* bit t: tile t is placed */
    int n, nspin;            /* tiles placed, spinners among them */
    int order[28];           /* tiles in play order */
    int occ[28], opn[28], base[28], val[28], pq[28];
    int sum;
    int stop;                /* set when a signal (Ctrl-C) interrupted the count */
} State;

/* whether a double placed now spins (Layout._hook_is_spinner) */
static inline int spin_now(const State *S) {
    switch (S->policy) {
    case 0: return S->nspin == 0;
    case 1: return 1;
    case 3: return S->n == 0;
    default: return 0;
    }
}

/* Layout.push_move on a legal move (q < 0: the opening) */
static inline void push(State *S, int t, int q) {
    int spin = P_DOUBLE[t] && spin_now(S);
    int b = (t * 2 + spin) * 64;
    S->mask |= 1u << t;
    S->order[S->n++] = t;
    S->nspin += spin;
    S->base[t] = b;
    S->pq[t] = q;
    if (q < 0) {
        S->occ[t] = 0;
        S->val[t] = S->count[b];
        S->opn[t] = S->opens[b];
        S->sum += S->val[t];
        return;
    }
    int to = q / 6, o = S->occ[to] | 1 << (q % 6), j = 1 << JOIN[t * 7 + POS_VALUE[q]];
    int k = S->base[to] | o;
    S->occ[to] = o;
    S->sum += S->count[k] - S->val[to];
    S->val[to] = S->count[k];
    S->opn[to] = S->opens[k];
    S->occ[t] = j;
    S->val[t] = S->count[b | j];
    S->opn[t] = S->opens[b | j];
    S->sum += S->val[t];
}

/* Layout.pop_move */
static inline void pop(State *S) {
    int t = S->order[--S->n];
    S->mask ^= 1u << t;
    if (S->base[t] & 64) S->nspin--;
    S->sum -= S->val[t];
    S->val[t] = S->opn[t] = S->occ[t] = 0;
    int q = S->pq[t];
    if (q < 0) return;
    int to = q / 6, o = S->occ[to] & ~(1 << (q % 6)), k = S->base[to] | o;
    S->occ[to] = o;
    S->sum += S->count[k] - S->val[to];
    S->val[to] = S->count[k];
    S->opn[to] = S->opens[k];
}

/* Layout.leaf_counts: every legal next placement counted and scored, none made */
static void leaf(const State *S, long long *nodes, long long *points) {
    unsigned int free = ~S->mask & ((1u << 28) - 1);
    int spin = spin_now(S);
    long long n = 0, p = 0;
    if (S->n == 0) {
        for (unsigned int f = free; f; f &= f - 1) {
            int t = ctz(f);
            n++;
            p += S->score[S->count[(t * 2 + (P_DOUBLE[t] && spin)) * 64]];
        }
        *nodes += n;
        *points += p;
        return;
    }
    for (int i = 0; i < S->n; i++) {
        int to = S->order[i], m = S->opn[to];
        if (!m) continue;
        int row = S->base[to] | S->occ[to], before = S->sum - S->val[to];
        for (; m; m &= m - 1) {
            int s = ctz((unsigned int)m), v = POS_VALUE[to * 6 + s];
            unsigned int f = PIP_MASK[v] & free;
            if (!f) continue;
            int start = before + S->count[row | 1 << s];
            n += popcount(f);
            for (; f; f &= f - 1) {
                int t = ctz(f);
                p += S->score[start + S->count[(t * 2 + (P_DOUBLE[t] && spin)) * 64 | 1 << JOIN[t * 7 + v]]];
            }
        }
    }
    *nodes += n;
    *points += p;
}

/* fives.perft.walk: every move made in turn down to the last ply, counted in bulk there */
static void walk(State *S, int depth, long long *nodes, long long *points) {
    if (depth == 1) {
        leaf(S, nodes, points);
        return;
    }
    /* a deep count can take minutes: let Ctrl-C through, checked well above the leaves */
    if (depth >= 5 && PyErr_CheckSignals() < 0) S->stop = 1;
    if (S->stop) return;
    unsigned int free = ~S->mask & ((1u << 28) - 1);
    if (S->n == 0) {
        for (unsigned int f = free; f && !S->stop; f &= f - 1) {
            push(S, ctz(f), -1);
            walk(S, depth - 1, nodes, points);
            pop(S);
        }
        return;
    }
    int placed = S->n;  /* push appends to order: the tiles placed now are the first `placed` */
    for (int i = 0; i < placed && !S->stop; i++) {
        int to = S->order[i];
        for (int m = S->opn[to]; m; m &= m - 1) {
            int q = to * 6 + ctz((unsigned int)m);
            for (unsigned int f = PIP_MASK[POS_VALUE[q]] & free; f; f &= f - 1) {
                push(S, ctz(f), q);
                walk(S, depth - 1, nodes, points);
                pop(S);
            }
        }
    }
}

/* perft(tables, policy, codes, depth) -> (nodes, points) */
PyObject *fives_perft(PyObject *self, PyObject *args) {
    PyObject *cap, *codes;
    int policy, depth;
    if (!PyArg_ParseTuple(args, "OiOi", &cap, &policy, &codes, &depth)) return NULL;
    const Tables *T = PyCapsule_GetPointer(cap, "fives._accel.Tables");
    if (!T) return NULL;
    if (policy < 0 || policy > 3 || depth < 1) {
        PyErr_SetString(PyExc_ValueError, "perft: bad spinner policy or depth");
        return NULL;
    }
    State S;
    memset(&S, 0, sizeof S);
    S.count = T->count;
    S.opens = T->opens;
    S.score = T->score;
    S.nscore = T->nscore;
    S.policy = policy;
    /* every count the walk can reach must index the score table */
    for (int r = 0; r < ROWS; r++)
        if (T->count[r] < 0 || T->count[r] > 24) {
            PyErr_SetString(PyExc_ValueError, "perft: a counted value out of range");
            return NULL;
        }
    if (S.nscore < 28 * 24 + 1) {
        PyErr_SetString(PyExc_ValueError, "perft: score table too short");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(codes, "perft: codes must be a sequence");
    if (!fast) return NULL;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < nc; i++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (code == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        int t = (int)(code >> 8), q = (int)(code & 255) - 1;
        /* the checks of Layout.push_move: an illegal code is refused, never counted */
        int ok = code >= 0 && t < 28 && !(S.mask >> t & 1) && q < 168
                 && (q < 0 ? S.n == 0
                           : S.n > 0 && (S.mask >> (q / 6) & 1) && (S.opn[q / 6] >> (q % 6) & 1)
                             && JOIN[t * 7 + POS_VALUE[q]] >= 0 && (q % 6 < 4 || (S.base[q / 6] & 64)));
        if (!ok) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "perft: move code %ld (index %zd) is not legal here", code, i);
            return NULL;
        }
        push(&S, t, q);
    }
    Py_DECREF(fast);
    long long nodes = 0, points = 0;
    walk(&S, depth, &nodes, &points);
    if (S.stop) return NULL;  /* the signal's exception (KeyboardInterrupt) is set */
    return Py_BuildValue("(LL)", nodes, points);
}
