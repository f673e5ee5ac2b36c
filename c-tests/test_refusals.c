/* "Every call either succeeds or changes nothing", for every exported
 * call: each one is made to refuse at least once, with every piece of
 * library state a caller holds (struct YACItems, YACArena, YACWriter,
 * YACCursor, YACWalk, the node pool, the arena's memory, the writer's
 * buffer, levels and key area, the encoders' output buffer) snapshotted
 * before and compared after. The writer is the one documented exception:
 * a refusal records its sticky error and where it was met, every call
 * counts in hot.calls, and YACErrNoMem lets it go on counting; the state
 * of the document (struct YACWriter's position, nesting and keys, the
 * buffer, levels and key area) stays. So is the builder's: a refused
 * build call records its sticky error (YACItemsBuildFailure), which
 * refused() clears with YACItemsBuildReset before comparing, so that
 * every later call is tried on its own.
 *
 * REFUSED(fn, args...) makes the call, which must fail and change
 * nothing; READS(fn, args...) makes a call that has no error result (a
 * reader), which must change nothing. tests/refusals.rs checks that every
 * function the header declares appears here in one of them. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "yac.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Everything a refused call might touch. */
struct world {
  struct YACItems items;
  struct YACArena arena;
  struct YACWriter writer;
  struct YACCursor cur;
  struct YACWalk walk;
  struct YACItem pool[48];
  unsigned char mem[64];
  unsigned char wbuf[64];
  struct YACWriterLevel levels[4];
  unsigned char keys[32];
  unsigned char obuf[32];
};

static struct world w, before;

/* What a refusal may leave changed, as its documentation says: the bytes
 * of an output buffer past what was written (YACItemsEncode), the pool's
 * unused nodes (YACItemsParse). */
static bool scratch_obuf, scratch_pool;

static void snap(void) { memcpy(&before, &w, sizeof w); }

static bool writer_same(void) {
  /* The document's state: everything but what every call or a refusal
   * is documented to update (hot.calls counts every call; an error sets
   * hot.lim to 0 and is recorded, with where it was met, in the reserved
   * words). */
  const struct YACWriter *a = &before.writer, *b = &w.writer;
  bool same = a->buf == b->buf && a->levels == b->levels && a->hot.pos == b->hot.pos &&
              a->hot.key == b->hot.key && a->hot.keyLen == b->hot.keyLen &&
              a->hot.top == b->hot.top && a->hot.depth == b->hot.depth &&
              a->hot.maxDepth == b->hot.maxDepth && a->hot.area == b->hot.area;
  if (!same) {
    fprintf(stderr, "  struct YACWriter: the document's state changed\n");
  }
  return same;
}

