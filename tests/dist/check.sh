#!/usr/bin/env bash
# Unpacks a release archive (dist/build.sh) and builds and runs the C
# examples from it alone, as a C user without Rust would, with no cargo or
# rustc on the PATH: on the host (static libyac.a, pkg-config, the shared
# library), for i686 (-m32), for aarch64 (cross gcc, run by qemu-aarch64),
# and for each Cortex-M library of the archive (arm-none-eabi-gcc, run by
# qemu-system-arm with semihosting; the examples that need no file:
# static_pool and insert). Every run must print what the host run printed.
# Libraries that the archive lacks are left out (a subset archive).
#
#   tests/dist/check.sh ARCHIVE WORKDIR EMBEDDED_DIR
#
# EMBEDDED_DIR: the repo's embedded/ (startup.c, ld/). Prints one line per
# run and "N passed, 0 failed" at the end; exits 1 on any failure.
set -euo pipefail
archive=$1 work=$2 embedded=$3
PATH=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo' -e '\.rustup' | paste -sd:)
export PATH
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
  echo "cargo or rustc is still on the PATH" >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work"
tar -C "$work" -xzf "$archive"
top=$(echo "$work"/libyac-*)
cd "$top"
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -O2 -Iinclude)
passed=0 failed=0
out=$work/out
mkdir -p "$out"

# check NAME EXPECTED_FILE ACTUAL_FILE: one verdict.
check() {
  if cmp -s "$2" "$3"; then
    passed=$((passed + 1))
    echo "ok   $1"
  else
    failed=$((failed + 1))
    echo "FAIL $1"
    diff "$2" "$3" | head -20 || true
  fi
}

