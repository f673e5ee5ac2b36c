/* Pools and round trips for the tree's C tests: exact-size heap copies and
 * pools (so that the sanitizers see reads past the end), the encode check,
 * the round trip whole and fed incrementally, and the pool running out at
 * every node count. Needs check.h first. */
#ifndef YAC_TEST_ROUND_TRIP_H
#define YAC_TEST_ROUND_TRIP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yac.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static inline void *xmalloc(size_t n) {
  void *p = malloc(n == 0 ? 1 : n);
  if (p == NULL) {
    perror("malloc");
    exit(EXIT_FAILURE);
  }
  return p;
}

/* An exact-size heap copy, so that the sanitizers see reads past the end. */
static inline unsigned char *copy_of(const unsigned char *buf, size_t len) {
  unsigned char *copy = xmalloc(len);
  if (len > 0) {
    memcpy(copy, buf, len);
  }
  return copy;
}

/* An exact-size pool of `cap` nodes (NULL for 0, which YACItemsInit
 * accepts), filled with a pattern so that unwritten nodes are not zero. */
static inline struct YACItem *new_pool(size_t cap) {
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
static inline uint32_t rng(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return rng_state >> 8;
}

/* Encodes `idx` into a fresh exact-size buffer and compares with `want`;
 * also checks YACItemsEncodedLen and that one byte less is YACErrNoMem
 * with `*off` unchanged. */
static inline void check_encodes_to(const struct YACItems *items, uint32_t idx,
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
static inline size_t check_round_trip(const unsigned char *doc, size_t len,
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
static inline void check_exhaustion(const unsigned char *a, size_t a_len,
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

#endif
