#!/usr/bin/env bash
# Every check of the project: formatting, clippy with warnings as errors,
# warning-free API docs, and all tests (Rust unit and conformance tests, the
# C tests plain and under ASan/UBSan, the header and freestanding-symbol
# checks, the C example, make install + pkg-config, the yac tool, the
# README's programs).
set -euo pipefail
cd "$(dirname "$0")"

# The whole workspace: the yac crate (yac/), the C library (root), the
# `yac` tool (cli/) and the test kit (testkit/).
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
cargo test --workspace
