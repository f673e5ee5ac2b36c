#!/bin/sh
# The cargo driver of the CMake and Meson source builds (CMakeLists.txt,
# meson.build): builds libyac.a as `make` does (release, LTO) and copies it
# to OUT, where the build system expects it.
#
#   dist/cargo-staticlib.sh OUT TARGET_DIR [RUST_TARGET [CARGO_ARGS...]]
#
# RUST_TARGET empty: the host, with std. A bare-metal target (thumb*) is
# built freestanding (--no-default-features) at opt-level z, as in the
# release archive. CARGO (default: cargo) names the cargo to run.
set -eu
out=$1 target_dir=$2 target=${3:-}
[ $# -ge 3 ] && shift 3 || shift $#
root=$(cd "$(dirname "$0")/.." && pwd)
set -- --release --lib --crate-type staticlib --manifest-path "$root/Cargo.toml" \
  --target-dir "$target_dir" "$@"
dir=$target_dir
if [ -n "$target" ]; then
  set -- "$@" --target "$target"
  dir=$target_dir/$target
fi
case $target in
thumb*)
  CARGO_PROFILE_RELEASE_OPT_LEVEL=z "${CARGO:-cargo}" rustc --no-default-features "$@"
  ;;
*) "${CARGO:-cargo}" rustc "$@" ;;
esac
cp "$dir/release/libyac.a" "$out.tmp"
mv "$out.tmp" "$out"
