/* libyac's C API on a microcontroller (run under QEMU by tests/embedded.rs
 * on a Cortex-M0 with 16 KiB of RAM and on a Cortex-M4F), with no heap:
 * every vector of FORMAT.md that fits the board (from the generated
 * yac_vectors.h shared with the host tests) decoded atom by atom, parsed
 * into a static pool and encoded back to the same bytes; every invalid
 * input with its exact error code (and stream errors at their offset); the
 * rich document's round trip and getters; edits (YACItemsAdd, MapSet,
 * InsertAfter, Remove, SetValue); NoMem; a LIST nested 1000 deep; and the
 * stack that parse, encode and walk use at depths 10 and MCU_TREE_DEPTH,
 * measured with a painted stack, which must not grow with depth; the
 * worst stack of each entry point over every vector (every value type);
 * the header's inline writer calls against the exported ones, replaying
 * every vector; the writer's mistakes and the builder's sticky error.
 *
 * Board limits come from the command line: MCU_TREE_DEPTH (deepest tree
 * parsed, which sets the pool: 16 bytes per node), MCU_OUT_CAP (the encode
 * buffer; vectors longer than that are left out of yac_vectors.h). */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "yac_vectors.h"

#ifndef MCU_TREE_DEPTH
#define MCU_TREE_DEPTH 1000
#endif
#ifndef MCU_OUT_CAP
#define MCU_OUT_CAP 2048
#endif
/* The deep document: a LIST nested DEEP times (DEEP LIST tags, DEEP EOCs). */
#define DEEP 1000
#define POOL_NODES (MCU_TREE_DEPTH > 64 ? MCU_TREE_DEPTH : 64)
#define DOC_CAP 256

#include "docs.h"
#include "nodes.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PAIR_CAP 128
#define PAIR_OUT 128
#include "writer_pair.h"

static struct YACItem pool[POOL_NODES];
static unsigned char out[MCU_OUT_CAP > 2 * DEEP ? MCU_OUT_CAP : 2 * DEEP];
static unsigned char deep[2 * DEEP];

/* Encodes `idx` into `out` and compares with `want`; one byte less of room
 * must give YACErrNoMem. */
static void check_encodes_to(const struct YACItems *items, uint32_t idx,
                             const unsigned char *want, size_t len,
                             const char *name) {
  size_t need = 0, off = 0;
  CHECK(len <= sizeof out, name);
  if (len > sizeof out) {
    return;
  }
  CHECK(YACItemsEncodedLen(&need, items, idx) == YACErrNo && need == len,
        name);
  CHECK(YACItemsEncode(items, idx, &off, out, len) == YACErrNo, name);
  CHECK(off == len && (len == 0 || memcmp(out, want, len) == 0), name);
  if (len > 0) {
    off = 0;
    CHECK(YACItemsEncode(items, idx, &off, out, len - 1) == YACErrNoMem &&
              off == 0,
          name);
  }
}

/* Each vector atom by atom (type, length, value), then as a tree: sized,
 * parsed into the static pool, encoded back to its own bytes; a pool one
 * node short gives YACErrNoMem. */
static void test_valid_vectors(void) {
  size_t i, j;
  for (i = 0; i < COUNT(valid_vectors); i++) {
    const struct ValidVector *v = &valid_vectors[i];
    struct YACItems items;
    size_t off = 0, nodes = 0, used = 0;
    uint32_t root = 12345;
    for (j = 0; j < v->natoms; j++) {
      const struct ExpectAtom *e = &v->atoms[j];
      struct YACAtom atom;
      size_t got = 0;
      YACErr err = YACAtomDecode(&got, &atom, v->buf + off, v->len - off);
      CHECK(err == YACErrNo && got == e->used, v->name);
      if (err != YACErrNo) {
        break;
      }
      CHECK(atom.typ == e->typ && atom.tag == v->buf[off], v->name);
      if (e->kind == 1) {
        CHECK(atom.v.uint == e->uint, v->name);
      } else if (e->kind == 2) {
        CHECK(atom.v.sint == e->sint, v->name);
      } else if (e->kind == 3) {
        CHECK(atom.v.bytes.len == e->bytes_len &&
                  atom.v.bytes.ptr == v->buf + off + e->used - e->bytes_len,
              v->name);
      }
      off += e->used;
    }
    CHECK(off == v->len, v->name);
    CHECK(YACItemsNodesNeeded(&nodes, &used, v->buf, v->len, 0) == YACErrNo &&
              used == v->len && nodes <= COUNT(pool),
          v->name);
    if (nodes > COUNT(pool)) {
      continue;
    }
    YACItemsInit(&items, pool, nodes);
    off = 0;
    CHECK(YACItemsParse(&items, &root, &off, v->buf, v->len) == YACErrNo,
          v->name);
    CHECK(off == v->len && root == 0 && items.len == nodes, v->name);
    check_encodes_to(&items, root, v->buf, v->len, v->name);
    if (nodes > 0) {
      YACItemsInit(&items, pool, nodes - 1);
      off = 0;
      CHECK(YACItemsParse(&items, &root, &off, v->buf, v->len) ==
                    YACErrNoMem &&
                items.len == 0,
            v->name);
    }
  }
}

