/* Tree edits from C, each case a regression test (a `prev` from another
 * container, edits between incremental parse calls, Abort after them, a
 * new parse taken for the rest of an old one, NaN reads, the limit of
 * YACItemsAdd), YACItemsCheck after every step and on corrupted
 * pools, and cursors (O(1) insert, remove, replace, append, staleness). */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tree_checks.h"
#include "yac.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* [1, 2] and [3]. */
static const unsigned char list_a[] = {0x08, 0x0C, 0x81, 0x01, 0x0C, 0x81, 0x02, 0x00};
static const unsigned char list_b[] = {0x08, 0x0C, 0x81, 0x03, 0x00};


static bool encodes_to(const struct YACItems *items, uint32_t idx, const unsigned char *want,
                       size_t n) {
  unsigned char out[256];
  size_t off = 0;
  return YACItemsEncode(items, idx, &off, out, sizeof out) == YACErrNo && off == n &&
         memcmp(out, want, n) == 0;
}

static uint32_t add_uint(struct YACItems *items, uint64_t v) {
  struct YACAtom a;
  uint32_t idx = YACItemNone;
  memset(&a, 0, sizeof a);
  a.typ = YACItemPint;
  a.v.uint = v;
  CHECK(YACItemsAdd(&idx, items, &a) == YACErrNo, "add uint");
  return idx;
}

static uint32_t add_typ(struct YACItems *items, YACItemType typ, const char *s) {
  struct YACAtom a;
  uint32_t idx = YACItemNone;
  memset(&a, 0, sizeof a);
  a.typ = typ;
  if (s != NULL) {
    a.v.bytes.ptr = (const unsigned char *)s;
    a.v.bytes.len = strlen(s);
  }
  CHECK(YACItemsAdd(&idx, items, &a) == YACErrNo, "add");
  return idx;
}

static void test_foreign_prev(void) {
  struct YACItem pool[32];
  struct YACItems items;
  struct YACItem before[32];
  uint32_t a, b, a0, b0, x, list, out = 0;
  size_t n = 0;
  static const unsigned char a_after[] = {0x08, 0x0C, 0x81, 0x01, 0x0C, 0x81, 0x09,
                                          0x0C, 0x81, 0x02, 0x00};
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  a = parse_whole(&items, list_a, sizeof list_a, "parse A");
  b = parse_whole(&items, list_b, sizeof list_b, "parse B");
  a0 = YACItemsFirst(&items, a);
  b0 = YACItemsFirst(&items, b);
  x = add_uint(&items, 9);
  list = add_typ(&items, YACItemList, NULL);
  memcpy(before, pool, sizeof pool);
  /* A child of B as prev under A: refused, nothing changed. */
  CHECK(YACItemsInsertAfter(&items, a, b0, x) == YACErrInvalid, "foreign insert");
  YACItemsBuildReset(&items);
  CHECK(YACItemsRemove(&out, &items, a, b0) == YACErrInvalid, "foreign remove");
  CHECK(YACItemsReplace(&out, &items, a, b0, x) == YACErrInvalid, "foreign replace");
  /* The cycle began with an InsertAfter with a foreign prev. */
  CHECK(YACItemsInsertAfter(&items, a, b0, list) == YACErrInvalid, "foreign list");
  YACItemsBuildReset(&items);
  CHECK(YACItemsPrepend(&items, list, list) == YACErrInvalid, "a list into itself");
  YACItemsBuildReset(&items);
  CHECK(memcmp(before, pool, sizeof pool) == 0, "refusals changed nothing");
  /* Properly placed, a list cannot then take what holds it. */
  CHECK(YACItemsPrepend(&items, b, list) == YACErrNo, "list into B");
  CHECK(YACItemsPrepend(&items, list, b) == YACErrInvalid, "B into its child");
  YACItemsBuildReset(&items);
  CHECK(YACItemsRemove(&out, &items, b, YACItemNone) == YACErrNo && out == list, "out again");
  CHECK(YACItemsChildCount(&n, &items, a) == YACErrNo && n == 2, "count of A");
  CHECK(YACItemsChildCount(&n, &items, b) == YACErrNo && n == 1, "count of B");
  check_ok(&items, "after foreign prevs");
  CHECK(YACItemsInsertAfter(&items, a, a0, x) == YACErrNo, "own prev");
  CHECK(encodes_to(&items, a, a_after, sizeof a_after), "A encodes");
  CHECK(encodes_to(&items, b, list_b, sizeof list_b), "B encodes");
  check_ok(&items, "after insert");
}

