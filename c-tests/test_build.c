/* The tree builder through the C API: typed adders, MAP put by key (keys
 * given out of order), copies into an arena, growth from an empty pool,
 * and the refusals. The tree encodes to the same bytes as the streaming
 * writer's document. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "yac.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* MAP {"a": [1, -300, "x"], "c": {"k": NIL, "kk": TRUE}, "n": 0.5,
 *      "s": "str", "t": 2017-01-01 UTC, "zz": FALSE} */
static const unsigned char want_doc[] = {
    0x09, 0xC1, 'a', 0x08, 0x0C, 0x81, 0x01, 0x0D, 0x82, 0x01, 0x2B, 0xC1,
    'x', 0x00, 0xC1, 'c', 0x09, 0xC1, 'k', 0x01, 0xC2, 'k', 'k', 0x03, 0x00,
    0xC1, 'n', 0x10, 0x38, 0x00, 0xC1, 's', 0xC3, 's', 't', 'r', 0xC1, 't',
    0x18, 0x40, 0x00, 0x00, 0x00, 0x58, 0x68, 0x46, 0xA5, 0xC2, 'z', 'z',
    0x02, 0x00};

/* Builds the document; returns its root. Keys come out of order. */
static uint32_t build(struct YACItems *items, struct YACArena *arena) {
  uint32_t root = YACItemNone, list, inner, x, y, z, t;
  struct YACCursor end;
  char key[3];
  YACErr e = YACItemsAddMap(&root, items);
  CHECK(e == YACErrNo, YACErr2Str((int)e));
  CHECK(YACItemsMapPutBool(items, arena, root, "zz", false) == YACErrNo,
        "put bool");
  /* A key from a temporary buffer: copied into the arena. */
  memcpy(key, "s", 2);
  CHECK(YACItemsMapPutStr(items, arena, root, key, "str") == YACErrNo,
        "put str");
  memset(key, 0, sizeof key);
  CHECK(YACItemsMapPutFloat(items, arena, root, "n", 0.5) == YACErrNo,
        "put double");
  YACItemsAddUTC(&t, items, arena, 1483228800, 0);
  CHECK(YACItemsMapPut(NULL, items, arena, root, "t", t) == YACErrNo,
        "put UTC");
  YACItemsAddMap(&inner, items);
  YACItemsMapPutBool(items, arena, inner, "kk", true);
  YACItemsMapPutNIL(items, arena, inner, "k");
  YACItemsMapPut(NULL, items, arena, root, "c", inner);
  YACItemsAddList(&list, items);
  YACItemsAddUint(&x, items, 1);
  YACItemsAddSint(&y, items, -300);
  YACItemsAddStr(&z, items, NULL, "x", 1); /* pointed at: a literal */
  /* Appended in order through a cursor at the LIST's end. */
  YACItemsCursorEnd(&end, items, list);
  YACItemsCursorInsert(items, &end, x);
  YACItemsCursorInsert(items, &end, y);
  CHECK(YACItemsCursorInsert(items, &end, z) == YACErrNo, "append");
  YACItemsMapPut(NULL, items, arena, root, "a", list);
  return root;
}

static void check_encoding(const struct YACItems *items, uint32_t root,
                           const char *what) {
  unsigned char out[128];
  size_t off = 0, len = 0;
  YACErr e = YACItemsEncode(items, root, &off, out, sizeof out);
  CHECK(e == YACErrNo, YACErr2Str((int)e));
  CHECK(YACItemsEncodedLen(&len, items, root) == YACErrNo && len == off,
        what);
  CHECK(off == sizeof want_doc && memcmp(out, want_doc, off) == 0, what);
}

static struct YACItem *grow_realloc(void *ctx, struct YACItem *old,
                                    size_t old_cap, size_t *new_cap) {
  unsigned *calls = ctx;
  (void)old_cap;
  (*calls)++;
  return realloc(old, *new_cap * sizeof *old);
}

static void test_build(void) {
  static struct YACItem pool[64];
  unsigned char mem[64];
  struct YACItems items;
  struct YACArena arena;
  uint32_t root, old, v;
  unsigned calls = 0;
  size_t len;
  /* Into a fixed pool. */
  YACItemsInit(&items, pool, COUNT(pool));
  YACArenaInit(&arena, mem, sizeof mem);
  root = build(&items, &arena);
  check_encoding(&items, root, "fixed pool");
  /* Keys zz s n t c kk k a, the STR "str", a binary16 and a TAI64 label. */
  CHECK(arena.len == 2 + 1 + 1 + 1 + 1 + 2 + 1 + 1 + 3 + 2 + 8, "arena use");
  /* Replacing a value hands the old one back. */
  YACItemsAddBool(&v, &items, false);
  CHECK(YACItemsMapPut(&old, &items, &arena, root, "zz", v) == YACErrNo &&
            YACItemsType(&items, old) == YACItemFalse,
        "old value back");
  /* From an empty pool, growing at every add. */
  YACItemsInit(&items, NULL, 0);
  items.grow = grow_realloc;
  items.growCtx = &calls;
  YACArenaInit(&arena, mem, sizeof mem);
  root = build(&items, &arena);
  check_encoding(&items, root, "grown pool");
  CHECK(calls > 0, "grow was called");
  free(items.list);

  /* Refusals: nothing changes. */
  YACItemsInit(&items, pool, COUNT(pool));
  YACArenaInit(&arena, mem, sizeof mem);
  YACItemsAddMap(&root, &items);
  len = items.len;
  CHECK(YACItemsMapPutUint(&items, &arena, root, "", 1) == YACErrMapBadKey,
        "empty key");
  CHECK(YACItemsMapPutUint(&items, &arena, 99, "k", 1) == YACErrInvalid,
        "not a MAP");
  CHECK(YACItemsMapPutStr(&items, &arena, root, "k", "a\xC0\x80") ==
            YACErrBadUTF8,
        "bad UTF-8 value");
  CHECK(YACItemsMapPutUint(&items, &arena, root, NULL, 1) == YACErrInvalid,
        "NULL key");
  CHECK(items.len == len, "nothing made by refused puts");
  CHECK(YACItemsAddFloat(&v, &items, NULL, 1.0) == YACErrInvalid,
        "double needs an arena");
  CHECK(YACItemsAddFloat(&v, &items, &arena, -0.0) == YACErrFloatNonMinimal,
        "negative zero");
  CHECK(YACItemsAddStr(&v, &items, NULL, "a\0", 2) == YACErrBadUTF8, "NUL");
  CHECK(YACItemsAddBlob(&v, &items, 0) == YACErrInvalid, "chunk length 0");
  CHECK(YACItemsAddMagic(&v, &items, &arena,
                         (const unsigned char *)"thirteen byte",
                         13) == YACErrInvalid,
        "MAGIC too long");
  YACArenaInit(&arena, mem, 3);
  CHECK(YACItemsAddStr(&v, &items, &arena, "abcd", 4) == YACErrNoMem,
        "arena full");
  CHECK(arena.len == 0, "arena unchanged");
  YACItemsInit(&items, pool, 1);
  YACItemsAddNIL(&v, &items);
  CHECK(YACItemsAddNIL(&v, &items) == YACErrNoMem, "pool full, no grow");
  CHECK(YACArenaInit(&arena, NULL, 1) == YACErrInvalid, "NULL arena memory");
}

int main(void) {
  test_build();
  return check_report();
}
