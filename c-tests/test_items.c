/* The tree's C API, driven as a C caller would: every YACItems* function
 * with good, NULL and out-of-range arguments; parse then encode byte for
 * byte on every FORMAT.md vector (yac_vectors.h, shared with the Rust
 * tests) and on documents built with the atom encoders; the pool running
 * out at every possible node count; the growth callback; incremental
 * input fed byte by byte and in random chunks; a LIST nested a million
 * deep; maxDepth; edits followed by encode and re-parse; walks. */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "docs.h"
#include "nodes.h"
#include "yac.h"
#include "yac_vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void *xmalloc(size_t n) {
  void *p = malloc(n == 0 ? 1 : n);
  if (p == NULL) {
    perror("malloc");
    exit(EXIT_FAILURE);
  }
  return p;
}

/* An exact-size heap copy, so that the sanitizers see reads past the end. */
static unsigned char *copy_of(const unsigned char *buf, size_t len) {
  unsigned char *copy = xmalloc(len);
  if (len > 0) {
    memcpy(copy, buf, len);
  }
  return copy;
}

/* An exact-size pool of `cap` nodes (NULL for 0, which YACItemsInit
 * accepts), filled with a pattern so that unwritten nodes are not zero. */
static struct YACItem *new_pool(size_t cap) {
  struct YACItem *pool;
  if (cap == 0) {
    return NULL;
  }
  pool = xmalloc(cap * sizeof *pool);
  memset(pool, 0xA5, cap * sizeof *pool);
  return pool;
}

/* A small deterministic generator for the random chunk sizes. */
static uint32_t rng_state = 12345;
static uint32_t rng(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return rng_state >> 8;
}

/* Encodes `idx` into a fresh exact-size buffer and compares with `want`;
 * also checks YACItemsEncodedLen and that one byte less is YACErrNoMem
 * with `*off` unchanged. */
static void check_encodes_to(const struct YACItems *items, uint32_t idx,
                             const unsigned char *want, size_t len,
                             const char *name) {
  size_t need = 0;
  size_t off = 0;
  unsigned char *out = xmalloc(len);
  CHECK(YACItemsEncodedLen(&need, items, idx) == YACErrNo, name);
  CHECK(need == len, name);
  CHECK(YACItemsEncode(items, idx, &off, out, len) == YACErrNo, name);
  CHECK(off == len, name);
  CHECK(len == 0 || memcmp(out, want, len) == 0, name);
  if (len > 0) {
    off = 0;
    CHECK(YACItemsEncode(items, idx, &off, out, len - 1) == YACErrNoMem, name);
    CHECK(off == 0, name);
  }
  free(out);
}

/* Parses `buf` whole with an exact pool and checks the round trip, then
 * the same with the input fed byte by byte and in random chunks. Returns
 * the node count. */
static size_t check_round_trip(const unsigned char *doc, size_t len,
                               const char *name) {
  unsigned char *buf = copy_of(doc, len);
  size_t nodes = 0, used = 0, off = 0;
  struct YACItems items;
  struct YACItem *pool;
  uint32_t root = 12345;
  int pass;
  CHECK(YACItemsNodesNeeded(&nodes, &used, buf, len, 0) == YACErrNo, name);
  CHECK(used == len, name);
  pool = new_pool(nodes);
  CHECK(YACItemsInit(&items, pool, nodes) == YACErrNo, name);
  CHECK(YACItemsParse(&items, &root, &off, buf, len) == YACErrNo, name);
  CHECK(off == len, name);
  CHECK(root == 0, name);
  CHECK(items.len == nodes, name);
  CHECK(nodes == 0 || items.list[0].next == YACItemUnlinked, name);
  check_encodes_to(&items, root, doc, len, name);
  free(pool);

  /* Incremental: the same buffer, `len` growing; pass 0 by one byte, the
   * others by random chunks of 1..16 bytes. */
  for (pass = 0; pass < 4; pass++) {
    size_t have = 0;
    YACErr err = YACErrNotEnough;
    unsigned calls = 0;
    pool = new_pool(nodes);
    YACItemsInit(&items, pool, nodes);
    off = 0;
    while (err == YACErrNotEnough && have <= len) {
      err = YACItemsParse(&items, &root, &off, buf, have);
      calls++;
      CHECK(off <= have, name);
      have += pass == 0 ? 1 : 1 + rng() % 16;
      if (have > len && err == YACErrNotEnough) {
        have = len;
        err = YACItemsParse(&items, &root, &off, buf, have);
        break;
      }
    }
    CHECK(err == YACErrNo, name);
    CHECK(off == len, name);
    CHECK(items.len == nodes, name);
    CHECK(pass != 0 || calls == len + 1, name);
    check_encodes_to(&items, root, doc, len, name);
    free(pool);
  }
  free(buf);
  return nodes;
}

/* The pool running out at every node count: a first document A sits in
 * the pool, then B is parsed with room for only 0..needed-1 more nodes
 * (whole and byte by byte). Each must give YACErrNoMem with items->len
 * back at A's, A's nodes untouched and A still encoding to its bytes;
 * with exactly `needed` nodes B parses. */
static void check_exhaustion(const unsigned char *a, size_t a_len,
                             const unsigned char *b, size_t b_len,
                             const char *name) {
  size_t a_nodes = 0, b_nodes = 0, used = 0, extra;
  CHECK(YACItemsNodesNeeded(&a_nodes, &used, a, a_len, 0) == YACErrNo, name);
  CHECK(YACItemsNodesNeeded(&b_nodes, &used, b, b_len, 0) == YACErrNo, name);
  for (extra = 0; extra <= b_nodes; extra++) {
    int bytewise;
    for (bytewise = 0; bytewise < 2; bytewise++) {
      size_t cap = a_nodes + extra;
      struct YACItem *pool = new_pool(cap);
      struct YACItem *snapshot = new_pool(a_nodes);
      struct YACItems items;
      uint32_t root_a = 0, root_b = 12345;
      size_t off = 0;
      YACErr err;
      YACItemsInit(&items, pool, cap);
      CHECK(YACItemsParse(&items, &root_a, &off, a, a_len) == YACErrNo, name);
      CHECK(items.len == a_nodes, name);
      if (a_nodes > 0) {
        memcpy(snapshot, pool, a_nodes * sizeof *pool);
      }
      off = 0;
      if (bytewise) {
        size_t have = 0;
        do {
          err = YACItemsParse(&items, &root_b, &off, b, have);
          have++;
        } while (err == YACErrNotEnough && have <= b_len);
      } else {
        err = YACItemsParse(&items, &root_b, &off, b, b_len);
      }
      if (extra < b_nodes) {
        CHECK(err == YACErrNoMem, name);
        CHECK(items.len == a_nodes, name);
        CHECK(root_b == 12345, name);
        CHECK(a_nodes == 0 ||
                  memcmp(snapshot, pool, a_nodes * sizeof *pool) == 0,
              name);
        check_encodes_to(&items, root_a, a, a_len, name);
        /* The pool is usable again: A can be parsed a second time when
         * it fits in what is left. */
      } else {
        CHECK(err == YACErrNo, name);
        CHECK(off == b_len, name);
        CHECK(items.len == a_nodes + b_nodes, name);
        CHECK(root_b == a_nodes, name);
        check_encodes_to(&items, root_b, b, b_len, name);
        check_encodes_to(&items, root_a, a, a_len, name);
      }
      free(pool);
      free(snapshot);
    }
  }
}

static void test_vectors(void) {
  size_t i;
  static const unsigned char small[] = {0x08, 0x0C, 0x81, 0x7B, 0x02, 0x00};
  for (i = 0; i < COUNT(valid_vectors); i++) {
    const struct ValidVector *v = &valid_vectors[i];
    size_t nodes = check_round_trip(v->buf, v->len, v->name);
    /* A BLOB takes an extra node (its chunk length), other atoms except
     * EOC and the integer bodies one each. */
    CHECK(nodes >= 1 && nodes <= v->natoms + 1, v->name);
    if (v->len < 1024) {
      check_exhaustion(small, sizeof small, v->buf, v->len, v->name);
    }
  }
}

/* Every atom-level invalid input fails YACItemsParse and
 * YACItemsNodesNeeded with the decoder's error, at offset 0, adding no
 * node; every stream-level one fails with its error at its offset, and
 * YACItemsNodesNeeded on the failing document says the same offset (but
 * for the MAP key rules, which it leaves to the parse). */
