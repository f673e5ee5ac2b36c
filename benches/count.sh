#!/usr/bin/env bash
# Instruction counts (valgrind callgrind) of libyac's C API on the benchmark
# documents: deterministic figures to compare two builds with, where
# wall-clock timings on a shared machine are too noisy. Each figure is the
# whole program's count for three runs of the operation (the program's own
# start-up, ~0.2M instructions, included; "encode" also parses once).
#
#   benches/count.sh [DATA_DIR]          every operation on every document
#   OPS="parse" DOCS="canada-list" benches/count.sh
#
# DATA_DIR holds the shared documents; benches/docs.sh adds two generated
# ones (five in all). The operations are those of benches/run.sh (see benches/c/count.c); it
# needs valgrind, msgpack-c and msgpuck (benches/run.sh installs the peers).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
data="${1:-$root/../shared/data}"
target="${CARGO_TARGET_DIR:-$root/target}"
cargo rustc --release --lib --crate-type staticlib --quiet
mkdir -p "$target/bench"
if pkg-config --exists msgpack-c; then msgpack_pc=msgpack-c; else msgpack_pc=msgpack; fi
# shellcheck source=benches/mpack.sh
. benches/mpack.sh
# shellcheck disable=SC2046 # pkg-config output is a list of words
${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -O2 -Iinclude -I"$mpack_dir" \
    $(pkg-config --cflags "$msgpack_pc") benches/c/count.c -o "$target/bench/count" \
    "${mpack_objs[@]}" "$target/release/libyac.a" $(pkg-config --libs "$msgpack_pc") -lmsgpuck \
    -lpthread -ldl -lm
# shellcheck source=benches/docs.sh
. benches/docs.sh
printf '%-12s %-7s %15s\n' document op instructions
for doc in ${DOCS:-$docs}; do
    for op in ${OPS:-unpack check parse trust walk pack encode mparse mread read validate vtrust mdecode batch inline wsetup write mpcwrite mwrite}; do
        n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$target/bench/count" "$data" "$doc" "$op" 2>&1 |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
        printf '%-12s %-7s %15s\n' "$doc" "$op" "$n"
    done
done
