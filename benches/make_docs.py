#!/usr/bin/env python3
"""Builds the generated benchmark documents from public JSON.

    python3 benches/make_docs.py SHARED_DATA_DIR OUT_DIR NAME=SOURCE.json ...

For every NAME=SOURCE.json it writes OUT_DIR/NAME.json (compact UTF-8 JSON
of the float-free tree), NAME.mp (MessagePack, smallest forms, keys in source
order, as Python's msgpack.packb(tree, use_bin_type=True) writes them) and
NAME.yac (YAC per FORMAT.md: MAP keys sorted length-first then bytewise).
OUT_DIR/counts.json is SHARED_DATA_DIR/counts.json with the new documents'
walk counts and sums added, and the shared documents are linked into OUT_DIR,
so that OUT_DIR is a data directory for benches/c/bench.c and count.c.

Floats become [i, f] as in shared/data's canada-list: i = int(x) (truncated),
f = round((x - i) * 1e9). The encoders here are written from the specs alone,
independently of libyac, so bench.c's byte-for-byte check of libyac's atom
encoders against NAME.yac stays a real check. Standard library only.
"""

import json
import os
import struct
import sys


def float_free(x):
    if isinstance(x, float):
        i = int(x)
        return [i, round((x - i) * 1e9)]
    if isinstance(x, list):
        return [float_free(v) for v in x]
    if isinstance(x, dict):
        return {k: float_free(v) for k, v in x.items()}
    return x


def mp_len(n, fix, fixmax, b8, b16, b32):
    if n <= fixmax:
        return bytes([fix | n])
    if b8 is not None and n < 1 << 8:
        return bytes([b8, n])
    if n < 1 << 16:
        return bytes([b16]) + struct.pack(">H", n)
    return bytes([b32]) + struct.pack(">I", n)


def msgpack(x, out):
    if x is None:
        out.append(b"\xc0")
    elif x is True or x is False:
        out.append(b"\xc3" if x else b"\xc2")
    elif isinstance(x, int):
        if 0 <= x <= 0x7F:
            out.append(bytes([x]))
        elif x > 0:
            for limit, prefix, fmt in ((0xFF, 0xCC, ">B"), (0xFFFF, 0xCD, ">H"), (0xFFFFFFFF, 0xCE, ">I"), ((1 << 64) - 1, 0xCF, ">Q")):
                if x <= limit:
                    out.append(bytes([prefix]) + struct.pack(fmt, x))
                    break
        elif x >= -32:
            out.append(struct.pack(">b", x))
        else:
            for bits, prefix, fmt in ((8, 0xD0, ">b"), (16, 0xD1, ">h"), (32, 0xD2, ">i"), (64, 0xD3, ">q")):
                if x >= -(1 << (bits - 1)):
                    out.append(bytes([prefix]) + struct.pack(fmt, x))
                    break
    elif isinstance(x, str):
        b = x.encode("utf-8")
        out.append(mp_len(len(b), 0xA0, 31, 0xD9, 0xDA, 0xDB) + b)
    elif isinstance(x, list):
        out.append(mp_len(len(x), 0x90, 15, None, 0xDC, 0xDD))
        for v in x:
            msgpack(v, out)
    elif isinstance(x, dict):
        out.append(mp_len(len(x), 0x80, 15, None, 0xDE, 0xDF))
        for k, v in x.items():
            msgpack(k, out)
            msgpack(v, out)
    else:
        raise TypeError(type(x))


def yac_str(tag, b):
    n = len(b)
    if n <= 60:
        head = bytes([tag | n])
    elif n <= 316:
        head = bytes([tag | 61, n - 61])
    elif n <= 65852:
        head = bytes([tag | 62]) + struct.pack(">H", n - 317)
    else:
        head = bytes([tag | 63]) + struct.pack(">Q", n - 65853)
    return head + b


def yac(x, out):
    if x is None:
        out.append(b"\x01")
    elif x is True or x is False:
        out.append(b"\x03" if x else b"\x02")
    elif isinstance(x, int):
        v = x if x >= 0 else -1 - x
        out.append(b"\x0c" if x >= 0 else b"\x0d")
        out.append(yac_str(0x80, v.to_bytes((v.bit_length() + 7) // 8, "big")))
    elif isinstance(x, str):
        out.append(yac_str(0xC0, x.encode("utf-8")))
    elif isinstance(x, list):
        out.append(b"\x08")
        for v in x:
            yac(v, out)
        out.append(b"\x00")
    elif isinstance(x, dict):
        out.append(b"\x09")
        for k in sorted(x, key=lambda k: (len(k.encode("utf-8")), k.encode("utf-8"))):
            out.append(yac_str(0xC0, k.encode("utf-8")))
            yac(x[k], out)
        out.append(b"\x00")
    else:
        raise TypeError(type(x))


def walk(x, acc):
    """shared/data/README.md's walk checksum: (count, sum), keys before values."""

    def item(tag, v):
        acc[0] += 1
        acc[1] = (acc[1] + (tag << 32) + (v & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF

    if x is None:
        item(1, 0)
    elif x is True or x is False:
        item(2, int(x))
    elif isinstance(x, int):
        item(3, x)
    elif isinstance(x, str):
        item(4, len(x.encode("utf-8")))
    elif isinstance(x, list):
        item(6, len(x))
        for v in x:
            walk(v, acc)
    elif isinstance(x, dict):
        item(7, len(x))
        for k, v in x.items():
            walk(k, acc)
            walk(v, acc)


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    shared, out_dir = argv[1], argv[2]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(shared, "counts.json"), encoding="utf-8") as f:
        counts = json.load(f)
    for name in sorted(os.listdir(shared)):
        link = os.path.join(out_dir, name)
        if name != "counts.json" and not os.path.lexists(link):
            os.symlink(os.path.abspath(os.path.join(shared, name)), link)
    for spec in argv[3:]:
        name, source = spec.split("=", 1)
        with open(source, encoding="utf-8") as f:
            tree = float_free(json.load(f))
        js = json.dumps(tree, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        mp, yc, acc = [], [], [0, 0]
        msgpack(tree, mp)
        yac(tree, yc)
        walk(tree, acc)
        write(os.path.join(out_dir, name + ".json"), js)
        write(os.path.join(out_dir, name + ".mp"), b"".join(mp))
        write(os.path.join(out_dir, name + ".yac"), b"".join(yc))
        counts["documents"][name] = {
            "counts": {"walk_count": acc[0], "walk_sum": acc[1]},
            "source": os.path.basename(source),
        }
    write(os.path.join(out_dir, "counts.json"), json.dumps(counts, indent=1).encode("utf-8"))


if __name__ == "__main__":
    main(sys.argv)
