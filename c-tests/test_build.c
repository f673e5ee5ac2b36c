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
  uint64_t ok = 1; /* build calls that succeeded: the next call's index */
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

  /* Refusals: each gives its code at the faulty call, changes nothing in
   * the tree, the arena or the out-parameters, and sticks: later build
   * calls are refused with it until the reset. */
  YACItemsInit(&items, pool, COUNT(pool));
  YACArenaInit(&arena, mem, sizeof mem);
  YACItemsAddMap(&root, &items); /* call 0: each refused call is call 1 */
  len = items.len;
#define REFUSED(call, code, what)                                          \
  do {                                                                     \
    uint64_t at = 99;                                                      \
    v = 7;                                                                 \
    CHECK((call) == (code), what);                                         \
    CHECK(YACItemsBuildFailure(&items, &at) == (code) && at == ok, what);  \
    CHECK(YACItemsAddNIL(&v, &items) == (code) && v == 7, what);           \
    CHECK(items.len == len && arena.len == 0, what);                       \
    CHECK(YACItemsBuildReset(&items) == YACErrNo, what);                   \
  } while (0)
  REFUSED(YACItemsMapPutUint(&items, &arena, root, "", 1), YACErrMapBadKey,
          "empty key");
  REFUSED(YACItemsMapPutUint(&items, &arena, 99, "k", 1), YACErrInvalid,
          "not a MAP");
  REFUSED(YACItemsMapPutStr(&items, &arena, root, "k", "a\xC0\x80"),
          YACErrBadUTF8, "bad UTF-8 value");
  REFUSED(YACItemsMapPutUint(&items, &arena, root, NULL, 1), YACErrInvalid,
          "NULL key");
  REFUSED(YACItemsAddFloat(&v, &items, NULL, 1.0), YACErrInvalid,
          "double needs an arena");
  REFUSED(YACItemsAddFloat(&v, &items, &arena, -0.0), YACErrFloatNonMinimal,
          "negative zero");
  REFUSED(YACItemsAddStr(&v, &items, NULL, "a\0", 2), YACErrBadUTF8, "NUL");
  REFUSED(YACItemsAddBlob(&v, &items, 0), YACErrInvalid, "chunk length 0");
  REFUSED(YACItemsAddMagic(&v, &items, &arena,
                           (const unsigned char *)"thirteen byte", 13),
          YACErrInvalid, "MAGIC too long");
  REFUSED(YACItemsAddFloatRaw(&v, &items, &arena,
                              (const unsigned char *)"\x3C\x00\x00", 3),
          YACErrInvalid, "float of 3 bytes");
  REFUSED(YACItemsAddFloatRaw(&v, &items, &arena,
                              (const unsigned char *)"\x3F\x80\x00\x00", 4),
          YACErrFloatNonMinimal, "binary32 1.0 fits binary16");
  REFUSED(YACItemsAddTAI64(&v, &items, &arena,
                           (const unsigned char *)"\x40\0\0\0\0\0\0\0\0\0\0\0",
                           12),
          YACErrTAI64NonMinimal, "TAI64N with zero nanoseconds");
  REFUSED(YACItemsAddTAI64(&v, &items, &arena,
                           (const unsigned char *)"\x80\0\0\0\0\0\0\0", 8),
          YACErrTAI64TooBig, "reserved TAI64 label");
  REFUSED(YACItemsAddUint(NULL, &items, 1), YACErrInvalid, "NULL index");
  YACItemsAddNIL(&old, &items);
  len = items.len;
  ok = 2;
  REFUSED(YACItemsMapPut(NULL, &items, &arena, old, "k", root), YACErrInvalid,
          "put into a NIL");
