/* libyac's C API against the C MessagePack peers (msgpack-c, msgpuck) on the
 * format author's benchmark documents (shared/data: licenses, canada-list,
 * canada-map as .mp and .yac).
 *
 * Usage: bench [--quick] [--default-malloc] [DATA_DIR]   (DATA_DIR defaults
 * to ../shared/data). benches/run.sh builds and runs it; see
 * benches/README.md for what each line means.
 *
 * Per document it first checks, then times:
 *  1. the .mp is decoded with msgpack-c and its tree re-encoded to YAC with
 *     libyac's YACAtom*Encode functions (MAP keys sorted length-first, then
 *     bytewise); the result must equal the reference .yac byte for byte;
 *  2. msgpack-c's tree and libyac's tree (YACItemsParse of the .yac, walked
 *     with YACItemsWalk) have the same item count and walk checksum, and both
 *     equal counts.json; YACItemsEncode of the parsed tree gives the .yac back;
 *  3. interleaved timings (median of several repetitions, min and max) of
 *     decoders and encoders, with heap allocations per operation counted by
 *     interposing malloc (libyac's must be 0).
 * The exit status is 0 only when every check passed (timings are reported,
 * never judged).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <msgpack.h>
#include <msgpuck.h>

#include "msgpack_to_yac.h"
#include "read_file.h"
#include "read_ops.h"
#include "write_ops.h"
#include "yac.h"

/* ---------------------------------------------------------------------- */
/* Heap allocation counting: this program's malloc family wraps glibc's and
 * counts calls. The executable's definitions interpose for every shared
 * library too (libmsgpackc.so), and libyac.a is linked in statically. */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

static unsigned long long g_allocs;

void *malloc(size_t size) {
    g_allocs++;
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    g_allocs++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    g_allocs++;
    return __libc_realloc(p, size);
}

void free(void *p) { __libc_free(p); }

void *memalign(size_t align, size_t size) {
    g_allocs++;
    return __libc_memalign(align, size);
}