static void test_invalid(void) {
  size_t i;
  for (i = 0; i < COUNT(invalid_vectors); i++) {
    const struct InvalidVector *v = &invalid_vectors[i];
    unsigned char *buf = v->buf == NULL ? NULL : copy_of(v->buf, v->len);
    struct YACItem pool[4];
    struct YACItems items;
    uint32_t root = 12345;
    size_t off = 0, nodes = 777, used = 777;
    YACItemsInit(&items, pool, COUNT(pool));
    CHECK(YACItemsParse(&items, &root, &off, buf, v->len) == v->err, v->name);
    CHECK(off == 0 && root == 12345, v->name);
    CHECK(v->err == YACErrNotEnough || items.len == 0, v->name);
    CHECK(YACItemsAbort(&items) == YACErrNo, v->name);
    CHECK(items.len == 0, v->name);
    CHECK(YACItemsNodesNeeded(&nodes, &used, buf, v->len, 0) == v->err,
          v->name);
    if (v->err == YACErrInvalid) {
      CHECK(nodes == 777 && used == 777, v->name);
    } else {
      CHECK(nodes == 777 && used == 0, v->name);
    }
    free(buf);
  }
  for (i = 0; i < COUNT(stream_vectors); i++) {
    const struct StreamVector *v = &stream_vectors[i];
    unsigned char *buf = copy_of(v->buf, v->len);
    struct YACItem pool[16];
    struct YACItems items;
    uint32_t root;
    size_t off = 0;
    size_t doc_start = 0;
    uint32_t len_before = 0;
    YACErr err;
    YACItemsInit(&items, pool, COUNT(pool));
    /* Documents one after another until the stream fails. */
    for (;;) {
      doc_start = off;
      len_before = items.len;
      err = YACItemsParse(&items, &root, &off, buf, v->len);
      if (err != YACErrNo || off == v->len) {
        break;
      }
    }
    CHECK(err == v->err, v->name);
    CHECK(off == v->at, v->name);
    CHECK(off >= doc_start, v->name);
    if (err == YACErrNotEnough) {
      CHECK(YACItemsAbort(&items) == YACErrNo, v->name);
    }
    CHECK(items.len == len_before, v->name);
    if (err != YACErrMapBadKey && err != YACErrMapNoVal &&
        err != YACErrMapUnordered) {
      size_t nodes = 777, used = 777;
      CHECK(YACItemsNodesNeeded(&nodes, &used, buf + doc_start,
                                v->len - doc_start, 0) == err,
            v->name);
      CHECK(nodes == 777 && doc_start + used == v->at, v->name);
    }
    free(buf);
  }
}

/* The rich document: round trip, exhaustion, every getter. */
static void test_rich_doc(void) {
  struct Doc d;
  struct YACItem pool[RICH_DOC_NODES];
  struct YACItems items;
  uint32_t root, n;
  size_t off = 0, count = 0, len = 0;
  uint64_t u = 0, total = 0;
  int64_t i = 0;
  bool b = false;
  double f = 0;
  const char *s = NULL;
  const unsigned char *p = NULL;
  build_rich_doc(&d);
  CHECK(check_round_trip(d.b, d.n, "rich") == RICH_DOC_NODES, "rich nodes");
  check_exhaustion(d.b, d.n, d.b, d.n, "rich twice");

  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "rich");
  CHECK(YACItemsType(&items, root) == YACItemMap, "rich");
  CHECK(YACItemsChildCount(&count, &items, root) == YACErrNo, "rich");
  CHECK(count == 34, "rich count");

  n = YACItemsMapGet(&items, root, "a");
  CHECK(YACItemsType(&items, n) == YACItemBin, "a");
  CHECK(YACItemsGetBin(&p, &len, &items, n) == YACErrNo, "a");
  CHECK(len == 3 && p[0] == 1 && p[2] == 3, "a");
  CHECK(p > d.b && p < d.b + d.n, "a points into the input");
  CHECK(YACItemsGetStr(&s, &len, &items, n) == YACErrInvalid, "a as STR");

  n = YACItemsMapGet(&items, root, "b");
  CHECK(YACItemsType(&items, n) == YACItemBlob, "b");
  CHECK(YACItemsGetBlob(&u, &total, &items, n) == YACErrNo, "b");
  CHECK(u == 2 && total == 7, "b");
  CHECK(YACItemsChildCount(&count, &items, n) == YACErrNo && count == 3, "b");
  CHECK(YACItemsGetBin(&p, &len, &items, YACItemsNth(&items, n, 1)) ==
                YACErrNo &&
            len == 3 && memcmp(p, "def", 3) == 0,
        "b chunk 1");
  CHECK(YACItemsType(&items, n + 1) == YACItemInvalid, "BLOB extension slot");
  CHECK(YACItemsGetBlob(&u, &total, &items, root) == YACErrInvalid, "MAP");

  n = YACItemsMapGet(&items, root, "c");
  CHECK(YACItemsGetFloat(&f, &items, n) == YACErrNo && f == 1.5, "c");
  CHECK(YACItemsGetBytes(&p, &len, &items, n) == YACErrNo && len == 2, "c");
  n = YACItemsMapGet(&items, root, "p");
  /* (double)0.1: where FLT_EVAL_METHOD is 2 (x87, -m32) the constant 0.1
   * alone has long double precision and differs from the double. */
  CHECK(YACItemsGetFloat(&f, &items, n) == YACErrNo && f == (double)0.1,
        "p");
  CHECK(YACItemsGetUint(&u, &items, n) == YACErrInvalid, "p as uint");

  n = YACItemsMapGet(&items, root, "d");
  CHECK(YACItemsType(&items, n) == YACItemHexlet, "d");
  CHECK(YACItemsGetBytes(&p, &len, &items, n) == YACErrNo && len == 16 &&
            memcmp(p, doc_hexlet, 16) == 0,
        "d");

  n = YACItemsMapGet(&items, root, "e");
  CHECK(YACItemsGetSint(&i, &items, n) == YACErrNo && i == -5, "e");
  CHECK(YACItemsGetUint(&u, &items, n) == YACErrInvalid, "e as uint");

  n = YACItemsMapGet(&items, root, "f");
  CHECK(YACItemsType(&items, n) == YACItemPbig, "f");
  CHECK(YACItemsGetBytes(&p, &len, &items, n) == YACErrNo && len == 9 &&
            memcmp(p, doc_big, 9) == 0,
        "f");
  CHECK(YACItemsGetSint(&i, &items, n) == YACErrInvalid, "f as int");
  n = YACItemsMapGet(&items, root, "g");
  CHECK(YACItemsType(&items, n) == YACItemNbig, "g");

  n = YACItemsMapGet(&items, root, "h");
  CHECK(YACItemsType(&items, n) == YACItemList, "h");
  CHECK(YACItemsChildCount(&count, &items, n) == YACErrNo && count == 4, "h");
  CHECK(YACItemsGetUint(&u, &items, YACItemsFirst(&items, n)) == YACErrNo &&
            u == 1,
        "h[0]");
  CHECK(YACItemsGetUint(&u, &items, YACItemsNth(&items, n, 1)) == YACErrNo &&
            u == 2,
        "h[1]");
  CHECK(YACItemsType(&items, YACItemsNth(&items, n, 2)) == YACItemList,
        "h[2]");
  CHECK(YACItemsFirst(&items, YACItemsNth(&items, n, 2)) == YACItemNone,
        "h[2] empty");
  CHECK(YACItemsType(&items, YACItemsNth(&items, n, 3)) == YACItemMap, "h[3]");
  CHECK(YACItemsNth(&items, n, 4) == YACItemNone, "h[4]");
  CHECK(YACItemsNext(&items, YACItemsNth(&items, n, 3)) == YACItemNone,
        "h[3] last");

  n = YACItemsMapGet(&items, root, "i");
  CHECK(YACItemsType(&items, n) == YACItemMagic, "i");
  CHECK(YACItemsGetBytes(&p, &len, &items, n) == YACErrNo && len == 12 &&
            memcmp(p, "cm/pub\0\0\0\0\0\0", 12) == 0,
        "i");
  CHECK(YACItemsType(&items, YACItemsMapGet(&items, root, "j")) == YACItemNIL,
        "j");
  n = YACItemsMapGet(&items, root, "k");
  CHECK(YACItemsGetStr(&s, &len, &items, n) == YACErrNo &&
            len == strlen(doc_privet) && memcmp(s, doc_privet, len) == 0,
        "k");
  n = YACItemsMapGet(&items, root, "l");
  CHECK(YACItemsType(&items, n) == YACItemTAI64, "l");
  CHECK(YACItemsGetBytes(&p, &len, &items, n) == YACErrNo && len == 12, "l");
  {
    int64_t sec = 0;
    uint32_t nsec = 0;
    bool leap = true;
    CHECK(YACTAI64ToUTC(&sec, &nsec, &leap, p, len) == YACErrNo, "l");
    CHECK(sec == 1483228800 && nsec == 500 && !leap, "l");
  }
  n = YACItemsMapGet(&items, root, "m");
  CHECK(YACItemsGetBool(&b, &items, n) == YACErrNo && b, "m");
  n = YACItemsMapGet(&items, root, "o");
  CHECK(YACItemsGetBool(&b, &items, n) == YACErrNo && !b, "o");
  CHECK(YACItemsGetBool(&b, &items, root) == YACErrInvalid, "MAP as bool");
  n = YACItemsMapGet(&items, root, "n");
  CHECK(YACItemsGetUint(&u, &items, n) == YACErrNo && u == UINT64_MAX, "n");
  CHECK(YACItemsGetSint(&i, &items, n) == YACErrLenTooBig, "n as int");
  n = YACItemsMapGetN(&items, root, "xyzw", 3);
  CHECK(YACItemsGetStr(&s, &len, &items, n) == YACErrNo && len == 0, "xyz");
  CHECK(YACItemsMapGet(&items, root, "xy") == YACItemNone, "absent key");
  CHECK(YACItemsMapGet(&items, root, "") == YACItemNone, "empty key");
  CHECK(YACItemsMapGetN(&items, root, "q", 1) ==
            YACItemNone,
        "absent key");
}

