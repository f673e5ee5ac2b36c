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

/* The state after a value in state `top`: a MAP value makes a key due; a
 * LIST stays a LIST. Not API. */
static inline uint32_t YACWriterAfterValue_(uint32_t top) {
  return top & ~((top >> 1) & 1u);
}

/* Whether the `len` bytes at `s` are ASCII without NUL (each 1..0x7F),
 * 8 bytes at a time. Not API. */
static inline bool YACWriterAscii_(const unsigned char *s, size_t len) {
  const uint64_t ones = 0x0101010101010101u;
  uint64_t acc = 0;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t x;
    memcpy(&x, s + i, 8);
    /* High bit set in a byte, or a zero byte. */
    acc |= x | ((x - ones) & ~x);
  }
  for (; i < len; i++) {
    uint64_t c = s[i];
    acc |= c | ((c - 1) & ~c);
  }
  return (acc & (ones << 7)) == 0;
}

/* Writes the +INT/-INT atom of tag `t` and magnitude `m` at `p`, which has
 * room for 10 bytes; returns its length. Not API. */
static inline size_t YACWriterIntAt_(unsigned char *p, uint8_t t, uint64_t m) {
  size_t n = 0;
  uint64_t x = m;
  while (x != 0) {
    n++;
    x >>= 8;
  }
  p[0] = t;
  p[1] = (unsigned char)(0x80u | n);
  for (x = 0; x < n; x++) {
    p[2 + x] = (unsigned char)(m >> (8 * (n - 1 - x)));
  }
  return 2 + n;
}

/* The common part of the inline value writes: whether `w` takes a value
 * of `n` bytes here; then the caller writes it at w->buf + w->hot.pos and
 * calls YACWriterValueDone_. Not API. */
static inline bool YACWriterValueFits_(const struct YACWriter *w, size_t n) {
  return w != NULL && (w->hot.top & 1u) != 0 && w->hot.pos + n <= w->hot.lim;
}

static inline YACErr YACWriterValueDone_(struct YACWriter *w, size_t n) {
  w->hot.pos += n;
  w->hot.top = YACWriterAfterValue_(w->hot.top);
  w->hot.calls++;
  return YACErrNo;
}

/* YACWriterUint, inline for a value in a LIST or MAP. */
static inline YACErr YACWriterUintInline(struct YACWriter *w, uint64_t v) {
  if (YACWriterValueFits_(w, 10)) {
    return YACWriterValueDone_(w, YACWriterIntAt_(w->buf + w->hot.pos, 0x0C, v));
  }
  return YACWriterUint(w, v);
}

/* YACWriterSint, inline for a value in a LIST or MAP. */
static inline YACErr YACWriterSintInline(struct YACWriter *w, int64_t v) {
  if (YACWriterValueFits_(w, 10)) {
    unsigned char *p = w->buf + w->hot.pos;
    /* -1 - v, the magnitude of a negative v, is ~v. */
    size_t n = v < 0 ? YACWriterIntAt_(p, 0x0D, ~(uint64_t)v) : YACWriterIntAt_(p, 0x0C, (uint64_t)v);
    return YACWriterValueDone_(w, n);
  }
  return YACWriterSint(w, v);
}

/* YACWriterNIL, inline for a value in a LIST or MAP. */
static inline YACErr YACWriterNILInline(struct YACWriter *w) {
  if (YACWriterValueFits_(w, 1)) {
    w->buf[w->hot.pos] = 0x01;
    return YACWriterValueDone_(w, 1);
  }
  return YACWriterNIL(w);
}

/* YACWriterBool, inline for a value in a LIST or MAP. */
static inline YACErr YACWriterBoolInline(struct YACWriter *w, bool v) {
  if (YACWriterValueFits_(w, 1)) {
    w->buf[w->hot.pos] = v ? 0x03 : 0x02;
    return YACWriterValueDone_(w, 1);
  }
  return YACWriterBool(w, v);
}

/* Writes the header of a STR/BIN (`base` 0xC0 or 0x80) of `len` (at most
 * YAC_WRITER_INLINE_MAX) bytes at `p`; returns its length. Not API. */
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
 * a LIST or MAP. */
static inline YACErr YACWriterBinInline(struct YACWriter *w, const unsigned char *v, size_t vLen) {
  if (v != NULL && vLen <= YAC_WRITER_INLINE_MAX && YACWriterValueFits_(w, 2 + vLen)) {
    unsigned char *p = w->buf + w->hot.pos;
    size_t h = YACWriterHeadAt_(p, 0x80u, vLen);
    memcpy(p + h, v, vLen);
    return YACWriterValueDone_(w, h + vLen);
  }
  return YACWriterBin(w, v, vLen);
}

