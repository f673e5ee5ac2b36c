/* The header's inline reads (YACUnsafeNode*, YAC_UNSAFE_FOREACH, YAC_UNSAFE_MAP_FOREACH)
 * against the checked exported functions, node by node, on every tree
 * at hand: the FORMAT.md vectors, the rich test document, the benchmark
 * documents (../shared/data, or $YAC_DATA_DIR), and nodes whose size
 * escapes the meta word. */
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

static int is_bytes_type(YACItemType t) {
  return t == YACItemHexlet || t == YACItemFloat || t == YACItemTAI64 || t == YACItemMagic ||
         t == YACItemBin || t == YACItemStr || t == YACItemPbig || t == YACItemNbig;
}

static int is_container(YACItemType t) {
  return t == YACItemList || t == YACItemMap || t == YACItemBlob;
}

/* Every inline read of node `idx` equals the checked function's answer. */
static void check_node(const struct YACItems *items, uint32_t idx, const char *name) {
  YACItemType t = YACUnsafeNodeType(items, idx);
  CHECK(t == YACItemsType(items, idx), name);
  CHECK(YACUnsafeNodeNext(items, idx) == YACItemsNext(items, idx), name);
  if (is_container(t)) {
    size_t count = 0, i = 0;
    CHECK(YACItemsChildCount(&count, items, idx) == YACErrNo, name);
    CHECK(YACUnsafeNodeCount(items, idx) == count, name);
    CHECK(YACUnsafeNodeFirst(items, idx) == YACItemsFirst(items, idx), name);
    uint32_t want = YACItemsFirst(items, idx);
    YAC_UNSAFE_FOREACH(items, idx, child) {
      CHECK(child == want, name);
      CHECK(i > 3 || child == YACItemsNth(items, idx, i), name);
      want = YACItemsNext(items, child);
      i++;
    }
    CHECK(want == YACItemNone, name);
    CHECK(i == count, name);
    if (t == YACItemMap) {
      i = 0;
      YAC_UNSAFE_MAP_FOREACH(items, idx, key, val) {
        size_t klen = 0;
        const char *k = YACUnsafeNodeStr(items, key, &klen);
        CHECK(i > 3 || key == YACItemsNth(items, idx, i), name);
        CHECK(val == YACItemsNext(items, key), name);
        CHECK(YACItemsMapGetN(items, idx, k, klen) == val, name);
        i += 2;
      }
      CHECK(i == count, name);
    }
  } else if (t == YACItemPint) {
    uint64_t u = 0;
    CHECK(YACItemsGetUint(&u, items, idx) == YACErrNo && YACUnsafeNodeUint(items, idx) == u, name);
    if (u <= (uint64_t)INT64_MAX) {
      int64_t v = 0;
      CHECK(YACItemsGetSint(&v, items, idx) == YACErrNo && YACUnsafeNodeSint(items, idx) == v, name);
      CHECK(v == (int64_t)u, name);
    }
  } else if (t == YACItemNint) {
    int64_t v = 0;
    CHECK(YACItemsGetSint(&v, items, idx) == YACErrNo && YACUnsafeNodeSint(items, idx) == v, name);
  } else if (is_bytes_type(t)) {
    const unsigned char *p = NULL;
    size_t len = 0, ilen = 1;
    const unsigned char *ip = YACUnsafeNodeBytes(items, idx, &ilen);
    CHECK(YACItemsGetBytes(&p, &len, items, idx) == YACErrNo, name);
    CHECK(ip == p && ilen == len, name);
    if (t == YACItemStr) {
      const char *s = NULL;
      CHECK(YACItemsGetStr(&s, &len, items, idx) == YACErrNo, name);
      CHECK(YACUnsafeNodeStr(items, idx, &ilen) == s && ilen == len, name);
    }
  }
}

/* Checks every node of the tree under `root`; returns how many. */
static size_t check_tree(const struct YACItems *items, uint32_t root, const char *name) {
  struct YACWalk walk;
  YACWalkEvent ev = YACWalkEnd;
  uint32_t idx = 0, depth = 0;
  size_t n = 0;
  CHECK(YACItemsWalkInit(&walk, items, root) == YACErrNo, name);
  while (YACItemsWalkNext(&ev, &idx, &depth, &walk, items) == YACErrNo && ev != YACWalkEnd) {
    if (ev != YACWalkExit) {
      check_node(items, idx, name);
      n++;
    }
  }
  return n;
}