/* Atom-level invalid inputs: YACAtomDecode's exact error (and how many
 * more bytes NotEnough asks for), the same error from the parser at offset
 * 0; stream-level ones: the parser's error at its offset. */
static void test_invalid_vectors(void) {
  size_t i;
  for (i = 0; i < COUNT(invalid_vectors); i++) {
    const struct InvalidVector *v = &invalid_vectors[i];
    struct YACAtom atom;
    struct YACItems items;
    size_t got = 12345, off = 0;
    uint32_t root = 12345;
    CHECK(YACAtomDecode(&got, &atom, v->buf, v->len) == v->err, v->name);
    CHECK(got == v->got, v->name);
    YACItemsInit(&items, pool, 4);
    CHECK(YACItemsParse(&items, &root, &off, v->buf, v->len) == v->err,
          v->name);
    CHECK(off == 0 && root == 12345, v->name);
    CHECK(YACItemsAbort(&items) == YACErrNo && items.len == 0, v->name);
  }
  for (i = 0; i < COUNT(stream_vectors); i++) {
    const struct StreamVector *v = &stream_vectors[i];
    struct YACItems items;
    size_t off = 0;
    uint32_t root;
    YACErr err;
    YACItemsInit(&items, pool, 16);
    do {
      err = YACItemsParse(&items, &root, &off, v->buf, v->len);
    } while (err == YACErrNo && off < v->len);
    CHECK(err == v->err && off == v->at, v->name);
  }
}

/* The rich document (one value of every type): round trip and getters. */
static void test_rich_doc(void) {
  static struct Doc d;
  struct YACItems items;
  size_t off = 0, len = 0;
  uint32_t root;
  uint64_t u = 0;
  int64_t s = 0;
  bool b = false;
  double f = 0;
  const char *str = NULL;
  build_rich_doc(&d);
  YACItemsInit(&items, pool, RICH_DOC_NODES);
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "rich");
  CHECK(off == d.n && items.len == RICH_DOC_NODES, "rich");
  check_encodes_to(&items, root, d.b, d.n, "rich");
  CHECK(YACItemsGetUint(&u, &items, YACItemsMapGet(&items, root, "n")) ==
                YACErrNo &&
            u == UINT64_MAX,
        "rich n");
  CHECK(YACItemsGetSint(&s, &items, YACItemsMapGet(&items, root, "e")) ==
                YACErrNo &&
            s == -5,
        "rich e");
  CHECK(YACItemsGetBool(&b, &items, YACItemsMapGet(&items, root, "m")) ==
                YACErrNo &&
            b,
        "rich m");
  CHECK(YACItemsGetFloat(&f, &items, YACItemsMapGet(&items, root, "c")) ==
                YACErrNo &&
            f == 1.5,
        "rich c");
  CHECK(YACItemsGetStr(&str, &len, &items,
                       YACItemsMapGet(&items, root, "k")) == YACErrNo &&
            len == strlen(doc_privet) && memcmp(str, doc_privet, len) == 0,
        "rich k");
  CHECK(YACItemsMapGet(&items, root, "q") == YACItemNone, "rich q");
  CHECK(YACItemsType(&items, YACItemsMapGet(&items, root, "h")) ==
            YACItemList,
        "rich h");
}

