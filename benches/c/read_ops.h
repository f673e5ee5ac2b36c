/* The read-side operations of benches/c/bench.c and benches/c/count.c:
 * parsing and then reading every node, validating without a
 * tree, and walking the atoms, for libyac and its peers (mpack's node
 * API, built from ../shared/peers/mpack for the benchmarks only; msgpuck).
 *
 * "Read every node" means, for each node (MAP keys included): its type,
 * an integer's value, a string's length, a container's child count; the
 * walks add them up so that nothing can be skipped. libyac reads through
 * the header's inline reads (YACUnsafeNode*), mpack through its node functions.
 * Both walks keep an explicit stack of the open containers (the documents
 * nest at most 9 deep). */
#ifndef YAC_BENCH_READ_OPS_H
#define YAC_BENCH_READ_OPS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <msgpuck.h>

#include "mpack.h"
#include "yac.h"

#define READ_OPS_MAX_DEPTH 64

/* Every node of the libyac tree under `root`, through the inline reads. */
static uint64_t yac_read_all(const struct YACItems *items, uint32_t root) {
    uint32_t stack[READ_OPS_MAX_DEPTH];
    int sp = 0;
    uint32_t idx = root;
    uint64_t acc = 0;
    size_t len = 0;
    for (;;) {
        YACItemType t = YACUnsafeNodeType(items, idx);
        acc += t;
        switch (t) {
        case YACItemPint:
            acc += YACUnsafeNodeUint(items, idx);
            break;
        case YACItemNint:
            acc += (uint64_t)YACUnsafeNodeSint(items, idx);
            break;
        case YACItemStr:
        case YACItemBin:
            (void)YACUnsafeNodeBytes(items, idx, &len);
            acc += len;
            break;
        case YACItemList:
        case YACItemMap:
            acc += YACUnsafeNodeCount(items, idx);
            if (YACUnsafeNodeFirst(items, idx) != YACItemNone && sp < READ_OPS_MAX_DEPTH) {
                stack[sp++] = idx;
                idx = YACUnsafeNodeFirst(items, idx);
                continue;
            }
            break;
        default:
            break;
        }
        /* The next sibling, else the next sibling of the closest open
         * container that has one. */
        for (;;) {
            uint32_t next = items->list[idx].next;
            if (next < YACItemUnlinked) {
                idx = next;
                break;
            }
            if (sp == 0) {
                return acc;
            }
            idx = stack[--sp];
        }
    }
}

/* Every node of the mpack tree under `root`, through mpack's node API. */
static uint64_t mpack_read_all(mpack_node_t root) {
    struct frame {
        mpack_node_t node;
        size_t at, count;
        int is_map;
    } stack[READ_OPS_MAX_DEPTH];
    int sp = 0;
    mpack_node_t n = root;
    uint64_t acc = 0;
    for (;;) {
        mpack_type_t t = mpack_node_type(n);
        acc += (uint64_t)t;
        switch (t) {
        case mpack_type_uint:
            acc += mpack_node_u64(n);
            break;
        case mpack_type_int:
            acc += (uint64_t)mpack_node_i64(n);
            break;
        case mpack_type_str:
        case mpack_type_bin:
            acc += mpack_node_strlen(n);
            break;
        case mpack_type_array:
        case mpack_type_map: {
            int is_map = t == mpack_type_map;
            size_t count = is_map ? mpack_node_map_count(n) : mpack_node_array_length(n);
            acc += count;
            if (count > 0 && sp < READ_OPS_MAX_DEPTH) {
                stack[sp].node = n;
                stack[sp].at = 0;
                stack[sp].count = is_map ? 2 * count : count;
                stack[sp].is_map = is_map;
                sp++;
            }
            break;
        }
        default:
            break;
        }
        /* The next child of the innermost open container. */
        for (;;) {
            struct frame *f;
            if (sp == 0) {
                return acc;
            }
            f = &stack[sp - 1];
            if (f->at < f->count) {
                size_t i = f->at++;
                if (!f->is_map) {
                    n = mpack_node_array_at(f->node, i);
                } else if (i % 2 == 0) {
                    n = mpack_node_map_key_at(f->node, i / 2);
                } else {
                    n = mpack_node_map_value_at(f->node, i / 2);
                }
                break;
            }
            sp--;
        }
    }
}

/* msgpuck's cursor: mp_check, then every item decoded in document order
 * (type, value, string length, container size). */
