/* fives._accel: the compiled fast path of `fives evaluate --jsonl` (optional); perft is in
 * fives/_perft.c.
 *
 * evaluate_line(line, default_game, games) takes one request line, and when it is a plainly
 * spelled, legal layout of a known game returns the exact output line that the pure-Python
 * path (fives.evaluate.evaluate + fives.io.dump_json) writes for it. For anything else (an
 * escape, a number, an unknown key, an unusual spelling, an illegal placement, ...) it returns
 * None and the caller takes the pure-Python path, which is the reference and owns every
 * error message. The counting tables are the ones fives.layout_tables derives from the
 * layout's hooks, handed over by fives.accel: no rule is restated here.
 *
 * Built at install time when a C compiler is present (setup.py, optional=True); without it
 * the pure-Python path is used. tests/test_accel.py runs both paths against each other.
 */
#include "_accel.h"
#include <string.h>

static int TILE_LOW[28], TILE_HIGH[28], IS_DOUBLE[28], INDEX_OF[7][7];
static const char *SIDE_NAMES[6] = {"low", "high", "line-a", "line-b", "branch-a", "branch-b"};
static char TILE_NAMES[28][6];

static void capsule_free(PyObject *cap) {
    PyMem_Free(PyCapsule_GetPointer(cap, "fives._accel.Tables"));
}

static int int_list(PyObject *seq, int *out, Py_ssize_t n) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "table of the wrong size");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* tables(id, count, opens, parts, score, every_double, divisor) -> capsule */
static PyObject *make_tables(PyObject *self, PyObject *args) {
    const char *id;
    Py_ssize_t id_len;
    PyObject *count, *opens, *parts, *score;
    int every, divisor;
    if (!PyArg_ParseTuple(args, "s#OOOOpi", &id, &id_len, &count, &opens, &parts, &score, &every, &divisor))
        return NULL;
    if (id_len <= 0 || id_len >= 64 || divisor <= 0) {
        PyErr_SetString(PyExc_ValueError, "bad game id or divisor");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < id_len; i++) {  /* written into JSON as is: no quote, no escape */
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
            PyErr_SetString(PyExc_ValueError, "game id needs JSON escaping");
            return NULL;
        }
    }
    Tables *t = PyMem_Calloc(1, sizeof(Tables));
    if (!t) return PyErr_NoMemory();
    memcpy(t->id, id, id_len);
    t->every_double = every;
    t->divisor = divisor;
    Py_ssize_t nscore = PySequence_Size(score);
    if (nscore < 0 || nscore > MAX_SUM) { PyMem_Free(t); PyErr_SetString(PyExc_ValueError, "score table"); return NULL; }
    t->nscore = (int)nscore;
    if (int_list(count, t->count, ROWS) < 0 || int_list(opens, t->opens, ROWS) < 0
        || int_list(score, t->score, nscore) < 0) {
        PyMem_Free(t);
        return NULL;
    }
    PyObject *fast = PySequence_Fast(parts, "parts");
    if (!fast || PySequence_Fast_GET_SIZE(fast) != ROWS) {
        Py_XDECREF(fast);
        PyMem_Free(t);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "parts table");
        return NULL;
    }
    for (Py_ssize_t r = 0; r < ROWS; r++) {
        PyObject *row = PySequence_Fast_GET_ITEM(fast, r);
        Py_ssize_t n = PyTuple_Check(row) ? PyTuple_GET_SIZE(row) : -1;
        if (n < 0 || n > MAX_PARTS) {
            Py_DECREF(fast);
            PyMem_Free(t);
            PyErr_SetString(PyExc_ValueError, "parts row");
            return NULL;
        }
        t->nparts[r] = (int)n;
        for (Py_ssize_t k = 0; k < n; k++) {
            int sv[2];
            if (int_list(PyTuple_GET_ITEM(row, k), sv, 2) < 0) { Py_DECREF(fast); PyMem_Free(t); return NULL; }
            t->part_side[r][k] = sv[0];
            t->part_value[r][k] = sv[1];
        }
    }
    Py_DECREF(fast);
    return PyCapsule_New(t, "fives._accel.Tables", capsule_free);
}

/* -- a strict reader for the one request shape -------------------------------------------- */
typedef struct { const char *p, *end; } Reader;

