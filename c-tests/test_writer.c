/* The streaming writer through the C API: a nested document byte for byte,
 * every refusal (with nothing written and the error sticking), the size
 * needed at every capacity, a MAP sorted on close equal to one written in
 * order, streaming through a flush callback with tiny buffers, and the
 * count-only mode. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "yac.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* MAP {"a": [1, -300, "x"], "b": BIN 00FF, "c": {"k": NIL, "kk": TRUE},
 *      "t": 2017-01-01 UTC, "bl": BLOB(2) "abc", "flt": 1.5}, FALSE */
static const unsigned char want_doc[] = {
    0x09, 0xC1, 'a', 0x08, 0x0C, 0x81, 0x01, 0x0D, 0x82, 0x01, 0x2B, 0xC1,
    'x', 0x00, 0xC1, 'b', 0x82, 0x00, 0xFF, 0xC1, 'c', 0x09, 0xC1, 'k',
    0x01, 0xC2, 'k', 'k', 0x03, 0x00, 0xC1, 't', 0x18, 0x40, 0x00, 0x00,
    0x00, 0x58, 0x68, 0x46, 0xA5, 0xC2, 'b', 'l', 0x0B, 0, 0, 0, 0, 0, 0, 0,
    1, 0x82, 'a', 'b', 0x81, 'c', 0xC3, 'f', 'l', 't', 0x10, 0x3E, 0x00, 0x00,
    0x02};

static const unsigned char bin_00ff[] = {0x00, 0xFF};

/* Writes the document with keys in order into a MAP (or a MAP sorted on
 * close, keys then in another order). Results are ignored on purpose: the
 * error sticks and YACWriterFinish reports it. */
static void write_doc(struct YACWriter *w, bool sorted) {
  YACWriterAllowSequence(w); /* the MAP, then FALSE */
  if (!sorted) {
    YACWriterMapOpen(w);
    YACWriterStrZ(w, "a");
  } else {
    YACWriterMapOpenSorted(w);
    YACWriterStrZ(w, "flt");
    YACWriterFloat(w, 1.5);
    YACWriterStrZ(w, "c");
    YACWriterMapOpenSorted(w);
    YACWriterStrZ(w, "kk");
    YACWriterBool(w, true);
    YACWriterStrZ(w, "k");
    YACWriterNIL(w);
    YACWriterMapClose(w);
    YACWriterStrZ(w, "a");
  }
  YACWriterListOpen(w);
  YACWriterUint(w, 1);
  YACWriterSint(w, -300);
  YACWriterStr(w, "x", 1);
  YACWriterListClose(w);
  YACWriterStrZ(w, "b");
  YACWriterBin(w, bin_00ff, 2);
  if (!sorted) {
    YACWriterStrZ(w, "c");
    YACWriterMapOpen(w);
    YACWriterStrZ(w, "k");
    YACWriterNIL(w);
    YACWriterStrZ(w, "kk");
    YACWriterBool(w, true);
    YACWriterMapClose(w);
  }
  YACWriterStrZ(w, "t");
  YACWriterUTC(w, 1483228800, 0);
  YACWriterStrZ(w, "bl");
  YACWriterBlobOpen(w, 2);
  YACWriterChunk(w, (const unsigned char *)"ab", 2);
  YACWriterChunk(w, (const unsigned char *)"c", 1);
  if (!sorted) {
    YACWriterStrZ(w, "flt");
    YACWriterFloat(w, 1.5);
  }
  YACWriterMapClose(w);
  YACWriterBool(w, false);
}

static void test_document(void) {
  unsigned char buf[256];
  struct YACWriterLevel levels[4];
  struct YACWriter w;
  size_t len = 0;
  YACErr e;
  int sorted;
  for (sorted = 0; sorted < 2; sorted++) {
    memset(buf, 0xAA, sizeof buf);
    CHECK(YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0) ==
              YACErrNo,
          "init");
    write_doc(&w, sorted != 0);
    e = YACWriterFinish(&w, &len);
    CHECK(e == YACErrNo, YACErr2Str((int)e));
    CHECK(len == sizeof want_doc, "document length");
    CHECK(memcmp(buf, want_doc, sizeof want_doc) == 0,
          sorted ? "sorted on close, byte for byte" : "byte for byte");
  }
}

