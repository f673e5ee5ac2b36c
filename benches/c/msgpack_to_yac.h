/* The benchmark's document preparation and checks: the msgpack-c tree of
 * a document converted to YAC with libyac's atom encoders (the result must
 * equal the reference YAC byte for byte), and the walk checksums that
 * compare what each library read. Included by benches/c/bench.c only. */
#ifndef YAC_BENCH_MSGPACK_TO_YAC_H
#define YAC_BENCH_MSGPACK_TO_YAC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "yac.h"

/* bench.c's error exits. */
static void die(const char *what, const char *detail);
static void *xmalloc(size_t n);

/* ---------------------------------------------------------------------- */
/* msgpack-c tree -> YAC with the atom encoders. */

struct outbuf {
    unsigned char *p;
    size_t len, cap;
};

/* Room for an atom whose payload is `payload` bytes (tag, 8-byte length). */
static void room(struct outbuf *b, size_t payload) {
    size_t need = b->len + payload + 16;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        unsigned char *p;
        while (cap < need) {
            cap *= 2;
        }
        p = realloc(b->p, cap);
        if (p == NULL) {
            die("out of memory", NULL);
        }
        b->p = p;
        b->cap = cap;
    }
}

/* `n` by pointer: it is read after the encoder (an argument of the same
 * call) has set it. */
static int emitted(struct outbuf *b, YACErr e, const size_t *n, const char *what) {
    if (e != YACErrNo) {
        fprintf(stderr, "bench: %s: %s\n", what, YACErr2Str(e));
        return -1;
    }
    b->len += *n;
    return 0;
}

static int key_cmp(const void *a, const void *b) {
    const msgpack_object *x = &((const msgpack_object_kv *)a)->key;
    const msgpack_object *y = &((const msgpack_object_kv *)b)->key;
    if (x->via.str.size != y->via.str.size) {
        return x->via.str.size < y->via.str.size ? -1 : 1;
    }
    return memcmp(x->via.str.ptr, y->via.str.ptr, x->via.str.size);
}

/* Encodes `o` (depth-limited recursion: the documents nest 9 deep). */
static int to_yac(struct outbuf *b, const msgpack_object *o, int depth) {
    size_t n = 0;
    uint32_t i;
    if (depth > 64) {
        fprintf(stderr, "bench: msgpack tree nests too deep\n");
        return -1;
    }
    room(b, 0);
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        return emitted(b, YACAtomNILEncode(&n, b->p + b->len, b->cap - b->len), &n, "NIL");
    case MSGPACK_OBJECT_BOOLEAN:
        return emitted(b, YACAtomBoolEncode(&n, b->p + b->len, b->cap - b->len, o->via.boolean), &n,
                       "bool");
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return emitted(b, YACAtomUintEncode(&n, b->p + b->len, b->cap - b->len, o->via.u64), &n,
                       "+INT");
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        return emitted(b, YACAtomSintEncode(&n, b->p + b->len, b->cap - b->len, o->via.i64), &n,
                       "-INT");
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        return emitted(b, YACAtomFloatEncode(&n, b->p + b->len, b->cap - b->len, o->via.f64), &n,
                       "float");
    case MSGPACK_OBJECT_STR:
        room(b, o->via.str.size);
        return emitted(b,
                       YACAtomStrEncode(&n, b->p + b->len, b->cap - b->len, o->via.str.ptr,
                                        o->via.str.size),
                       &n, "STR");
    case MSGPACK_OBJECT_BIN:
        room(b, o->via.bin.size);
        return emitted(b,
                       YACAtomBinEncode(&n, b->p + b->len, b->cap - b->len,
                                        (const unsigned char *)o->via.bin.ptr, o->via.bin.size),
                       &n, "BIN");
    case MSGPACK_OBJECT_ARRAY:
        if (emitted(b, YACAtomListEncode(&n, b->p + b->len, b->cap - b->len), &n, "LIST") != 0) {
            return -1;
        }
        for (i = 0; i < o->via.array.size; i++) {
            if (to_yac(b, &o->via.array.ptr[i], depth + 1) != 0) {
                return -1;
            }
        }
        room(b, 0);
        return emitted(b, YACAtomEOCEncode(&n, b->p + b->len, b->cap - b->len), &n, "EOC");
    case MSGPACK_OBJECT_MAP: {
        /* FORMAT.md: keys are non-empty STRs, ascending by length, then
         * bytewise, unique. msgpack keeps the source order: sort a copy. */
        uint32_t m = o->via.map.size;
        msgpack_object_kv *kv = xmalloc(sizeof *kv * (m ? m : 1));
        int rc = 0;
        for (i = 0; i < m; i++) {
            kv[i] = o->via.map.ptr[i];
            if (kv[i].key.type != MSGPACK_OBJECT_STR || kv[i].key.via.str.size == 0) {
                fprintf(stderr, "bench: MAP key is not a non-empty string\n");
                free(kv);
                return -1;
            }
        }
        qsort(kv, m, sizeof *kv, key_cmp);
        for (i = 1; i < m; i++) {
            if (key_cmp(&kv[i - 1], &kv[i]) == 0) {
                fprintf(stderr, "bench: duplicate MAP key\n");
                free(kv);
                return -1;
            }
        }
        rc = emitted(b, YACAtomMapEncode(&n, b->p + b->len, b->cap - b->len), &n, "MAP");
        for (i = 0; rc == 0 && i < m; i++) {
            rc = to_yac(b, &kv[i].key, depth + 1);
            if (rc == 0) {
                rc = to_yac(b, &kv[i].val, depth + 1);
            }
        }
        free(kv);
        if (rc != 0) {
            return -1;
        }
        room(b, 0);
        return emitted(b, YACAtomEOCEncode(&n, b->p + b->len, b->cap - b->len), &n, "EOC");
    }
    case MSGPACK_OBJECT_EXT:
    default:
        fprintf(stderr, "bench: msgpack type %d has no YAC counterpart here\n", (int)o->type);
        return -1;
    }
}

