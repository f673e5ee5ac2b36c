#!/bin/sh
# Writes seed corpora for every fuzz target into fuzz/corpus/<target>/:
# FORMAT.md's vectors (valid and invalid), generated documents and edge atoms,
# produced by the ignored test `write_fuzz_seeds` in yac/tests/differential.rs.
set -eu
cd "$(dirname "$0")/.."
cargo test -p keks --test differential -- --ignored --exact write_fuzz_seeds
for d in fuzz/corpus/*/; do echo "$d: $(ls "$d" | wc -l) files"; done