/* The size needed, at every capacity below the document's. */
static void test_every_capacity(void) {
  unsigned char buf[sizeof want_doc];
  struct YACWriterLevel levels[4];
  unsigned char keys[16];
  struct YACWriter w;
  size_t len;
  size_t cap;
  int sorted;
  for (sorted = 0; sorted < 2; sorted++) {
    for (cap = 0; cap < sizeof want_doc; cap++) {
      len = 0;
      YACWriterInit(&w, cap ? buf : NULL, cap, levels, COUNT(levels), NULL, 0);
      write_doc(&w, sorted != 0);
      CHECK(YACWriterFinish(&w, &len) == YACErrNoMem, "NoMem below the size");
      CHECK(len == sizeof want_doc, "the exact size needed");
      CHECK(YACWriterError(&w) == YACErrNoMem, "NoMem sticks");
    }
    /* Count-only, with a key area. */
    YACWriterInitCount(&w, levels, COUNT(levels), keys, sizeof keys);
    write_doc(&w, sorted != 0);
    CHECK(YACWriterFinish(&w, &len) == YACErrNo && len == sizeof want_doc,
          "count-only");
  }
}

struct Sink {
  unsigned char out[256];
  size_t len;
  unsigned calls;
  YACErr fail; /* returned from the second call on */
};

static uint32_t sink(void *ctx, const unsigned char *buf, size_t len) {
  struct Sink *s = ctx;
  s->calls++;
  if (s->fail != YACErrNo && s->calls > 1) {
    return s->fail;
  }
  if (len == 0 || len > sizeof s->out - s->len) {
    return YACErrInvalid;
  }
  memcpy(s->out + s->len, buf, len);
  s->len += len;
  return YACErrNo;
}

/* Streaming through buffers of 0 to 15 bytes, with a key area. */
static void test_flush(void) {
  unsigned char buf[16];
  unsigned char big[80];
  struct YACWriterLevel levels[4];
  unsigned char keys[16];
  struct YACWriter w;
  struct Sink s;
  size_t len;
  size_t cap;
  for (cap = 0; cap < sizeof buf; cap++) {
    memset(&s, 0, sizeof s);
    YACWriterInit(&w, cap ? buf : NULL, cap, levels, COUNT(levels), keys,
                  sizeof keys);
    CHECK(YACWriterSetFlush(&w, sink, &s) == YACErrNo, "set flush");
    write_doc(&w, false);
    CHECK(YACWriterFinish(&w, &len) == YACErrNo, "streamed");
    CHECK(len == sizeof want_doc && s.len == sizeof want_doc &&
              memcmp(s.out, want_doc, s.len) == 0,
          "streamed byte for byte");
  }
  /* MAPs sorted on close stay in the buffer until closed. */
  memset(&s, 0, sizeof s);
  YACWriterInit(&w, big, sizeof big, levels, COUNT(levels), keys, sizeof keys);
  YACWriterSetFlush(&w, sink, &s);
  write_doc(&w, true);
  CHECK(YACWriterFinish(&w, &len) == YACErrNo &&
            memcmp(s.out, want_doc, sizeof want_doc) == 0,
        "sorted, streamed");
  memset(&s, 0, sizeof s);
  YACWriterInit(&w, big, 20, levels, COUNT(levels), keys, sizeof keys);
  YACWriterSetFlush(&w, sink, &s);
  write_doc(&w, true);
  CHECK(YACWriterFinish(&w, &len) == YACErrNoMem, "sorted MAP beyond buffer");
  /* The callback's error sticks. */
  memset(&s, 0, sizeof s);
  s.fail = YACErrBadMagic;
  YACWriterInit(&w, buf, 4, levels, COUNT(levels), keys, sizeof keys);
  YACWriterSetFlush(&w, sink, &s);
  write_doc(&w, false);
  CHECK(YACWriterFinish(&w, &len) == YACErrBadMagic && s.calls == 2,
        "flush error sticks");
  CHECK(YACWriterSetFlush(&w, sink, &s) == YACErrInvalid,
        "flush set after the first item");
}