/* NULL and out-of-range arguments of every function. */
static void test_bad_arguments(void) {
  static const unsigned char doc[] = {0x08, 0x0C, 0x81, 0x7B, 0x02, 0x00};
  struct YACItem pool[8];
  struct YACItems items;
  struct YACWalk walk;
  YACWalkEvent ev;
  struct YACAtom atom;
  uint32_t root = 0, idx = 0, d = 0;
  size_t off = 0, count = 0, len = 0, nodes = 0;
  uint64_t u = 0;
  int64_t i = 0;
  bool b = false;
  double f = 0;
  const char *s = NULL;
  const unsigned char *p = NULL;
  unsigned char out[16];
  static const uint32_t bad[] = {3 /* not yet used */, 7, YACItemUnlinked,
                                 YACItemNone};
  size_t k;

  CHECK(YACItemsInit(NULL, pool, 8) == YACErrInvalid, "Init NULL items");
  CHECK(YACItemsInit(&items, NULL, 8) == YACErrInvalid, "Init NULL pool");
  CHECK(YACItemsInit(&items, NULL, 0) == YACErrNo, "Init empty");
  CHECK(items.len == 0 && items.cap == 0 && items.grow == NULL, "Init");
  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrNoMem,
        "parse into no pool");
  CHECK(items.len == 0 && off == 0, "parse into no pool");
  CHECK(YACItemsInit(&items, pool, 8) == YACErrNo, "Init");
  CHECK(items.list == pool && items.cap == 8 && items.maxDepth == 0 &&
            items.flags == 0,
        "Init fields");

  CHECK(YACItemsParse(NULL, &root, &off, doc, sizeof doc) == YACErrInvalid,
        "Parse NULL items");
  CHECK(YACItemsParse(&items, NULL, &off, doc, sizeof doc) == YACErrInvalid,
        "Parse NULL root");
  CHECK(YACItemsParse(&items, &root, NULL, doc, sizeof doc) == YACErrInvalid,
        "Parse NULL off");
  CHECK(YACItemsParse(&items, &root, &off, NULL, 3) == YACErrInvalid,
        "Parse NULL buf");
  off = sizeof doc + 1;
  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrInvalid,
        "Parse off beyond len");
  CHECK(items.len == 0, "Parse off beyond len");
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, NULL, 0) == YACErrNotEnough,
        "Parse nothing");
  CHECK(YACItemsAbort(&items) == YACErrNo, "Abort");
  CHECK(YACItemsAbort(NULL) == YACErrInvalid, "Abort NULL");
  CHECK(YACItemsNodesNeeded(NULL, &len, doc, sizeof doc, 0) == YACErrInvalid,
        "NodesNeeded NULL nodes");
  CHECK(YACItemsNodesNeeded(&nodes, NULL, doc, sizeof doc, 0) ==
            YACErrInvalid,
        "NodesNeeded NULL used");
  CHECK(YACItemsNodesNeeded(&nodes, &len, NULL, 1, 0) == YACErrInvalid,
        "NodesNeeded NULL buf");
  CHECK(YACItemsNodesNeeded(&nodes, &len, doc, sizeof doc, 0) == YACErrNo &&
            nodes == 3 && len == sizeof doc,
        "NodesNeeded");
  CHECK(YACItemsNodesNeeded(&nodes, &len, doc, sizeof doc - 1, 0) ==
            YACErrNotEnough,
        "NodesNeeded short");

  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrNo,
        "Parse");
  CHECK(items.len == 3 && root == 0, "Parse");

  /* Navigation: NULL items and bad indices give YACItemNone / Invalid. */
  CHECK(YACItemsType(NULL, 0) == YACItemInvalid, "Type NULL");
  CHECK(YACItemsFirst(NULL, 0) == YACItemNone, "First NULL");
  CHECK(YACItemsNext(NULL, 1) == YACItemNone, "Next NULL");
  CHECK(YACItemsNth(NULL, 0, 0) == YACItemNone, "Nth NULL");
  CHECK(YACItemsMapGet(NULL, 0, "a") == YACItemNone, "MapGet NULL");
  CHECK(YACItemsMapGetN(NULL, 0, "a", 1) ==
            YACItemNone,
        "MapGetN NULL");
  for (k = 0; k < COUNT(bad); k++) {
    CHECK(YACItemsType(&items, bad[k]) == YACItemInvalid, "Type bad");
    CHECK(YACItemsFirst(&items, bad[k]) == YACItemNone, "First bad");
    CHECK(YACItemsNext(&items, bad[k]) == YACItemNone, "Next bad");
    CHECK(YACItemsNth(&items, bad[k], 0) == YACItemNone, "Nth bad");
    CHECK(YACItemsChildCount(&count, &items, bad[k]) == YACErrInvalid,
          "ChildCount bad");
    CHECK(YACItemsGetUint(&u, &items, bad[k]) == YACErrInvalid, "Get bad");
    CHECK(YACItemsGetBytes(&p, &len, &items, bad[k]) == YACErrInvalid,
          "GetBytes bad");
    off = 0;
    CHECK(YACItemsEncode(&items, bad[k], &off, out, sizeof out) ==
              YACErrInvalid,
          "Encode bad");
    CHECK(YACItemsEncodedLen(&len, &items, bad[k]) == YACErrInvalid,
          "EncodedLen bad");
    CHECK(YACItemsWalkInit(&walk, &items, bad[k]) == YACErrNo, "WalkInit");
    CHECK(YACItemsWalkNext(&ev, &idx, &d, &walk, &items) == YACErrInvalid,
          "WalkNext bad root");
    CHECK(YACItemsWalkNext(&ev, &idx, &d, &walk, &items) == YACErrNo &&
              ev == YACWalkEnd && idx == YACItemNone,
          "walk ended");
  }
  CHECK(YACItemsFirst(&items, 1) == YACItemNone, "First of a leaf");
  CHECK(YACItemsNext(&items, 0) == YACItemNone, "Next of the root");
  CHECK(YACItemsNext(&items, 2) == YACItemNone, "Next of the last");
  CHECK(YACItemsNext(&items, 1) == 2, "Next");
  CHECK(YACItemsNth(&items, 0, 2) == YACItemNone, "Nth past the end");
  CHECK(YACItemsNth(&items, 0, SIZE_MAX) == YACItemNone, "Nth SIZE_MAX");
  CHECK(YACItemsMapGet(&items, 0, "a") == YACItemNone, "MapGet on a LIST");
  CHECK(YACItemsMapGet(&items, 0, NULL) == YACItemNone, "MapGet NULL key");
  CHECK(YACItemsMapGetN(&items, 0, NULL, 1) == YACItemNone,
        "MapGetN NULL key");
  CHECK(YACItemsChildCount(NULL, &items, 0) == YACErrInvalid,
        "ChildCount NULL");
  CHECK(YACItemsChildCount(&count, NULL, 0) == YACErrInvalid,
        "ChildCount NULL items");
  CHECK(YACItemsChildCount(&count, &items, 1) == YACErrInvalid,
        "ChildCount of a leaf");
  CHECK(YACItemsChildCount(&count, &items, 0) == YACErrNo && count == 2,
        "ChildCount");

  /* Getters: NULL outputs, NULL items, wrong types. */
  CHECK(YACItemsGetUint(NULL, &items, 1) == YACErrInvalid, "GetUint NULL");
  CHECK(YACItemsGetUint(&u, NULL, 1) == YACErrInvalid, "GetUint NULL items");
  CHECK(YACItemsGetUint(&u, &items, 1) == YACErrNo && u == 123, "GetUint");
  CHECK(YACItemsGetSint(NULL, &items, 1) == YACErrInvalid, "GetInt NULL");
  CHECK(YACItemsGetSint(&i, &items, 1) == YACErrNo && i == 123, "GetInt");
  CHECK(YACItemsGetSint(&i, &items, 2) == YACErrInvalid, "GetInt of FALSE");
  CHECK(YACItemsGetBool(NULL, &items, 2) == YACErrInvalid, "GetBool NULL");
  CHECK(YACItemsGetBool(&b, &items, 2) == YACErrNo && !b, "GetBool");
  CHECK(YACItemsGetBool(&b, &items, 1) == YACErrInvalid, "GetBool of INT");
  CHECK(YACItemsGetFloat(NULL, &items, 1) == YACErrInvalid, "GetDouble NULL");
  CHECK(YACItemsGetFloat(&f, &items, 1) == YACErrInvalid, "GetDouble INT");
  CHECK(YACItemsGetStr(NULL, &len, &items, 1) == YACErrInvalid, "GetStr NULL");
  CHECK(YACItemsGetStr(&s, NULL, &items, 1) == YACErrInvalid, "GetStr NULL");
  CHECK(YACItemsGetStr(&s, &len, &items, 1) == YACErrInvalid, "GetStr INT");
  CHECK(YACItemsGetBin(NULL, &len, &items, 1) == YACErrInvalid, "GetBin NULL");
  CHECK(YACItemsGetBin(&p, &len, &items, 1) == YACErrInvalid, "GetBin INT");
  CHECK(YACItemsGetBytes(&p, NULL, &items, 1) == YACErrInvalid,
        "GetBytes NULL");
  CHECK(YACItemsGetBytes(&p, &len, &items, 1) == YACErrInvalid,
        "GetBytes of INT");
  CHECK(YACItemsGetBytes(&p, &len, &items, 0) == YACErrInvalid,
        "GetBytes of LIST");
  CHECK(YACItemsGetBlob(NULL, &u, &items, 0) == YACErrInvalid, "GetBlob NULL");
  CHECK(YACItemsGetBlob(&u, NULL, &items, 0) == YACErrInvalid, "GetBlob NULL");

  /* Encode. */
  off = 0;
  CHECK(YACItemsEncode(NULL, 0, &off, out, sizeof out) == YACErrInvalid,
        "Encode NULL items");
  CHECK(YACItemsEncode(&items, 0, NULL, out, sizeof out) == YACErrInvalid,
        "Encode NULL off");
  CHECK(YACItemsEncode(&items, 0, &off, NULL, 4) == YACErrInvalid,
        "Encode NULL buf");
  CHECK(YACItemsEncode(&items, 0, &off, NULL, 0) == YACErrNoMem,
        "Encode no room");
  off = sizeof out + 1;
  CHECK(YACItemsEncode(&items, 0, &off, out, sizeof out) == YACErrInvalid,
        "Encode off beyond cap");
  CHECK(off == sizeof out + 1, "Encode off beyond cap");
  off = 3;
  CHECK(YACItemsEncode(&items, 0, &off, out, sizeof out) == YACErrNo &&
            off == 3 + sizeof doc && memcmp(out + 3, doc, sizeof doc) == 0,
        "Encode at an offset");
  off = 0;
  CHECK(YACItemsEncode(&items, 1, &off, out, sizeof out) == YACErrNo &&
            off == 3 && memcmp(out, doc + 1, 3) == 0,
        "Encode a subtree");
  CHECK(YACItemsEncodedLen(NULL, &items, 0) == YACErrInvalid,
        "EncodedLen NULL");
  CHECK(YACItemsEncodedLen(&len, NULL, 0) == YACErrInvalid,
        "EncodedLen NULL items");

  /* Walk. */
  CHECK(YACItemsWalkInit(NULL, &items, 0) == YACErrInvalid, "WalkInit NULL");
  CHECK(YACItemsWalkInit(&walk, NULL, 0) == YACErrInvalid,
        "WalkInit NULL items");
  YACItemsWalkInit(&walk, &items, 0);
  CHECK(YACItemsWalkNext(NULL, &idx, &d, &walk, &items) == YACErrInvalid,
        "WalkNext NULL event");
  CHECK(YACItemsWalkNext(&ev, NULL, &d, &walk, &items) == YACErrInvalid,
        "WalkNext NULL idx");
  CHECK(YACItemsWalkNext(&ev, &idx, NULL, &walk, &items) == YACErrInvalid,
        "WalkNext NULL depth");
  CHECK(YACItemsWalkNext(&ev, &idx, &d, NULL, &items) == YACErrInvalid,
        "WalkNext NULL walk");
  CHECK(YACItemsWalkNext(&ev, &idx, &d, &walk, NULL) == YACErrInvalid,
        "WalkNext NULL items");

  /* Edits with NULL and bad arguments. */
  memset(&atom, 0, sizeof atom);
  atom.typ = YACItemNIL;
  CHECK(YACItemsAdd(NULL, &items, &atom) == YACErrInvalid, "Add NULL idx");
  YACItemsBuildReset(&items);
  CHECK(YACItemsAdd(&idx, NULL, &atom) == YACErrInvalid, "Add NULL items");
  CHECK(YACItemsAdd(&idx, &items, NULL) == YACErrInvalid, "Add NULL atom");
  YACItemsBuildReset(&items);
  CHECK(items.len == 3, "nothing added");
  CHECK(YACItemsSetValue(NULL, 1, &atom) == YACErrInvalid, "SetValue NULL");
  CHECK(YACItemsSetValue(&items, 1, NULL) == YACErrInvalid, "SetValue NULL");
  CHECK(YACItemsSetValue(&items, 7, &atom) == YACErrInvalid, "SetValue bad");
  CHECK(YACItemsInsertAfter(NULL, 0, 1, 2) == YACErrInvalid, "Insert NULL");
  CHECK(YACItemsPrepend(NULL, 0, 1) == YACErrInvalid, "Prepend NULL");
  CHECK(YACItemsRemove(NULL, &items, 0, YACItemNone) == YACErrInvalid,
        "Remove NULL removed");
  CHECK(YACItemsRemove(&idx, NULL, 0, YACItemNone) == YACErrInvalid,
        "Remove NULL items");
  CHECK(YACItemsReplace(NULL, &items, 0, YACItemNone, 1) == YACErrInvalid,
        "Replace NULL old");
  CHECK(YACItemsMapSet(NULL, &items, 0, 1, 2) == YACErrInvalid,
        "MapSet NULL");
  YACItemsBuildReset(&items);
  CHECK(YACItemsMapDel(NULL, &items, 0, "a", 1) ==
            YACErrInvalid,
        "MapDel NULL");
  CHECK(YACItemsMapDel(&idx, &items, 0, NULL, 1) == YACErrInvalid,
        "MapDel NULL key");
  CHECK(YACItemsMapDel(&idx, &items, 0, "a", 1) ==
            YACErrInvalid,
        "MapDel on a LIST");
  for (k = 0; k < COUNT(bad); k++) {
    CHECK(YACItemsInsertAfter(&items, bad[k], 1, 2) == YACErrInvalid,
          "Insert bad parent");
    YACItemsBuildReset(&items);
    CHECK(YACItemsPrepend(&items, bad[k], 1) == YACErrInvalid,
          "Prepend bad parent");
    YACItemsBuildReset(&items);
    CHECK(YACItemsPrepend(&items, 0, bad[k]) == YACErrInvalid,
          "Prepend bad child");
    YACItemsBuildReset(&items);
    CHECK(YACItemsRemove(&idx, &items, bad[k], YACItemNone) == YACErrInvalid,
          "Remove bad parent");
  }
  CHECK(items.len == 3, "edits refused");
  check_encodes_to(&items, 0, doc, sizeof doc, "unchanged after bad edits");
}

