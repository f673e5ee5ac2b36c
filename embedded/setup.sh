#!/usr/bin/env bash
# Installs what the embedded and 32-bit checks need, and only what is
# missing: the Rust targets thumbv6m-none-eabi (Cortex-M0),
# thumbv7em-none-eabihf (Cortex-M4F) and i686-unknown-linux-gnu, the
# arm-none-eabi GCC toolchain with newlib, qemu-system-arm, and gcc-multilib
# (the -m32 C builds). Called from .ci/run; safe to run again.
#
# The Rust targets come from rustup. If rustup refuses (offline mirror,
# no rustup), this script fails with a message: the Debian `rustc-web` route
# of ../shared/embedded/NOTES.md (a second compiler plus -Zbuild-std) is not
# implemented here.
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

targets=(thumbv6m-none-eabi thumbv7em-none-eabihf i686-unknown-linux-gnu)
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
cc -m32 "$probe/t.c" -o "$probe/t" 2>/dev/null || pkgs+=(gcc-multilib)
if [ ${#pkgs[@]} -gt 0 ]; then
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${pkgs[@]}"
fi
