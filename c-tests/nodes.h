/* Nodes made from atoms with YACItemsAdd, for the C tests that edit trees
 * (test_items.c, embedded/mcu_test.c). Needs check.h first. */
#ifndef YAC_TEST_NODES_H
#define YAC_TEST_NODES_H

#include <stdint.h>
#include <string.h>

#include "yac.h"

/* Adds a node for an atom; returns its index (YACItemNone on failure). */
static uint32_t add_uint(struct YACItems *items, uint64_t v) {
  struct YACAtom a;
  uint32_t idx = YACItemNone;
  memset(&a, 0, sizeof a);
  a.typ = YACItemPint;
  a.v.uint = v;
  CHECK(YACItemsAdd(&idx, items, &a) == YACErrNo, "add uint");
  return idx;
}

static uint32_t add_bytes(struct YACItems *items, YACItemType typ,
                          const void *p, size_t len, YACErr want) {
  struct YACAtom a;
  uint32_t idx = YACItemNone;
  uint32_t before = items->len;
  memset(&a, 0, sizeof a);
  a.typ = typ;
  a.v.bytes.ptr = p;
  a.v.bytes.len = len;
  CHECK(YACItemsAdd(&idx, items, &a) == want, "add bytes");
  CHECK(want == YACErrNo || items->len == before, "refused add");
  YACItemsBuildReset(items); /* an expected refusal must not stick */
  return idx;
}

static uint32_t add_plain(struct YACItems *items, YACItemType typ) {
  struct YACAtom a;
  uint32_t idx = YACItemNone;
  memset(&a, 0, sizeof a);
  a.typ = typ;
  CHECK(YACItemsAdd(&idx, items, &a) == YACErrNo, "add plain");
  return idx;
}

#endif /* YAC_TEST_NODES_H */