/* The growth callback: realloc-based, counted. */
struct GrowCtx {
  unsigned calls;
  size_t limit; /* refuse beyond this many nodes */
};

static struct YACItem *grow_realloc(void *ctx, struct YACItem *old,
                                    size_t old_cap, size_t *new_cap) {
  struct GrowCtx *g = ctx;
  struct YACItem *p;
  g->calls++;
  CHECK(*new_cap >= 64 && *new_cap >= 2 * old_cap, "proposed capacity");
  if (*new_cap > g->limit) {
    return NULL;
  }
  p = realloc(old, *new_cap * sizeof *p);
  return p;
}

/* Says it grew but gives no more room: must count as a refusal. */
static struct YACItem *grow_liar(void *ctx, struct YACItem *old,
                                 size_t old_cap, size_t *new_cap) {
  (void)ctx;
  *new_cap = old_cap;
  return old;
}

static void test_grow(void) {
  struct Doc d;
  struct YACItems items;
  struct GrowCtx g = {0, SIZE_MAX};
  uint32_t root = 0, root2 = 0;
  size_t off = 0, i, n = 200;
  build_uint_list(&d, 1000, n);
  YACItemsInit(&items, NULL, 0);
  items.grow = grow_realloc;
  items.growCtx = &g;
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "grow");
  CHECK(g.calls == 3 && items.cap == 256, "grown 0 -> 64 -> 128 -> 256");
  CHECK(items.len == n + 1 && off == d.n, "grow");
  check_encodes_to(&items, root, d.b, d.n, "grown");
  /* A second document continues in the grown pool. */
  off = 0;
  CHECK(YACItemsParse(&items, &root2, &off, d.b, d.n) == YACErrNo, "grow 2");
  CHECK(g.calls == 4 && items.cap == 512, "grow 2");
  CHECK(root2 == n + 1, "grow 2");
  for (i = 0; i < n; i += 37) {
    uint64_t u = 0;
    CHECK(YACItemsGetUint(&u, &items, YACItemsNth(&items, root2, i)) ==
                  YACErrNo &&
              u == 1000 + i,
          "grown values");
  }
  /* Refused growth: NoMem, nothing of the document kept. */
  g.limit = items.cap;
  off = 0;
  {
    uint32_t before = items.len;
    CHECK(YACItemsParse(&items, &root2, &off, d.b, d.n) == YACErrNoMem,
          "grow refused");
    CHECK(items.len == before && items.cap == 512, "grow refused");
    check_encodes_to(&items, root, d.b, d.n, "after refused growth");
  }
  free(items.list);

  YACItemsInit(&items, NULL, 0);
  items.grow = grow_liar;
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNoMem,
        "grow without room");
  CHECK(items.len == 0 && items.cap == 0, "grow without room");
}

