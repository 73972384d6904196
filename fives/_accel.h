/* fives/_accel.h: what the two sources of fives._accel share (see fives/accel.py). */
#ifndef FIVES_ACCEL_H
#define FIVES_ACCEL_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define ROWS (28 * 2 * 64)
#define MAX_PARTS 4
#define MAX_SUM 1024

typedef struct {
    int count[ROWS];
    int opens[ROWS];
    int nparts[ROWS];
    int part_side[ROWS][MAX_PARTS];
    int part_value[ROWS][MAX_PARTS];
    int score[MAX_SUM];
    int nscore;
    int every_double;
    int divisor;
    char id[64];
} Tables;

/* fives/_perft.c: perft(tables, policy, codes, depth) and its tile tables */
PyObject *fives_perft(PyObject *self, PyObject *args);
void fives_perft_init(void);
#endif
