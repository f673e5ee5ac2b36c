#!/usr/bin/env bash
# Every check of the project: formatting, clippy with warnings as errors,
# warning-free API docs, and all tests (Rust unit and conformance tests, the
# C tests plain and under ASan/UBSan, the header and freestanding-symbol
# checks, the C example, make install + pkg-config, the yac tool, the
# README's and docs/'s programs).
set -euo pipefail
cd "$(dirname "$0")"

# The whole workspace: the keks crate (yac/), the C library (root), the
# `yac` tool (cli/) and the test kit (testkit/), with every feature (the
# keks crate's serde support included); the keks crate also without std.
cargo fmt --all --check
cargo clippy --workspace --all-targets --all-features -- -D warnings
cargo clippy -p keks --no-default-features --features serde -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features
# The private items' docs too: the developers' reading of the code, whose
# links should not break either.
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features --document-private-items
# The keks crate's guide links items of every feature: with none, with the
# defaults (what a user's plain `cargo doc` builds), and with serde with and
# without std, no link may break.
for features in "--no-default-features" "" "--features serde" \
    "--no-default-features --features serde"; do
    # shellcheck disable=SC2086 # the feature flags are words
    RUSTDOCFLAGS="-D warnings" cargo doc -p keks --no-deps $features
done
cargo test --workspace --all-features
# The fuzz targets (their own workspace, fuzz/) call the C layer's Rust
# paths: they must still build after the C layer's files move.
cargo check --manifest-path fuzz/Cargo.toml --bins
