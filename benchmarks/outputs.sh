#!/usr/bin/env bash
# Write a set of outputs (golden, perft, records, SVG, book, reports, puzzles) into $1, run from a
# checkout: run it before and after a change and diff the folders (timings and paths aside).
#   bash benchmarks/outputs.sh OUT
set -u
O="$1"; rm -rf "$O"; mkdir -p "$O"
export FIVES_NO_CACHE=1
fives golden generate --game horse-race --game american-sniff --cases 300 --seed 7 --out "$O/golden" >/dev/null 2>&1; echo golden $?
fives perft --help >/dev/null
fives perft --game horse-race --depth 5 > "$O/perft-hr4.txt" 2>&1; echo perft $?
fives perft --game american-sniff --depth 4 --divide > "$O/perft-sn4-divide.txt" 2>&1; echo perftd $?
fives play --game horse-race --players 3 --seed 11 --out "$O/rec-hr.jsonl" > "$O/play-hr.txt" 2>&1; echo play $?
fives play --game american-sniff --players 4 --partnerships --seed 5 --out "$O/rec-sn.jsonl" > "$O/play-sn.txt" 2>&1; echo play $?
fives replay "$O/rec-hr.jsonl" > "$O/replay.txt" 2>&1; echo replay $?
fives render --fixture HR-FIG-1-3 --out "$O/fig.svg"; echo render $?
fives book puzzles/book-sample.yaml --out "$O/book.html"; echo book $?
fives book puzzles/book-sample.yaml --interactive --out "$O/play.html"; echo bookI $?
fives score-svg --game american-sniff --score 85 --score 5+10+3 > "$O/score.svg" 2>&1; echo score $?
fives score-svg --record "$O/rec-hr.jsonl" > "$O/score-rec.svg" 2>&1; echo scorerec $?
fives tally --game american-sniff 35 85 > "$O/tally.txt" 2>&1; echo tally $?
fives conformance run > "$O/run.txt" 2>&1; echo run $?
fives conformance run --engine "fives serve --mutant drawn-tile-continues" --report json:"$O/r.json" --report junit:"$O/r.xml" --report markdown:"$O/r.md" --report html:"$O/r.html" > "$O/run-mutant.txt" 2>&1; echo runm $?
fives conformance list > "$O/list.txt" 2>&1; echo list $?
fives conformance coverage > "$O/coverage.txt" 2>&1; echo cov $?
fives conformance mutants --in-process > "$O/mutants.txt" 2>&1; echo mut $?
fives puzzles generate --game horse-race --count 4 --seed 3 --out "$O/pz.yaml" >/dev/null 2>&1; echo pz $?
fives puzzles generate --game american-sniff --kind build --count 2 --seed 3 --out "$O/pz2.yaml" >/dev/null 2>&1; echo pz2 $?
fives conformance fuzz --help > /dev/null 2>&1
fives golden verify conformance/golden > "$O/gverify.txt" 2>&1; echo gv $?
fives --help > "$O/help.txt"
