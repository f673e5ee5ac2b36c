#!/usr/bin/env bash
# Builds and runs the C benchmark (benches/c/bench.c): libyac's C API against
# msgpack-c and msgpuck on the shared benchmark documents.
#
#   benches/run.sh [--quick] [DATA_DIR]
#
# DATA_DIR (the shared documents) defaults to ../shared/data next to the
# checkout; benches/docs.sh adds two documents generated from public JSON
# (countries, emoji). The program runs twice: with glibc malloc pinned (the
# main table) and with default malloc settings. It is pinned to one CPU
# (taskset -c ${BENCH_CPU:-0}) when taskset exists. Exits non-zero when a
# check fails (reference encoding, item counts, walk checksums, heap
# allocations in libyac); timings are only reported.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

quick=()
data="$root/../shared/data"
for arg in "$@"; do
    case "$arg" in
    --quick) quick=(--quick) ;;
    -*) echo "usage: benches/run.sh [--quick] [DATA_DIR]" >&2; exit 2 ;;
    *) data="$arg" ;;
    esac
done

# --- the C peers, from Debian: msgpack-c (libmsgpack-dev; newer releases
# call it libmsgpack-c-dev, pkg-config msgpack-c) and msgpuck.
have_peers() {
    { pkg-config --exists msgpack-c 2>/dev/null || pkg-config --exists msgpack 2>/dev/null; } &&
        [ -f /usr/include/msgpuck.h ]
}
if ! have_peers; then
    sudo=()
    if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
    ${sudo[@]+"${sudo[@]}"} apt-get update -qq
    msgpack_pkg=libmsgpack-c-dev
    if ! apt-cache show "$msgpack_pkg" >/dev/null 2>&1; then msgpack_pkg=libmsgpack-dev; fi
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        pkg-config "$msgpack_pkg" libmsgpuck-dev
fi
if pkg-config --exists msgpack-c; then msgpack_pc=msgpack-c; else msgpack_pc=msgpack; fi

# --- libyac.a (release, LTO), the way the C tests build it: `cargo rustc
# --crate-type staticlib` builds the archive alone (`cargo build --release`
# would also link libyac.so).
target="${CARGO_TARGET_DIR:-$root/target}"
cargo rustc --release --lib --crate-type staticlib --quiet
mkdir -p "$target/bench"
# shellcheck source=benches/mpack.sh
. benches/mpack.sh
# shellcheck disable=SC2046 # pkg-config output is a list of words
${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -O2 -Iinclude -I"$mpack_dir" \
    $(pkg-config --cflags "$msgpack_pc") benches/c/bench.c -o "$target/bench/bench" \
    "${mpack_objs[@]}" "$target/release/libyac.a" $(pkg-config --libs "$msgpack_pc") -lmsgpuck \
    -lpthread -ldl -lm

# shellcheck source=benches/docs.sh
. benches/docs.sh

pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c "${BENCH_CPU:-0}"); fi

status=0
# shellcheck disable=SC2086 # $docs is a list of words
${pin[@]+"${pin[@]}"} "$target/bench/bench" ${quick[@]+"${quick[@]}"} "$data" $docs || status=$?
echo
echo "######## the same with glibc malloc's default settings"
# shellcheck disable=SC2086
${pin[@]+"${pin[@]}"} "$target/bench/bench" ${quick[@]+"${quick[@]}"} --default-malloc "$data" $docs || status=$?
exit "$status"
