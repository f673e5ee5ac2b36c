#!/usr/bin/env bash
# The main job: build the C library (libyac.a + include/yac.h), compile the C
# example examples-c/print_atoms.c against it with strict C99 flags, and print
# the atoms of a YAC file (by default the bundled examples-c/sample.yac) with
# their offsets, indented by depth.
#
#   ./run-example.sh [FILE.yac]
set -euo pipefail
cd "$(dirname "$0")"

target=${CARGO_TARGET_DIR:-target}
# `cargo rustc --crate-type staticlib` builds the archive alone (release,
# LTO'd: one optimised object); `cargo build --release` would also link
# libyac.so.
cargo rustc --release --lib --crate-type staticlib --quiet

mkdir -p "$target/examples-c"
"${CC:-cc}" -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude \
  examples-c/print_atoms.c "$target/release/libyac.a" -lpthread -ldl -lm \
  -o "$target/examples-c/print_atoms"
"$target/examples-c/print_atoms" "${1:-examples-c/sample.yac}"
