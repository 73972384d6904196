#!/bin/sh
# Issue 40's measure of Ctrl-C inside the solver: SIGINT at 20 random moments of each of
# `puzzles generate`, `verify` and `solve` (tests/test_puzzles_sigint.py); every try must exit
# 130 with no verdict. Prints pytest's summary: "60 passed" is the goal. Usage, from the checkout:
#   sh benchmarks/puzzles_sigint.sh [TRIES]
set -e
FIVES_SIGINT_TRIES="${1:-20}" exec python -m pytest -q tests/test_puzzles_sigint.py
