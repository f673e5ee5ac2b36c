/* YACValidate against YACItemsParse through the C API: the same verdict,
 * error code, offset and node count on the FORMAT.md vectors (valid,
 * invalid atoms, invalid streams, every prefix), the rich test document,
 * the benchmark documents; levels and maxDepth bound the depth as
 * documented; bad arguments give YACErrInvalid. (yac/tests/validate.rs
 * holds the core validator to the parser on generated and mutated
 * documents too.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data.h"
#include "docs.h"
#include "yac.h"
#include "yac_vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Both from `start`, with `levels` words: same result and offset; on
 * success the validator's node count is the parse's. Returns the result. */
static YACErr same(const unsigned char *buf, size_t len, size_t start, uint32_t max_depth,
                   uint32_t flags, const char *name) {
  struct YACItems items;
  struct YACItem *pool = (struct YACItem *)malloc((len + 2) * sizeof *pool);
  size_t levels[64];
  uint32_t root = 0;
  size_t poff = start, voff = start, nodes = 0;
  YACErr perr, verr;
  if (pool == NULL) {
    CHECK(pool != NULL, name);
    return YACErrNoMem;
  }
  YACItemsInit(&items, pool, len + 2);
  items.maxDepth = max_depth;
  items.flags = flags;
  perr = YACItemsParse(&items, &root, &poff, buf, len);
  verr = YACValidate(&voff, &nodes, levels, COUNT(levels), buf, len, max_depth, flags);
  CHECK(perr == verr, name);
  CHECK(poff == voff, name);
  CHECK(verr != YACErrNo || nodes == items.len, name);
  free(pool);
  return verr;
}

static void same_all_ways(const unsigned char *buf, size_t len, const char *name) {
  uint32_t d;
  same(buf, len, 0, 0, 0, name);
  same(buf, len, 0, 0, YACItemsTrustUTF8, name);
  for (d = 1; d <= 3; d++) {
    same(buf, len, 0, d, 0, name);
  }
}

static void test_levels_and_arguments(void) {
  static const unsigned char deep[] = {0x08, 0x08, 0x08, 0x00, 0x00, 0x00};
  size_t levels[2], off = 0, nodes = 0;
  CHECK(YACValidate(&off, &nodes, levels, 2, deep, sizeof deep, 0, 0) == YACErrNo, "2 levels");
  CHECK(off == sizeof deep && nodes == 3, "2 levels");
  off = 0;
  CHECK(YACValidate(&off, &nodes, levels, 1, deep, sizeof deep, 0, 0) == YACErrNoMem, "1 level");
  CHECK(off == 2, "1 level: at the LIST that did not fit");
  off = 0;
  CHECK(YACValidate(&off, &nodes, NULL, 0, deep, sizeof deep, 1, 0) == YACErrDeepRecursion,
        "maxDepth first");
  off = 0;
  CHECK(YACValidate(&off, &nodes, NULL, 0, deep, 1, 0, 0) == YACErrNotEnough, "cut");
  CHECK(off == 1, "cut");
  off = 0;
  CHECK(YACValidate(NULL, &nodes, levels, 2, deep, sizeof deep, 0, 0) == YACErrInvalid, "off");
  CHECK(YACValidate(&off, NULL, levels, 2, deep, sizeof deep, 0, 0) == YACErrInvalid, "nodes");
  CHECK(YACValidate(&off, &nodes, NULL, 2, deep, sizeof deep, 0, 0) == YACErrInvalid, "levels");
  CHECK(YACValidate(&off, &nodes, levels, 2, NULL, 6, 0, 0) == YACErrInvalid, "buf");
  off = 7;
  CHECK(YACValidate(&off, &nodes, levels, 2, deep, sizeof deep, 0, 0) == YACErrInvalid,
        "off beyond the input");
}

int main(void) {
  static const char *docs[] = {"licenses", "canada-list", "canada-map"};
  struct Doc rich;
  size_t i, cut;
  for (i = 0; i < COUNT(valid_vectors); i++) {
    const struct ValidVector *v = &valid_vectors[i];
    CHECK(same(v->buf, v->len, 0, 0, 0, v->name) == YACErrNo, v->name);
    same_all_ways(v->buf, v->len, v->name);
    for (cut = 0; cut < v->len && v->len < 1024; cut++) {
      CHECK(same(v->buf, cut, 0, 0, 0, v->name) == YACErrNotEnough, v->name);
    }
  }
  for (i = 0; i < COUNT(invalid_vectors); i++) {
    const struct InvalidVector *v = &invalid_vectors[i];
    if (v->buf != NULL) {
      CHECK(same(v->buf, v->len, 0, 0, 0, v->name) == v->err, v->name);
      same_all_ways(v->buf, v->len, v->name);
    }
  }
  for (i = 0; i < COUNT(stream_vectors); i++) {
    const struct StreamVector *v = &stream_vectors[i];
    same_all_ways(v->buf, v->len, v->name);
  }
  rich.n = 0;
  build_rich_doc(&rich);
  CHECK(same(rich.b, rich.n, 0, 0, 0, "rich") == YACErrNo, "rich");
  same_all_ways(rich.b, rich.n, "rich");
  rich.n = 0;
  build_uint_list(&rich, UINT64_C(1) << 40, 300);
  CHECK(same(rich.b, rich.n, 0, 0, 0, "uint list") == YACErrNo, "uint list");
  for (i = 0; i < COUNT(docs); i++) {
    size_t len = 0;
    unsigned char *buf = read_bench_doc(docs[i], &len);
    if (buf != NULL) {
      CHECK(same(buf, len, 0, 0, 0, docs[i]) == YACErrNo, docs[i]);
      same(buf, len, 0, 0, YACItemsTrustUTF8, docs[i]);
      free(buf);
    }
  }
  test_levels_and_arguments();
  return check_report();
}
