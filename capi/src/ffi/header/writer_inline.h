/* ------------------------------------------------------------------------
 * Inline writer calls: YACWriterUint's (and the others') twins for the
 * common writes, so that a document of small items makes no library call
 * for them.
 *
 * Each YACWriter...Inline call gives exactly what its exported twin gives,
 * bytes, state and errors: it writes inline, on the public hot state of
 * struct YACWriter, when the buffer has room and the innermost container
 * takes the item directly (a LIST; a MAP value; a MAP key that is above
 * the previous key, with no key area), for +INT/-INT fitting 64 bits, NIL,
 * TRUE/FALSE, LIST and MAP open and close, ASCII STR and BIN of up to 316
 * bytes; and calls the exported twin for everything else (the top level,
 * BLOBs, MAPs sorted on close or with a key area, no room, flushing,
 * non-ASCII text, every error). c-tests/test_writer_inline.c holds each
 * pair together on a corpus of documents and mistakes.
 *
 * Pointers: `w` NULL (then the exported twin says YACErrInvalid) or a
 * writer set up by YACWriterInit or YACWriterInitCount; bytes as for the
 * exported twin.
 * ---------------------------------------------------------------------- */

/* The innermost container's states that the inline calls handle
 * (struct YACWriterHot.top): a LIST; a MAP whose next item is a key, its
 * previous key (keyLen bytes, none when 0) in the buffer at `key`; a MAP
 * whose next item is a value. Bit 0 of any state: a value may come. */
#define YAC_WRITER_TOP_LIST 1u
#define YAC_WRITER_TOP_MAP_KEY 2u
#define YAC_WRITER_TOP_MAP_VAL 3u

/* A key area big enough for MAPs nested up to `depth` deep with keys of up
 * to `longestKey` bytes (each open MAP keeps its last key in its slot). */
#define YAC_WRITER_KEYS_SIZE(depth, longestKey) ((size_t)(depth) * (size_t)(longestKey))

/* The longest STR/BIN payload the inline calls write (a header of 1 or 2
 * bytes). */
#define YAC_WRITER_INLINE_MAX 316u

/* The inline calls are inlined whatever the compiler's size estimate. */
#if defined(__GNUC__)
#define YAC_WRITER_INLINE static inline __attribute__((always_inline))
#else
#define YAC_WRITER_INLINE static inline
#endif

/* The state after a value in state `top`: a MAP value makes a key due; a
 * LIST stays a LIST. Not API. */
static inline uint32_t YACWriterAfterValue_(uint32_t top) {
  return top == YAC_WRITER_TOP_LIST ? top : top & ~1u;
}

/* Bits set in `x` when one of its bytes is not ASCII without NUL (0 or
 * above 0x7F): in the top bit of some byte. Not API. */
static inline uint64_t YACWriterBad_(uint64_t x, uint64_t ones) {
  return x | ((x - ones) & ~x);
}

/* Copies the `len` bytes at `s` to `d` (which has room for them) and
 * says whether they are ASCII without NUL: small lengths with a few
 * overlapping loads, as a small memcpy does. Not API.
 * Pointers: valid for the lengths given (the callers check). */
static inline bool YACWriterCopyAscii_(unsigned char *d, const unsigned char *s, size_t len) {
  const uint64_t ones = 0x0101010101010101u;
  uint64_t bad;
  if (len >= 8) {
    uint64_t a, b;
    size_t i;
    bad = 0;
    for (i = 0; i + 8 < len; i += 8) {
      memcpy(&a, s + i, 8);
      memcpy(d + i, &a, 8);
      bad |= YACWriterBad_(a, ones);
    }
    memcpy(&b, s + len - 8, 8);
    memcpy(d + len - 8, &b, 8);
    bad |= YACWriterBad_(b, ones);
  } else if (len >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + len - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + len - 4, &b, 4);
    bad = YACWriterBad_(((uint64_t)a << 32) | b, ones);
  } else if (len > 0) {
    uint64_t a = s[0], b = s[len / 2], c = s[len - 1];
    d[0] = (unsigned char)a;
    d[len / 2] = (unsigned char)b;
    d[len - 1] = (unsigned char)c;
    bad = YACWriterBad_(a | (b << 8) | (c << 16) | (ones << 24), ones);
  } else {
    bad = 0;
  }
  return (bad & (ones << 7)) == 0;
}