void *aligned_alloc(size_t align, size_t size);
void *aligned_alloc(size_t align, size_t size) {
    g_allocs++;
    return __libc_memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size) {
    void *p;
    g_allocs++;
    if (align < sizeof(void *) || (align & (align - 1)) != 0) {
        return EINVAL;
    }
    p = __libc_memalign(align, size);
    if (p == NULL) {
        return ENOMEM;
    }
    *out = p;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Small helpers. */

static int g_failed; /* a check failed: exit status 1 */

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        die("out of memory", NULL);
    }
    return p;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The expected walk count and sum of a document, from counts.json (a flat
 * search: "<name>": { ... "walk_count": N, "walk_sum": N ...). */
static void expected_walk(const char *counts, const char *name, uint64_t *count, uint64_t *sum) {
    char key[256];
    const char *p, *c, *s;
    snprintf(key, sizeof key, "\"%s\": {", name);
    p = strstr(counts, key);
    if (p == NULL) {
        die("counts.json has no document", name);
    }
    c = strstr(p, "\"walk_count\":");
    s = strstr(p, "\"walk_sum\":");
    if (c == NULL || s == NULL) {
        die("counts.json has no walk checksum for", name);
    }
    *count = strtoull(c + strlen("\"walk_count\":"), NULL, 10);
    *sum = strtoull(s + strlen("\"walk_sum\":"), NULL, 10);
}

/* ---------------------------------------------------------------------- */
/* The timed operations. Each does one whole decode or encode of the
 * document and returns a value that depends on its result. */

struct ctx {
    const char *mp;
    size_t mp_len;
    const unsigned char *yac;
    size_t yac_len;
    /* msgpack-c */
    msgpack_unpacked un;     /* reused by the timed unpack */
    msgpack_unpacked ref_un; /* the reference tree, packed by the timed pack */
    msgpack_zone zone;       /* one big chunk, cleared and reused */
    msgpack_sbuffer sbuf;
    msgpack_packer pk;
    /* libyac */
    struct YACItem *pool; /* the timed parse's pool, preallocated */
    size_t pool_cap;
    struct YACItems items;
    uint32_t root; /* of the timed parse's tree */
    struct YACItem *ref_pool; /* the reference tree, encoded by the timed encode */
    struct YACItems ref_items;
    uint32_t ref_root;
    unsigned char *out;
    size_t out_cap;
    /* mpack */
    mpack_node_data_t *mpool; /* the node pool of mpack's timed parse */
    size_t mpool_cap;
    /* the writers (write_ops.h): the content, MAP pairs in YAC key order,
     * and their output buffers */
    msgpack_unpacked sorted_un;
    unsigned char *wout;
    size_t wout_cap;
    char *mout;
    size_t mout_cap;
};

static void op_failed(const char *op, const char *why) {
    fprintf(stderr, "bench: %s failed in the timed loop: %s\n", op, why);
    exit(2);
}

static uint64_t op_mpc_unpack(struct ctx *c) {
    size_t off = 0;
    if (msgpack_unpack_next(&c->un, c->mp, c->mp_len, &off) != MSGPACK_UNPACK_SUCCESS ||
        off != c->mp_len) {
        op_failed("msgpack_unpack_next", "not a whole document");
    }
    return (uint64_t)c->un.data.type + off;
}

/* msgpack-c at its best: msgpack_unpack into one zone whose first chunk
 * holds the whole tree, cleared (not freed) before each decode. */
static uint64_t op_mpc_zone(struct ctx *c) {
    size_t off = 0;
    msgpack_object o;
    msgpack_zone_clear(&c->zone);
    if (msgpack_unpack(c->mp, c->mp_len, &off, &c->zone, &o) != MSGPACK_UNPACK_SUCCESS ||
        off != c->mp_len) {
        op_failed("msgpack_unpack", "not a whole document");
    }
    return (uint64_t)o.type + off;
}

static uint64_t op_mp_check(struct ctx *c) {
    const char *p = c->mp;
    if (mp_check(&p, c->mp + c->mp_len) != 0 || p != c->mp + c->mp_len) {
        op_failed("mp_check", "invalid");
    }
    return (uint64_t)(p - c->mp);
}

static uint64_t yac_parse(struct ctx *c, uint32_t flags) {
    uint32_t root = 0;
    size_t off = 0;
    YACErr e = YACItemsInit(&c->items, c->pool, c->pool_cap);
    c->items.flags = flags;
    if (e == YACErrNo) {
        e = YACItemsParse(&c->items, &root, &off, c->yac, c->yac_len);
    }
    if (e != YACErrNo || off != c->yac_len) {
        op_failed("YACItemsParse", YACErr2Str(e));
    }
    c->root = root;
    return (uint64_t)c->items.len + root;
}

static uint64_t op_yac_parse(struct ctx *c) { return yac_parse(c, 0); }

static uint64_t op_yac_parse_trust(struct ctx *c) { return yac_parse(c, YACItemsTrustUTF8); }

static uint64_t op_yac_atoms(struct ctx *c) {
    size_t off = 0, got = 0;
    uint64_t acc = 0;
    struct YACAtom a;
    while (off < c->yac_len) {
        YACErr e = YACAtomDecode(&got, &a, c->yac + off, c->yac_len - off);
        if (e != YACErrNo) {
            op_failed("YACAtomDecode", YACErr2Str(e));
        }
        off += got;
        acc += (uint64_t)a.typ;
    }
    return acc;
}

/* The read-side operations (benches/c/read_ops.h). */
static uint64_t op_yac_read(struct ctx *c) {
    uint64_t acc = yac_parse(c, 0);
    return acc + yac_read_all(&c->items, c->root);
}

static uint64_t op_mpack_parse(struct ctx *c) {
    return mpack_parse(c->mp, c->mp_len, c->mpool, c->mpool_cap, 0);
}

static uint64_t op_mpack_read(struct ctx *c) {
    return mpack_parse(c->mp, c->mp_len, c->mpool, c->mpool_cap, 1);
}

static uint64_t op_yac_validate(struct ctx *c) { return yac_validate(c->yac, c->yac_len, 0); }

static uint64_t op_mp_decode(struct ctx *c) { return mpuck_check_and_walk(c->mp, c->mp_len); }

static uint64_t op_yac_batch(struct ctx *c) { return yac_atoms_batch(c->yac, c->yac_len); }

static uint64_t op_yac_inline(struct ctx *c) { return yac_atoms_inline(c->yac, c->yac_len); }

static uint64_t op_mpc_pack(struct ctx *c) {
    msgpack_sbuffer_clear(&c->sbuf);
    if (msgpack_pack_object(&c->pk, c->ref_un.data) != 0) {
        op_failed("msgpack_pack_object", "error");
    }
    return c->sbuf.size;
}

static uint64_t op_yac_encode(struct ctx *c) {
    size_t off = 0;
    YACErr e = YACItemsEncode(&c->ref_items, c->ref_root, &off, c->out, c->out_cap);
    if (e != YACErrNo || off != c->yac_len) {
        op_failed("YACItemsEncode", YACErr2Str(e));
    }
    return off;
}

static uint64_t op_yac_write(struct ctx *c) {
    return yac_write_doc(&c->sorted_un.data, c->wout, c->wout_cap);
}

static uint64_t op_mpc_write(struct ctx *c) {
    return mpc_pack_doc(&c->sbuf, &c->pk, &c->sorted_un.data);
}

static uint64_t op_mpack_write(struct ctx *c) {
    return mpack_write_doc(&c->sorted_un.data, c->mout, c->mout_cap);
}

enum {
    P_MPC_UNPACK,
    P_MPC_ZONE,
    P_MP_CHECK,
    P_YAC_PARSE,
    P_YAC_TRUST,
    P_YAC_ATOMS,
    P_MPC_PACK,
    P_YAC_ENC,
    P_MPACK_PARSE,
    P_MPACK_READ,
    P_YAC_READ,
    P_YAC_VALIDATE,
    P_MP_DECODE,
    P_YAC_BATCH,
    P_YAC_INLINE,
    P_MPC_WRITE,
    P_MPACK_WRITE,
    P_YAC_WRITE,
    NPEERS
};

static const struct peer {
    const char *name;
    uint64_t (*op)(struct ctx *);
    int is_yac;  /* must not allocate */
    int yac_in;  /* size for MB/s: 1 the .yac, 0 the .mp */
} peers[NPEERS] = {
    {"msgpack-c unpack_next", op_mpc_unpack, 0, 0},
    {"msgpack-c unpack, zone reused", op_mpc_zone, 0, 0},
    {"msgpuck mp_check", op_mp_check, 0, 0},
    {"libyac ItemsParse", op_yac_parse, 1, 1},
    {"libyac ItemsParse trustUTF8", op_yac_parse_trust, 1, 1},
    {"libyac AtomDecode walk", op_yac_atoms, 1, 1},
    {"msgpack-c pack_object", op_mpc_pack, 0, 0},
    {"libyac ItemsEncode", op_yac_encode, 1, 1},
    {"mpack node-pool parse", op_mpack_parse, 0, 0},
    {"mpack parse + read all", op_mpack_read, 0, 0},
    {"libyac parse + read all", op_yac_read, 1, 1},
    {"libyac Validate", op_yac_validate, 1, 1},
    {"msgpuck mp_check + decode", op_mp_decode, 0, 0},
    {"libyac AtomsDecode batches", op_yac_batch, 1, 1},
    {"libyac AtomDecodeInline walk", op_yac_inline, 1, 1},
    {"msgpack-c pack_* calls", op_mpc_write, 0, 0},
    {"mpack writer calls", op_mpack_write, 0, 0},
    {"libyac Writer calls", op_yac_write, 1, 1},
};

#define MAX_REPS 64

struct timing {
    unsigned long iters;
    double ns[MAX_REPS]; /* per operation, one per repetition */
    unsigned long long allocs;
    unsigned long long ops;
};

static volatile uint64_t g_sink;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Runs `iters` operations of peer `p`; returns ns per operation. */
static double batch(struct ctx *c, int p, unsigned long iters, struct timing *t) {
    unsigned long i;
    uint64_t acc = 0, t0, t1;
    unsigned long long a0 = g_allocs;
    t0 = now_ns();
    for (i = 0; i < iters; i++) {
        acc += peers[p].op(c);
    }
    t1 = now_ns();
    g_sink += acc;
    if (t != NULL) {
        t->allocs += g_allocs - a0;
        t->ops += iters;
    }
    return (double)(t1 - t0) / (double)iters;
}

/* ---------------------------------------------------------------------- */

struct config {
    const char *dir;
    int quick;
    int default_malloc;
    int reps;
    double batch_ns; /* target time of one timed batch */
};

static void run_document(const struct config *cfg, const char *name, const char *counts) {
    struct ctx c;
    size_t mp_len = 0, yac_len = 0, off = 0, nodes_needed = 0, used = 0;
    unsigned char *mp = read_file("bench", cfg->dir, name, ".mp", &mp_len);
    unsigned char *yac = read_file("bench", cfg->dir, name, ".yac", &yac_len);
    struct outbuf ob = {NULL, 0, 0};
    struct walksum wm = {0, 0}, wy = {0, 0};
    uint64_t want_count = 0, want_sum = 0;
    struct timing tm[NPEERS];
    double med[NPEERS], lo[NPEERS], hi[NPEERS], mbytes[NPEERS];
    int p, r, ok = 1;
    YACErr e;

    memset(&c, 0, sizeof c);
    memset(tm, 0, sizeof tm);
    c.mp = (const char *)mp;
    c.mp_len = mp_len;
    c.yac = yac;
    c.yac_len = yac_len;
    expected_walk(counts, name, &want_count, &want_sum);

    printf("\n== %s: .mp %zu bytes, .yac %zu bytes\n", name, mp_len, yac_len);

    /* (1) msgpack-c's tree, re-encoded with the atom encoders, must equal
     * the reference .yac. */
    msgpack_unpacked_init(&c.ref_un);
    if (msgpack_unpack_next(&c.ref_un, c.mp, mp_len, &off) != MSGPACK_UNPACK_SUCCESS ||
        off != mp_len) {
        die("msgpack-c cannot decode", name);
    }
    if (to_yac(&ob, &c.ref_un.data, 0) != 0) {
        printf("  atom encoders: FAILED (see stderr)\n");
        g_failed = 1;
        ok = 0;
    } else if (ob.len == yac_len && memcmp(ob.p, yac, yac_len) == 0) {
        printf("  atom encoders from the msgpack-c tree vs reference .yac: MATCH (%zu bytes)\n",
               ob.len);
    } else {
        size_t i = 0, n = ob.len < yac_len ? ob.len : yac_len;
        while (i < n && ob.p[i] == yac[i]) {
            i++;
        }
        printf("  atom encoders from the msgpack-c tree vs reference .yac: DIFFER at offset %zu "
               "(ours %zu bytes, reference %zu)\n",
               i, ob.len, yac_len);
        g_failed = 1;
    }
    free(ob.p);

    /* (2) libyac's tree of the .yac: same items and checksum as msgpack-c's
     * tree and as counts.json; encoding it gives the .yac back. */
    e = YACItemsNodesNeeded(&nodes_needed, &used, yac, yac_len, 0);
    if (e != YACErrNo || used != yac_len) {
        die("YACItemsNodesNeeded rejects", name);
    }
    if (yac_validate(yac, yac_len, 0) != nodes_needed) {
        printf("  YACValidate's node count differs from YACItemsNodesNeeded's\n");
        g_failed = 1;
    }
    /* An mpack node takes at least one byte of the .mp. */
    c.mpool_cap = mp_len + 1;
    c.mpool = xmalloc(sizeof *c.mpool * c.mpool_cap);
    c.pool_cap = nodes_needed;
    c.pool = xmalloc(sizeof *c.pool * nodes_needed);
    c.ref_pool = xmalloc(sizeof *c.ref_pool * nodes_needed);
    off = 0;
    e = YACItemsInit(&c.ref_items, c.ref_pool, nodes_needed);
    if (e == YACErrNo) {
        e = YACItemsParse(&c.ref_items, &c.ref_root, &off, yac, yac_len);
    }
    if (e != YACErrNo || off != yac_len) {
        fprintf(stderr, "bench: YACItemsParse(%s): %s at offset %zu\n", name, YACErr2Str(e), off);
        exit(2);
    }
    mp_walk(&wm, &c.ref_un.data);
    if (yac_walk(&wy, &c.ref_items, c.ref_root) != 0) {
        g_failed = 1;
    }
    printf("  items: msgpack-c %llu, libyac %llu (nodes %u, counting pass %zu), counts.json %llu\n",
           (unsigned long long)wm.count, (unsigned long long)wy.count, c.ref_items.len,
           nodes_needed, (unsigned long long)want_count);
    printf("  walk checksum: msgpack-c %llu, libyac %llu, counts.json %llu: %s\n",
           (unsigned long long)wm.sum, (unsigned long long)wy.sum, (unsigned long long)want_sum,
           wm.count == want_count && wy.count == want_count && wm.sum == want_sum &&
                   wy.sum == want_sum
               ? "OK"
               : "MISMATCH");
    if (!(wm.count == want_count && wy.count == want_count && wm.sum == want_sum &&
          wy.sum == want_sum)) {
        g_failed = 1;
    }
    c.out_cap = yac_len;
    c.out = xmalloc(c.out_cap);
    off = 0;
    e = YACItemsEncode(&c.ref_items, c.ref_root, &off, c.out, c.out_cap);
    if (e != YACErrNo || off != yac_len || memcmp(c.out, yac, yac_len) != 0) {
        printf("  YACItemsEncode of the parsed tree: DIFFERS from the .yac (%s, %zu bytes)\n",
               YACErr2Str(e), off);
        g_failed = 1;
    } else {
        printf("  YACItemsEncode of the parsed tree: MATCH\n");
    }
    msgpack_sbuffer_init(&c.sbuf);
    msgpack_packer_init(&c.pk, &c.sbuf, msgpack_sbuffer_write);
    if (msgpack_pack_object(&c.pk, c.ref_un.data) != 0) {
        die("msgpack_pack_object fails on", name);
    }
    printf("  msgpack_pack_object of its tree vs the .mp: %s (%zu bytes)\n",
           c.sbuf.size == mp_len && memcmp(c.sbuf.data, mp, mp_len) == 0 ? "same bytes"
                                                                           : "different bytes",
           c.sbuf.size);
    /* (2b) The writers' content: the tree again, MAP pairs in YAC key
     * order. libyac's writer must give the .yac byte for byte; the two
     * MessagePack writers the size of the .mp. */
    off = 0;
    msgpack_unpacked_init(&c.sorted_un);
    if (msgpack_unpack_next(&c.sorted_un, c.mp, mp_len, &off) != MSGPACK_UNPACK_SUCCESS) {
        die("msgpack-c cannot decode", name);
    }
    write_ops_sort(&c.sorted_un.data);
    c.wout_cap = yac_len;
    c.wout = xmalloc(c.wout_cap);
    c.mout_cap = mp_len;
    c.mout = xmalloc(c.mout_cap);
    {
        uint64_t yl = yac_write_doc(&c.sorted_un.data, c.wout, c.wout_cap);
        uint64_t ml = mpc_pack_doc(&c.sbuf, &c.pk, &c.sorted_un.data);
        uint64_t kl = mpack_write_doc(&c.sorted_un.data, c.mout, c.mout_cap);
        int same = yl == yac_len && memcmp(c.wout, yac, yac_len) == 0;
        printf("  YACWriter from the content vs reference .yac: %s; msgpack-c pack_* %llu, "
               "mpack %llu bytes (the .mp: %zu)\n",
               same ? "MATCH" : "DIFFER", (unsigned long long)ml, (unsigned long long)kl, mp_len);
        if (!same || ml != mp_len || kl != mp_len) {
            g_failed = 1;
        }
    }
    msgpack_unpacked_init(&c.un);
    if (!msgpack_zone_init(&c.zone, 32 * mp_len)) {
        die("msgpack_zone_init fails for", name);
    }
    if (!ok) {
        exit(1);
    }

    /* (3) Timings. Calibrate the batch size per peer (which also warms the
     * caches, the pools and the sbuffer), warm up once more, then run the
     * peers interleaved, rotating the order on every repetition. */
    for (p = 0; p < NPEERS; p++) {
        double one = batch(&c, p, 1, NULL);
        one = batch(&c, p, 1, NULL);
        tm[p].iters = one > 0 ? (unsigned long)(cfg->batch_ns / one) : 1;
        if (tm[p].iters < 1) {
            tm[p].iters = 1;
        }
        batch(&c, p, tm[p].iters, NULL);
    }
    for (r = 0; r < cfg->reps; r++) {
        for (p = 0; p < NPEERS; p++) {
            int q = (p + r) % NPEERS;
            tm[q].ns[r] = batch(&c, q, tm[q].iters, &tm[q]);
        }
    }
    for (p = 0; p < NPEERS; p++) {
        double s[MAX_REPS];
        memcpy(s, tm[p].ns, sizeof(double) * (size_t)cfg->reps);
        qsort(s, (size_t)cfg->reps, sizeof(double), cmp_double);
        med[p] = s[cfg->reps / 2];
        lo[p] = s[0];
        hi[p] = s[cfg->reps - 1];
        mbytes[p] = (double)(peers[p].yac_in ? yac_len : mp_len);
    }

    printf("\n  %-30s %10s %10s %10s %9s %9s %10s %8s\n", "operation", "median us", "min us",
           "max us", "MB/s", "Mitems/s", "allocs/op", "iters");
    for (p = 0; p < NPEERS; p++) {
        double allocs = tm[p].ops ? (double)tm[p].allocs / (double)tm[p].ops : 0;
        printf("  %-30s %10.1f %10.1f %10.1f %9.1f %9.1f %10.2f %8lu\n", peers[p].name,
               med[p] / 1e3, lo[p] / 1e3, hi[p] / 1e3, mbytes[p] / med[p] * 1e3,
               (double)wm.count / med[p] * 1e3, allocs, tm[p].iters);
        if (peers[p].is_yac && tm[p].allocs != 0) {
            printf("  ^ libyac allocated on the heap: must be 0\n");
            g_failed = 1;
        }
    }
    printf("\n  %-44s %7s %9s\n", "ratio (of median times)", "value", "target");
    printf("  %-44s %7.3f %9s\n", "libyac parse / msgpack-c unpack",
           med[P_YAC_PARSE] / med[P_MPC_UNPACK], "<= 0.33");
    printf("  %-44s %7.3f %9s\n", "libyac parse / msgpack-c unpack, zone reused",
           med[P_YAC_PARSE] / med[P_MPC_ZONE], "-");
    printf("  %-44s %7.3f %9s\n", "libyac parse / msgpuck mp_check",
           med[P_YAC_PARSE] / med[P_MP_CHECK], "<= 2.0");
    printf("  %-44s %7.3f %9s\n", "libyac atom walk / msgpuck mp_check",
           med[P_YAC_ATOMS] / med[P_MP_CHECK], "<= 1.0");
    printf("  %-44s %7.3f %9s\n", "libyac tree encode / msgpack_pack_object",
           med[P_YAC_ENC] / med[P_MPC_PACK], "<= 0.25");
    printf("  %-44s %7.3f %9s\n", "libyac Writer / msgpack-c pack_* calls",
           med[P_YAC_WRITE] / med[P_MPC_WRITE], "<= 0.5");
    printf("  %-44s %7.3f %9s\n", "libyac Writer / mpack writer",
           med[P_YAC_WRITE] / med[P_MPACK_WRITE], "<= 0.7");
    printf("  %-44s %7.3f %9s\n", "libyac parse / mpack node-pool parse",
           med[P_YAC_PARSE] / med[P_MPACK_PARSE], "<= 0.6");
    printf("  %-44s %7.3f %9s\n", "libyac parse + read all / mpack's",
           med[P_YAC_READ] / med[P_MPACK_READ], "<= 0.5");
    printf("  %-44s %7.3f %9s\n", "libyac Validate / msgpuck mp_check",
           med[P_YAC_VALIDATE] / med[P_MP_CHECK], "<= 0.8");
    printf("  %-44s %7.3f %9s\n", "libyac AtomsDecode / mp_check + decode",
           med[P_YAC_BATCH] / med[P_MP_DECODE], "<= 0.6");
    printf("  %-44s %7.3f %9s\n", "libyac AtomDecodeInline / mp_check + decode",
           med[P_YAC_INLINE] / med[P_MP_DECODE], "<= 0.6");
    printf("  %-44s %7.3f %9s\n", "libyac AtomDecodeInline / AtomDecode walk",
           med[P_YAC_INLINE] / med[P_YAC_ATOMS], "<= 1.0");
    printf("  %-44s %6.1f%% %9s\n", "UTF-8 validation share of libyac parse",
           100.0 * (med[P_YAC_PARSE] - med[P_YAC_TRUST]) / med[P_YAC_PARSE], "<= 15%");
    printf("  %-44s %7.2f  (%zu B/node x %u nodes / %llu items)\n", "libyac tree bytes per item",
           (double)sizeof(struct YACItem) * c.ref_items.len / (double)wm.count,
           sizeof(struct YACItem), c.ref_items.len, (unsigned long long)wm.count);
    printf("  %-44s %7.2f  (libyac: %.2f; must be 0)\n", "msgpack-c heap allocations per unpack",
           tm[P_MPC_UNPACK].ops ? (double)tm[P_MPC_UNPACK].allocs / (double)tm[P_MPC_UNPACK].ops
                                : 0,
           tm[P_YAC_PARSE].ops ? (double)tm[P_YAC_PARSE].allocs / (double)tm[P_YAC_PARSE].ops : 0);

    msgpack_unpacked_destroy(&c.un);
    msgpack_zone_destroy(&c.zone);
    msgpack_unpacked_destroy(&c.ref_un);
    msgpack_unpacked_destroy(&c.sorted_un);
    free(c.wout);
    free(c.mout);
    msgpack_sbuffer_destroy(&c.sbuf);
    free(c.pool);
    free(c.mpool);
    free(c.ref_pool);
    free(c.out);
    free(mp);
    free(yac);
}

int main(int argc, char **argv) {
    static const char *const shared_docs[] = {"licenses", "canada-list", "canada-map"};
    const char *const *docs = shared_docs;
    int ndocs = (int)(sizeof shared_docs / sizeof shared_docs[0]);
    struct config cfg = {"../shared/data", 0, 0, 15, 20e6};
    size_t counts_len = 0;
    unsigned char *counts;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            cfg.quick = 1;
        } else if (strcmp(argv[i], "--default-malloc") == 0) {
            cfg.default_malloc = 1;
        } else if (strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--quick] [--default-malloc] [DATA_DIR [DOC...]]\n",
                    argv[0]);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        } else {
            /* DATA_DIR, then the documents to run (default: the shared three). */
            cfg.dir = argv[i];
            if (i + 1 < argc) {
                docs = (const char *const *)&argv[i + 1];
                ndocs = argc - i - 1;
            }
            break;
        }
    }
    if (cfg.quick) {
        cfg.reps = 3;
        cfg.batch_ns = 1e6;
    }
    if (!cfg.default_malloc) {
        /* The same glibc malloc settings for every peer: no trimming, no
         * mmap for blocks below 32 MiB, and 64 MiB of top padding, so that
         * no peer pays for returning memory to the kernel and fetching it
         * again on every operation. */
        if (mallopt(M_TRIM_THRESHOLD, INT_MAX) != 1 || mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 ||
            mallopt(M_TOP_PAD, 64 << 20) != 1) {
            die("mallopt refused a setting", NULL);
        }
    }

    printf("libyac %s C API vs msgpack-c %s and msgpuck; %s; %d repetitions of ~%.0f ms "
           "batches per operation, interleaved\n",
           YAC_VERSION, msgpack_version(), cfg.default_malloc
               ? "glibc malloc with default settings"
               : "glibc malloc pinned (M_TRIM_THRESHOLD INT_MAX, M_MMAP_THRESHOLD 32 MiB, M_TOP_PAD 64 MiB)",
           cfg.reps, cfg.batch_ns / 1e6);
    counts = read_file("bench", cfg.dir, "counts", ".json", &counts_len);
    for (i = 0; i < ndocs; i++) {
        run_document(&cfg, docs[i], (const char *)counts);
        fflush(stdout);
    }
    free(counts);
    printf("\n%s\n", g_failed ? "bench: SOME CHECKS FAILED" : "bench: all checks passed");
    return g_failed ? 1 : 0;
}