/* The nesting depth of test_deep: a million, or YAC_TEST_DEPTH when set
 * (at least 2). The valgrind pass (tests/c_api.rs) sets it lower: under
 * valgrind a million-node parse, encode and walk takes minutes. */
static size_t deep_depth(void) {
  const char *env = getenv("YAC_TEST_DEPTH");
  unsigned long v = env ? strtoul(env, NULL, 10) : 0;
  return v >= 2 ? (size_t)v : 1000000;
}

/* A LIST nested a million deep: sized, parsed, encoded and walked with
 * constant stack; maxDepth refuses it cleanly. */
static void test_deep(void) {
  const size_t depth = deep_depth();
  size_t len = 2 * depth, nodes = 0, used = 0, off = 0, enters = 0, exits = 0;
  unsigned char *buf = xmalloc(len);
  unsigned char *out;
  struct YACItem *pool;
  struct YACItems items;
  struct YACWalk walk;
  uint32_t root = 1, idx, d, max_depth = 0;
  YACWalkEvent ev;
  YACErr err;
  memset(buf, 0x08, depth);
  memset(buf + depth, 0x00, depth);
  CHECK(YACItemsNodesNeeded(&nodes, &used, buf, len, 0) == YACErrNo, "deep");
  CHECK(nodes == depth && used == len, "deep");
  CHECK(YACItemsNodesNeeded(&nodes, &used, buf, len, depth - 1) ==
            YACErrDeepRecursion,
        "deep NodesNeeded maxDepth");
  CHECK(YACItemsNodesNeeded(&nodes, &used, buf, len, depth) == YACErrNo,
        "deep NodesNeeded maxDepth");
  pool = new_pool(nodes);
  YACItemsInit(&items, pool, nodes);
  items.maxDepth = depth - 1;
  CHECK(YACItemsParse(&items, &root, &off, buf, len) == YACErrDeepRecursion,
        "deep maxDepth");
  CHECK(off == depth - 1 && items.len == 0, "deep maxDepth");
  items.maxDepth = depth;
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, buf, len) == YACErrNo, "deep");
  CHECK(root == 0 && off == len && items.len == depth, "deep");
  out = xmalloc(len);
  off = 0;
  CHECK(YACItemsEncode(&items, root, &off, out, len) == YACErrNo, "deep");
  CHECK(off == len && memcmp(out, buf, len) == 0, "deep encode");
  YACItemsWalkInit(&walk, &items, root);
  for (;;) {
    err = YACItemsWalkNext(&ev, &idx, &d, &walk, &items);
    if (err != YACErrNo || ev == YACWalkEnd) {
      break;
    }
    if (ev == YACWalkEnter) {
      CHECK(idx == enters && d == enters, "deep enter");
      enters++;
    } else if (ev == YACWalkExit) {
      exits++;
      CHECK(idx == depth - exits && d == depth - exits, "deep exit");
    } else {
      CHECK(ev != YACWalkLeaf, "deep: no leaf");
    }
    if (d > max_depth) {
      max_depth = d;
    }
  }
  CHECK(err == YACErrNo, "deep walk");
  CHECK(enters == depth && exits == depth && max_depth == depth - 1,
        "deep walk");
  /* The pool one node short. */
  YACItemsInit(&items, pool, nodes - 1);
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, buf, len) == YACErrNoMem,
        "deep NoMem");
  CHECK(items.len == 0, "deep NoMem");
  free(out);
  free(pool);
  free(buf);
}

/* Encodes `idx`, re-parses the bytes into a fresh pool, checks that they
 * encode again identically and equal `want`. */
static void check_edit_result(const struct YACItems *items, uint32_t idx,
                              const struct Doc *want, const char *name) {
  unsigned char out[4096];
  size_t off = 0, nodes = 0, used = 0;
  struct YACItem pool[256];
  struct YACItems again;
  uint32_t root;
  CHECK(YACItemsEncode(items, idx, &off, out, sizeof out) == YACErrNo, name);
  CHECK(off == want->n && memcmp(out, want->b, off) == 0, name);
  CHECK(YACItemsNodesNeeded(&nodes, &used, out, off, 0) == YACErrNo, name);
  CHECK(used == off && nodes <= COUNT(pool), name);
  YACItemsInit(&again, pool, COUNT(pool));
  used = 0;
  CHECK(YACItemsParse(&again, &root, &used, out, off) == YACErrNo, name);
  CHECK(again.len == nodes, name);
  check_encodes_to(&again, root, out, off, name);
}

