#!/usr/bin/env bash
# Fuzz smoke run (CI): seeds fuzz/corpus/ if it is missing (seed.sh), then
# for every target of fuzz/Cargo.toml replays the crashers we keep
# (fuzz/regressions/<target>/) and fuzzes for $1 seconds (default 20)
# starting from the seeds and the regressions. libFuzzer exits non-zero on
# any crash, leak, timeout or out-of-memory, and then so does this script,
# after printing the end of its log. Needs nightly and cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"
if [ ! -d corpus ]; then ./seed.sh; fi
targets=$(cargo +nightly fuzz list)
for t in $targets; do
  cargo +nightly fuzz build -O "$t"
done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in $targets; do
  dirs=()
  for d in "corpus/$t" "regressions/$t"; do
    if [ -d "$d" ] && [ -n "$(ls -A "$d")" ]; then dirs+=("$d"); fi
  done
  if [ -d "regressions/$t" ] && [ -n "$(ls -A "regressions/$t")" ]; then
    if ! cargo +nightly fuzz run -O "$t" "regressions/$t"/* -- -runs=1 >"$log" 2>&1; then
      tail -n 40 "$log"
      echo "fuzz target $t: a kept regression fails again" >&2
      exit 1
    fi
  fi
  # New finds go to a scratch directory, not into the tree.
  scratch=$(mktemp -d)
  if ! cargo +nightly fuzz run -O "$t" "$scratch" "${dirs[@]}" -- \
    -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log"
    rm -rf "$scratch"
    echo "fuzz target $t failed (the crash input is under fuzz/artifacts/$t/)" >&2
    exit 1
  fi
  rm -rf "$scratch"
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "fuzz $t: ${seconds}s, $runs runs, no crash"
done