/* Writes the +INT/-INT atom of tag `t` and magnitude `m` at `p`, which has
 * room for 10 bytes; returns its length. Not API.
 * Pointers: valid for the lengths given (the callers check). */
static inline size_t YACWriterIntAt_(unsigned char *p, uint8_t t, uint64_t m) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* The magnitude's n bytes moved to the top of a word, stored big-endian
   * in one go (the bytes after the n are scratch). */
  size_t n = m != 0 ? (size_t)((71 - __builtin_clzll(m)) >> 3) : 0;
  uint64_t be = __builtin_bswap64(m << ((64 - 8 * n) & 63));
  memcpy(p + 2, &be, 8);
#else
  size_t n = 0, i;
  uint64_t x;
  for (x = m; x != 0; x >>= 8) {
    n++;
  }
  for (i = 0; i < n; i++) {
    p[2 + i] = (unsigned char)(m >> (8 * (n - 1 - i)));
  }
#endif
  p[0] = t;
  p[1] = (unsigned char)(0x80u | n);
  return 2 + n;
}

/* The end of every inline write: the new position and state, and one
 * more call. Not API. Pointers: valid for the lengths given (the callers check). */
YAC_WRITER_INLINE YACErr YACWriterCommit_(struct YACWriter *w, size_t pos, uint32_t top) {
  w->hot.pos = pos;
  w->hot.top = top;
  w->hot.calls++;
  return YACErrNo;
}

/* Whether `w` takes a value of `n` bytes here: a LIST or a MAP's value,
 * and room. Not API. Pointers: valid for the lengths given (the callers check). */
static inline bool YACWriterValueFits_(const struct YACWriter *w, uint32_t top, size_t pos,
                                       size_t n) {
  return (top & 1u) != 0 && pos + n <= w->hot.lim;
}

/* YACWriterUint, inline for a value in a LIST or MAP. Pointers: as for YACWriterUint. */
YAC_WRITER_INLINE YACErr YACWriterUintInline(struct YACWriter *w, uint64_t v) {
  if (w != NULL) {
    uint32_t top = w->hot.top;
    size_t pos = w->hot.pos;
    if (YACWriterValueFits_(w, top, pos, 10)) {
      size_t n = YACWriterIntAt_(w->buf + pos, 0x0C, v);
      return YACWriterCommit_(w, pos + n, YACWriterAfterValue_(top));
    }
  }
  return YACWriterUint(w, v);
}

/* YACWriterSint, inline for a value in a LIST or MAP. Pointers: as for YACWriterSint. */
YAC_WRITER_INLINE YACErr YACWriterSintInline(struct YACWriter *w, int64_t v) {
  if (w != NULL) {
    uint32_t top = w->hot.top;
    size_t pos = w->hot.pos;
    if (YACWriterValueFits_(w, top, pos, 10)) {
      /* -1 - v, the magnitude of a negative v, is ~v. */
      uint64_t m = v < 0 ? ~(uint64_t)v : (uint64_t)v;
      size_t n = YACWriterIntAt_(w->buf + pos, v < 0 ? 0x0D : 0x0C, m);
      return YACWriterCommit_(w, pos + n, YACWriterAfterValue_(top));
    }
  }
  return YACWriterSint(w, v);
}

/* A one-byte atom `b`, inline for a value in a LIST or MAP; `false` when
 * the library must write it. Not API. Pointers: valid for the lengths given (the callers check). */
static inline bool YACWriterByte_(struct YACWriter *w, unsigned char b) {
  if (w != NULL) {
    uint32_t top = w->hot.top;
    size_t pos = w->hot.pos;
    if (YACWriterValueFits_(w, top, pos, 1)) {
      w->buf[pos] = b;
      YACWriterCommit_(w, pos + 1, YACWriterAfterValue_(top));
      return true;
    }
  }
  return false;
}

