#!/usr/bin/env bash
# The release archive for C users, who need no Rust: target/dist/
# libyac-VERSION.tar.gz, unpacking to libyac-VERSION/ with
#   include/yac.h
#   lib/DIR/libyac.a              the default build, for each target of
#   lib/DIR/size-first/libyac.a   dist/targets, and the smallest one
#   lib/DIR/libyac.so.VERSION     Linux targets: the shared library, its
#                                 soname link and libyac.so
#   lib/DIR/pkgconfig/yac.pc      pkg-config (relocatable: ${pcfiledir})
#   lib/DIR/cmake/yac/            CMake package (find_package(yac CONFIG))
#   examples/                     the C examples and their sample input
#   README.md (dist/README.md), CHANGELOG.md, LICENSE-MIT, LICENSE-APACHE
#
#   dist/build.sh                 every target, both builds (make dist)
#   DIST_TARGETS="t1 t2" DIST_BUILDS=default dist/build.sh
#                                 a subset (.ci/run's, see there)
#
# The Linux targets are built with std (as `make` builds them); the
# bare-metal ones freestanding (--no-default-features) at opt-level z, into
# the target directories tests/embedded.rs uses, so that a test run before
# leaves most builds done.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target_dir=${CARGO_TARGET_DIR:-target}
case $target_dir in /*) ;; *) target_dir=$root/$target_dir ;; esac
version=$(make -s print-VERSION)
soname=$(make -s print-SONAME)
name=libyac-$version
stage=$target_dir/dist/$name
builds=${DIST_BUILDS:-default size-first}
all_targets=$(sed -e 's/#.*//' -e '/^ *$/d' dist/targets | awk '{print $1}')
targets=${DIST_TARGETS:-$all_targets}
host=$(rustc -vV | sed -n 's/^host: //p')
# The aarch64 shared library is linked by the cross gcc (i686's by the host
# gcc with -m32, which rustc passes).
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER:-aarch64-linux-gnu-gcc}

rm -rf "$stage"
mkdir -p "$stage/include" "$stage/lib" "$stage/examples"

# dir_of TARGET: the archive's directory name for a Rust target.
dir_of() {
  awk -v t="$1" '$1 == t { print $2 }' dist/targets
}

# strip_for TARGET: the binutils strip for TARGET's objects (the debug
# info of core and std is most of an archive's size).
strip_for() {
  case $1 in
  thumb*) echo arm-none-eabi-strip ;;
  aarch64-*) echo aarch64-linux-gnu-strip ;;
  *) echo strip ;;
  esac
}

# cargo_lib TARGET BUILD CRATE_TYPE [ARGS...]: builds libyac for TARGET and
# prints the cargo output directory.
cargo_lib() {
  local target=$1 build=$2 crate_type=$3
  shift 3
  local dir=$target_dir args=(--release --lib --crate-type "$crate_type")
  local -a env=()
  if [[ $target == thumb* ]]; then
    dir=$target_dir/embedded
    args+=(--no-default-features)
    env+=(CARGO_PROFILE_RELEASE_OPT_LEVEL=z)
  fi
  # target/size-first, target/embedded-size-first (tests/embedded.rs's).
  if [ "$build" = size-first ]; then
    case $dir in
    */embedded) dir=$dir-size-first ;;
    *) dir=$dir/size-first ;;
    esac
    args+=(--features size-first)
  fi
  # The host build goes where `make` puts it (no --target).
  if [ "$target" != "$host" ]; then
    args+=(--target "$target")
  fi
  env "${env[@]}" cargo rustc --quiet "${args[@]}" --target-dir "$dir" "$@" >&2
  if [ "$target" != "$host" ]; then dir=$dir/$target; fi
  echo "$dir/release"
}

for target in $targets; do
  d=$(dir_of "$target")
  [ -n "$d" ] || { echo "dist: $target is not in dist/targets" >&2; exit 1; }
  lib=$stage/lib/$d
  for build in $builds; do
    out=$(cargo_lib "$target" "$build" staticlib)
    sub=$lib
    [ "$build" = default ] || sub=$lib/$build
    mkdir -p "$sub"
    cp "$out/libyac.a" "$sub/libyac.a"
    "$(strip_for "$target")" --strip-debug "$sub/libyac.a"
    echo "dist: $target $build: $(stat -c %s "$sub/libyac.a") bytes" >&2
  done
  libs_private=
  if [[ $target == *linux* ]]; then
    libs_private="-lpthread -ldl -lm"
    out=$(cargo_lib "$target" default cdylib -- -C link-arg=-Wl,-soname,"$soname")
    cp "$out/libyac.so" "$lib/libyac.so.$version"
    "$(strip_for "$target")" --strip-debug "$lib/libyac.so.$version"
    ln -sf "libyac.so.$version" "$lib/$soname"
    ln -sf "$soname" "$lib/libyac.so"
  fi
  case $target in x86_64-* | aarch64-*) ptr=8 ;; *) ptr=4 ;; esac
  make -s config-files GEN_DIR="$lib/.gen" \
    'PREFIX=$${pcfiledir}/../../..' 'LIBDIR=$${prefix}/lib/'"$d" \
    'INCLUDEDIR=$${prefix}/include' INCLUDE_FROM_LIBDIR=../../include \
    LIBS_PRIVATE="$libs_private" SIZEOF_VOID_P=$ptr
  mkdir -p "$lib/pkgconfig" "$lib/cmake/yac"
  mv "$lib/.gen/yac.pc" "$lib/pkgconfig/"
  mv "$lib/.gen/"*.cmake "$lib/cmake/yac/"
  rm -rf "$lib/.gen"
done

cp include/yac.h "$stage/include/"
cp examples-c/*.c examples-c/sample.yac "$stage/examples/"
cp CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$stage/"
sed -e "s/@VERSION@/$version/g" -e "s/@SONAME@/$soname/g" -e "s/@MINOR@/$(make -s print-MINOR)/g" dist/README.md >"$stage/README.md"
tar -C "$target_dir/dist" --owner=0 --group=0 --sort=name -czf "$target_dir/dist/$name.tar.gz" "$name"
echo "$target_dir/dist/$name.tar.gz"