static void test_edits_during_parse(void) {
  /* 08 01 01 | 02 00: the document, cut after three bytes. */
  static const unsigned char doc[] = {0x08, 0x01, 0x01, 0x02, 0x00};
  struct YACItem pool[16];
  struct YACItems items;
  struct YACItem before[16];
  struct YACAtom t;
  uint32_t root = YACItemNone, idx = YACItemNone;
  size_t off = 0;
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(!YACItemsParsing(&items), "idle");
  CHECK(YACItemsParse(&items, &root, &off, doc, 3) == YACErrNotEnough, "cut");
  CHECK(YACItemsParsing(&items), "parsing");
  memcpy(before, pool, sizeof pool);
  memset(&t, 0, sizeof t);
  t.typ = YACItemTrue;
  CHECK(YACItemsAdd(&idx, &items, &t) == YACErrInvalid, "add refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsInsertAfter(&items, 0, 1, 2) == YACErrInvalid, "insert refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsPrepend(&items, 0, 2) == YACErrInvalid, "prepend refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsSetValue(&items, 1, &t) == YACErrInvalid, "set refused");
  CHECK(YACItemsType(&items, 0) == YACItemInvalid, "open document invisible");
  CHECK(memcmp(before, pool, sizeof pool) == 0 && items.len == 3, "nothing changed");
  check_ok(&items, "during the parse");
  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrNo, "finish");
  CHECK(!YACItemsParsing(&items), "finished");
  CHECK(encodes_to(&items, root, doc, sizeof doc), "document as parsed");
  check_ok(&items, "after the parse");
}

static void test_abort_after_edit(void) {
  static const unsigned char doc[] = {0x08, 0x08, 0x01, 0x02, 0x00, 0x00};
  struct YACItem pool[16];
  struct YACItems items;
  uint32_t old, root = YACItemNone, x = YACItemNone;
  size_t off = 0;
  struct YACAtom u;
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  old = parse_whole(&items, list_a, sizeof list_a, "older tree");
  CHECK(YACItemsParse(&items, &root, &off, doc, 4) == YACErrNotEnough, "cut");
  memset(&u, 0, sizeof u);
  u.typ = YACItemPint;
  u.v.uint = 7;
  CHECK(YACItemsAdd(&x, &items, &u) == YACErrInvalid, "add refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsInsertAfter(&items, old, YACItemsFirst(&items, old), 3) == YACErrInvalid,
        "insert into the older tree refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsAbort(&items) == YACErrNo && !YACItemsParsing(&items), "abort");
  CHECK(items.len == 3, "back to the older tree");
  check_ok(&items, "after abort");
  CHECK(encodes_to(&items, old, list_a, sizeof list_a), "older tree intact");
  CHECK(YACItemsAdd(&x, &items, &u) == YACErrNo && x == 3, "next add makes a new node");
  CHECK(encodes_to(&items, old, list_a, sizeof list_a), "older tree still intact");
  check_ok(&items, "after add");
}

static void test_new_parse_does_not_continue(void) {
  struct YACItem pool[16];
  struct YACItems items;
  uint32_t root = YACItemNone;
  size_t off = 0, off2 = 0;
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, list_a, 4) == YACErrNotEnough, "cut");
  /* Another buffer: refused, the unfinished parse kept. */
  CHECK(YACItemsParse(&items, &root, &off2, list_b, sizeof list_b) == YACErrInvalid,
        "another buffer");
  CHECK(off2 == 0 && YACItemsParsing(&items), "nothing changed");
  /* The same buffer from another offset: refused too. */
  CHECK(YACItemsParse(&items, &root, &off2, list_a, sizeof list_a) == YACErrInvalid,
        "another offset");
  CHECK(YACItemsParse(&items, &root, &off, list_a, sizeof list_a) == YACErrNo, "resumed");
  CHECK(encodes_to(&items, root, list_a, sizeof list_a), "whole document");
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, list_b, 2) == YACErrNotEnough, "cut again");
  CHECK(YACItemsAbort(&items) == YACErrNo, "abort");
  off2 = 0;
  CHECK(YACItemsParse(&items, &root, &off2, list_a, sizeof list_a) == YACErrNo,
        "a new document after abort");
  check_ok(&items, "after the parses");
}

/* The bits of the double at `d`, read from memory: passing a double by
 * value would load it into an x87 register on i686, which quiets a
 * signalling NaN. */