/* YACWriterNIL, inline for a value in a LIST or MAP. Pointers: as for YACWriterNIL. */
YAC_WRITER_INLINE YACErr YACWriterNILInline(struct YACWriter *w) {
  return YACWriterByte_(w, 0x01) ? YACErrNo : YACWriterNIL(w);
}

/* YACWriterBool, inline for a value in a LIST or MAP. Pointers: as for YACWriterBool. */
YAC_WRITER_INLINE YACErr YACWriterBoolInline(struct YACWriter *w, bool v) {
  return YACWriterByte_(w, v ? 0x03 : 0x02) ? YACErrNo : YACWriterBool(w, v);
}

/* Writes the header of a STR/BIN (`base` 0xC0 or 0x80) of `len` (at most
 * YAC_WRITER_INLINE_MAX) bytes at `p`; returns its length. Not API.
 * Pointers: valid for the lengths given (the callers check). */
static inline size_t YACWriterHeadAt_(unsigned char *p, unsigned base, size_t len) {
  if (len < 61) {
    p[0] = (unsigned char)(base | len);
    return 1;
  }
  p[0] = (unsigned char)(base | 61u);
  p[1] = (unsigned char)(len - 61);
  return 2;
}

/* YACWriterBin, inline for a value of up to YAC_WRITER_INLINE_MAX bytes in
 * a LIST or MAP. Pointers: as for YACWriterBin. */
YAC_WRITER_INLINE YACErr YACWriterBinInline(struct YACWriter *w, const unsigned char *v, size_t vLen) {
  if (w != NULL && v != NULL && vLen <= YAC_WRITER_INLINE_MAX) {
    uint32_t top = w->hot.top;
    size_t pos = w->hot.pos;
    if (YACWriterValueFits_(w, top, pos, 2 + vLen)) {
      unsigned char *p = w->buf + pos;
      size_t h = YACWriterHeadAt_(p, 0x80u, vLen);
      memcpy(p + h, v, vLen);
      return YACWriterCommit_(w, pos + h + vLen, YACWriterAfterValue_(top));
    }
  }
  return YACWriterBin(w, v, vLen);
}

/* Whether key `s` of `len` (> 0) bytes is above the previous key of
 * `prevLen` bytes at `prev` (length first, then bytewise; any key is above
 * none). Not API. Pointers: valid for the lengths given (the callers check). */
static inline bool YACWriterKeyAbove_(const unsigned char *s, size_t len,
                                      const unsigned char *prev, size_t prevLen) {
  size_t i;
  if (len != prevLen || len > 8) {
    return len > prevLen || (len == prevLen && memcmp(s, prev, len) > 0);
  }
  for (i = 0; i < len; i++) {
    if (s[i] != prev[i]) {
      return s[i] > prev[i];
    }
  }
  return false;
}

/* YACWriterStr, inline for ASCII text without NUL of up to
 * YAC_WRITER_INLINE_MAX bytes: a value in a LIST or MAP, or a MAP key
 * above the previous one (no key area). The text is copied first (past
 * the bytes written, the buffer is scratch), checked as it is. Pointers: as for YACWriterStr. */
YAC_WRITER_INLINE YACErr YACWriterStrInline(struct YACWriter *w, const char *s, size_t sLen) {
  if (w != NULL && s != NULL && sLen <= YAC_WRITER_INLINE_MAX) {
    uint32_t top = w->hot.top;
    size_t pos = w->hot.pos;
    unsigned char *p = w->buf + pos;
    const unsigned char *u = (const unsigned char *)s;
    if (pos + 2 + sLen > w->hot.lim) {
      /* The library's. */
    } else if ((top & 1u) != 0) {
      size_t h = YACWriterHeadAt_(p, 0xC0u, sLen);
      if (YACWriterCopyAscii_(p + h, u, sLen)) {
        return YACWriterCommit_(w, pos + h + sLen, YACWriterAfterValue_(top));
      }
    } else if (top == YAC_WRITER_TOP_MAP_KEY && sLen > 0 &&
               YACWriterKeyAbove_(u, sLen, w->buf + w->hot.key, w->hot.keyLen)) {
      size_t h = YACWriterHeadAt_(p, 0xC0u, sLen);
      if (YACWriterCopyAscii_(p + h, u, sLen)) {
        w->hot.key = pos + h;
        w->hot.keyLen = sLen;
        return YACWriterCommit_(w, pos + h + sLen, YAC_WRITER_TOP_MAP_VAL);
      }
    }
  }
  return YACWriterStr(w, s, sLen);
}