# run_examples TAG RUNNER...: the hosted examples, each program's output
# (and status) into $out/TAG.txt, through RUNNER (e.g. qemu-aarch64 -L ..).
run_examples() {
  local tag=$1
  shift
  local b=$out/$tag
  {
    for args in "print_atoms examples/sample.yac" "print_tree examples/sample.yac" \
      "stream_atoms examples/sample.yac" "static_pool" "insert" "write $b-written.yac"; do
      local prog=${args%% *} rest=
      [ "$prog" = "$args" ] || rest=${args#* }
      echo "== $prog"
      # shellcheck disable=SC2086
      "${runner[@]}" "$b-$prog" $rest 2>&1 || echo "exit $?"
    done
    echo "== print_tree of write's output"
    "${runner[@]}" "$b-print_tree" "$b-written.yac" 2>&1 || echo "exit $?"
  } | sed "s|$b|OUT|g" >"$b.txt"
}

# build_hosted TAG CC LIB [FLAGS...]: every example, linked with LIB.
build_hosted() {
  local tag=$1 cc=$2 lib=$3
  shift 3
  for src in examples/*.c; do
    local name
    name=$(basename "$src" .c)
    "$cc" "${cflags[@]}" "$@" "$src" "$lib" -lpthread -ldl -lm -o "$out/$tag-$name"
  done
}

# Host: the reference output; libyac.a, its size-first build, and the
# shared library through pkg-config.
host=lib/x86_64-linux-gnu
runner=()
build_hosted host cc "$host/libyac.a"
run_examples host
grep -q '"id": HEXLET' "$out/host.txt" || { echo "host output lacks the sample's id" >&2; exit 1; }
passed=$((passed + 1))
echo "ok   x86_64-linux-gnu default (the reference output)"
if [ -f "$host/size-first/libyac.a" ]; then
  build_hosted host-size-first cc "$host/size-first/libyac.a"
  run_examples host-size-first
  check "x86_64-linux-gnu size-first" "$out/host.txt" "$out/host-size-first.txt"
fi
flags=$(PKG_CONFIG_LIBDIR=$host/pkgconfig pkg-config --cflags --libs yac)
for src in examples/*.c; do
  # shellcheck disable=SC2086
  cc "${cflags[@]}" "$src" $flags -o "$out/host-shared-$(basename "$src" .c)"
done
runner=(env LD_LIBRARY_PATH="$PWD/$host")
run_examples host-shared
check "x86_64-linux-gnu shared (pkg-config)" "$out/host.txt" "$out/host-shared.txt"
readelf -d "$out/host-shared-insert" | grep -q "NEEDED.*\[$(readlink "$host/libyac.so")\]" ||
  { echo "FAIL the program does not need the soname" >&2; failed=$((failed + 1)); }

# hosted TAG DIR CC RUNNER [FLAGS...]: another Linux target.
hosted() {
  local tag=$1 dir=$2 cc=$3 run=$4
  shift 4
  [ -d "lib/$dir" ] || return 0
  for build in "" size-first; do
    [ -f "lib/$dir/$build/libyac.a" ] || continue
    local t=$tag${build:+-$build}
    build_hosted "$t" "$cc" "lib/$dir/$build/libyac.a" "$@"
    read -r -a runner <<<"$run"
    run_examples "$t"
    check "$dir ${build:-default}" "$out/host.txt" "$out/$t.txt"
  done
}
hosted i686 i686-linux-gnu cc "" -m32
hosted aarch64 aarch64-linux-gnu aarch64-linux-gnu-gcc "qemu-aarch64 -L /usr/aarch64-linux-gnu"

# Cortex-M: DIR MACHINE LINKER_SCRIPT CPU_FLAGS; each run prints what the
# host's static_pool and insert printed.
sed -n '/^== static_pool/,/^== write/p' "$out/host.txt" | sed '$d' >"$out/host-mcu.txt"
while read -r dir machine ld flags; do
  for build in "" size-first; do
    lib=lib/$dir/$build/libyac.a
    [ -f "$lib" ] || continue
    t=$dir-${build:-default}-${flags// /}
    {
      for prog in static_pool insert; do
        # shellcheck disable=SC2086
        arm-none-eabi-gcc $flags -mthumb "${cflags[@]}" -Os -ffunction-sections -fdata-sections \
          "$embedded/startup.c" "examples/$prog.c" "$lib" \
          --specs=nano.specs --specs=rdimon.specs -nostartfiles \
          -Wl,--gc-sections -Wl,--no-enum-size-warning -Wl,-z,noexecstack -u _printf_float \
          -L "$embedded/ld" -T "$ld" -o "$out/$t-$prog.elf"
        echo "== $prog"
        timeout 60 qemu-system-arm -M "$machine" -nographic -monitor none -serial none \
          -semihosting-config enable=on,target=native -kernel "$out/$t-$prog.elf" 2>&1 ||
          echo "exit $?"
      done
    } >"$out/$t.txt"
    check "$dir ${build:-default} ($flags on $machine)" "$out/host-mcu.txt" "$out/$t.txt"
  done
done <<'BOARDS'
thumbv6m-none-eabi microbit microbit.ld -mcpu=cortex-m0 -mfloat-abi=soft
thumbv7m-none-eabi mps2-an385 mps2-an386.ld -mcpu=cortex-m3 -mfloat-abi=soft
thumbv7em-none-eabi mps2-an386 mps2-an386.ld -mcpu=cortex-m4 -mfloat-abi=soft
thumbv7em-none-eabi mps2-an386 mps2-an386.ld -mcpu=cortex-m4 -mfloat-abi=softfp -mfpu=fpv4-sp-d16
thumbv7em-none-eabihf mps2-an386 mps2-an386.ld -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16
thumbv7em-none-eabihf mps2-an500 mps2-an386.ld -mcpu=cortex-m7 -mfloat-abi=hard -mfpu=fpv5-d16
thumbv8m.main-none-eabi mps2-an505 mps2-an505.ld -mcpu=cortex-m33 -mfloat-abi=soft
thumbv8m.main-none-eabihf mps2-an505 mps2-an505.ld -mcpu=cortex-m33 -mfloat-abi=hard -mfpu=fpv5-sp-d16
BOARDS

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
