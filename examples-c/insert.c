/* insert: mid-list insertion in O(1). Parses a LIST, inserts a new element
 * in its middle (YACItemsAdd makes the node, YACItemsInsertAfter links it:
 * no element moves), re-encodes, and prints both encodings in hex.
 *
 *   cc -std=c99 -Iinclude examples-c/insert.c target/release/libyac.a \
 *      -lpthread -ldl -lm -o insert && ./insert
 *
 * Prints "before: <hex>" and "after: <hex>"; exit status 1 on any error. */

#include <stdio.h>
#include <string.h>

#include "yac.h"

static void print_hex(const char *label, const unsigned char *p, size_t n) {
  size_t i;
  printf("%s: ", label);
  for (i = 0; i < n; i++) {
    printf("%02X", p[i]);
  }
  putchar('\n');
}

static int fail(const char *what, YACErr err) {
  fprintf(stderr, "error: %s: %s\n", what, YACErr2Str(err));
  return 1;
}

int main(void) {
  static const uint64_t values[] = {10, 20, 40, 50};
  unsigned char doc[64], out[64];
  size_t n = 0, len = 0, off = 0, i, count = 0;
  struct YACItem pool[16];
  struct YACItems items;
  struct YACAtom atom;
  uint32_t root = 0, prev, node = 0;
  YACErr err;

  /* The document: LIST [10, 20, 40, 50], written with the atom encoders. */
  YACAtomListEncode(&len, doc + n, sizeof doc - n);
  n += len;
  for (i = 0; i < sizeof values / sizeof values[0]; i++) {
    err = YACAtomUintEncode(&len, doc + n, sizeof doc - n, values[i]);
    if (err != YACErrNo) {
      return fail("encode", err);
    }
    n += len;
  }
  YACAtomEOCEncode(&len, doc + n, sizeof doc - n);
  n += len;
  print_hex("before", doc, n);

  YACItemsInit(&items, pool, sizeof pool / sizeof pool[0]);
  err = YACItemsParse(&items, &root, &off, doc, n);
  if (err != YACErrNo) {
    return fail("parse", err);
  }
  /* The element after which to insert: the middle one. */
  YACItemsChildCount(&count, &items, root);
  prev = YACItemsNth(&items, root, count / 2 - 1);

  memset(&atom, 0, sizeof atom);
  atom.typ = YACItemPint;
  atom.v.uint = 30;
  err = YACItemsAdd(&node, &items, &atom);
  if (err != YACErrNo) {
    return fail("add", err);
  }
  err = YACItemsInsertAfter(&items, root, prev, node);
  if (err != YACErrNo) {
    return fail("insert", err);
  }

  off = 0;
  err = YACItemsEncode(&items, root, &off, out, sizeof out);
  if (err != YACErrNo) {
    return fail("encode", err);
  }
  print_hex("after", out, off);
  return 0;
}