/* Edits on a parsed LIST and a MAP, each checked by its encoding. */
static void test_edits(void) {
  static struct Doc d, want;
  struct YACItems items;
  struct YACAtom a;
  uint32_t root, map, x, old = 0;
  size_t off = 0;
  build_uint_list(&d, 0, 3); /* [0, 1, 2] */
  YACItemsInit(&items, pool, 16);
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "edits");
  /* [0, 1, 100, 2] */
  x = add_uint(&items, 100);
  CHECK(YACItemsInsertAfter(&items, root, YACItemsNth(&items, root, 1), x) ==
            YACErrNo,
        "insert");
  /* [0, 1, 2]: remove the one after 1 (100) */
  CHECK(YACItemsRemove(&old, &items, root, YACItemsNth(&items, root, 1)) ==
                YACErrNo &&
            old == x,
        "remove");
  /* [7, 1, 2]: a new value for the first */
  memset(&a, 0, sizeof a);
  a.typ = YACItemPint;
  a.v.uint = 7;
  CHECK(YACItemsSetValue(&items, YACItemsFirst(&items, root), &a) == YACErrNo,
        "set value");
  want.n = 0;
  PUT0(&want, YACAtomListEncode);
  PUT(&want, YACAtomUintEncode, 7);
  PUT(&want, YACAtomUintEncode, 1);
  PUT(&want, YACAtomUintEncode, 2);
  PUT0(&want, YACAtomEOCEncode);
  check_encodes_to(&items, root, want.b, want.n, "list edits");

  /* {b: 2} built from nothing, then a: 1 added before it, b replaced. */
  YACItemsInit(&items, pool, 16);
  map = add_plain(&items, YACItemMap);
  CHECK(YACItemsMapSet(&old, &items, map, add_bytes(&items, YACItemStr, "b", 1, YACErrNo),
                       add_uint(&items, 2)) == YACErrNo &&
            old == YACItemNone,
        "map set b");
  CHECK(YACItemsMapSet(&old, &items, map, add_bytes(&items, YACItemStr, "a", 1, YACErrNo),
                       add_uint(&items, 1)) == YACErrNo,
        "map set a");
  CHECK(YACItemsMapSet(&old, &items, map, add_bytes(&items, YACItemStr, "b", 1, YACErrNo),
                       add_bytes(&items, YACItemStr, "x", 1, YACErrNo)) == YACErrNo &&
            old != YACItemNone,
        "map replace b");
  want.n = 0;
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "a");
  PUT(&want, YACAtomUintEncode, 1);
  PUT_STR(&want, "b");
  PUT_STR(&want, "x");
  PUT0(&want, YACAtomEOCEncode);
  check_encodes_to(&items, map, want.b, want.n, "map edits");
  /* NoMem: the pool is full. */
  YACItemsInit(&items, pool, 1);
  CHECK(add_uint(&items, 1) == 0, "last node");
  memset(&a, 0, sizeof a);
  a.typ = YACItemNIL;
  x = 12345;
  CHECK(YACItemsAdd(&x, &items, &a) == YACErrNoMem && items.len == 1,
        "add without room");
}

/* Builds a LIST nested `depth` deep into `deep`; returns its length. */
static size_t build_deep(size_t depth) {
  memset(deep, 0x08, depth);
  memset(deep + depth, 0x00, depth);
  return 2 * depth;
}

/* The deep document: sized with the tree-free count at DEEP (and refused
 * one level short), then parsed, encoded and walked at MCU_TREE_DEPTH (the
 * deepest tree that fits the board's RAM). */
static void test_deep(void) {
  size_t len = build_deep(DEEP), nodes = 0, used = 0, off = 0, enters = 0;
  struct YACItems items;
  struct YACWalk walk;
  YACWalkEvent ev;
  YACErr err;
  uint32_t root, idx, d;
  CHECK(YACItemsNodesNeeded(&nodes, &used, deep, len, 0) == YACErrNo &&
            nodes == DEEP && used == len,
        "deep count");
  CHECK(YACItemsNodesNeeded(&nodes, &used, deep, len, DEEP - 1) ==
            YACErrDeepRecursion,
        "deep count maxDepth");
  len = build_deep(MCU_TREE_DEPTH);
  YACItemsInit(&items, pool, MCU_TREE_DEPTH - 1);
  CHECK(YACItemsParse(&items, &root, &off, deep, len) == YACErrNoMem &&
            items.len == 0,
        "deep NoMem");
  YACItemsInit(&items, pool, MCU_TREE_DEPTH);
  items.maxDepth = MCU_TREE_DEPTH - 1;
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, deep, len) == YACErrDeepRecursion,
        "deep maxDepth");
  items.maxDepth = 0;
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, deep, len) == YACErrNo &&
            off == len && items.len == MCU_TREE_DEPTH,
        "deep parse");
  check_encodes_to(&items, root, deep, len, "deep encode");
  YACItemsWalkInit(&walk, &items, root);
  while ((err = YACItemsWalkNext(&ev, &idx, &d, &walk, &items)) == YACErrNo &&
         ev != YACWalkEnd) {
    if (ev == YACWalkEnter) {
      CHECK(idx == enters && d == enters, "deep enter");
      enters++;
    }
  }
  CHECK(err == YACErrNo && enters == MCU_TREE_DEPTH, "deep walk");
}

