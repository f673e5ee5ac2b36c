/* ------------------------------------------------------------------------
 * Inline atom decoding: YACAtomDecode's twin for the common atoms, so that
 * a loop over a document's atoms makes no call for them.
 *
 * YACAtomDecodeInline gives exactly what YACAtomDecode gives, for every
 * input: it decodes inline, when at least 16 bytes are left, EOC, NIL,
 * FALSE, TRUE, LIST, MAP, +INT/-INT of at most 8 magnitude bytes that fit
 * uint64_t/int64_t, BIN of up to 60 bytes and STR of up to 60 bytes that
 * are ASCII without NUL, and calls YACAtomDecode for everything else (other
 * types, non-ASCII text, the input's last 15 bytes, every error). The rules
 * it repeats are the library's (yac/src/atom/window.rs: decode_window_words,
 * decode_window_string); c-tests/test_atom_inline.c holds the two together
 * on every tag and second byte with many tails, and on the integer edges.
 * ---------------------------------------------------------------------- */

/* For YACAtomDecodeInline: stores a one-word value in `atom->v`, with
 * the rest of the union zeroed (as YACAtomDecode does). Not API.
 * Pointers: `atom` writable. */
static inline void YACAtomWord_(struct YACAtom *atom, uint64_t v) {
  atom->v.bytes.ptr = NULL;
  atom->v.bytes.len = 0;
  atom->v.uint = v;
}

/* For YACAtomDecodeInline: stores a one-byte atom. Not API.
 * Pointers: `got`, `atom` writable. */
static inline YACErr YACAtomOne_(size_t *got, struct YACAtom *atom, uint32_t typ, uint8_t tag) {
  YACAtomWord_(atom, 0);
  atom->typ = typ;
  atom->tag = tag;
  *got = 1;
  return YACErrNo;
}

#if defined(__SSE2__)
/* SSE2 (every x86_64 compiler, x86 with -msse2): the STR test in 16-byte
 * steps, as the library's own decoder does it (yac/src/utf8.rs). */
#include <emmintrin.h>

/* For YACAtomDecodeInline: one flag bit for each of the 16 bytes at `p`
 * that is not in 0x01..0x7F. A saturating subtraction of 1 leaves exactly
 * those bytes negative (0x00 becomes -1, 0x80..0xFF stay below zero), and
 * the sign bits are the flags. Not API. Pointers: `p` readable for 16
 * bytes. */
static inline unsigned YACNonAscii16_(const unsigned char *p) {
  __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
  return (unsigned)_mm_movemask_epi8(_mm_subs_epi8(x, _mm_set1_epi8(1)));
}

/* For YACAtomDecodeInline: whether the STR payload of the atom at `buf`,
 * its `n` (0 to 60) bytes after the one-byte header, is all in 0x01..0x7F.
 * Below 16 bytes the payload is inside the atom's first 16 bytes: one load,
 * its flags masked to bytes 1..n. Longer payloads are 16-byte steps whose
 * last one overlaps the one before; the last is tested alone first, so text
 * that is not ASCII goes to YACAtomDecode without the rest. Not API.
 * Pointers: `buf` readable for at least 16 and at least 1 + `n` bytes. */
static inline int YACAsciiText_(const unsigned char *buf, uint32_t n) {
  unsigned flags;
  uint32_t i;
  if (n < 16) {
    return (YACNonAscii16_(buf) & ((2u << n) - 2u)) == 0;
  }
  flags = YACNonAscii16_(buf + 1 + n - 16);
  if (flags != 0) {
    return 0;
  }
  for (i = 0; i + 16 < n; i += 16) {
    flags |= YACNonAscii16_(buf + 1 + i);
  }
  return flags == 0;
}
#else
/* For YACAtomDecodeInline: the flags of the bytes of `x` that are not in
 * 0x01..0x7F, in the bytes' top bits. A byte at 0x80 or above has its top
 * bit set in x, a zero byte in x - 0x0101...; that subtraction borrows only
 * at a zero byte and only into the bytes above it, so the flags of the
 * bytes below the first zero byte are exact. Not API. */
static inline uint64_t YACNonAscii8_(uint64_t x) {
  return (x | (x - UINT64_C(0x0101010101010101))) & UINT64_C(0x8080808080808080);
}