static void ws(Reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

/* a string without escapes or control characters; 0 on success */
static int str(Reader *r, const char **s, Py_ssize_t *n) {
    ws(r);
    if (r->p >= r->end || *r->p != '"') return -1;
    const char *start = ++r->p;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c == '\\' || c < 0x20) return -1;
        r->p++;
    }
    if (r->p >= r->end) return -1;
    *s = start;
    *n = r->p - start;
    r->p++;
    return 0;
}

static int lit(Reader *r, char c) {
    ws(r);
    if (r->p < r->end && *r->p == c) { r->p++; return 1; }
    return 0;
}

static int key_is(const char *s, Py_ssize_t n, const char *k) {
    return (Py_ssize_t)strlen(k) == n && memcmp(s, k, n) == 0;
}

/* "[a|b]" or "a-b" with ASCII digits 0..6 (the spellings fives.tiles looks up first) */
static int tile_of(const char *s, Py_ssize_t n) {
    int a, b;
    if (n == 5 && s[0] == '[' && s[2] == '|' && s[4] == ']') { a = s[1] - '0'; b = s[3] - '0'; }
    else if (n == 3 && s[1] == '-') { a = s[0] - '0'; b = s[2] - '0'; }
    else return -1;
    if (a < 0 || a > 6 || b < 0 || b > 6) return -1;
    return INDEX_OF[a][b];
}

static int side_of(const char *s, Py_ssize_t n) {
    for (int i = 0; i < 6; i++)
        if (key_is(s, n, SIDE_NAMES[i])) return i;
    return -1;
}

/* -- output -------------------------------------------------------------------------------- */
typedef struct { char *buf; Py_ssize_t len, cap; } Out;