/* Whether key `s` of `len` (> 0) bytes is above the innermost MAP's
 * previous key (length first, then bytewise; any key is above none).
 * Not API. */
static inline bool YACWriterKeyAbove_(const struct YACWriter *w, const char *s, size_t len) {
  size_t prev = w->hot.keyLen;
  return len > prev || (len == prev && memcmp(s, w->buf + w->hot.key, len) > 0);
}

/* YACWriterStr, inline for ASCII text without NUL of up to
 * YAC_WRITER_INLINE_MAX bytes: a value in a LIST or MAP, or a MAP key
 * above the previous one (no key area). */
static inline YACErr YACWriterStrInline(struct YACWriter *w, const char *s, size_t sLen) {
  if (w != NULL && s != NULL && sLen <= YAC_WRITER_INLINE_MAX &&
      w->hot.pos + 2 + sLen <= w->hot.lim &&
      YACWriterAscii_((const unsigned char *)s, sLen)) {
    uint32_t top = w->hot.top;
    unsigned char *p = w->buf + w->hot.pos;
    if ((top & 1u) != 0) {
      size_t h = YACWriterHeadAt_(p, 0xC0u, sLen);
      memcpy(p + h, s, sLen);
      return YACWriterValueDone_(w, h + sLen);
    }
    if (top == YAC_WRITER_TOP_MAP_KEY && sLen > 0 && YACWriterKeyAbove_(w, s, sLen)) {
      size_t h = YACWriterHeadAt_(p, 0xC0u, sLen);
      memcpy(p + h, s, sLen);
      w->hot.key = w->hot.pos + h;
      w->hot.keyLen = sLen;
      w->hot.pos += h + sLen;
      w->hot.top = YAC_WRITER_TOP_MAP_VAL;
      w->hot.calls++;
      return YACErrNo;
    }
  }
  return YACWriterStr(w, s, sLen);
}

/* Opens a container of tag `t` whose first state is `top`, after the
 * checks. Not API. */
static inline YACErr YACWriterPush_(struct YACWriter *w, unsigned char t, uint32_t top) {
  struct YACWriterLevel *l = w->levels + w->hot.depth;
  w->buf[w->hot.pos] = t;
  l->key = w->hot.key;
  l->keyLen = (uint32_t)w->hot.keyLen;
  l->top = YACWriterAfterValue_(w->hot.top);
  w->hot.pos++;
  w->hot.depth++;
  w->hot.top = top;
  w->hot.keyLen = 0;
  w->hot.calls++;
  return YACErrNo;
}

/* Whether `w` takes a container's opening here. Not API. */
static inline bool YACWriterOpenFits_(const struct YACWriter *w) {
  return YACWriterValueFits_(w, 1) && w->hot.depth < w->hot.maxDepth;
}

/* YACWriterListOpen, inline in a LIST or as a MAP value. */
static inline YACErr YACWriterListOpenInline(struct YACWriter *w) {
  if (YACWriterOpenFits_(w)) {
    return YACWriterPush_(w, 0x08, YAC_WRITER_TOP_LIST);
  }
  return YACWriterListOpen(w);
}

/* YACWriterMapOpen, inline in a LIST or as a MAP value (no key area). */
static inline YACErr YACWriterMapOpenInline(struct YACWriter *w) {
  if (YACWriterOpenFits_(w) && w->hot.area == 0) {
    return YACWriterPush_(w, 0x09, YAC_WRITER_TOP_MAP_KEY);
  }
  return YACWriterMapOpen(w);
}

/* Closes the innermost container (an EOC) and brings back the enclosing
 * one's state. Not API. */
static inline YACErr YACWriterPop_(struct YACWriter *w) {
  const struct YACWriterLevel *l = w->levels + (w->hot.depth - 1);
  w->buf[w->hot.pos] = 0x00;
  w->hot.pos++;
  w->hot.depth--;
  w->hot.top = l->top;
  w->hot.key = (size_t)l->key;
  w->hot.keyLen = l->keyLen;
  w->hot.calls++;
  return YACErrNo;
}

/* YACWriterListClose, inline. */
static inline YACErr YACWriterListCloseInline(struct YACWriter *w) {
  if (w != NULL && w->hot.top == YAC_WRITER_TOP_LIST && w->hot.pos < w->hot.lim) {
    return YACWriterPop_(w);
  }
  return YACWriterListClose(w);
}

/* YACWriterMapClose, inline for a MAP after a value (no key area, not
 * sorted on close). */
static inline YACErr YACWriterMapCloseInline(struct YACWriter *w) {
  if (w != NULL && w->hot.top == YAC_WRITER_TOP_MAP_KEY && w->hot.pos < w->hot.lim) {
    return YACWriterPop_(w);
  }
  return YACWriterMapClose(w);
}