typedef void (*Step)(struct YACWriter *w);

static void nothing(struct YACWriter *w) { (void)w; }
static void map(struct YACWriter *w) { YACWriterMapOpen(w); }
static void map_sorted(struct YACWriter *w) { YACWriterMapOpenSorted(w); }
static void list(struct YACWriter *w) { YACWriterListOpen(w); }
static void blob(struct YACWriter *w) { YACWriterBlobOpen(w, 2); }
static void map_b(struct YACWriter *w) {
  YACWriterMapOpen(w);
  YACWriterStrZ(w, "b");
  YACWriterNIL(w);
}
static void map_key(struct YACWriter *w) {
  YACWriterMapOpen(w);
  YACWriterStrZ(w, "a");
}
static void sorted_dup(struct YACWriter *w) {
  YACWriterMapOpenSorted(w);
  YACWriterStrZ(w, "b");
  YACWriterNIL(w);
  YACWriterStrZ(w, "a");
  YACWriterNIL(w);
  YACWriterStrZ(w, "b");
  YACWriterNIL(w);
}
static void deep(struct YACWriter *w) {
  YACWriterListOpen(w);
  YACWriterListOpen(w);
}

static void put_uint(struct YACWriter *w) { YACWriterUint(w, 1); }
static void put_empty_key(struct YACWriter *w) { YACWriterStr(w, "", 0); }
static void put_a(struct YACWriter *w) { YACWriterStrZ(w, "a"); }
static void put_bin(struct YACWriter *w) { YACWriterBin(w, bin_00ff, 2); }
static void put_list(struct YACWriter *w) { YACWriterListOpen(w); }
static void put_close(struct YACWriter *w) { YACWriterMapClose(w); }
static void put_list_close(struct YACWriter *w) { YACWriterListClose(w); }
static void put_nul(struct YACWriter *w) { YACWriterStr(w, "a\0b", 3); }
static void put_surrogate(struct YACWriter *w) {
  YACWriterStr(w, "\xED\xA0\x80", 3);
}
static void put_long_chunk(struct YACWriter *w) {
  YACWriterChunk(w, (const unsigned char *)"abc", 3);
}
static void put_chunk(struct YACWriter *w) {
  YACWriterChunk(w, (const unsigned char *)"ab", 2);
}
static void put_neg_zero(struct YACWriter *w) { YACWriterFloat(w, -0.0); }
static void put_blob0(struct YACWriter *w) { YACWriterBlobOpen(w, 0); }
static void put_magic13(struct YACWriter *w) {
  YACWriterMagic(w, (const unsigned char *)"thirteen byte", 13);
}
static void put_null_str(struct YACWriter *w) { YACWriterStr(w, NULL, 1); }
static void put_magic6(struct YACWriter *w) {
  YACWriterMagic(w, (const unsigned char *)"cm/pub", 6);
}
static void list_closed(struct YACWriter *w) {
  YACWriterListOpen(w);
  YACWriterListClose(w);
}
static void put_bad_tai(struct YACWriter *w) {
  static const unsigned char reserved[8] = {0x80, 0, 0, 0, 0, 0, 0, 0};
  YACWriterTAI64(w, reserved, 8);
}

