/* Checks the C tests that edit trees share: the tree is consistent
 * (YACItemsCheck), and a whole document parses. Needs check.h first. */
#ifndef YAC_TEST_TREE_CHECKS_H
#define YAC_TEST_TREE_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "yac.h"

static inline void check_ok(struct YACItems *items, const char *name) {
  uint32_t node = 0;
  const char *why = NULL;
  YACErr e = YACItemsCheck(&node, &why, items);
  if (e != YACErrNo) {
    fprintf(stderr, "check: node %u: %s\n", (unsigned)node, why ? why : "?");
  }
  CHECK(e == YACErrNo, name);
}

static inline uint32_t parse_whole(struct YACItems *items, const unsigned char *b, size_t n,
                                   const char *name) {
  uint32_t root = YACItemNone;
  size_t off = 0;
  CHECK(YACItemsParse(items, &root, &off, b, n) == YACErrNo && off == n, name);
  return root;
}

#endif /* YAC_TEST_TREE_CHECKS_H */
