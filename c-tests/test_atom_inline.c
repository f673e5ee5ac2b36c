/* YACAtomDecodeInline (the header's inline twin of YACAtomDecode for the
 * common atoms) against YACAtomDecode: the same result, length and atom on
 * every tag and second byte followed by tails of many lengths and kinds,
 * on integers of every width at the edges of uint64_t/int64_t, on short
 * strings with one odd byte anywhere or just after them, and on bad
 * arguments. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "yac.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static int is_bytes_type(uint32_t t) {
  return t == YACItemHexlet || t == YACItemFloat || t == YACItemTAI64 || t == YACItemMagic ||
         t == YACItemBin || t == YACItemStr || t == YACItemPbig || t == YACItemNbig;
}

static unsigned long taken;

/* Both decoders on `buf`: same error, length and (on success) atom. */
static void same(const unsigned char *buf, size_t len) {
  struct YACAtom a, b;
  size_t ga = 99, gb = 99;
  YACErr ea, eb;
  memset(&a, 0xAB, sizeof a);
  memset(&b, 0xAB, sizeof b);
  ea = YACAtomDecodeInline(&ga, &a, buf, len);
  eb = YACAtomDecode(&gb, &b, buf, len);
  CHECK(ea == eb && ga == gb, "result and length");
  if (ea != YACErrNo || eb != YACErrNo) {
    return;
  }
  CHECK(a.typ == b.typ && a.tag == b.tag, "type and tag");
  if (is_bytes_type(a.typ)) {
    CHECK(a.v.bytes.ptr == b.v.bytes.ptr && a.v.bytes.len == b.v.bytes.len, "bytes");
  } else {
    CHECK(a.v.uint == b.v.uint, "value");
  }
  if (len >= 16 && (a.typ == YACItemPint || a.typ == YACItemStr || a.typ == YACItemList)) {
    taken++;
  }
}

int main(void) {
  static const size_t tails[] = {0, 1, 2, 8, 13, 14, 15, 16, 30, 70};
  unsigned char buf[2 + 70];
  unsigned a, b, fill, n, at, k;
  size_t t, i;
  for (a = 0; a < 256; a++) {
    for (b = 0; b < 256; b++) {
      for (t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        for (fill = 0; fill < 4; fill++) {
          buf[0] = (unsigned char)a;
          buf[1] = (unsigned char)b;
          for (i = 0; i < tails[t]; i++) {
            buf[2 + i] = fill == 0   ? 0
                         : fill == 1 ? (unsigned char)('a' + i % 26)
                         : fill == 2 ? (unsigned char)(0x80 | i)
                                     : (unsigned char)rnd();
          }
          same(buf, 2 + tails[t]);
        }
      }
    }
  }
  /* Integers of every width, at random and at the edges. */
  for (n = 0; n <= 9; n++) {
    for (k = 0; k < 3000; k++) {
      uint64_t r = rnd();
      buf[0] = k % 2 ? 0x0D : 0x0C;
      buf[1] = (unsigned char)(0x80 | n);
      for (i = 0; i < n; i++) {
        buf[2 + i] = k % 7 == 0 ? 0xFF : k % 11 == 0 ? (i == 0 ? 0x80 : 0) : (unsigned char)(r >> (8 * (i % 8)));
      }
      for (i = n; i < 20; i++) {
        buf[2 + i] = (unsigned char)rnd();
      }
      same(buf, 22);
    }
  }
  /* Short STRs and BINs with one odd byte anywhere. */
  for (n = 0; n <= 62; n++) {
    for (at = 0; at < (n > 0 ? n : 1); at++) {
      static const unsigned char odd[] = {0x00, 0x01, 0x7F, 0x80, 0xC3, 0xFF};
      for (k = 0; k < sizeof odd; k++) {
        memset(buf, 'k', sizeof buf);
        buf[0] = (unsigned char)(0xC0 | n);
        buf[1 + at] = odd[k];
        same(buf, sizeof buf);
        buf[0] = (unsigned char)(0x80 | n);
        same(buf, sizeof buf);
        same(buf, 1 + n);
        /* An ASCII payload followed by the odd byte: the test must stop
         * at the payload's end. */
        memset(buf, 'k', sizeof buf);
        buf[0] = (unsigned char)(0xC0 | n);
        buf[1 + n] = odd[k];
        same(buf, sizeof buf);
      }
    }
  }
  CHECK(taken > 20000, "too few inputs of the inline kinds");
  /* Bad arguments go to YACAtomDecode, which refuses them. */
  {
    struct YACAtom x;
    size_t got = 0;
    memset(buf, 1, sizeof buf);
    CHECK(YACAtomDecodeInline(NULL, &x, buf, 20) == YACErrInvalid, "NULL got");
    CHECK(YACAtomDecodeInline(&got, NULL, buf, 20) == YACErrInvalid, "NULL atom");
    CHECK(YACAtomDecodeInline(&got, &x, NULL, 20) == YACErrInvalid, "NULL buf");
  }
  return check_report();
}
