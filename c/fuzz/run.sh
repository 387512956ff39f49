#!/usr/bin/env bash
# run.sh - builds the libFuzzer targets (make fuzz) and runs each in turn for
# a time budget, then prints the executions per target.
#
#   c/fuzz/run.sh [SECONDS-PER-TARGET] [TARGET...]
#
# SECONDS defaults to 10; 0 only replays the committed corpus (seeds and
# every past finding) through each target. Targets default to all of them
# (build/fuzz/: unpack_<type>, decode_<kind>, der_<kind>, roundtrip, diff; as
# `make fuzz-targets` lists them).
# Each target reads its committed corpus c/fuzz/corpus/<target>/ and keeps
# what it discovers in build/fuzz/corpus/<target>/ (not committed). A crash
# stops the run with exit status 1 and leaves its input in build/fuzz/crashes/:
# reproduce it with `build/fuzz/<target> <file>`; once fixed, copy the file into
# c/fuzz/corpus/<target>/ so that every later run replays it.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-10}
shift || true
make -s --no-print-directory fuzz >/dev/null
targets=("$@")
if ((${#targets[@]} == 0)); then
  read -ra targets <<<"$(make -s --no-print-directory fuzz-targets)"
fi

mkdir -p build/fuzz/crashes build/fuzz/logs
printf '%-16s %12s %10s %8s\n' target execs 'execs/s' seconds
total=0
for t in "${targets[@]}"; do
  mkdir -p "build/fuzz/corpus/$t"
  if ((seconds == 0)); then # only the committed corpus, each input once
    args=(-runs=0 "c/fuzz/corpus/$t")
  else
    args=(-max_total_time="$seconds" "build/fuzz/corpus/$t" "c/fuzz/corpus/$t")
  fi
  log="build/fuzz/logs/$t.log"
  start=$(date +%s.%N)
  if ! "build/fuzz/$t" -timeout=10 -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="build/fuzz/crashes/$t-" "${args[@]}" >"$log" 2>&1; then
    echo "run.sh: $t FAILED; its log is $log:" >&2
    grep -E -A2 'fuzz check|ERROR|SUMMARY|Test unit written' "$log" >&2 || tail -20 "$log" >&2
    exit 1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  total=$((total + execs))
  awk -v t="$t" -v n="$execs" -v s="$start" -v e="$(date +%s.%N)" \
    'BEGIN { printf "%-16s %12d %10.0f %8.1f\n", t, n, n / (e - s), e - s }'
done
printf '%-16s %12d\n' total "$total"