static void test_refusals(void) {
  static const struct {
    const char *name;
    Step before, bad;
    YACErr err;
  } cases[] = {
      {"non-STR key", map, put_uint, YACErrMapBadKey},
      {"empty key", map, put_empty_key, YACErrMapBadKey},
      {"BIN key", map, put_bin, YACErrMapBadKey},
      {"LIST key", map, put_list, YACErrMapBadKey},
      {"non-STR key, sorted MAP", map_sorted, put_uint, YACErrMapBadKey},
      {"key out of order", map_b, put_a, YACErrMapUnordered},
      {"duplicate key, sorted on close", sorted_dup, put_close,
       YACErrMapUnordered},
      {"MAP closed after a key", map_key, put_close, YACErrMapNoVal},
      {"EOC with nothing open", nothing, put_close, YACErrUnexpectedEOC},
      {"NUL in STR", list, put_nul, YACErrBadUTF8},
      {"surrogate in STR", list, put_surrogate, YACErrBadUTF8},
      {"NULL STR", list, put_null_str, YACErrInvalid},
      {"STR in BLOB", blob, put_a, YACErrBlobBadTerm},
      {"EOC in BLOB", blob, put_close, YACErrBlobBadTerm},
      {"chunk too long", blob, put_long_chunk, YACErrBlobBadChunk},
      {"chunk outside BLOB", list, put_chunk, YACErrInvalid},
      {"chunk length 0", list, put_blob0, YACErrInvalid},
      {"negative zero", list, put_neg_zero, YACErrFloatNonMinimal},
      {"MAGIC too long", nothing, put_magic13, YACErrInvalid},
      {"MAGIC too short", nothing, put_magic6, YACErrInvalid},
      {"MAP closed as a LIST", map_b, put_list_close, YACErrWrongClose},
      {"LIST closed as a MAP", list, put_close, YACErrWrongClose},
      {"second root", put_uint, put_uint, YACErrSecondRoot},
      {"second root, a LIST", list_closed, put_list, YACErrSecondRoot},
      {"TAI64 reserved label", nothing, put_bad_tai, YACErrTAI64TooBig},
      {"too deep", deep, put_list, YACErrDeepRecursion},
  };
  unsigned char buf[64], before[64];
  struct YACWriterLevel levels[2];
  struct YACWriter w;
  struct YACWriterFailure where;
  size_t len, len2;
  size_t i;
  for (i = 0; i < COUNT(cases); i++) {
    uint64_t calls;
    size_t pos;
    uint32_t depth;
    memset(buf, 0xAA, sizeof buf);
    YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
    cases[i].before(&w);
    CHECK(YACWriterError(&w) == YACErrNo, cases[i].name);
    memcpy(before, buf, sizeof buf);
    calls = w.hot.calls;
    pos = w.hot.pos;
    depth = w.hot.depth;
    cases[i].bad(&w);
    CHECK(YACWriterError(&w) == cases[i].err, cases[i].name);
    /* Reported at the faulty call, with the offset of its item. */
    CHECK(YACWriterFailure(&w, &where) == cases[i].err, cases[i].name);
    CHECK(where.call == calls && where.depth == depth, cases[i].name);
    CHECK(where.offset == (cases[i].before == sorted_dup ? 0 : pos), cases[i].name);
    if (cases[i].bad != put_close || cases[i].before != sorted_dup) {
      CHECK(memcmp(before, buf, sizeof buf) == 0, cases[i].name);
    }
    CHECK(YACWriterNIL(&w) == cases[i].err, cases[i].name);
    CHECK(YACWriterFinish(&w, &len) == cases[i].err, cases[i].name);
  }
  /* Unbalanced at the end: how deep, and the innermost kind. */
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "a");
  YACWriterListOpen(&w);
  CHECK(YACWriterFinish(&w, &len) == YACErrUnclosed, "LIST left open");
  CHECK(YACWriterFailure(&w, &where) == YACErrUnclosed && where.call == 3 &&
            where.offset == 4 && where.depth == 2 && where.open == YACItemList,
        "LIST left open: where");
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  YACWriterBlobOpen(&w, 2);
  CHECK(YACWriterFinish(&w, &len) == YACErrUnclosed, "BLOB left open");
  CHECK(YACWriterFailure(&w, &where) == YACErrUnclosed && where.depth == 1 &&
            where.open == YACItemBlob,
        "BLOB left open: where");
  CHECK(YACWriterFailure(NULL, &where) == YACErrInvalid, "NULL writer");
  /* Bad arguments. */
  CHECK(YACWriterInit(NULL, buf, 1, levels, 1, NULL, 0) == YACErrInvalid,
        "NULL writer");
  CHECK(YACWriterInit(&w, NULL, 1, levels, 1, NULL, 0) == YACErrInvalid,
        "NULL buffer");
  CHECK(YACWriterInit(&w, buf, 1, NULL, 1, NULL, 0) == YACErrInvalid,
        "NULL levels");
  CHECK(YACWriterNIL(NULL) == YACErrInvalid, "NULL writer call");
  memset(&w, 0, sizeof w);
  CHECK(YACWriterNIL(&w) == YACErrInvalid, "uninitialised writer");
  /* No levels: atoms only. */
  YACWriterInit(&w, buf, sizeof buf, NULL, 0, NULL, 0);
  YACWriterAllowSequence(&w);
  YACWriterUint(&w, 5);
  CHECK(YACWriterListOpen(&w) == YACErrDeepRecursion, "no levels");
  /* A refusal replaces NoMem. */
  YACWriterInit(&w, buf, 1, levels, COUNT(levels), NULL, 0);
  YACWriterListOpen(&w);
  CHECK(YACWriterUint(&w, 1000) == YACErrNoMem, "NoMem");
  CHECK(YACWriterStr(&w, "\0", 1) == YACErrBadUTF8, "refusal after NoMem");
  len2 = 7;
  CHECK(YACWriterFinish(&w, &len2) == YACErrBadUTF8, "it sticks");
}