/* Stack measurement: paint PAINT bytes below the caller's frame, run an
 * operation, and see how far down the paint was overwritten. PAINT is
 * about twice the deepest use measured (823 bytes): the M0's 16 KiB leave
 * some 2.6 KiB below the static data for newlib's heap and the stack, and
 * a deeper paint reaches the heap. */
#define PAINT 1536
#define PATTERN 0xA5

static __attribute__((noinline)) uintptr_t paint(void) {
  volatile unsigned char area[PAINT];
  size_t i;
  for (i = 0; i < PAINT; i++) {
    area[i] = PATTERN;
  }
  return (uintptr_t)&area[0];
}

static __attribute__((noinline)) size_t used_below(uintptr_t top,
                                                   uintptr_t low) {
  const volatile unsigned char *p = (const volatile unsigned char *)low;
  while ((uintptr_t)p < top && *p == PATTERN) {
    p++;
  }
  return top - (uintptr_t)p;
}

struct StackOp {
  struct YACItems *items;
  const unsigned char *buf;
  size_t len;
};

static void op_parse(struct StackOp *o) {
  uint32_t root;
  size_t off = 0;
  o->items->len = 0;
  CHECK(YACItemsParse(o->items, &root, &off, o->buf, o->len) == YACErrNo,
        "stack parse");
}

static void op_encode(struct StackOp *o) {
  size_t off = 0;
  CHECK(YACItemsEncode(o->items, 0, &off, out, sizeof out) == YACErrNo &&
            off == o->len,
        "stack encode");
}

static void op_walk(struct StackOp *o) {
  struct YACWalk walk;
  YACWalkEvent ev = YACWalkLeaf;
  uint32_t idx, d;
  YACItemsWalkInit(&walk, o->items, 0);
  while (ev != YACWalkEnd &&
         YACItemsWalkNext(&ev, &idx, &d, &walk, o->items) == YACErrNo) {
  }
  CHECK(ev == YACWalkEnd, "stack walk");
}

static void op_count(struct StackOp *o) {
  size_t nodes = 0, used = 0;
  CHECK(YACItemsNodesNeeded(&nodes, &used, deep, o->len, 0) == YACErrNo,
        "stack count");
}

static __attribute__((noinline)) size_t measure(void (*op)(struct StackOp *),
                                                struct StackOp *o) {
  volatile unsigned char marker = 0;
  uintptr_t top = (uintptr_t)&marker;
  uintptr_t low = paint();
  size_t used;
  op(o);
  used = used_below(top, low);
  CHECK(used < top - low, "stack: the paint was deep enough");
  return used;
}

static void test_stack(void) {
  static const struct {
    const char *name;
    void (*op)(struct StackOp *);
  } ops[] = {{"parse", op_parse},
             {"encode", op_encode},
             {"walk", op_walk},
             {"count", op_count}};
  static const size_t depths[2] = {10, MCU_TREE_DEPTH};
  size_t i, k, used[2];
  struct YACItems items;
  struct StackOp o;
  o.items = &items;
  o.buf = deep;
  for (i = 0; i < COUNT(ops); i++) {
    for (k = 0; k < 2; k++) {
      o.len = build_deep(depths[k]);
      YACItemsInit(&items, pool, MCU_TREE_DEPTH);
      op_parse(&o);
      used[k] = measure(ops[i].op, &o);
    }
    printf("stack %s: depth %lu: %lu bytes, depth %lu: %lu bytes\n",
           ops[i].name, (unsigned long)depths[0], (unsigned long)used[0],
           (unsigned long)depths[1], (unsigned long)used[1]);
    CHECK(used[0] == used[1], "stack does not grow with depth");
  }
}

/* The stack each entry point takes on real values: every vector of
 * FORMAT.md that fits the board (one value of each type and width: floats
 * of every size, TAI64NA, big integers, UTF-8 strings, BLOBs, nested
 * containers) and the rich document (a MAP holding every type): the
 * largest figure over them, and which input gave it. */
struct StackBy {
  const char *name;
  void (*op)(struct StackOp *);
  size_t worst;
  const char *at;
};

