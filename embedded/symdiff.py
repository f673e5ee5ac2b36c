#!/usr/bin/env python3
"""Per-symbol size difference between two linked programs (ELF files).

Usage: embedded/symdiff.py OLD.elf NEW.elf

Lists every symbol whose size changed, appeared or went away, largest
change first, and the total. Typical use: copy target/embedded/size/*.elf
aside (they are the programs embedded/size.sh links), change the code, run
embedded/size.sh again, then compare, e.g.
    embedded/symdiff.py /tmp/old/size-first-tree.elf \
        target/embedded/size/size-first-tree.elf
Needs arm-none-eabi-nm (embedded/setup.sh); NM=... picks another nm.
"""
import collections
import os
import subprocess
import sys


def sizes(elf):
    """Symbol name -> total size (names that occur more than once, such as
    two monomorphised copies, are summed)."""
    nm = os.environ.get("NM", "arm-none-eabi-nm")
    out = subprocess.run(
        [nm, "--size-sort", "-S", "-C", elf], check=True, capture_output=True, text=True
    ).stdout
    total = collections.Counter()
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4:
            total[parts[3]] += int(parts[1], 16)
    return total


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    old, new = sizes(sys.argv[1]), sizes(sys.argv[2])
    rows = [(new[k] - old[k], old[k], new[k], k) for k in set(old) | set(new)]
    rows = [r for r in rows if r[0] != 0]
    rows.sort(key=lambda r: (-abs(r[0]), r[3]))
    for delta, was, now, name in rows:
        print(f"{delta:+7d} {was:7d} -> {now:7d}  {name}")
    print(f"{sum(r[0] for r in rows):+7d} total ({sum(old.values())} -> {sum(new.values())})")


if __name__ == "__main__":
    main()