static int put(Out *o, const char *s, Py_ssize_t n) {
    if (o->len + n > o->cap) {
        Py_ssize_t cap = (o->cap + n) * 2;
        char *b = PyMem_Realloc(o->buf, cap);
        if (!b) return -1;
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    return 0;
}
#define PUTS(o, s) put((o), (s), (Py_ssize_t)strlen(s))

static int put_int(Out *o, long v) {
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%ld", v);
    return put(o, tmp, n);
}

static int put_q(Out *o, const char *s) {  /* a JSON string that needs no escaping */
    return put(o, "\"", 1) || PUTS(o, s) || put(o, "\"", 1);
}

/* evaluate_line(line, default_game, games) -> str | None */
static PyObject *evaluate_line(PyObject *self, PyObject *args) {
    PyObject *line, *default_game, *games;
    if (!PyArg_ParseTuple(args, "UOO!", &line, &default_game, &PyDict_Type, &games)) return NULL;
    Py_ssize_t len;
    const char *text = PyUnicode_AsUTF8AndSize(line, &len);
    /* a str UTF-8 cannot hold (a raw lone surrogate): the Python path refuses it. A \ud800
     * escape never gets here either: every escape is declined by str() below. */
    if (!text) { PyErr_Clear(); Py_RETURN_NONE; }
    Reader r = {text, text + len};
    const char *game = NULL, *plist = NULL;
    Py_ssize_t game_n = 0;
    int seen_game = 0, seen_placements = 0;
    if (!lit(&r, '{')) Py_RETURN_NONE;
    /* first pass over the top level: find "game" and remember where "placements" starts */
    int tiles[28], tos[28], sides[28], nrec = 0;
    if (!lit(&r, '}')) {
        do {
            const char *k;
            Py_ssize_t kn;
            if (str(&r, &k, &kn) || !lit(&r, ':')) Py_RETURN_NONE;
            if (key_is(k, kn, "game") && !seen_game) {
                seen_game = 1;
                if (str(&r, &game, &game_n)) Py_RETURN_NONE;
            } else if (key_is(k, kn, "placements") && !seen_placements) {
                seen_placements = 1;
                plist = r.p;
                if (!lit(&r, '[')) Py_RETURN_NONE;
                if (!lit(&r, ']')) {
                    do {
                        if (nrec >= 28 || !lit(&r, '{')) Py_RETURN_NONE;
                        int t = -2, to = -2, sd = -2;
                        do {
                            const char *pk, *pv;
                            Py_ssize_t pkn, pvn;
                            if (str(&r, &pk, &pkn) || !lit(&r, ':') || str(&r, &pv, &pvn)) Py_RETURN_NONE;
                            if (key_is(pk, pkn, "tile") && t == -2) t = tile_of(pv, pvn);
                            else if (key_is(pk, pkn, "to") && to == -2) to = tile_of(pv, pvn);
                            else if (key_is(pk, pkn, "side") && sd == -2) sd = side_of(pv, pvn);
                            else Py_RETURN_NONE;
                        } while (lit(&r, ','));
                        if (!lit(&r, '}') || t < 0 || to == -1 || sd == -1 || (to == -2) != (sd == -2))
                            Py_RETURN_NONE;
                        tiles[nrec] = t;
                        tos[nrec] = to;
                        sides[nrec] = sd;
                        nrec++;
                    } while (lit(&r, ','));
                    if (!lit(&r, ']')) Py_RETURN_NONE;
                }
            } else {
                Py_RETURN_NONE;
            }
        } while (lit(&r, ','));
        if (!lit(&r, '}')) Py_RETURN_NONE;
    }
    ws(&r);
    if (r.p != r.end || !seen_placements || plist == NULL) Py_RETURN_NONE;
    PyObject *key;
    if (seen_game) {
        key = PyUnicode_DecodeUTF8(game, game_n, NULL);
        if (!key) { PyErr_Clear(); Py_RETURN_NONE; }
    } else {
        if (!PyUnicode_Check(default_game)) Py_RETURN_NONE;
        key = default_game;
        Py_INCREF(key);
    }
    PyObject *cap = PyDict_GetItemWithError(games, key);
    Py_DECREF(key);
    if (!cap) { if (PyErr_Occurred()) return NULL; Py_RETURN_NONE; }
    const Tables *T = PyCapsule_GetPointer(cap, "fives._accel.Tables");
    if (!T) return NULL;

    /* -- place every record, as Layout.push_move does ----------------------------------- */
    unsigned int mask = 0;
    int order[28], spinners[28], nspin = 0, occ[28], opn[28], base[28], val[28], pq[28], scores[28];
    int sum = 0;
    for (int i = 0; i < nrec; i++) {
        int t = tiles[i];
        if (mask >> t & 1) Py_RETURN_NONE;
        int spin = IS_DOUBLE[t] && (T->every_double || nspin == 0);
        int b = (t * 2 + spin) * 64;
        if (tos[i] < 0) {
            if (i) Py_RETURN_NONE;
            pq[t] = -1;
            occ[t] = 0;
            val[t] = T->count[b];
            opn[t] = T->opens[b];
            sum += val[t];
        } else {
            int to = tos[i], s = sides[i];
            if (!(mask >> to & 1) || !(opn[to] >> s & 1) || (s > 3 && !(base[to] & 64))) Py_RETURN_NONE;
            int v = s == 1 ? TILE_HIGH[to] : TILE_LOW[to];
            int j;
            if (IS_DOUBLE[t]) j = TILE_LOW[t] == v ? 2 : -1;
            else j = TILE_LOW[t] == v ? 0 : (TILE_HIGH[t] == v ? 1 : -1);
            if (j < 0) Py_RETURN_NONE;
            occ[to] |= 1 << s;
            int k = base[to] | occ[to];
            sum += T->count[k] - val[to];
            val[to] = T->count[k];
            opn[to] = T->opens[k];
            pq[t] = to * 6 + s;
            occ[t] = 1 << j;
            val[t] = T->count[b | occ[t]];
            opn[t] = T->opens[b | occ[t]];
            sum += val[t];
        }
        base[t] = b;
        mask |= 1u << t;
        order[i] = t;
        if (spin) spinners[nspin++] = t;
        if (sum < 0 || sum >= T->nscore) Py_RETURN_NONE;
        scores[i] = T->score[sum];
    }
    int raw = nrec ? T->score[sum] : 0;

    /* -- the output line, as dump_json writes the result object ------------------------- */
    Out o = {NULL, 0, 0};
    int err = PUTS(&o, "{\"game\": ") || put_q(&o, T->id) || PUTS(&o, ", \"tiles\": [");
    for (int i = 0; i < nrec && !err; i++)
        err = (i && PUTS(&o, ", ")) || put_q(&o, TILE_NAMES[order[i]]);
    err = err || PUTS(&o, "], \"spinners\": [");
    for (int i = 0; i < nspin && !err; i++)
        err = (i && PUTS(&o, ", ")) || put_q(&o, TILE_NAMES[spinners[i]]);
    err = err || PUTS(&o, "], \"connections\": [");
    for (int i = 1; i < nrec && !err; i++) {
        int t = order[i], q = pq[t], to = q / 6, s = q % 6;
        int v = s == 1 ? TILE_HIGH[to] : TILE_LOW[to];
        int j = IS_DOUBLE[t] ? 2 : (TILE_LOW[t] == v ? 0 : 1);
        err = (i > 1 && PUTS(&o, ", ")) || PUTS(&o, "{\"to\": ") || put_q(&o, TILE_NAMES[to])
              || PUTS(&o, ", \"side\": ") || put_q(&o, SIDE_NAMES[s]) || PUTS(&o, ", \"tile\": ")
              || put_q(&o, TILE_NAMES[t]) || PUTS(&o, ", \"tile_side\": ") || put_q(&o, SIDE_NAMES[j])
              || PUTS(&o, "}");
    }
    err = err || PUTS(&o, "], \"positions\": [");
    int first = 1;
    for (int t = 0; t < 28 && !err; t++) {
        if (!(mask >> t & 1)) continue;
        for (int s = 0; s < 6 && !err; s++) {
            if (!(opn[t] >> s & 1)) continue;
            err = (!first && PUTS(&o, ", ")) || PUTS(&o, "{\"tile\": ") || put_q(&o, TILE_NAMES[t])
                  || PUTS(&o, ", \"side\": ") || put_q(&o, SIDE_NAMES[s]) || PUTS(&o, ", \"value\": ")
                  || put_int(&o, s == 1 ? TILE_HIGH[t] : TILE_LOW[t]) || PUTS(&o, "}");
            first = 0;
        }
    }
    err = err || PUTS(&o, "], \"contributions\": [");
    first = 1;
    for (int t = 0; t < 28 && !err; t++) {
        if (!(mask >> t & 1)) continue;
        int row = base[t] | occ[t];
        for (int k = 0; k < T->nparts[row] && !err; k++) {
            int s = T->part_side[row][k];
            err = (!first && PUTS(&o, ", ")) || PUTS(&o, "{\"tile\": ") || put_q(&o, TILE_NAMES[t])
                  || PUTS(&o, ", \"value\": ") || put_int(&o, T->part_value[row][k])
                  || (s >= 0 && (PUTS(&o, ", \"side\": ") || put_q(&o, SIDE_NAMES[s]))) || PUTS(&o, "}");
            first = 0;
        }
    }
    err = err || PUTS(&o, "], \"sum\": ") || put_int(&o, sum) || PUTS(&o, ", \"raw\": ") || put_int(&o, raw)
          || PUTS(&o, ", \"display\": ") || put_int(&o, raw / T->divisor) || PUTS(&o, ", \"scores\": [");
    for (int i = 0; i < nrec && !err; i++)
        err = (i && PUTS(&o, ", ")) || put_int(&o, scores[i]);
    err = err || PUTS(&o, "]}");
    if (err) {
        PyMem_Free(o.buf);
        return PyErr_NoMemory();
    }
    PyObject *res = PyUnicode_DecodeASCII(o.buf, o.len, NULL);
    PyMem_Free(o.buf);
    return res;
}

static PyMethodDef methods[] = {
    {"tables", make_tables, METH_VARARGS, "tables(id, count, opens, parts, score, every_double, divisor)"},
    {"evaluate_line", evaluate_line, METH_VARARGS,
     "evaluate_line(line, default_game, games) -> the output line, or None for the Python path"},
    {"perft", fives_perft, METH_VARARGS,
     "perft(tables, policy, codes, depth) -> (nodes, points) from the layout of move codes `codes`"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "fives._accel",
                                    "Compiled fast paths of `fives evaluate --jsonl` and perft (see fives/accel.py).", -1, methods};

PyMODINIT_FUNC PyInit__accel(void) {
    int i = 0;
    for (int a = 0; a <= 6; a++)
        for (int b = a; b <= 6; b++, i++) {
            TILE_LOW[i] = a;
            TILE_HIGH[i] = b;
            IS_DOUBLE[i] = a == b;
            INDEX_OF[a][b] = INDEX_OF[b][a] = i;
            snprintf(TILE_NAMES[i], sizeof TILE_NAMES[i], "[%d|%d]", a, b);
        }
    fives_perft_init();
    return PyModule_Create(&module);
}
