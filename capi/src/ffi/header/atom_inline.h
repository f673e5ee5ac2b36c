/* ------------------------------------------------------------------------
 * Inline atom decoding: YACAtomDecode's twin for the common atoms, so that
 * a loop over a document's atoms makes no call for them.
 *
 * YACAtomDecodeInline gives exactly what YACAtomDecode gives, for every
 * input: it decodes inline, when at least 16 bytes are left, EOC, NIL,
 * FALSE, TRUE, LIST, MAP, +INT/-INT of at most 8 magnitude bytes that fit
 * uint64_t/int64_t, BIN of up to 60 bytes and ASCII STR of up to 15 bytes
 * without NUL, and calls YACAtomDecode for everything else (other types,
 * the input's last 15 bytes, every error). The rules it repeats are the
 * library's (yac/src/atom.rs: decode_window_words, decode_window_string);
 * c-tests/test_atom_inline.c holds the two together on every tag and
 * second byte with many tails, and on the integer edges.
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
      n = t & 0x3Fu;
      if (t >= 0xC0 && n <= 15) {
        /* STR inside the window: ASCII without NUL. */
        uint32_t i;
        for (i = 1; i <= n; i++) {
          if ((uint8_t)(buf[i] - 1u) >= 0x7Fu) {
            break;
          }
        }
        if (i <= n) {
          break;
        }
        atom->typ = YACItemStr;
      } else if (t >= 0x80 && t < 0xC0 && n <= 60 && 1 + n <= len) {
        atom->typ = YACItemBin;
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