static void test_list_edits(void) {
  struct Doc d, want;
  struct YACItem pool[64];
  struct YACItems items;
  uint32_t root, n2, x, x100, old, removed, first;
  size_t off = 0, count = 0;
  build_uint_list(&d, 0, 5); /* [0, 1, 2, 3, 4] */
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "edits");

  /* Insert in the middle: [0, 1, 2, 100, 3, 4]. */
  n2 = YACItemsNth(&items, root, 2);
  x = x100 = add_uint(&items, 100);
  CHECK(YACItemsNext(&items, x) == YACItemNone, "new node is unlinked");
  CHECK(YACItemsInsertAfter(&items, root, n2, x) == YACErrNo, "insert");
  CHECK(YACItemsChildCount(&count, &items, root) == YACErrNo && count == 6,
        "insert count");
  want.n = 0;
  PUT0(&want, YACAtomListEncode);
  PUT(&want, YACAtomUintEncode, 0);
  PUT(&want, YACAtomUintEncode, 1);
  PUT(&want, YACAtomUintEncode, 2);
  PUT(&want, YACAtomUintEncode, 100);
  PUT(&want, YACAtomUintEncode, 3);
  PUT(&want, YACAtomUintEncode, 4);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "insert in the middle");
  CHECK(YACItemsInsertAfter(&items, root, n2, x) == YACErrInvalid,
        "insert a linked node");
  YACItemsBuildReset(&items);
  CHECK(YACItemsInsertAfter(&items, root, root, add_uint(&items, 5)) ==
            YACErrInvalid,
        "insert after the parent itself");
  YACItemsBuildReset(&items);
  CHECK(YACItemsPrepend(&items, n2, add_uint(&items, 6)) == YACErrInvalid,
        "prepend into a leaf");
  YACItemsBuildReset(&items);

  /* Prepend: [7, 0, 1, 2, 100, 3, 4]. */
  x = add_uint(&items, 7);
  CHECK(YACItemsPrepend(&items, root, x) == YACErrNo, "prepend");
  CHECK(YACItemsFirst(&items, root) == x, "prepend");
  /* Remove the first, then the one after 2 (100), then the last. */
  CHECK(YACItemsRemove(&removed, &items, root, YACItemNone) == YACErrNo &&
            removed == x,
        "remove first");
  CHECK(YACItemsRemove(&removed, &items, root, n2) == YACErrNo &&
            removed == x100,
        "remove middle");
  {
    uint64_t u = 0;
    CHECK(YACItemsGetUint(&u, &items, removed) == YACErrNo && u == 100,
          "removed node keeps its value");
  }
  CHECK(YACItemsRemove(&removed, &items, root, YACItemsNth(&items, root, 3)) ==
            YACErrNo,
        "remove last");
  CHECK(YACItemsRemove(&old, &items, root, YACItemsNth(&items, root, 3)) ==
            YACErrInvalid,
        "remove after the last");
  build_uint_list(&want, 0, 4);
  check_edit_result(&items, root, &want, "prepend, remove");

  /* Replace the first and a middle one: [10, 1, 12, 3]. */
  x = add_uint(&items, 10);
  CHECK(YACItemsReplace(&old, &items, root, YACItemNone, x) == YACErrNo,
        "replace first");
  CHECK(YACItemsType(&items, old) == YACItemPint && YACItemsNext(&items, old) ==
                                                        YACItemNone,
        "replaced is unlinked");
  x = add_uint(&items, 12);
  first = YACItemsFirst(&items, root);
  CHECK(YACItemsReplace(&old, &items, root, YACItemsNext(&items, first), x) ==
            YACErrNo,
        "replace middle");
  /* The replaced node can go elsewhere: append 2 after the last. */
  CHECK(YACItemsInsertAfter(&items, root, YACItemsNth(&items, root, 3), old) ==
            YACErrNo,
        "reinsert replaced");
  want.n = 0;
  PUT0(&want, YACAtomListEncode);
  PUT(&want, YACAtomUintEncode, 10);
  PUT(&want, YACAtomUintEncode, 1);
  PUT(&want, YACAtomUintEncode, 12);
  PUT(&want, YACAtomUintEncode, 3);
  PUT(&want, YACAtomUintEncode, 2);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "replace");
  CHECK(YACItemsChildCount(&count, &items, root) == YACErrNo && count == 5,
        "replace count");

  /* Cycles: a LIST into itself or into its own descendant. */
  {
    uint32_t inner = add_plain(&items, YACItemList);
    CHECK(YACItemsPrepend(&items, root, inner) == YACErrNo, "nested list");
    CHECK(YACItemsPrepend(&items, inner, root) == YACErrInvalid,
          "root into its child");
    YACItemsBuildReset(&items);
    CHECK(YACItemsRemove(&old, &items, root, YACItemNone) == YACErrNo &&
              old == inner,
          "unlink nested");
    CHECK(YACItemsPrepend(&items, inner, inner) == YACErrInvalid,
          "list into itself");
    YACItemsBuildReset(&items);
  }
  check_edit_result(&items, root, &want, "after refused cycles");
}

static void test_map_edits(void) {
  struct Doc d, want;
  struct YACItem pool[64];
  struct YACItems items;
  uint32_t root, k, v, old;
  size_t off = 0, count = 0;
  d.n = 0;
  PUT0(&d, YACAtomMapEncode);
  PUT_STR(&d, "b");
  PUT(&d, YACAtomUintEncode, 2);
  PUT_STR(&d, "dd");
  PUT(&d, YACAtomUintEncode, 4);
  PUT0(&d, YACAtomEOCEncode);
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "map");

  /* New keys go to their place: "a" first, "c" between, "eee" last. */
  k = add_bytes(&items, YACItemStr, "c", 1, YACErrNo);
  v = add_uint(&items, 3);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo &&
            old == YACItemNone,
        "set c");
  k = add_bytes(&items, YACItemStr, "a", 1, YACErrNo);
  v = add_uint(&items, 1);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo, "set a");
  k = add_bytes(&items, YACItemStr, "eee", 3, YACErrNo);
  v = add_plain(&items, YACItemNIL);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo, "set eee");
  /* An existing key: its value is replaced. */
  k = add_bytes(&items, YACItemStr, "dd", 2, YACErrNo);
  v = add_uint(&items, 44);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo, "set dd");
  CHECK(YACItemsGetUint((uint64_t[1]){0}, &items, old) == YACErrNo, "old dd");
  CHECK(YACItemsMapGet(&items, root, "dd") == v, "dd replaced");
  CHECK(YACItemsChildCount(&count, &items, root) == YACErrNo && count == 10,
        "map count");
  want.n = 0;
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "a");
  PUT(&want, YACAtomUintEncode, 1);
  PUT_STR(&want, "b");
  PUT(&want, YACAtomUintEncode, 2);
  PUT_STR(&want, "c");
  PUT(&want, YACAtomUintEncode, 3);
  PUT_STR(&want, "dd");
  PUT(&want, YACAtomUintEncode, 44);
  PUT_STR(&want, "eee");
  PUT0(&want, YACAtomNILEncode);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "map set");

  /* Delete: present, absent. */
  CHECK(YACItemsMapDel(&old, &items, root, "c", 1) ==
            YACErrNo,
        "del c");
  CHECK(YACItemsType(&items, old) == YACItemPint, "del c");
  CHECK(YACItemsMapDel(&old, &items, root, "zz", 2) ==
                YACErrNo &&
            old == YACItemNone,
        "del absent");
  CHECK(YACItemsMapDel(&old, &items, root, "a", 1) ==
            YACErrNo,
        "del first");
  CHECK(YACItemsMapDel(&old, &items, root, "eee", 3) ==
            YACErrNo,
        "del last");
  want.n = 0;
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "b");
  PUT(&want, YACAtomUintEncode, 2);
  PUT_STR(&want, "dd");
  PUT(&want, YACAtomUintEncode, 44);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "map del");

  /* Refused: bad keys, the same node as key and value, LIST-style edits,
   * a container value into itself. */
  v = add_uint(&items, 9);
  k = add_uint(&items, 8);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrMapBadKey,
        "INT key");
  YACItemsBuildReset(&items);
  k = add_bytes(&items, YACItemStr, "", 0, YACErrNo);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrMapBadKey,
        "empty key");
  YACItemsBuildReset(&items);
  k = add_bytes(&items, YACItemStr, "q", 1, YACErrNo);
  CHECK(YACItemsMapSet(&old, &items, root, k, k) == YACErrInvalid,
        "key is value");
  YACItemsBuildReset(&items);
  CHECK(YACItemsMapSet(&old, &items, k, k, v) == YACErrInvalid, "not a MAP");
  YACItemsBuildReset(&items);
  CHECK(YACItemsMapSet(&old, &items, root, k, root) == YACErrInvalid,
        "MAP into itself");
  YACItemsBuildReset(&items);
  CHECK(YACItemsPrepend(&items, root, v) == YACErrInvalid, "prepend to MAP");
  YACItemsBuildReset(&items);
  CHECK(YACItemsInsertAfter(&items, root, YACItemsFirst(&items, root), v) ==
            YACErrInvalid,
        "insert into MAP");
  YACItemsBuildReset(&items);
  CHECK(YACItemsRemove(&old, &items, root, YACItemNone) == YACErrInvalid,
        "remove from MAP");
  CHECK(YACItemsReplace(&old, &items, root, YACItemNone, v) == YACErrInvalid,
        "replace in MAP");
  check_edit_result(&items, root, &want, "after refused map edits");

  /* SetValue: a value in place; a key out of order is refused by Encode. */
  {
    struct YACAtom a;
    unsigned char out[64];
    memset(&a, 0, sizeof a);
    a.typ = YACItemNint;
    a.v.sint = -7;
    CHECK(YACItemsSetValue(&items, YACItemsMapGet(&items, root, "b"), &a) ==
              YACErrNo,
          "set value");
    CHECK(YACItemsSetValue(&items, root, &a) == YACErrInvalid,
          "set value of a MAP");
    a.typ = YACItemList;
    CHECK(YACItemsSetValue(&items, YACItemsMapGet(&items, root, "b"), &a) ==
              YACErrInvalid,
          "set value to a LIST");
    want.n = 0;
    PUT0(&want, YACAtomMapEncode);
    PUT_STR(&want, "b");
    PUT(&want, YACAtomSintEncode, -7);
    PUT_STR(&want, "dd");
    PUT(&want, YACAtomUintEncode, 44);
    PUT0(&want, YACAtomEOCEncode);
    check_edit_result(&items, root, &want, "set value");
    a.typ = YACItemStr;
    a.v.bytes.ptr = (const unsigned char *)"zzz";
    a.v.bytes.len = 3;
    CHECK(YACItemsSetValue(&items, YACItemsFirst(&items, root), &a) ==
              YACErrNo,
          "key changed");
    off = 0;
    CHECK(YACItemsEncode(&items, root, &off, out, sizeof out) ==
              YACErrMapUnordered,
          "unordered after key change");
    CHECK(YACItemsEncodedLen(&count, &items, root) == YACErrMapUnordered,
          "unordered after key change");
    a.typ = YACItemPint;
    a.v.uint = 1;
    CHECK(YACItemsSetValue(&items, YACItemsFirst(&items, root), &a) ==
              YACErrNo,
          "key made an INT");
    off = 0;
    CHECK(YACItemsEncode(&items, root, &off, out, sizeof out) ==
              YACErrMapBadKey,
          "INT key refused by Encode");
  }
}

