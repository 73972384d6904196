#!/usr/bin/env bash
# Write a set of outputs (golden, perft, records, SVG, book, reports, puzzles) into $1, run from a
# checkout: run it before and after a change and diff the folders (timings and paths aside).
#   bash benchmarks/outputs.sh OUT; then python benchmarks/outputs_compare.py OLD NEW
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
# -- the sessions issue 36 moved out of the CLI: diagnose, fuzz, mutants, perft through an
#    engine, several engines, rule profiles, puzzle verify/solve, every command's --help
fives conformance run --kind settle --rules sniff-domino-games --report json:"$O/r-rules.json" > "$O/run-rules.txt" 2>&1; echo runr $?
fives conformance run --kind settle --engine "fives serve" --engine "fives serve --mutant drawn-tile-continues" --report json:"$O/r-several.json" --report html:"$O/r-several.html" > "$O/run-several.txt" 2>&1; echo runs $?
fives conformance run --engine "fives serve --players 2" --kind settle --report badge:"$O/badge.svg" > "$O/run-players2.txt" 2>&1; echo runp $?
fives conformance run --id 'PERFT-american-sniff-empty-D3-[0|0]' -q > "$O/run-bracket.txt" 2>&1; echo runb $?
fives conformance list --rules sniff-domino-games > "$O/list-rules.txt" 2>&1; echo listr $?
fives conformance mutants --in-process --mutant drawn-tile-continues --json > "$O/mutants-one.json" 2>&1; echo mut1 $?
fives conformance diagnose --engine "fives serve --mutant drawn-tile-continues" --seconds 60 --fuzz 100 --kind turn --game horse-race --json > "$O/diagnose.json" 2>"$O/diagnose.err"; echo dx $?
fives conformance fuzz --engine "fives serve --mutant blocked-draw-keeps-turn" --cases 200 --seed 1 --out "$O/fuzz" > "$O/fuzz.txt" 2>&1; echo fuzz $?
fives perft --game horse-race --depth 3 --engine "fives serve" > "$O/perft-engine.txt" 2>&1; echo perfte $?
fives perft --game american-sniff --depth 3 --engine "fives serve --mutant drawn-tile-continues" --bisect > "$O/perft-bisect.txt" 2>&1; echo perftb $?
fives perft --check conformance/perft/perft.yaml --max-depth 4 > "$O/perft-check.txt" 2>&1; echo perftc $?
fives puzzles verify "$O/pz.yaml" > "$O/pz-verify.txt" 2>&1; echo pzv $?
fives puzzles solve "$O/pz.yaml" > "$O/pz-solve.txt" 2>&1; echo pzs $?
fives rules show horse-race racehorse-rice > "$O/rules-show.txt" 2>&1; echo rules $?
for c in "conformance run" "conformance diagnose" "conformance fuzz" "conformance mutants" "perft" "puzzles generate" "puzzles verify" "puzzles solve"; do
  fives $c --help >> "$O/help-commands.txt" 2>&1
done