#undef REFUSED
  len = items.len;
  YACArenaInit(&arena, mem, 3);
  CHECK(YACItemsAddStr(&v, &items, &arena, "abcd", 4) == YACErrNoMem,
        "arena full");
  CHECK(arena.len == 0 && items.len == len, "arena unchanged");
  YACItemsBuildReset(&items);
  YACItemsInit(&items, pool, 1);
  YACItemsAddNIL(&v, &items);
  CHECK(YACItemsAddNIL(&v, &items) == YACErrNoMem, "pool full, no grow");
  CHECK(YACArenaInit(&arena, NULL, 1) == YACErrInvalid, "NULL arena memory");
}

/* The checked style: build without looking at each result, check once.
 * The first mistake sticks with its call's index; every later build call
 * is refused with it and changes nothing. */
static void test_checked_style(void) {
  static struct YACItem pool[16];
  unsigned char mem[32];
  struct YACItems items;
  struct YACArena arena;
  uint32_t root, list, x;
  uint64_t at = 99;
  size_t len;
  YACItemsInit(&items, pool, COUNT(pool));
  YACArenaInit(&arena, mem, sizeof mem);
  CHECK(YACItemsBuildFailure(&items, &at) == YACErrNo && at == 0,
        "no error yet");
  YACItemsAddMap(&root, &items);                     /* call 0 */
  YACItemsMapPutUint(&items, &arena, root, "b", 1);  /* call 1 */
  YACItemsMapPutUint(&items, &arena, root, "", 2);   /* call 2: empty key */
  len = items.len;
  list = 7;
  CHECK(YACItemsAddList(&list, &items) == YACErrMapBadKey && list == 7,
        "later adder refused with the first error");
  CHECK(YACItemsMapPut(NULL, &items, &arena, root, "c", list) ==
            YACErrMapBadKey,
        "later put refused");
  CHECK(items.len == len && arena.len == 1, "refused calls made nothing");
  CHECK(YACItemsBuildFailure(&items, &at) == YACErrMapBadKey && at == 2,
        "which call failed");
  CHECK(YACItemsBuildFailure(&items, NULL) == YACErrMapBadKey, "NULL call");
  CHECK(YACItemsBuildFailure(NULL, &at) == YACErrInvalid, "NULL items");
  /* The linking calls are build calls too. The count goes on after a
   * reset: the refused call did not count. */
  YACItemsBuildReset(&items);
  YACItemsAddList(&list, &items);                    /* call 2 */
  YACItemsAddUint(&x, &items, 5);                    /* call 3 */
  YACItemsPrepend(&items, x, list);                  /* call 4: x is no container */
  CHECK(YACItemsPrepend(&items, list, x) == YACErrInvalid, "sticks");
  CHECK(YACItemsBuildFailure(&items, &at) == YACErrInvalid && at == 4,
        "a link refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsPrepend(&items, list, x) == YACErrNo, "taken after reset");
}

/* Typed adders for the atoms without a C type of their own: big integers,
 * 16- and 32-byte floats, raw TAI64/TAI64N/TAI64NA labels, and a BLOB of
 * chunk length 2^64. */
static void test_more_adders(void) {
  static struct YACItem pool[32];
  unsigned char mem[128], out[160];
  static const unsigned char big[] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  static const unsigned char small[] = {0, 0, 0x01, 0x2B};
  static const unsigned char f128[16] = {0x40, 0x00, 0x00, 0x00, 0x00, 0x00,
                                         0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                         0x00, 0x00, 0x00, 0x01};
  static const unsigned char f256[32] = {0x40, 0x00, [31] = 0x01};
  static const unsigned char tai64na[16] = {0x40, 0, 0, 0, 0, 0, 0, 0,
                                            0,    0, 0, 1, 0, 0, 0, 1};
  static const unsigned char want[] = {
      0x08,
      /* +INT 0x0102..09: the leading zeros dropped */
      0x0C, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9,
      /* -INT of magnitude 0x012B: -300, a plain -INT node */
      0x0D, 0x82, 0x01, 0x2B,
      /* binary128, binary256 */
      0x13, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
      0x14, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
      /* TAI64NA */
      0x1A, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
      /* BLOB of chunk length 2^64, empty: its last chunk is an empty BIN */
      0x0B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x80,
      0x00};
  struct YACItems items;
  struct YACArena arena;
  struct YACCursor end;
  uint32_t list, n[7];
  size_t off = 0, i;
  int64_t s = 0;
  YACItemsInit(&items, pool, COUNT(pool));
  YACArenaInit(&arena, mem, sizeof mem);
  YACItemsAddList(&list, &items);
  YACItemsAddBigint(&n[0], &items, &arena, false, big, sizeof big);
  YACItemsAddBigint(&n[1], &items, NULL, true, small, sizeof small);
  YACItemsAddFloatRaw(&n[2], &items, &arena, f128, sizeof f128);
  YACItemsAddFloatRaw(&n[3], &items, NULL, f256, sizeof f256);
  YACItemsAddTAI64(&n[4], &items, &arena, tai64na, sizeof tai64na);
  YACItemsAddBlobMinus1(&n[5], &items, UINT64_MAX);
  YACItemsAddBin(&n[6], &items, NULL, NULL, 0);
  YACItemsCursorEnd(&end, &items, list);
  for (i = 0; i < 6; i++) YACItemsCursorInsert(&items, &end, n[i]);
  YACItemsPrepend(&items, n[5], n[6]);
  CHECK(YACItemsBuildFailure(&items, NULL) == YACErrNo, "all taken");
  CHECK(YACItemsType(&items, n[0]) == YACItemPbig, "big +INT");
  CHECK(YACItemsType(&items, n[1]) == YACItemNint &&
            YACItemsGetSint(&s, &items, n[1]) == YACErrNo && s == -300,
        "small magnitude: a plain -INT");
  CHECK(arena.len == 9 + 16 + 16, "big magnitude, binary128, label copied");
  CHECK(YACItemsEncode(&items, list, &off, out, sizeof out) == YACErrNo &&
            off == sizeof want && memcmp(out, want, off) == 0,
        "encoding");
}

/* Every call that takes a MAGIC takes exactly 12 bytes, refusing a shorter
 * or longer one alike (YACErrInvalid): none pads. */
static void test_magic_length(void) {
  static const unsigned char magic[13] = "cm/pub\0\0\0\0\0\0x";
  static const size_t lens[] = {0, 1, 6, 11, 12, 13};
  static const unsigned char want[15] = "KEKScm/pub\0\0\0\0\0";
  struct YACItem pool[4];
  unsigned char mem[32], out[32];
  struct YACWriterLevel levels[1];
  struct YACItems items;
  struct YACArena arena;
  struct YACWriter w;
  uint32_t idx;
  size_t i, n, len;
  for (i = 0; i < COUNT(lens); i++) {
    YACErr want_err = lens[i] == 12 ? YACErrNo : YACErrInvalid;
    YACItemsInit(&items, pool, COUNT(pool));
    YACArenaInit(&arena, mem, sizeof mem);
    YACWriterInit(&w, out, sizeof out, levels, 1, NULL, 0);
    n = 0;
    CHECK(YACAtomMagicEncode(&n, out, sizeof out, magic, lens[i]) == want_err &&
              (want_err != YACErrNo || (n == 16 && out[0] == 0x4B &&
                                        memcmp(out + 1, want + 1, 14) == 0)),
          "YACAtomMagicEncode: 12 bytes exactly");
    CHECK(YACItemsAddMagic(&idx, &items, &arena, magic, lens[i]) == want_err,
          "YACItemsAddMagic: 12 bytes exactly");
    CHECK(YACWriterMagic(&w, magic, lens[i]) == want_err, "YACWriterMagic: 12 bytes exactly");
    CHECK(YACWriterFinish(&w, &len) == want_err, "the writer's refusal sticks");
  }
}

int main(void) {
  test_build();
  test_checked_style();
  test_more_adders();
  test_magic_length();
  return check_report();
}
