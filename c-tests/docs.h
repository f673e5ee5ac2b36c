/* Documents for the C tests, built with the YACAtom*Encode functions (so
 * that the tree is checked against bytes it did not produce itself).
 * Included by several tests; needs check.h first. */
#ifndef YAC_TEST_DOCS_H
#define YAC_TEST_DOCS_H

#include <stddef.h>
#include <string.h>

#include "yac.h"

/* Bytes a Doc holds (the MCU test sets less). */
#ifndef DOC_CAP
#define DOC_CAP 4096
#endif

struct Doc {
  unsigned char b[DOC_CAP];
  size_t n;
};

/* Appends one atom written by `fn` (an encoder taking extra arguments). */
#define PUT(d, fn, ...)                                                      \
  do {                                                                       \
    size_t put_len_ = 0;                                                     \
    YACErr put_err_ =                                                   \
        fn(&put_len_, (d)->b + (d)->n, sizeof((d)->b) - (d)->n, __VA_ARGS__); \
    CHECK(put_err_ == YACErrNo, #fn);                                        \
    (d)->n += put_len_;                                                      \
  } while (0)

/* The same for the encoders without a value (EOC, NIL, LIST, MAP). */
#define PUT0(d, fn)                                                          \
  do {                                                                       \
    size_t put_len_ = 0;                                                     \
    YACErr put_err_ =                                                   \
        fn(&put_len_, (d)->b + (d)->n, sizeof((d)->b) - (d)->n);             \
    CHECK(put_err_ == YACErrNo, #fn);                                        \
    (d)->n += put_len_;                                                      \
  } while (0)

#define PUT_STR(d, s) PUT(d, YACAtomStrEncode, (s), strlen(s))

static const unsigned char doc_hexlet[16] = {
    0x0e, 0x87, 0x5e, 0x3f, 0xd3, 0x85, 0x49, 0xeb,
    0x87, 0xb4, 0xbe, 0x42, 0xd6, 0x41, 0xc3, 0x67};
static const unsigned char doc_big[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
/* "привет" in UTF-8. */
static const char doc_privet[] =
    "\320\277\321\200\320\270\320\262\320\265\321\202";

/* A MAP holding one value of every type (keys "a".."p", then "xyz"):
 *   a: BIN 01 02 03          b: BLOB chunk 3 "abcdefg"   c: 1.5
 *   d: HEXLET                e: -5                        f: 2^64
 *   g: -1 - 2^64             h: [1, 2, [], {}]            i: MAGIC cm/pub
 *   j: NIL                   k: "привет"   l: TAI64N 2017-01-01 00:00:00.0000005 UTC
 *   m: TRUE                  n: 2^64 - 1                  o: FALSE
 *   p: 0.1                   xyz: "" */
static void build_rich_doc(struct Doc *d) {
  static const unsigned char bin[3] = {1, 2, 3};
  unsigned char label[16];
  size_t label_len = 0;
  d->n = 0;
  CHECK(YACUTCToTAI64(&label_len, label, sizeof label, 1483228800, 500) ==
            YACErrNo,
        "UTC label");
  PUT0(d, YACAtomMapEncode);
  PUT_STR(d, "a");
  PUT(d, YACAtomBinEncode, bin, sizeof bin);
  PUT_STR(d, "b");
  PUT(d, YACAtomBlobEncode, 3);
  PUT(d, YACAtomChunkEncode, (const unsigned char *)"abc", 3);
  PUT(d, YACAtomChunkEncode, (const unsigned char *)"def", 3);
  PUT(d, YACAtomChunkEncode, (const unsigned char *)"g", 1);
  PUT_STR(d, "c");
  PUT(d, YACAtomFloatEncode, 1.5);
  PUT_STR(d, "d");
  PUT(d, YACAtomHexletEncode, doc_hexlet);
  PUT_STR(d, "e");
  PUT(d, YACAtomSintEncode, -5);
  PUT_STR(d, "f");
  PUT(d, YACAtomBigintEncode, false, doc_big, sizeof doc_big);
  PUT_STR(d, "g");
  PUT(d, YACAtomBigintEncode, true, doc_big, sizeof doc_big);
  PUT_STR(d, "h");
  PUT0(d, YACAtomListEncode);
  PUT(d, YACAtomUintEncode, 1);
  PUT(d, YACAtomUintEncode, 2);
  PUT0(d, YACAtomListEncode);
  PUT0(d, YACAtomEOCEncode);
  PUT0(d, YACAtomMapEncode);
  PUT0(d, YACAtomEOCEncode);
  PUT0(d, YACAtomEOCEncode);
  PUT_STR(d, "i");
  PUT(d, YACAtomMagicEncode, (const unsigned char *)"cm/pub\0\0\0\0\0\0", 12);
  PUT_STR(d, "j");
  PUT0(d, YACAtomNILEncode);
  PUT_STR(d, "k");
  PUT(d, YACAtomStrEncode, doc_privet, strlen(doc_privet));
  PUT_STR(d, "l");
  PUT(d, YACAtomTAI64Encode, label, label_len);
  PUT_STR(d, "m");
  PUT(d, YACAtomBoolEncode, true);
  PUT_STR(d, "n");
  PUT(d, YACAtomUintEncode, UINT64_MAX);
  PUT_STR(d, "o");
  PUT(d, YACAtomBoolEncode, false);
  PUT_STR(d, "p");
  PUT(d, YACAtomFloatEncode, 0.1);
  PUT_STR(d, "xyz");
  PUT(d, YACAtomStrEncode, "", 0);
  PUT0(d, YACAtomEOCEncode);
}

/* Nodes of the rich document: the MAP, 17 keys, 15 one-node values, the
 * BLOB (2 nodes + 3 chunks) and the LIST h (5 nodes). */
#define RICH_DOC_NODES (1 + 17 + 15 + 5 + 5)

/* LIST [first, first + 1, ..., first + n - 1] of unsigned integers. */
static void build_uint_list(struct Doc *d, uint64_t first, size_t n) {
  size_t i;
  d->n = 0;
  PUT0(d, YACAtomListEncode);
  for (i = 0; i < n; i++) {
    PUT(d, YACAtomUintEncode, first + i);
  }
  PUT0(d, YACAtomEOCEncode);
}

#endif /* YAC_TEST_DOCS_H */