/* ---------------------------------------------------------------------- */
/* Walk checksums (shared/data/README.md): count += 1, sum += (tag << 32) + v
 * for every item in document order, MAP keys before their values. */

struct walksum {
    uint64_t count, sum;
};

static void add(struct walksum *w, uint64_t tag, uint64_t v) {
    w->count++;
    w->sum += (tag << 32) + v;
}

static void mp_walk(struct walksum *w, const msgpack_object *o) {
    uint32_t i;
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        add(w, 1, 0);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        add(w, 2, o->via.boolean ? 1 : 0);
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        add(w, 3, o->via.u64);
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        add(w, 3, (uint64_t)o->via.i64);
        break;
    case MSGPACK_OBJECT_STR:
        add(w, 4, o->via.str.size);
        break;
    case MSGPACK_OBJECT_BIN:
        add(w, 5, o->via.bin.size);
        break;
    case MSGPACK_OBJECT_ARRAY:
        add(w, 6, o->via.array.size);
        for (i = 0; i < o->via.array.size; i++) {
            mp_walk(w, &o->via.array.ptr[i]);
        }
        break;
    case MSGPACK_OBJECT_MAP:
        add(w, 7, o->via.map.size);
        for (i = 0; i < o->via.map.size; i++) {
            mp_walk(w, &o->via.map.ptr[i].key);
            mp_walk(w, &o->via.map.ptr[i].val);
        }
        break;
    default:
        add(w, 8, 0);
        break;
    }
}

/* The same checksum over libyac's tree, with YACItemsWalk (no recursion). */
static int yac_walk(struct walksum *w, const struct YACItems *items, uint32_t root) {
    struct YACWalk walk;
    YACWalkEvent ev;
    uint32_t idx, depth;
    YACErr e = YACItemsWalkInit(&walk, items, root);
    while (e == YACErrNo) {
        e = YACItemsWalkNext(&ev, &idx, &depth, &walk, items);
        if (e != YACErrNo || ev == YACWalkEnd) {
            break;
        }
        if (ev == YACWalkExit) {
            continue;
        }
        switch (YACItemsType(items, idx)) {
        case YACItemNIL:
            add(w, 1, 0);
            break;
        case YACItemFalse:
            add(w, 2, 0);
            break;
        case YACItemTrue:
            add(w, 2, 1);
            break;
        case YACItemPint: {
            uint64_t u = 0;
            e = YACItemsGetUint(&u, items, idx);
            add(w, 3, u);
            break;
        }
        case YACItemNint: {
            int64_t i = 0;
            e = YACItemsGetSint(&i, items, idx);
            add(w, 3, (uint64_t)i);
            break;
        }
        case YACItemStr: {
            const char *s = NULL;
            size_t n = 0;
            e = YACItemsGetStr(&s, &n, items, idx);
            add(w, 4, n);
            break;
        }
        case YACItemBin: {
            const unsigned char *p = NULL;
            size_t n = 0;
            e = YACItemsGetBin(&p, &n, items, idx);
            add(w, 5, n);
            break;
        }
        case YACItemList: {
            size_t n = 0;
            e = YACItemsChildCount(&n, items, idx);
            add(w, 6, n);
            break;
        }
        case YACItemMap: {
            size_t n = 0;
            e = YACItemsChildCount(&n, items, idx);
            add(w, 7, n / 2);
            break;
        }
        default:
            add(w, 8, 0);
            break;
        }
    }
    if (e != YACErrNo) {
        fprintf(stderr, "bench: YACItemsWalk: %s\n", YACErr2Str(e));
        return -1;
    }
    return 0;
}

#endif
