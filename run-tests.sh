#!/usr/bin/env bash
# Every check of the project: formatting, clippy with warnings as errors, and
# all tests (Rust unit and conformance tests, the C tests plain and under
# ASan/UBSan, the header and freestanding-symbol checks, the C example).
set -euo pipefail
cd "$(dirname "$0")"

cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo test