static uint64_t bits_at(const double *d) {
  uint64_t b;
  memcpy(&b, d, sizeof b);
  return b;
}

static void test_nan(void) {
  /* 10 7C01: binary16 signalling NaN, payload 1; 11 7F800001: binary32
   * signalling NaN. */
  static const unsigned char h[] = {0x10, 0x7C, 0x01};
  static const unsigned char f[] = {0x11, 0x7F, 0x80, 0x00, 0x01};
  struct YACItem pool[4];
  struct YACItems items;
  double d = 0;
  uint32_t r;
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  r = parse_whole(&items, h, sizeof h, "f16 NaN");
  CHECK(YACItemsGetFloat(&d, &items, r) == YACErrNo, "get f16");
  CHECK(bits_at(&d) == UINT64_C(0x7FF0040000000000), "f16 NaN bits");
  r = parse_whole(&items, f, sizeof f, "f32 NaN");
  CHECK(YACItemsGetFloat(&d, &items, r) == YACErrNo, "get f32");
  CHECK(bits_at(&d) == UINT64_C(0x7FF0000020000000), "f32 NaN bits");
  CHECK(YACFloatToDouble(&d, h + 1, 2) == YACErrNo, "f16 to double");
  CHECK(bits_at(&d) == UINT64_C(0x7FF0040000000000), "f16 to double bits");
#if !defined(__i386__) || defined(__SSE2_MATH__)
  /* Passing the double by value keeps it, except on x87 (see the header's
   * note at YACItemsGetFloat). */
  {
    unsigned char out[16];
    size_t n = 0;
    CHECK(YACAtomFloatEncode(&n, out, sizeof out, d) == YACErrNo, "encode f16 NaN");
    CHECK(n == sizeof h && memcmp(out, h, n) == 0, "f16 NaN round trip");
    CHECK(YACItemsGetFloat(&d, &items, r) == YACErrNo, "get f32 again");
    CHECK(YACAtomFloatEncode(&n, out, sizeof out, d) == YACErrNo, "encode f32 NaN");
    CHECK(n == sizeof f && memcmp(out, f, n) == 0, "f32 NaN round trip");
  }
#endif
}

static void test_add_limit(void) {
  struct YACItem pool[4];
  struct YACItems items;
  struct YACAtom a;
  uint32_t idx = YACItemNone;
  size_t big = ((size_t)1 << 27) - 1;
  unsigned char *p = calloc(big, 1);
  if (p == NULL) {
    return;
  }
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  memset(&a, 0, sizeof a);
  a.typ = YACItemBin;
  a.v.bytes.ptr = p;
  a.v.bytes.len = big;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrLenTooBig && items.len == 0,
        "2^27 - 1 bytes refused");
  YACItemsBuildReset(&items);
  a.v.bytes.len = big - 1;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrNo && items.len == 1, "2^27 - 2 bytes taken");
  free(p);
}

static void test_check_finds_corruption(void) {
  struct YACItem pool[16];
  struct YACItem before[16];
  struct YACItems items;
  uint32_t a, b, node = 0;
  const char *why = NULL;
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  a = parse_whole(&items, list_a, sizeof list_a, "A");
  b = parse_whole(&items, list_b, sizeof list_b, "B");
  check_ok(&items, "healthy");
  /* A's last child linked to B's child: a node in two places. */
  pool[2].next = 4;
  pool[a].meta += 1u << 5;
  memcpy(before, pool, sizeof pool);
  CHECK(YACItemsCheck(&node, &why, &items) == YACErrInvalid, "shared node");
  CHECK(node == 4 && why != NULL && strstr(why, "two places") != NULL, "where and why");
  CHECK(memcmp(before, pool, sizeof pool) == 0, "marks cleared");
  pool[2].next = YACItemNone;
  /* A's count says 3. */
  CHECK(YACItemsCheck(NULL, NULL, &items) == YACErrInvalid, "count");
  pool[a].meta -= 1u << 5;
  check_ok(&items, "repaired");
  (void)b;
}

