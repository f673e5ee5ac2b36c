#!/usr/bin/env bash
# Installs what the embedded, 32-bit and release checks need, and only what
# is missing: the Rust targets of the release archive (dist/targets: Linux
# x86_64, i686 and aarch64, Cortex-M0/M3/M4/M4F/M33), the arm-none-eabi GCC
# toolchain with newlib, qemu-system-arm, gcc-multilib (the -m32 C builds),
# the aarch64 Linux cross compiler and qemu-user (the archive's aarch64
# test), cmake, meson and ninja (tests/buildsys.rs) and abigail-tools
# (dist/abi-check.sh). Called from .ci/run; safe to run again.
#
# The Rust targets come from rustup. If rustup refuses (offline mirror,
# no rustup), this script fails with a message: the Debian `rustc-web` route
# of ../shared/embedded/NOTES.md (a second compiler plus -Zbuild-std) is not
# implemented here.
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

cd "$(dirname "$0")/.."
mapfile -t targets < <(sed -e 's/#.*//' -e '/^ *$/d' dist/targets | awk '{print $1}' | sort -u)
installed=$(rustup target list --installed 2>/dev/null || true)
missing=()
for t in "${targets[@]}"; do
  grep -qx "$t" <<<"$installed" || missing+=("$t")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! rustup target add "${missing[@]}"; then
    echo "embedded/setup.sh: rustup could not add ${missing[*]}" >&2
    exit 1
  fi
fi

# Debian package -> a file it provides.
pkgs=()
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
command -v arm-none-eabi-gcc >/dev/null || pkgs+=(gcc-arm-none-eabi)
command -v arm-none-eabi-nm >/dev/null || pkgs+=(binutils-arm-none-eabi)
[ -d /usr/lib/arm-none-eabi/newlib ] || pkgs+=(libnewlib-arm-none-eabi)
command -v qemu-system-arm >/dev/null || pkgs+=(qemu-system-arm)
echo 'int main(void) { return 0; }' >"$probe/t.c"
# gcc-N-multilib, not gcc-multilib: Debian 12 declares gcc-multilib and
# gcc-12-aarch64-linux-gnu in conflict, so asking for both fails (seen on a
# fresh machine); the versioned package gives -m32 and coexists with it.
gcc_major=$(gcc -dumpversion 2>/dev/null | cut -d. -f1)
cc -m32 "$probe/t.c" -o "$probe/t" 2>/dev/null || pkgs+=("gcc-${gcc_major:-12}-multilib")
command -v aarch64-linux-gnu-gcc >/dev/null || pkgs+=(gcc-aarch64-linux-gnu)
[ -d /usr/aarch64-linux-gnu/lib ] || pkgs+=(libc6-dev-arm64-cross)
command -v qemu-aarch64 >/dev/null || pkgs+=(qemu-user)
command -v cmake >/dev/null || pkgs+=(cmake)
command -v meson >/dev/null || pkgs+=(meson)
command -v ninja >/dev/null || pkgs+=(ninja-build)
command -v abidiff >/dev/null || pkgs+=(abigail-tools)
if [ ${#pkgs[@]} -gt 0 ]; then
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${pkgs[@]}"
fi
