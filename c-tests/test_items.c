/* The tree's C API, driven as a C caller would: parse then encode byte
 * for byte on every FORMAT.md vector (yac_vectors.h, shared with the Rust
 * tests) and on documents built with the atom encoders; the pool running
 * out at every possible node count; the growth callback; incremental
 * input fed byte by byte and in random chunks; a LIST nested a million
 * deep; maxDepth; walks. Arguments: test_items_args.c; edits:
 * test_items_edits.c. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "docs.h"
#include "nodes.h"
#include "round_trip.h"
#include "yac.h"
#include "yac_vectors.h"

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
  test_grow();
  test_deep();
  test_walk();
  test_trust_utf8();
  return check_report();
}