/* Parses `buf` into a fresh pool and checks its whole tree. */
static void check_doc(const unsigned char *buf, size_t len, const char *name) {
  struct YACItems items;
  struct YACItem *pool = (struct YACItem *)malloc((len + 2) * sizeof *pool);
  uint32_t root = 0;
  size_t off = 0;
  CHECK(pool != NULL, name);
  if (pool == NULL) {
    return;
  }
  CHECK(YACItemsInit(&items, pool, len + 2) == YACErrNo, name);
  CHECK(YACItemsParse(&items, &root, &off, buf, len) == YACErrNo, name);
  CHECK(check_tree(&items, root, name) > 0, name);
  free(pool);
}

/* Nodes whose size escapes the meta word: a payload or a child count of
 * 2^27 - 1 or more. Real ones take 128 MiB and more; here the parsed
 * nodes of a 70000-byte STR and of a 3-item LIST are given the escaped
 * form the parser writes for such sizes (the STR's pointer at its 9-byte
 * wire header), and the inline reads must take the call that handles it. */
static void test_escaped_sizes(void) {
  static unsigned char doc[9 + 70000 + 8];
  struct YACItem pool[8];
  struct YACItems items;
  uint32_t root = 0, str = 0;
  size_t off = 0, len = 0, i;
  const unsigned char *p;
  doc[0] = 0x08;                  /* LIST */
  doc[1] = 0xFF;                  /* STR, 8-byte length: 70000 - 65853 */
  doc[8] = (70000 - 65853) >> 8;  /* (big-endian, bytes 2..9) */
  doc[9] = (70000 - 65853) & 0xFF;
  for (i = 0; i < 70000; i++) {
    doc[10 + i] = 'a';
  }
  doc[10 + 70000] = 0x01; /* NIL */
  doc[11 + 70000] = 0x01; /* NIL */
  doc[12 + 70000] = 0x00; /* EOC */
  CHECK(YACItemsInit(&items, pool, 8) == YACErrNo, "escaped");
  CHECK(YACItemsParse(&items, &root, &off, doc, 13 + 70000) == YACErrNo, "escaped");
  str = YACUnsafeNodeFirst(&items, root);
  p = YACUnsafeNodeBytes(&items, str, &len);
  CHECK(len == 70000 && p == doc + 10, "escaped: plain STR");
  pool[str].meta |= (uint32_t)YACItemSizeEsc << YACItemSizeShift;
  pool[str].v.ptr = doc + 1;
  pool[root].meta |= (uint32_t)YACItemSizeEsc << YACItemSizeShift;
  CHECK(YACUnsafeNodeType(&items, str) == YACItemStr, "escaped STR type");
  p = YACUnsafeNodeBytes(&items, str, &len);
  CHECK(len == 70000 && p == doc + 10, "escaped STR");
  CHECK(YACUnsafeNodeStr(&items, str, &len) == (const char *)doc + 10, "escaped STR text");
  CHECK(YACUnsafeNodeType(&items, root) == YACItemList, "escaped LIST type");
  CHECK(YACUnsafeNodeCount(&items, root) == 3, "escaped LIST count");
  check_tree(&items, root, "escaped");
}

int main(void) {
  static const char *docs[] = {"licenses", "canada-list", "canada-map"};
  struct Doc rich;
  size_t i;
  for (i = 0; i < COUNT(valid_vectors); i++) {
    check_doc(valid_vectors[i].buf, valid_vectors[i].len, valid_vectors[i].name);
  }
  rich.n = 0;
  build_rich_doc(&rich);
  check_doc(rich.b, rich.n, "rich document");
  rich.n = 0;
  build_uint_list(&rich, UINT64_C(1) << 40, 300);
  check_doc(rich.b, rich.n, "uint list");
  for (i = 0; i < COUNT(docs); i++) {
    size_t len = 0;
    unsigned char *buf = read_bench_doc(docs[i], &len);
    if (buf != NULL) {
      check_doc(buf, len, docs[i]);
      free(buf);
    }
  }
  test_escaped_sizes();
  return check_report();
}