static void test_atoms(void) {
  static const unsigned char hexlet[16] = {1, 2, 3, 4, 5, 6, 7, 8,
                                           9, 10, 11, 12, 13, 14, 15, 16};
  static const unsigned char two64[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
  static const unsigned char f32[4] = {0x3F, 0x80, 0, 1};
  static const unsigned char want[] = {
      0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, /* hexlet */
      0x0D, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0,   /* -2^64 - 1 */
      0x11, 0x3F, 0x80, 0, 1,                  /* float32 */
      0x12, 0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A, /* 0.1 */
      'K', 'E', 'K', 'S', 'c', 'm', '/', 'p', 'u', 'b', 0, 0, 0, 0, 0, 0,
      0x0B, 0, 0, 0, 0, 0, 0, 0, 1, 0x82, 'a', 'b', 0x82, 'c', 'd', 0x80,
      0x0C, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
      0x0D, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  unsigned char buf[128];
  struct YACWriterLevel level[1]; /* a BLOB takes a level */
  struct YACWriter w;
  size_t len = 0;
  YACWriterInit(&w, buf, sizeof buf, level, 1, NULL, 0);
  YACWriterAllowSequence(&w);
  YACWriterHexlet(&w, hexlet);
  YACWriterBigint(&w, true, two64, 9);
  YACWriterFloatRaw(&w, f32, 4);
  YACWriterFloat(&w, 0.1);
  YACWriterMagic(&w, (const unsigned char *)"cm/pub\0\0\0\0\0\0", 12);
  YACWriterBlob(&w, 2, (const unsigned char *)"abcd", 4);
  YACWriterUint(&w, UINT64_MAX);
  YACWriterSint(&w, INT64_MIN);
  CHECK(YACWriterFinish(&w, &len) == YACErrNo && len == sizeof want &&
            memcmp(buf, want, sizeof want) == 0,
        "every atom");
}

/* The mistakes a C programmer makes, each reported at the faulty call. */
static void test_mistakes(void) {
  unsigned char buf[64];
  unsigned char keys[YAC_WRITER_KEYS_SIZE(2, 3)];
  struct YACWriterLevel levels[4];
  struct YACWriter w;
  struct YACWriterFailure where;
  size_t len = 0;
  /* {"a": [1], "b": 2} with the LIST's close forgotten: the MAP's close
   * finds the LIST. */
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "a");
  YACWriterListOpen(&w);
  YACWriterUint(&w, 1);
  YACWriterStrZ(&w, "b");
  YACWriterUint(&w, 2);
  CHECK(YACWriterMapClose(&w) == YACErrWrongClose, "forgotten close");
  CHECK(YACWriterFailure(&w, &where) == YACErrWrongClose && where.call == 6 &&
            where.depth == 2 && where.open == YACItemList,
        "forgotten close: where");
  /* Two roots: the outer LIST forgotten. */
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  YACWriterUint(&w, 1);
  CHECK(YACWriterUint(&w, 2) == YACErrSecondRoot, "second root");
  CHECK(YACWriterFailure(&w, &where) == YACErrSecondRoot && where.call == 1 &&
            where.offset == 3 && where.open == YACItemInvalid,
        "second root: where");
  /* ...unless a sequence is asked for; each Finish ends a document. */
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  CHECK(YACWriterAllowSequence(&w) == YACErrNo, "sequence");
  YACWriterUint(&w, 1);
  YACWriterUint(&w, 2);
  CHECK(YACWriterFinish(&w, &len) == YACErrNo && len == 6, "a sequence");
  CHECK(YACWriterAllowSequence(&w) == YACErrInvalid, "sequence after items");
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  YACWriterUint(&w, 1);
  YACWriterFinish(&w, &len);
  CHECK(YACWriterUint(&w, 2) == YACErrNo, "a new document after Finish");
  /* A MAGIC does not count as the root. */
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  YACWriterMagic(&w, (const unsigned char *)"cm/pub\0\0\0\0\0\0", 12);
  CHECK(YACWriterUint(&w, 2) == YACErrNo, "MAGIC then the root");
  /* Keys out of order in a buffer too small for the document: the order
   * is still checked, so the retry at the size given does not fail. */
  YACWriterInit(&w, buf, 2, levels, COUNT(levels), NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "b");
  YACWriterUint(&w, 1);
  CHECK(YACWriterError(&w) == YACErrNoMem, "out of room");
  CHECK(YACWriterStrZ(&w, "a") == YACErrMapUnordered, "order past the room");
  CHECK(YACWriterFailure(&w, &where) == YACErrMapUnordered && where.call == 3 &&
            where.offset == 6,
        "order past the room: where");
  /* The same with a key area sized by the macro, nested. */
  YACWriterInit(&w, buf, 3, levels, COUNT(levels), keys, sizeof keys);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "abc");
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "xyz");
  YACWriterNIL(&w);
  YACWriterMapClose(&w);
  CHECK(YACWriterStrZ(&w, "abb") == YACErrMapUnordered, "order, key area");
  /* Count-only checks the order with a key area... */
  YACWriterInitCount(&w, levels, COUNT(levels), keys, sizeof keys);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "b");
  YACWriterNIL(&w);
  CHECK(YACWriterStrZ(&w, "a") == YACErrMapUnordered, "count-only, key area");
  /* ...and cannot without one (documented). */
  YACWriterInitCount(&w, levels, COUNT(levels), NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "b");
  YACWriterNIL(&w);
  CHECK(YACWriterStrZ(&w, "a") == YACErrNo, "count-only, no key area");
}