/* Nodes made from atoms: every type, and the refused ones. */
static void test_add(void) {
  static const unsigned char f16_one[2] = {0x3C, 0x00};
  static const unsigned char f32_one[4] = {0x3F, 0x80, 0x00, 0x00};
  static const unsigned char neg0[2] = {0x80, 0x00};
  static const unsigned char tai_bad[8] = {0x80, 0, 0, 0, 0, 0, 0, 0};
  static const unsigned char big0[3] = {0, 0, 5};
  static const unsigned char magic[12] = {'K', 'E', 'K', 'S', 'x'};
  struct YACItem pool[32];
  struct YACItems items;
  struct YACAtom a;
  uint32_t idx, blob, c1, c2;
  unsigned char out[64];
  size_t off;
  struct Doc want;
  YACItemsInit(&items, pool, COUNT(pool));
  add_bytes(&items, YACItemFloat, f16_one, 2, YACErrNo);
  add_bytes(&items, YACItemFloat, f32_one, 4, YACErrFloatNonMinimal);
  add_bytes(&items, YACItemFloat, neg0, 2, YACErrFloatNonMinimal);
  add_bytes(&items, YACItemFloat, f32_one, 3, YACErrInvalid);
  add_bytes(&items, YACItemTAI64, tai_bad, 8, YACErrTAI64TooBig);
  add_bytes(&items, YACItemTAI64, tai_bad, 7, YACErrInvalid);
  add_bytes(&items, YACItemHexlet, doc_hexlet, 15, YACErrInvalid);
  add_bytes(&items, YACItemHexlet, NULL, 16, YACErrInvalid);
  add_bytes(&items, YACItemMagic, magic, 11, YACErrInvalid);
  add_bytes(&items, YACItemStr, "a\0b", 3, YACErrBadUTF8);
  add_bytes(&items, YACItemStr, "\xC0\x80", 2, YACErrBadUTF8);
  add_bytes(&items, YACItemStr, NULL, 0, YACErrNo);
  add_bytes(&items, YACItemBin, NULL, 0, YACErrNo);
  memset(&a, 0, sizeof a);
  a.typ = YACItemEOC;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add EOC");
  YACItemsBuildReset(&items);
  a.typ = YACItemInvalid;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add Invalid");
  YACItemsBuildReset(&items);
  a.typ = 99;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add 99");
  YACItemsBuildReset(&items);
  a.typ = YACItemNint;
  a.v.sint = 0;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add Nint 0");
  YACItemsBuildReset(&items);

  /* Leading zeros of a bigint magnitude are dropped: 5 encodes as +INT 5. */
  idx = add_bytes(&items, YACItemPbig, big0, sizeof big0, YACErrNo);
  off = 0;
  CHECK(YACItemsEncode(&items, idx, &off, out, sizeof out) == YACErrNo &&
            off == 3 && out[0] == 0x0C && out[1] == 0x81 && out[2] == 5,
        "bigint canonical");
  idx = add_bytes(&items, YACItemMagic, magic, 12, YACErrNo);
  off = 0;
  CHECK(YACItemsEncode(&items, idx, &off, out, sizeof out) == YACErrNo &&
            off == 16,
        "magic node");

  /* A BLOB built by hand: chunk length 3, "abc" then "de". */
  memset(&a, 0, sizeof a);
  a.typ = YACItemBlob;
  a.v.uint = 2;
  CHECK(YACItemsAdd(&blob, &items, &a) == YACErrNo, "add BLOB");
  CHECK(YACItemsType(&items, blob + 1) == YACItemInvalid, "BLOB slot");
  c2 = add_bytes(&items, YACItemBin, "de", 2, YACErrNo);
  c1 = add_bytes(&items, YACItemBin, "abc", 3, YACErrNo);
  CHECK(YACItemsPrepend(&items, blob, c2) == YACErrNo, "chunk de");
  CHECK(YACItemsPrepend(&items, blob, c1) == YACErrNo, "chunk abc");
  CHECK(YACItemsPrepend(&items, blob, add_uint(&items, 1)) ==
            YACErrBlobBadTerm,
        "INT into a BLOB");
  YACItemsBuildReset(&items);
  want.n = 0;
  PUT(&want, YACAtomBlobEncode, 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"abc", 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"de", 2);
  check_edit_result(&items, blob, &want, "hand-made BLOB");
  /* The BLOB's extension slot is not a node: no edit may use it. */
  CHECK(YACItemsSetValue(&items, blob + 1, &a) == YACErrInvalid,
        "SetValue on a BLOB slot");
  a.typ = YACItemPint;
  a.v.uint = 7;
  CHECK(YACItemsSetValue(&items, blob + 1, &a) == YACErrInvalid,
        "SetValue on a BLOB slot");
  c1 = add_bytes(&items, YACItemBin, "xyz", 3, YACErrNo);
  CHECK(YACItemsInsertAfter(&items, blob, blob + 1, c1) == YACErrInvalid,
        "insert after a BLOB slot");
  YACItemsBuildReset(&items);
  check_edit_result(&items, blob, &want, "BLOB untouched");
  /* A full chunk after the short one is refused on the way out. */
  CHECK(YACItemsInsertAfter(&items, blob, c2, c1) == YACErrNo, "chunk xyz");
  off = 0;
  CHECK(YACItemsEncode(&items, blob, &off, out, sizeof out) ==
            YACErrBlobBadChunk,
        "short chunk not last");
  /* A full last chunk gets the empty terminating chunk. */
  CHECK(YACItemsRemove(&idx, &items, blob, YACItemsFirst(&items, blob)) ==
            YACErrNo &&
            idx == c2,
        "remove de");
  want.n = 0;
  PUT(&want, YACAtomBlobEncode, 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"abc", 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"xyz", 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"", 0);
  check_edit_result(&items, blob, &want, "BLOB of full chunks");

  /* The pool full: Add is NoMem, nothing changes. */
  while (items.len < items.cap) {
    add_uint(&items, 1);
  }
  memset(&a, 0, sizeof a);
  a.typ = YACItemNIL;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrNoMem, "add to a full pool");
  YACItemsBuildReset(&items);
  CHECK(items.len == items.cap, "add to a full pool");
}