static uint64_t mpuck_check_and_walk(const char *mp, size_t len) {
    const char *p = mp, *end = mp + len;
    uint64_t acc = 0;
    uint32_t slen = 0;
    if (mp_check(&p, end) != 0 || p != end) {
        fprintf(stderr, "bench: mp_check failed\n");
        exit(2);
    }
    p = mp;
    while (p < end) {
        enum mp_type t = mp_typeof(*p);
        acc += (uint64_t)t;
        switch (t) {
        case MP_UINT:
            acc += mp_decode_uint(&p);
            break;
        case MP_INT:
            acc += (uint64_t)mp_decode_int(&p);
            break;
        case MP_STR:
            (void)mp_decode_str(&p, &slen);
            acc += slen;
            break;
        case MP_BIN:
            (void)mp_decode_bin(&p, &slen);
            acc += slen;
            break;
        case MP_ARRAY:
            acc += mp_decode_array(&p);
            break;
        case MP_MAP:
            acc += mp_decode_map(&p);
            break;
        case MP_NIL:
            mp_decode_nil(&p);
            break;
        case MP_BOOL:
            acc += mp_decode_bool(&p);
            break;
        default:
            mp_next(&p);
            break;
        }
    }
    return acc;
}

/* The atoms to decode per YACAtomsDecode call. */
#define READ_OPS_BATCH 256

/* libyac's cursor: every atom, in batches (type and value word). */
static uint64_t yac_atoms_batch(const unsigned char *yac, size_t len) {
    struct YACAtom atoms[READ_OPS_BATCH];
    size_t off = 0, n = 0, got = 0, i;
    uint64_t acc = 0;
    while (off < len) {
        YACErr e = YACAtomsDecode(&n, &got, atoms, READ_OPS_BATCH, yac + off, len - off);
        if (e != YACErrNo) {
            fprintf(stderr, "bench: YACAtomsDecode: %s\n", YACErr2Str(e));
            exit(2);
        }
        for (i = 0; i < n; i++) {
            acc += atoms[i].typ + atoms[i].v.uint;
        }
        off += got;
    }
    return acc;
}

/* libyac's cursor with the header's inline decoder: every atom (type and
 * value word), YACAtomDecode called only for the rare ones. */
static uint64_t yac_atoms_inline(const unsigned char *yac, size_t len) {
    struct YACAtom a;
    size_t off = 0, got = 0;
    uint64_t acc = 0;
    while (off < len) {
        YACErr e = YACAtomDecodeInline(&got, &a, yac + off, len - off);
        if (e != YACErrNo) {
            fprintf(stderr, "bench: YACAtomDecodeInline: %s\n", YACErr2Str(e));
            exit(2);
        }
        acc += a.typ + a.v.uint;
        off += got;
    }
    return acc;
}

/* libyac's validator without a tree; returns the node count. */
static uint64_t yac_validate(const unsigned char *yac, size_t len, uint32_t flags) {
    size_t levels[READ_OPS_MAX_DEPTH];
    size_t off = 0, nodes = 0;
    YACErr e = YACValidate(&off, &nodes, levels, READ_OPS_MAX_DEPTH, yac, len, 0, flags);
    if (e != YACErrNo || off != len) {
        fprintf(stderr, "bench: YACValidate: %s at %zu\n", YACErr2Str(e), off);
        exit(2);
    }
    return nodes;
}

/* mpack's node-pool parse of `mp` into `pool` (`cap` nodes), then, when
 * `walk`, every node read; the tree is destroyed (a no-op for a pool). */
static uint64_t mpack_parse(const char *mp, size_t len, mpack_node_data_t *pool, size_t cap,
                            int walk) {
    mpack_tree_t tree;
    uint64_t acc = 0;
    mpack_tree_init_pool(&tree, mp, len, pool, cap);
    mpack_tree_parse(&tree);
    if (mpack_tree_error(&tree) != mpack_ok) {
        fprintf(stderr, "bench: mpack: %s\n", mpack_error_to_string(mpack_tree_error(&tree)));
        exit(2);
    }
    acc = walk ? mpack_read_all(mpack_tree_root(&tree)) : (uint64_t)mpack_tree_size(&tree);
    mpack_tree_destroy(&tree);
    return acc;
}

#endif /* YAC_BENCH_READ_OPS_H */