/* A BLOB of chunk length 2^64, from the writer and the atom encoder. */
static void test_blob_2_64(void) {
  static const unsigned char want[] = {0x0B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                       0xFF, 0xFF, 0x83, 'a', 'b', 'c'};
  unsigned char buf[32];
  struct YACWriterLevel levels[1];
  struct YACWriter w;
  size_t len = 0;
  YACWriterInit(&w, buf, sizeof buf, levels, COUNT(levels), NULL, 0);
  YACWriterBlobOpenMinus1(&w, UINT64_MAX);
  YACWriterChunk(&w, (const unsigned char *)"abc", 3);
  CHECK(YACWriterFinish(&w, &len) == YACErrNo && len == sizeof want &&
            memcmp(buf, want, len) == 0,
        "writer BLOB of 2^64");
  CHECK(YACAtomBlobEncodeMinus1(&len, buf, sizeof buf, UINT64_MAX) == YACErrNo &&
            len == 9 && memcmp(buf, want, 9) == 0,
        "atom BLOB of 2^64");
  CHECK(YACAtomBlobEncodeMinus1(&len, buf, sizeof buf, 1) == YACErrNo &&
            YACAtomBlobEncode(&len, buf + 9, sizeof buf - 9, 2) == YACErrNo &&
            memcmp(buf, buf + 9, 9) == 0,
        "minus one and not");
}

int main(void) {
  test_mistakes();
  test_blob_2_64();
  test_document();
  test_every_capacity();
  test_flush();
  test_refusals();
  test_atoms();
  return check_report();
}