/* Whether everything (the writer: its document state) is as snapshotted. */
static bool unchanged(void) {
  static struct world a, b;
  bool same;
  memcpy(&a, &before, sizeof a);
  memcpy(&b, &w, sizeof b);
  memcpy(&a.writer, &b.writer, sizeof a.writer); /* compared apart */
  if (scratch_obuf) {
    memcpy(a.obuf, b.obuf, sizeof a.obuf);
  }
  if (scratch_pool && w.items.len <= COUNT(a.pool)) {
    memcpy(a.pool + w.items.len, b.pool + w.items.len,
           (COUNT(a.pool) - w.items.len) * sizeof a.pool[0]);
  }
  same = memcmp(&a, &b, sizeof a) == 0;
  if (!same) {
#define PART(f)                                                   \
  if (memcmp(&a.f, &b.f, sizeof a.f) != 0) {                      \
    fprintf(stderr, "  %s changed\n", #f);                        \
  }
    PART(items) PART(arena) PART(cur) PART(walk) PART(pool) PART(mem) PART(wbuf)
        PART(levels) PART(keys) PART(obuf)
#undef PART
  }
  return writer_same() && same;
}

static void refused(const char *name, YACErr e) {
  CHECK(e != YACErrNo, name);
  if (YACItemsBuildFailure(&w.items, NULL) != YACErrNo) {
    CHECK(YACItemsBuildFailure(&w.items, NULL) == e, name);
    YACItemsBuildReset(&w.items);
  }
  CHECK(unchanged(), name);
}

static void reads(const char *name) { CHECK(unchanged(), name); }

#define REFUSED(fn, ...) (snap(), refused(#fn, (fn)(__VA_ARGS__)))
#define READS(fn, ...) (snap(), (void)(fn)(__VA_ARGS__), reads(#fn))

/* Out-parameters, outside the snapshot. */
static size_t n1, n2, vlevels[4];
static uint32_t u1;
static uint64_t q1, q2;
static int64_t i1;
static double d1;
static bool b1;
static const char *s1;
static const unsigned char *p1;
static struct YACAtom atom1, atoms[4];

static const unsigned char bad_float[] = {0x00, 0x00, 0x00}; /* 3 bytes */
static const unsigned char bad_label[] = {0xFF, 0, 0, 0, 0, 0, 0, 0};
static const unsigned char hexlet[16] = {1};
static const unsigned char bad_utf8[] = {0xC3};
static const unsigned char bad_str[] = {0x08, 0xC1, 0xFF, 0x00}; /* [STR 0xFF] */
static const unsigned char unordered[] = {0x09, 0xC1, 'b', 0x01, 0xC1, 'a', 0x01, 0x00};

/* [{"a": NIL}, 1] */
static const unsigned char doc[] = {0x08, 0x09, 0xC1, 'a', 0x01, 0x00, 0x0C, 0x81, 0x01, 0x00};

static uint32_t root, map, key_a, one, leaf, list2;

static void setup_items(void) {
  size_t off = 0;
  memset(&w, 0xA5, sizeof w);
  CHECK(YACItemsInit(&w.items, w.pool, COUNT(w.pool)) == YACErrNo, "init");
  CHECK(YACArenaInit(&w.arena, w.mem, sizeof w.mem) == YACErrNo, "arena");
  CHECK(YACItemsParse(&w.items, &root, &off, doc, sizeof doc) == YACErrNo, "parse");
  map = YACItemsFirst(&w.items, root);
  key_a = YACItemsFirst(&w.items, map);
  one = YACItemsNext(&w.items, map);
  CHECK(YACItemsAddUint(&leaf, &w.items, 5) == YACErrNo, "leaf");
  CHECK(YACItemsAddList(&list2, &w.items) == YACErrNo, "list");
  CHECK(YACItemsCursorFirst(&w.cur, &w.items, root) == YACErrNo, "cursor");
  CHECK(YACItemsWalkInit(&w.walk, &w.items, root) == YACErrNo, "walk");
}

static void test_atoms_and_times(void) {
  setup_items();
  /* Encoders: no room. */
  REFUSED(YACAtomEOCEncode, &n1, w.obuf, 0);
  REFUSED(YACAtomNILEncode, &n1, w.obuf, 0);
  REFUSED(YACAtomBoolEncode, &n1, w.obuf, 0, true);
  REFUSED(YACAtomHexletEncode, &n1, w.obuf, 8, hexlet);
  REFUSED(YACAtomUintEncode, &n1, w.obuf, 2, 1000);
  REFUSED(YACAtomSintEncode, &n1, w.obuf, 2, -1000);
  REFUSED(YACAtomBigintEncode, &n1, w.obuf, 4, false, hexlet, sizeof hexlet);
  REFUSED(YACAtomListEncode, &n1, w.obuf, 0);
  REFUSED(YACAtomMapEncode, &n1, w.obuf, 0);
  REFUSED(YACAtomBlobEncode, &n1, w.obuf, 0, 0);
  REFUSED(YACAtomBlobEncodeMinus1, &n1, w.obuf, 0, 0);
  REFUSED(YACAtomBinEncode, &n1, w.obuf, 4, hexlet, sizeof hexlet);
  REFUSED(YACAtomChunkEncode, &n1, w.obuf, 4, hexlet, sizeof hexlet);
  REFUSED(YACAtomStrEncode, &n1, w.obuf, sizeof w.obuf, (const char *)bad_utf8, 1);
  REFUSED(YACAtomTAI64Encode, &n1, w.obuf, sizeof w.obuf, bad_label, sizeof bad_label);
  REFUSED(YACAtomMagicEncode, &n1, w.obuf, sizeof w.obuf, hexlet, 13);
  REFUSED(YACAtomFloatEncode, &n1, w.obuf, sizeof w.obuf, -0.0);
  REFUSED(YACAtomFloatRawEncode, &n1, w.obuf, sizeof w.obuf, bad_float, sizeof bad_float);
  REFUSED(YACAtomRawEncode, &n1, w.obuf, 1, 0x0C, hexlet, 8);
  REFUSED(YACFloatToDouble, &d1, bad_float, sizeof bad_float);
  /* Decoders and the validator: bad input. */
  REFUSED(YACAtomDecode, &n1, &atom1, bad_utf8, 0);
  REFUSED(YACAtomsDecode, &n1, &n2, atoms, COUNT(atoms), bad_str, sizeof bad_str);
  n1 = 0; /* the offset to start at */
  REFUSED(YACValidate, &n1, &n2, vlevels, COUNT(vlevels), unordered, sizeof unordered, 0, 0);
  REFUSED(YACItemsNodesNeeded, &n1, &n2, bad_str, sizeof bad_str, 0);
  /* Times. */
  REFUSED(YACTAI64ToTAI, &i1, &u1, &u1, bad_label, sizeof bad_label);
  REFUSED(YACTAIToTAI64, &n1, w.obuf, 4, 0, 0, 0);
  REFUSED(YACTAI64ToUTC, &i1, &u1, &b1, bad_label, sizeof bad_label);
  REFUSED(YACUTCToTAI64, &n1, w.obuf, 4, 0, 0);
  REFUSED(YACUTCToTAI, NULL, 0);
  REFUSED(YACTAIToUTC, NULL, &b1, 0);
  READS(YACErr2Str, 12345);
  READS(YACItemTypeName, 12345);
  snap();
  (void)YACVersion();
  reads("YACVersion");
}

static void test_items(void) {
  struct YACAtom eoc, nil;
  struct YACCursor stale;
  uint32_t removed = YACItemNone;
  size_t off = 0;
  setup_items();
  memset(&eoc, 0, sizeof eoc);
  eoc.typ = YACItemEOC;
  memset(&nil, 0, sizeof nil);
  nil.typ = YACItemNIL;

  REFUSED(YACItemsInit, &w.items, NULL, 4);
  REFUSED(YACArenaInit, &w.arena, NULL, 4);
  scratch_pool = true;
  REFUSED(YACItemsParse, &w.items, &u1, &off, unordered, sizeof unordered);
  scratch_pool = false;
  REFUSED(YACItemsAbort, NULL);
  READS(YACItemsParsing, &w.items);
  READS(YACItemsType, &w.items, 999);
  READS(YACItemsFirst, &w.items, leaf);
  READS(YACItemsNext, &w.items, 999);
  READS(YACItemsNth, &w.items, root, 7);
  READS(YACItemsMapGet, &w.items, map, "zz");
  READS(YACItemsMapGetN, &w.items, map, "a", 1);
  REFUSED(YACItemsChildCount, &n1, &w.items, leaf);
  REFUSED(YACItemsGetUint, &q1, &w.items, map);
  REFUSED(YACItemsGetSint, &i1, &w.items, map);
  REFUSED(YACItemsGetBool, &b1, &w.items, leaf);
  REFUSED(YACItemsGetFloat, &d1, &w.items, leaf);
  REFUSED(YACItemsGetStr, &s1, &n1, &w.items, leaf);
  REFUSED(YACItemsGetBin, &p1, &n1, &w.items, leaf);
  REFUSED(YACItemsGetBytes, &p1, &n1, &w.items, leaf);
  REFUSED(YACItemsGetBlob, &q1, &q2, &w.items, leaf);

  /* Adders: a full pool (no grow), then arena and value refusals. */
  {
    uint32_t saved_cap = w.items.cap;
    w.items.cap = w.items.len;
    REFUSED(YACItemsAddNIL, &u1, &w.items);
    REFUSED(YACItemsAddBool, &u1, &w.items, true);
    REFUSED(YACItemsAddUint, &u1, &w.items, 1);
    REFUSED(YACItemsAddSint, &u1, &w.items, -1);
    REFUSED(YACItemsAddList, &u1, &w.items);
    REFUSED(YACItemsAddMap, &u1, &w.items);
    REFUSED(YACItemsAddBin, &u1, &w.items, &w.arena, hexlet, 4);
    REFUSED(YACItemsAddHexlet, &u1, &w.items, &w.arena, hexlet);
    REFUSED(YACItemsAddUTC, &u1, &w.items, &w.arena, 0, 0);
    REFUSED(YACItemsAdd, &u1, &w.items, &nil);
    REFUSED(YACItemsAddBigint, &u1, &w.items, &w.arena, false, hexlet, 16);
    REFUSED(YACItemsAddBlobMinus1, &u1, &w.items, UINT64_MAX);
    REFUSED(YACItemsMapPutNIL, &w.items, &w.arena, map, "b");
    w.items.cap = saved_cap;
  }
  REFUSED(YACItemsAddBlob, &u1, &w.items, 0);
  REFUSED(YACItemsAddStr, &u1, &w.items, &w.arena, (const char *)bad_utf8, 1);
  REFUSED(YACItemsAddFloat, &u1, &w.items, NULL, 0.5);
  REFUSED(YACItemsAddMagic, &u1, &w.items, &w.arena, hexlet, 13);
  REFUSED(YACItemsAddFloatRaw, &u1, &w.items, &w.arena, bad_float, sizeof bad_float);
  REFUSED(YACItemsAddTAI64, &u1, &w.items, &w.arena, bad_label, sizeof bad_label);
  REFUSED(YACItemsAddBigint, &u1, &w.items, &w.arena, true, NULL, 1);
  REFUSED(YACItemsBuildFailure, NULL, &q1);
  REFUSED(YACItemsBuildReset, NULL);
  REFUSED(YACItemsAdd, &u1, &w.items, &eoc);
  REFUSED(YACItemsMapPut, &u1, &w.items, &w.arena, root, "b", leaf);
  REFUSED(YACItemsMapPutUint, &w.items, &w.arena, root, "b", 1);
  REFUSED(YACItemsMapPutSint, &w.items, &w.arena, map, "", -1);
  REFUSED(YACItemsMapPutBool, &w.items, &w.arena, leaf, "b", true);
  REFUSED(YACItemsMapPutStr, &w.items, &w.arena, map, "b", (const char *)"\xC3");
  REFUSED(YACItemsMapPutFloat, &w.items, &w.arena, map, "b", -0.0);

  /* Edits. */
  REFUSED(YACItemsSetValue, &w.items, root, &nil);
  REFUSED(YACItemsInsertAfter, &w.items, root, leaf, list2);
  REFUSED(YACItemsPrepend, &w.items, root, one);
  REFUSED(YACItemsRemove, &removed, &w.items, root, one);
  REFUSED(YACItemsReplace, &removed, &w.items, root, one, leaf);
  REFUSED(YACItemsMapSet, &removed, &w.items, root, key_a, leaf);
  REFUSED(YACItemsMapDel, &removed, &w.items, root, "a", 1);
  REFUSED(YACItemsPrepend, &w.items, list2, list2);
  REFUSED(YACItemsFree, &n1, &w.items, one);
  REFUSED(YACItemsFree, &n1, &w.items, 999);

  /* Output and walks. */
  off = 0;
  scratch_obuf = true;
  REFUSED(YACItemsEncode, &w.items, root, &off, w.obuf, 3);
  scratch_obuf = false;
  REFUSED(YACItemsEncodedLen, &n1, &w.items, 999);
  REFUSED(YACItemsWalkInit, NULL, &w.items, root); /* a bad root is the walk's error */
  REFUSED(YACItemsWalkNext, &u1, &u1, &u1, &w.walk, NULL);

  /* Cursors: wrong containers, a child that is not one, stale ones. */
  REFUSED(YACItemsCursorFirst, &w.cur, &w.items, leaf);
  REFUSED(YACItemsCursorEnd, &w.cur, &w.items, leaf);
  REFUSED(YACItemsCursorAfter, &w.cur, &w.items, root, leaf);
  REFUSED(YACItemsMapAppend, &w.items, &w.cur, leaf, list2);
  CHECK(YACItemsCursorFirst(&stale, &w.items, root) == YACErrNo, "cursor");
  {
    uint32_t x = YACItemNone;
    struct YACCursor own;
    CHECK(YACItemsCursorFirst(&own, &w.items, list2) == YACErrNo, "own");
    CHECK(YACItemsAddNIL(&x, &w.items) == YACErrNo, "nil");
    CHECK(YACItemsCursorInsert(&w.items, &own, x) == YACErrNo, "insert");
    CHECK(YACItemsCursorFirst(&own, &w.items, list2) == YACErrNo, "own again");
    CHECK(YACItemsCursorRemove(&x, &w.items, &own) == YACErrNo, "remove: others stale");
  }
  w.cur = stale;
  REFUSED(YACItemsCursorPeek, &u1, &w.cur, &w.items);
  REFUSED(YACItemsCursorNext, &u1, &w.cur, &w.items);
  REFUSED(YACItemsCursorInsert, &w.items, &w.cur, leaf);
  REFUSED(YACItemsCursorRemove, &u1, &w.items, &w.cur);
  REFUSED(YACItemsCursorReplace, &u1, &w.items, &w.cur, leaf);
  READS(YACItemsCursorParent, &w.cur);
  READS(YACItemsCursorPrev, &w.cur);

  /* The checker on a broken pool: a count that does not match. */
  w.pool[list2].meta += 1u << YACItemSizeShift;
  REFUSED(YACItemsCheck, &u1, &s1, &w.items);
  w.pool[list2].meta -= 1u << YACItemSizeShift;

  /* Everything that edits, during an unfinished parse. */
  off = 0;
  CHECK(YACItemsParse(&w.items, &u1, &off, doc, 3) == YACErrNotEnough, "unfinished");
  REFUSED(YACItemsAddNIL, &u1, &w.items);
  REFUSED(YACItemsAddStr, &u1, &w.items, &w.arena, "abc", 3);
  REFUSED(YACItemsAddFloat, &u1, &w.items, &w.arena, 0.1);
  REFUSED(YACItemsMapPutStr, &w.items, &w.arena, map, "b", "c");
  REFUSED(YACItemsMapPut, &u1, &w.items, &w.arena, map, "b", leaf);
  REFUSED(YACItemsPrepend, &w.items, root, leaf);
  REFUSED(YACItemsSetValue, &w.items, leaf, &nil);
  REFUSED(YACItemsMapDel, &removed, &w.items, map, "a", 1);
  REFUSED(YACItemsFree, &n1, &w.items, leaf);
  CHECK(YACItemsAbort(&w.items) == YACErrNo, "abort");
}

/* ---- the writer, in each mode ---- */

enum mode { BUFFERED, COUNTING, STREAMING };

static uint32_t sink(void *ctx, const unsigned char *buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return 0;
}

static void fresh_writer(enum mode m) {
  memset(&w.writer, 0x5A, sizeof w.writer);
  if (m == COUNTING) {
    CHECK(YACWriterInitCount(&w.writer, w.levels, COUNT(w.levels), w.keys, sizeof w.keys) ==
              YACErrNo,
          "init count");
    return;
  }
  CHECK(YACWriterInit(&w.writer, w.wbuf, m == STREAMING ? 8 : sizeof w.wbuf, w.levels,
                      COUNT(w.levels), w.keys, sizeof w.keys) == YACErrNo,
        "init");
  if (m == STREAMING) {
    CHECK(YACWriterSetFlush(&w.writer, sink, NULL) == YACErrNo, "flush");
  }
}

/* Opens a MAP expecting a key: every item but a STR is refused there. */
static void in_map(enum mode m) {
  fresh_writer(m);
  CHECK(YACWriterMapOpen(&w.writer) == YACErrNo, "map open");
  CHECK(YACWriterStr(&w.writer, "m", 1) == YACErrNo, "key m");
  CHECK(YACWriterNIL(&w.writer) == YACErrNo, "value");
}

#define IN_MAP(m, fn, ...) (in_map(m), REFUSED(fn, __VA_ARGS__))

static void test_writer(enum mode m) {
  size_t len = 0;
  IN_MAP(m, YACWriterListOpen, &w.writer);
  IN_MAP(m, YACWriterMapOpen, &w.writer);
  IN_MAP(m, YACWriterMapOpenSorted, &w.writer);
  IN_MAP(m, YACWriterNIL, &w.writer);
  IN_MAP(m, YACWriterBool, &w.writer, true);
  IN_MAP(m, YACWriterUint, &w.writer, 1);
  IN_MAP(m, YACWriterSint, &w.writer, -1);
  IN_MAP(m, YACWriterBigint, &w.writer, false, hexlet, sizeof hexlet);
  IN_MAP(m, YACWriterFloat, &w.writer, 0.5);
  IN_MAP(m, YACWriterFloatRaw, &w.writer, bad_float, 2);
  IN_MAP(m, YACWriterTAI64, &w.writer, bad_label, sizeof bad_label);
  IN_MAP(m, YACWriterUTC, &w.writer, 0, 0);
  IN_MAP(m, YACWriterBin, &w.writer, hexlet, 3);
  IN_MAP(m, YACWriterHexlet, &w.writer, hexlet);
  IN_MAP(m, YACWriterMagic, &w.writer, hexlet, 3);
  IN_MAP(m, YACWriterBlobOpen, &w.writer, 4);
  IN_MAP(m, YACWriterBlob, &w.writer, 4, hexlet, 3);
  IN_MAP(m, YACWriterStr, &w.writer, "a", 1); /* below the last key "m" */
  IN_MAP(m, YACWriterStrZ, &w.writer, "");    /* empty key */
  IN_MAP(m, YACWriterChunk, &w.writer, hexlet, 3);
  IN_MAP(m, YACWriterFinish, &w.writer, &len);
  IN_MAP(m, YACWriterBlobOpenMinus1, &w.writer, 3);
  IN_MAP(m, YACWriterListClose, &w.writer); /* a MAP is open */
  fresh_writer(m);
  REFUSED(YACWriterMapClose, &w.writer);
  /* With the error stuck, every call refuses and changes nothing. */
  REFUSED(YACWriterError, &w.writer);
  REFUSED(YACWriterFailure, &w.writer, NULL);
  REFUSED(YACWriterNIL, &w.writer);
  REFUSED(YACWriterStr, &w.writer, "x", 1);
  REFUSED(YACWriterFinish, &w.writer, &len);
  REFUSED(YACWriterAllowSequence, NULL);
  REFUSED(YACWriterSetFlush, NULL, sink, NULL);
  REFUSED(YACWriterInit, &w.writer, NULL, 8, w.levels, 1, NULL, 0);
  REFUSED(YACWriterInitCount, &w.writer, NULL, 3, NULL, 0);
}

int main(void) {
  test_atoms_and_times();
  test_items();
  test_writer(BUFFERED);
  test_writer(COUNTING);
  test_writer(STREAMING);
  return check_report();
}