static void by_decode(struct StackOp *o) {
  size_t off = 0, got = 0;
  struct YACAtom a;
  while (off < o->len &&
         YACAtomDecode(&got, &a, o->buf + off, o->len - off) == YACErrNo) {
    off += got;
  }
  CHECK(off == o->len, "by decode");
}

static void by_count(struct StackOp *o) {
  size_t nodes = 0, used = 0;
  CHECK(YACItemsNodesNeeded(&nodes, &used, o->buf, o->len, 0) == YACErrNo,
        "by count");
}

static void by_validate(struct StackOp *o) {
  size_t levels[16], off = 0, nodes = 0;
  CHECK(YACValidate(&off, &nodes, levels, COUNT(levels), o->buf, o->len, 0,
                    0) == YACErrNo,
        "by validate");
}

static void by_encode(struct StackOp *o) {
  size_t off = 0, need = 0;
  CHECK(YACItemsEncodedLen(&need, o->items, 0) == YACErrNo &&
            YACItemsEncode(o->items, 0, &off, out, sizeof out) == YACErrNo,
        "by encode");
}

/* The getter of each node's type, on every node of the tree. */
static void by_get(struct StackOp *o) {
  uint32_t i;
  for (i = 0; i < o->items->len; i++) {
    const unsigned char *p;
    const char *str;
    size_t len;
    uint64_t u, total;
    int64_t v;
    double f;
    bool b;
    switch (YACItemsType(o->items, i)) {
    case YACItemPint:
      YACItemsGetUint(&u, o->items, i);
      break;
    case YACItemNint:
      YACItemsGetSint(&v, o->items, i);
      break;
    case YACItemFalse:
    case YACItemTrue:
      YACItemsGetBool(&b, o->items, i);
      break;
    case YACItemFloat:
      YACItemsGetFloat(&f, o->items, i);
      break;
    case YACItemStr:
      YACItemsGetStr(&str, &len, o->items, i);
      break;
    case YACItemBin:
      YACItemsGetBin(&p, &len, o->items, i);
      break;
    case YACItemBlob:
      YACItemsGetBlob(&u, &total, o->items, i);
      break;
    default:
      YACItemsGetBytes(&p, &len, o->items, i);
      break;
    }
  }
}

static void by_map_get(struct StackOp *o) {
  if (YACItemsType(o->items, 0) == YACItemMap) {
    (void)YACItemsMapGet(o->items, 0, "k");
  }
}

/* Each operation of `by` on the document `buf` (parsed first), keeping the
 * worst figure; documents that do not fit the board are left out. */
static void stack_on(struct StackBy *by, size_t n, const unsigned char *buf,
                     size_t len, const char *name) {
  struct YACItems items;
  struct StackOp o;
  size_t nodes = 0, used = 0, k;
  if (YACItemsNodesNeeded(&nodes, &used, buf, len, 0) != YACErrNo ||
      nodes > COUNT(pool) || len > sizeof out) {
    return;
  }
  o.items = &items;
  o.buf = buf;
  o.len = len;
  for (k = 0; k < n; k++) {
    size_t u;
    YACItemsInit(&items, pool, COUNT(pool));
    op_parse(&o);
    u = measure(by[k].op, &o);
    if (u > by[k].worst) {
      by[k].worst = u;
      by[k].at = name;
    }
  }
}

static void test_stack_by_type(void) {
  static struct StackBy by[] = {{"YACAtomDecode", by_decode, 0, ""},
                                {"YACItemsNodesNeeded", by_count, 0, ""},
                                {"YACValidate", by_validate, 0, ""},
                                {"YACItemsParse", op_parse, 0, ""},
                                {"YACItemsEncodedLen+Encode", by_encode, 0, ""},
                                {"walk", op_walk, 0, ""},
                                {"getters", by_get, 0, ""},
                                {"YACItemsMapGet", by_map_get, 0, ""}};
  static struct Doc d;
  size_t i;
  for (i = 0; i < COUNT(valid_vectors); i++) {
    stack_on(by, COUNT(by), valid_vectors[i].buf, valid_vectors[i].len,
             valid_vectors[i].name);
  }
  build_rich_doc(&d);
  stack_on(by, COUNT(by), d.b, d.n, "the rich document");
  for (i = 0; i < COUNT(by); i++) {
    printf("stack worst %s: %lu bytes (%s)\n", by[i].name,
           (unsigned long)by[i].worst, by[i].at);
  }
}

/* Every vector written back through the inline and the exported writer
 * calls alike, with a buffer that holds it or not, and streamed. */