static void test_cursors(void) {
  struct YACItem pool[64];
  struct YACItems items;
  struct YACCursor end, mid, other;
  uint32_t list, x, old = 0, child = 0, i, map, k, v;
  size_t n = 0;
  static const unsigned char want[] = {0x08, 0x0C, 0x80, 0x0C, 0x81, 0x01,
                                       0x02, 0x0C, 0x81, 0x02, 0x00};
  static const unsigned char want_map[] = {0x09, 0xC1, 0x61, 0x0C, 0x81, 0x01, 0xC1,
                                           0x62, 0x0C, 0x81, 0x02, 0x00};
  memset(pool, 0xA5, sizeof pool); /* compared whole: no unset bytes */
  YACItemsInit(&items, pool, COUNT(pool));
  list = add_typ(&items, YACItemList, NULL);
  CHECK(YACItemsCursorEnd(&end, &items, list) == YACErrNo, "end of an empty list");
  for (i = 0; i < 3; i++) {
    x = add_uint(&items, i);
    CHECK(YACItemsCursorInsert(&items, &end, x) == YACErrNo, "append");
    CHECK(YACItemsCursorPrev(&end) == x && YACItemsCursorParent(&end) == list, "cursor moved");
    check_ok(&items, "after append");
  }
  /* Mid-list: after the second child, in O(1). */
  CHECK(YACItemsCursorAfter(&mid, &items, list, YACItemsNth(&items, list, 1)) == YACErrNo,
        "cursor after");
  x = add_typ(&items, YACItemFalse, NULL);
  CHECK(YACItemsCursorInsert(&items, &mid, x) == YACErrNo, "insert mid-list");
  CHECK(encodes_to(&items, list, want, sizeof want), "list");
  CHECK(YACItemsChildCount(&n, &items, list) == YACErrNo && n == 4, "count");
  /* Remove through one cursor: that one stays valid, the others go stale. */
  CHECK(YACItemsCursorFirst(&other, &items, list) == YACErrNo, "first");
  CHECK(YACItemsCursorRemove(&old, &items, &mid) == YACErrNo, "remove after FALSE");
  CHECK(YACItemsCursorPeek(&child, &mid, &items) == YACErrNo && child == YACItemNone,
        "at the end now");
  CHECK(YACItemsCursorPeek(&child, &other, &items) == YACErrInvalid, "stale");
  CHECK(YACItemsCursorInsert(&items, &end, old) == YACErrInvalid, "stale end refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsCursorInsert(&items, &mid, old) == YACErrNo, "put back");
  CHECK(encodes_to(&items, list, want, sizeof want), "list again");
  CHECK(YACItemsCursorFirst(&other, &items, list) == YACErrNo, "new first");
  x = add_uint(&items, 7);
  CHECK(YACItemsCursorReplace(&old, &items, &other, x) == YACErrNo, "replace first");
  k = old;
  CHECK(YACItemsCursorReplace(&old, &items, &other, k) == YACErrNo && old == x, "and back");
  CHECK(encodes_to(&items, list, want, sizeof want), "list once more");
  CHECK(YACItemsCursorNext(&child, &other, &items) == YACErrNo && child == k, "next");
  check_ok(&items, "after cursor edits");
  /* MAP append in key order. */
  map = add_typ(&items, YACItemMap, NULL);
  CHECK(YACItemsCursorEnd(&end, &items, map) == YACErrNo, "end of a map");
  k = add_typ(&items, YACItemStr, "a");
  v = add_uint(&items, 1);
  CHECK(YACItemsMapAppend(&items, &end, k, v) == YACErrNo, "append a");
  k = add_typ(&items, YACItemStr, "b");
  v = add_uint(&items, 2);
  CHECK(YACItemsMapAppend(&items, &end, k, v) == YACErrNo, "append b");
  k = add_typ(&items, YACItemStr, "a");
  v = add_uint(&items, 3);
  CHECK(YACItemsMapAppend(&items, &end, k, v) == YACErrMapUnordered, "a after b refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsCursorInsert(&items, &end, v) == YACErrInvalid, "no insert into a MAP");
  YACItemsBuildReset(&items);
  CHECK(encodes_to(&items, map, want_map, sizeof want_map), "map");
  check_ok(&items, "after map appends");
  /* A cursor of another tree is refused. */
  {
    struct YACItem pool2[8];
    struct YACItems items2;
    YACItemsInit(&items2, pool2, COUNT(pool2));
    (void)parse_whole(&items2, list_a, sizeof list_a, "other tree");
    CHECK(YACItemsCursorInsert(&items2, &end, 0) == YACErrInvalid, "foreign cursor");
    YACItemsBuildReset(&items2);
  }
}

int main(void) {
  test_foreign_prev();
  test_edits_during_parse();
  test_abort_after_edit();
  test_new_parse_does_not_continue();
  test_nan();
  test_add_limit();
  test_check_finds_corruption();
  test_cursors();
  return check_report();
}