/* Graft: a second document parsed into the same pool goes into the first. */
static void test_graft(void) {
  struct Doc a, b, want;
  struct YACItem pool[64];
  struct YACItems items;
  uint32_t ra, rb, rc, old;
  size_t off = 0;
  build_uint_list(&a, 1, 3); /* [1, 2, 3] */
  b.n = 0;                   /* {k: "v"} */
  PUT0(&b, YACAtomMapEncode);
  PUT_STR(&b, "k");
  PUT_STR(&b, "v");
  PUT0(&b, YACAtomEOCEncode);
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &ra, &off, a.b, a.n) == YACErrNo, "graft a");
  off = 0;
  CHECK(YACItemsParse(&items, &rb, &off, b.b, b.n) == YACErrNo, "graft b");
  off = 0;
  CHECK(YACItemsParse(&items, &rc, &off, b.b, b.n) == YACErrNo, "graft c");
  CHECK(YACItemsInsertAfter(&items, ra, YACItemsNth(&items, ra, 1), rb) ==
            YACErrNo,
        "graft insert");
  CHECK(YACItemsReplace(&old, &items, ra, YACItemNone, rc) == YACErrNo,
        "graft replace");
  CHECK(YACItemsPrepend(&items, rb, ra) == YACErrInvalid,
        "graft a cycle through the grafted MAP");
  YACItemsBuildReset(&items);
  want.n = 0;
  PUT0(&want, YACAtomListEncode);
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "k");
  PUT_STR(&want, "v");
  PUT0(&want, YACAtomEOCEncode);
  PUT(&want, YACAtomUintEncode, 2);
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "k");
  PUT_STR(&want, "v");
  PUT0(&want, YACAtomEOCEncode);
  PUT(&want, YACAtomUintEncode, 3);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, ra, &want, "graft");
  CHECK(YACItemsMapGet(&items, YACItemsNth(&items, ra, 2), "k") == rb + 2,
        "grafted MAP reachable");
  /* The grafted MAP can be moved out again and encoded alone. */
  CHECK(YACItemsRemove(&old, &items, ra, YACItemsNth(&items, ra, 1)) ==
                YACErrNo &&
            old == rb,
        "ungraft");
  check_edit_result(&items, rb, &b, "ungrafted");
}

/* Events and depths of a walk, checked one by one. */
static void test_walk(void) {
  struct Doc d;
  struct YACItem pool[16];
  struct YACItems items;
  struct YACWalk walk;
  uint32_t root, idx, depth;
  YACWalkEvent ev;
  size_t off = 0, i;
  /* [1, {a: []}, BLOB 3 "abc" "d", "x"]: nodes 0 L, 1 one, 2 MAP, 3 "a",
   * 4 L, 5 BLOB, 6 its slot, 7 "abc", 8 "d", 9 "x". */
  static const struct {
    YACWalkEvent ev;
    uint32_t idx, depth;
  } want[] = {{YACWalkEnter, 0, 0}, {YACWalkLeaf, 1, 1},  {YACWalkEnter, 2, 1},
              {YACWalkLeaf, 3, 2},  {YACWalkEnter, 4, 2}, {YACWalkExit, 4, 2},
              {YACWalkExit, 2, 1},  {YACWalkEnter, 5, 1}, {YACWalkLeaf, 7, 2},
              {YACWalkLeaf, 8, 2},  {YACWalkExit, 5, 1},  {YACWalkLeaf, 9, 1},
              {YACWalkExit, 0, 0},  {YACWalkEnd, YACItemNone, 0}},
    want_map[] = {{YACWalkEnter, 2, 0}, {YACWalkLeaf, 3, 1},
                  {YACWalkEnter, 4, 1}, {YACWalkExit, 4, 1},
                  {YACWalkExit, 2, 0},  {YACWalkEnd, YACItemNone, 0}},
    want_leaf[] = {{YACWalkLeaf, 9, 0}, {YACWalkEnd, YACItemNone, 0}};
  d.n = 0;
  PUT0(&d, YACAtomListEncode);
  PUT(&d, YACAtomUintEncode, 1);
  PUT0(&d, YACAtomMapEncode);
  PUT_STR(&d, "a");
  PUT0(&d, YACAtomListEncode);
  PUT0(&d, YACAtomEOCEncode);
  PUT0(&d, YACAtomEOCEncode);
  PUT(&d, YACAtomBlobEncode, 3);
  PUT(&d, YACAtomChunkEncode, (const unsigned char *)"abc", 3);
  PUT(&d, YACAtomChunkEncode, (const unsigned char *)"d", 1);
  PUT_STR(&d, "x");
  PUT0(&d, YACAtomEOCEncode);
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "walk doc");
  CHECK(items.len == 10, "walk doc");
  YACItemsWalkInit(&walk, &items, root);
  for (i = 0; i < COUNT(want); i++) {
    CHECK(YACItemsWalkNext(&ev, &idx, &depth, &walk, &items) == YACErrNo,
          "walk");
    CHECK(ev == want[i].ev && idx == want[i].idx && depth == want[i].depth,
          "walk event");
  }
  CHECK(YACItemsWalkNext(&ev, &idx, &depth, &walk, &items) == YACErrNo &&
            ev == YACWalkEnd,
        "walk stays ended");
  YACItemsWalkInit(&walk, &items, 2);
  for (i = 0; i < COUNT(want_map); i++) {
    CHECK(YACItemsWalkNext(&ev, &idx, &depth, &walk, &items) == YACErrNo,
          "walk map");
    CHECK(ev == want_map[i].ev && idx == want_map[i].idx &&
              depth == want_map[i].depth,
          "walk map event");
  }
  YACItemsWalkInit(&walk, &items, 9);
  for (i = 0; i < COUNT(want_leaf); i++) {
    CHECK(YACItemsWalkNext(&ev, &idx, &depth, &walk, &items) == YACErrNo,
          "walk leaf");
    CHECK(ev == want_leaf[i].ev && idx == want_leaf[i].idx &&
              depth == want_leaf[i].depth,
          "walk leaf event");
  }
  /* A pool corrupted by hand (a sibling loop) ends the walk with
   * YACErrInvalid instead of looping. */
  pool[9].next = 1;
  YACItemsWalkInit(&walk, &items, root);
  for (i = 0; i < 100; i++) {
    YACErr err = YACItemsWalkNext(&ev, &idx, &depth, &walk, &items);
    if (err != YACErrNo) {
      CHECK(err == YACErrInvalid, "broken walk");
      break;
    }
    CHECK(ev != YACWalkEnd, "broken walk does not end normally");
  }
  CHECK(i < 100, "broken walk stops");
  off = 0;
  {
    unsigned char out[64];
    CHECK(YACItemsEncode(&items, root, &off, out, sizeof out) ==
              YACErrInvalid,
          "broken tree does not encode");
  }
}

/* YACItemsTrustUTF8 skips STR validation; GetStr still validates. */
static void test_trust_utf8(void) {
  static const unsigned char doc[] = {0x08, 0xC2, 0xC0, 0x80, 0x00};
  struct YACItem pool[4];
  struct YACItems items;
  uint32_t root;
  size_t off = 0, len = 0;
  const char *s;
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrBadUTF8,
        "untrusted");
  CHECK(off == 1 && items.len == 0, "untrusted");
  items.flags = YACItemsTrustUTF8;
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrNo,
        "trusted");
  CHECK(YACItemsGetStr(&s, &len, &items, 1) == YACErrBadUTF8, "GetStr");
  check_encodes_to(&items, root, doc, sizeof doc, "trusted round trip");
}

int main(void) {
  CHECK(sizeof(struct YACItem) == 16, "16-byte nodes");
  test_vectors();
  test_invalid();
  test_rich_doc();
  test_bad_arguments();
  test_grow();
  test_deep();
  test_list_edits();
  test_map_edits();
  test_add();
  test_graft();
  test_walk();
  test_trust_utf8();
  return check_report();
}