static void test_writer_pair(void) {
  static struct Pair p;
  size_t i, cap;
  for (i = 0; i < COUNT(valid_vectors); i++) {
    const struct ValidVector *v = &valid_vectors[i];
    for (cap = 0; cap <= PAIR_CAP; cap += PAIR_CAP / 4) {
      int k;
      for (k = 0; k < 2; k++) {
        YACWriterInit(&p.w[k], p.buf[k], cap, p.levels[k], DEPTH, NULL, 0);
        YACWriterAllowSequence(&p.w[k]);
        p.sink[k].len = 0;
        if (cap == PAIR_CAP / 4) {
          YACWriterSetFlush(&p.w[k], sink, &p.sink[k]);
        }
      }
      replay(&p, v->buf, v->len, v->name);
      if (cap == PAIR_CAP && v->len <= cap && YACWriterError(&p.w[0]) == YACErrNo) {
        CHECK(memcmp(p.buf[0], v->buf, v->len) == 0, v->name);
      }
    }
  }
}

/* The mistakes the writer reports at the faulty call, and the builder's
 * sticky error, as on the host (c-tests/test_writer.c, test_build.c). */
static void test_mistakes(void) {
  /* The shared buffers (static memory is scarce on the M0): `out` for
   * the writer and the encoding, the first nodes of `pool`. */
  unsigned char *buf = out;
  struct YACWriterLevel levels[4];
  unsigned char mem[24];
  static const unsigned char big[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  static const unsigned char want[] = {0x09, 0xC1, 'a', 0x0C, 0x89, 0x01, 0x02, 0x03,
                                       0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0xC1,
                                       'b', 0x01, 0x00};
  struct YACWriter w;
  struct YACWriterFailure where;
  struct YACItems items;
  struct YACArena arena;
  uint32_t map, v;
  uint64_t call = 9;
  size_t len = 0, off = 0;
  YACWriterInit(&w, buf, 32, levels, 4, NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "t");
  YACWriterListOpen(&w);
  CHECK(YACWriterMapClose(&w) == YACErrWrongClose, "LIST closed as a MAP");
  CHECK(YACWriterFailure(&w, &where) == YACErrWrongClose && where.call == 3 &&
            where.depth == 2,
        "where");
  YACWriterInit(&w, buf, 32, levels, 4, NULL, 0);
  YACWriterListOpen(&w);
  CHECK(YACWriterFinish(&w, &len) == YACErrUnclosed, "left open");
  YACWriterInit(&w, buf, 32, levels, 4, NULL, 0);
  YACWriterUint(&w, 1);
  CHECK(YACWriterUint(&w, 2) == YACErrSecondRoot, "second root");
  YACWriterInit(&w, buf, 2, levels, 4, NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "b");
  YACWriterNIL(&w);
  CHECK(YACWriterStrZ(&w, "a") == YACErrMapUnordered, "order out of room");
  YACWriterInit(&w, buf, 32, levels, 4, NULL, 0);
  CHECK(YACWriterMagic(&w, (const unsigned char *)"ab", 2) == YACErrInvalid,
        "short MAGIC");
  /* The builder: keys in order, a big integer, then a sticky mistake. */
  YACItemsInit(&items, pool, 8);
  YACArenaInit(&arena, mem, sizeof mem);
  YACItemsAddMap(&map, &items);
  YACItemsAddBigint(&v, &items, &arena, false, big, sizeof big);
  YACItemsMapPut(NULL, &items, &arena, map, "a", v);
  YACItemsMapPutNIL(&items, &arena, map, "b");
  CHECK(YACItemsBuildFailure(&items, NULL) == YACErrNo &&
            YACItemsEncode(&items, map, &off, buf, 32) == YACErrNo &&
            off == sizeof want && memcmp(buf, want, off) == 0,
        "built");
  YACItemsMapPutUint(&items, &arena, map, "", 1);
  v = 7;
  CHECK(YACItemsAddNIL(&v, &items) == YACErrMapBadKey && v == 7,
        "sticks");
  CHECK(YACItemsBuildFailure(&items, &call) == YACErrMapBadKey && call == 4,
        "builder's failure");
}

int main(void) {
  printf("libyac %s, struct YACAtom %lu bytes, struct YACItems %lu bytes\n",
         YAC_VERSION, (unsigned long)sizeof(struct YACAtom),
         (unsigned long)sizeof(struct YACItems));
  test_valid_vectors();
  test_invalid_vectors();
  test_rich_doc();
  test_edits();
  test_deep();
  test_stack();
  test_stack_by_type();
  test_writer_pair();
  test_mistakes();
  return check_report();
}
