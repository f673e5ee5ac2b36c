#!/usr/bin/env bash
# The ABI check: compares the C ABI that libyac.so exports (functions,
# their parameter and return types, the layout of every struct they reach:
# libabigail's abidw reads it from the library's DWARF) with the baseline
# kept in the repo, dist/abi/libyac.abi, and fails on any change that is
# not an addition: a removed function, a changed signature, a moved or
# resized struct field, a changed soname.
#
#   dist/abi-check.sh            # the check (.ci/run runs it)
#   dist/abi-check.sh --update   # announce the current ABI as the baseline
#
# An intended break is announced in one commit that lists it in
# CHANGELOG.md, under the heading of the version that makes it (which must
# have moved the soname: 0.x minor, see the Makefile), and refreshes the
# baseline with --update; --update refuses while CHANGELOG.md has no
# section for the current version. New functions need no announcement
# (they are listed in CHANGELOG.md all the same), so the baseline stays the
# ABI of the release that last changed it.
#
# The library is built with cargo's dev profile (debug info, quick to
# build): the exported functions and types are those of the release build.
# Needs abigail-tools (embedded/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
target_dir=${CARGO_TARGET_DIR:-target}/abi
baseline=dist/abi/libyac.abi
soname=$(make -s print-SONAME)
version=$(make -s print-VERSION)

cargo rustc --quiet --lib --crate-type cdylib --target-dir "$target_dir" \
  -- -C link-arg=-Wl,-soname,"$soname"
current=$target_dir/libyac.abi
abidw --no-corpus-path --no-comp-dir-path --no-show-locs \
  --out-file "$current" "$target_dir/debug/libyac.so"

case $mode in
--update)
  if ! grep -q "^## $version\b" CHANGELOG.md; then
    echo "abi-check: CHANGELOG.md has no section '## $version': list the ABI changes there first" >&2
    exit 1
  fi
  cp "$current" "$baseline"
  echo "abi-check: $baseline is now the ABI of $version ($soname)"
  ;;
check)
  base_soname=$(grep -o -m1 "soname='[^']*'" "$baseline" | cut -d"'" -f2)
  if [ "$base_soname" != "$soname" ]; then
    echo "abi-check: the baseline is $base_soname's ABI, this is $soname: the version moved." >&2
    echo "  List this version's ABI changes in CHANGELOG.md and run dist/abi-check.sh --update." >&2
    exit 1
  fi
  rc=0
  abidiff --no-added-syms "$baseline" "$current" || rc=$?
  if [ $((rc & 3)) -ne 0 ]; then
    echo "abi-check: abidiff failed (status $rc)" >&2
    exit 1
  elif [ $rc -ne 0 ]; then
    echo "abi-check: the ABI of $soname changed without an announcement (above)." >&2
    echo "  Undo the change, or (for a new version) announce it: CHANGELOG.md + dist/abi-check.sh --update." >&2
    exit 1
  fi
  echo "abi-check: $soname exports the baseline's ABI (additions aside)"
  ;;
*)
  echo "usage: dist/abi-check.sh [--update]" >&2
  exit 2
  ;;
esac