/* Opens a container of tag `t` whose first state is `top`, when `w` takes
 * one here (a LIST or a MAP's value, a free level, room); `false` when the
 * library must. Not API. Pointers: valid for the lengths given (the callers check). */
YAC_WRITER_INLINE bool YACWriterPush_(struct YACWriter *w, unsigned char t, uint32_t top) {
  uint32_t outer = w->hot.top, d = w->hot.depth;
  size_t pos = w->hot.pos;
  if (YACWriterValueFits_(w, outer, pos, 1) && d < w->hot.maxDepth) {
    struct YACWriterLevel *l = w->levels + d;
    size_t key = w->hot.key, keyLen = w->hot.keyLen;
    w->buf[pos] = t;
    l->key = key;
    l->keyLen = (uint32_t)keyLen;
    l->top = YACWriterAfterValue_(outer);
    w->hot.depth = d + 1;
    w->hot.keyLen = 0;
    YACWriterCommit_(w, pos + 1, top);
    return true;
  }
  return false;
}

/* YACWriterListOpen, inline in a LIST or as a MAP value. Pointers: as for YACWriterListOpen. */
YAC_WRITER_INLINE YACErr YACWriterListOpenInline(struct YACWriter *w) {
  if (w != NULL && YACWriterPush_(w, 0x08, YAC_WRITER_TOP_LIST)) {
    return YACErrNo;
  }
  return YACWriterListOpen(w);
}

/* YACWriterMapOpen, inline in a LIST or as a MAP value (no key area).
 * Pointers: as for YACWriterMapOpen. */
YAC_WRITER_INLINE YACErr YACWriterMapOpenInline(struct YACWriter *w) {
  if (w != NULL && w->hot.area == 0 && YACWriterPush_(w, 0x09, YAC_WRITER_TOP_MAP_KEY)) {
    return YACErrNo;
  }
  return YACWriterMapOpen(w);
}

/* Closes the innermost container, in state `top` (an EOC), when there is
 * room, and brings back the enclosing one's state; `false` when the
 * library must. Not API. Pointers: valid for the lengths given (the callers check). */
YAC_WRITER_INLINE bool YACWriterPop_(struct YACWriter *w, uint32_t top) {
  size_t pos = w->hot.pos;
  if (w->hot.top == top && pos < w->hot.lim) {
    uint32_t d = w->hot.depth - 1;
    const struct YACWriterLevel *l = w->levels + d;
    uint64_t key = l->key;
    uint32_t keyLen = l->keyLen, outer = l->top;
    w->buf[pos] = 0x00;
    w->hot.depth = d;
    w->hot.key = (size_t)key;
    w->hot.keyLen = keyLen;
    YACWriterCommit_(w, pos + 1, outer);
    return true;
  }
  return false;
}

/* YACWriterListClose, inline. Pointers: as for YACWriterListClose. */
YAC_WRITER_INLINE YACErr YACWriterListCloseInline(struct YACWriter *w) {
  if (w != NULL && YACWriterPop_(w, YAC_WRITER_TOP_LIST)) {
    return YACErrNo;
  }
  return YACWriterListClose(w);
}

/* YACWriterMapClose, inline for a MAP after a value (no key area, not
 * sorted on close). Pointers: as for YACWriterMapClose. */
YAC_WRITER_INLINE YACErr YACWriterMapCloseInline(struct YACWriter *w) {
  if (w != NULL && YACWriterPop_(w, YAC_WRITER_TOP_MAP_KEY)) {
    return YACErrNo;
  }
  return YACWriterMapClose(w);
}