/* For YACAtomDecodeInline: the 8 bytes at `p` as a word, the first byte
 * lowest, whatever the host's byte order. Not API. Pointers: `p` readable
 * for 8 bytes. */
static inline uint64_t YACLoad8_(const unsigned char *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
         (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
         (uint64_t)p[7] << 56;
}

/* For YACAtomDecodeInline: whether the STR payload of the atom at `buf`,
 * its `n` (0 to 60) bytes after the one-byte header, is all in 0x01..0x7F,
 * a word at a time: fewer than 8 bytes are one word masked to its first n
 * bytes (whose flags the bytes after them cannot change), more are words
 * whose last one overlaps the one before. The last word is tested alone
 * first: text that is not ASCII goes to YACAtomDecode without the rest of
 * the test (fewer instructions on every benchmark document). Not API.
 * Pointers: `buf` readable for at least 9 and at least 1 + `n` bytes. */
static inline int YACAsciiText_(const unsigned char *buf, uint32_t n) {
  const unsigned char *p = buf + 1;
  uint64_t flags;
  uint32_t i;
  if (n < 8) {
    return (YACNonAscii8_(YACLoad8_(p)) & ((UINT64_C(1) << (8 * n)) - 1)) == 0;
  }
  flags = YACNonAscii8_(YACLoad8_(p + n - 8));
  if (flags != 0) {
    return 0;
  }
  for (i = 0; i + 8 < n; i += 8) {
    flags |= YACNonAscii8_(YACLoad8_(p + i));
  }
  return flags == 0;
}
#endif

/* YACAtomDecode, with the common atoms decoded inline (see above): the
 * same results, outputs and errors for every input.
 * Pointers: as for YACAtomDecode. */
static inline YACErr YACAtomDecodeInline(size_t *got, struct YACAtom *atom,
                                         const unsigned char *buf, size_t len) {
  if (got != NULL && atom != NULL && buf != NULL && len >= 16) {
    uint8_t t = buf[0];
    uint32_t n;
    uint64_t v;
    switch (t) {
    case 0x00:
      return YACAtomOne_(got, atom, YACItemEOC, t);
    case 0x01:
      return YACAtomOne_(got, atom, YACItemNIL, t);
    case 0x02:
      return YACAtomOne_(got, atom, YACItemFalse, t);
    case 0x03:
      return YACAtomOne_(got, atom, YACItemTrue, t);
    case 0x08:
      return YACAtomOne_(got, atom, YACItemList, t);
    case 0x09:
      return YACAtomOne_(got, atom, YACItemMap, t);
    case 0x0C:
    case 0x0D:
      /* +INT/-INT: a BIN body of 0 to 8 bytes without a leading zero. */
      n = (uint32_t)buf[1] ^ 0x80u;
      if (n > 8 || (n != 0 && buf[2] == 0)) {
        break;
      }
      v = 0;
      if (n != 0) {
        v = ((uint64_t)buf[2] << 56 | (uint64_t)buf[3] << 48 | (uint64_t)buf[4] << 40 |
             (uint64_t)buf[5] << 32 | (uint64_t)buf[6] << 24 | (uint64_t)buf[7] << 16 |
             (uint64_t)buf[8] << 8 | (uint64_t)buf[9]) >>
            (64 - 8 * n);
      }
      if (t == 0x0D) {
        /* -1 - v, which must fit int64_t (else a big integer). */
        v = ~v;
        if (v < (UINT64_C(1) << 63)) {
          break;
        }
        atom->typ = YACItemNint;
      } else {
        atom->typ = YACItemPint;
      }
      YACAtomWord_(atom, v);
      atom->tag = t;
      *got = 2 + n;
      return YACErrNo;
    default:
      /* BIN and STR with a one-byte header; a STR's text ASCII without NUL. */
      n = t & 0x3Fu;
      if (t < 0x80 || n > 60 || 1 + n > len) {
        break;
      }
      if (t < 0xC0) {
        atom->typ = YACItemBin;
      } else if (YACAsciiText_(buf, n)) {
        atom->typ = YACItemStr;
      } else {
        break;
      }
      atom->v.bytes.ptr = buf + 1;
      atom->v.bytes.len = n;
      atom->tag = t;
      *got = 1 + n;
      return YACErrNo;
    }
  }
  return YACAtomDecode(got, atom, buf, len);
}
