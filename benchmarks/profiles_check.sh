#!/usr/bin/env bash
# Per shipped rule profile: a 2,000-case golden suite generated, verified and passed by
# `fives serve --rules P`, and the perft table to depth 5 updated and re-checked under P.
#   bash benchmarks/profiles_check.sh [OUT]
set -u
OUT="${1:-$(mktemp -d)}"; mkdir -p "$OUT"; cd "$OUT"
for P in $(fives rules show --help >/dev/null; python -c "from fives.profiles import shipped_profiles; print(' '.join(shipped_profiles()))"); do
  G=$(python -c "from fives.profiles import load_profile; print(load_profile('$P').extends)")
  s=$(date +%s.%N)
  fives golden generate --game $G --cases 2000 --seed 1 --rules $P --out "$OUT"/golden-$P --jobs 2 >/dev/null 2>&1; g=$?
  fives golden verify --rules $P "$OUT"/golden-$P > "$OUT"/gv-$P.txt 2>&1; v=$?
  fives golden verify "$OUT"/golden-$P > "$OUT"/gv-norules-$P.txt 2>&1; vn=$?
  fives conformance run --rules $P --engine "fives serve --rules $P" --fixtures "$OUT"/golden-$P --jobs 2 -q > "$OUT"/run-$P.txt 2>&1; r=$?
  cp "$(fives data path perft)" "$OUT"/perft-$P.yaml
  fives perft --check "$OUT"/perft-$P.yaml --max-depth 5 --update --rules $P --jobs 2 > "$OUT"/pu-$P.txt 2>&1; pu=$?
  fives perft --check "$OUT"/perft-$P.yaml --max-depth 5 --rules $P --jobs 2 > "$OUT"/pc-$P.txt 2>&1; pc=$?
  fives perft --check "$OUT"/perft-$P.yaml --max-depth 5 > "$OUT"/pcn-$P.txt 2>&1; pcn=$?
  e=$(date +%s.%N)
  echo "$P ($G): golden-generate=$g verify=$v verify-without-rules=$vn run=$r:$(tail -1 "$OUT"/run-$P.txt) perft-update=$pu perft-check=$pc perft-check-without-rules=$pcn $(python -c "print(round($e-$s,1))")s"
done
