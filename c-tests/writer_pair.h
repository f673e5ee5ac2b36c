/* Two writers given the same calls, one through the header's inline calls
 * (YACWriter...Inline), the other through the exported functions, compared
 * after every call: for test_writer_inline.c and the MCU test. Needs
 * check.h first. */
#ifndef YAC_TEST_WRITER_PAIR_H
#define YAC_TEST_WRITER_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "yac.h"

#ifndef PAIR_CAP
#define PAIR_CAP 1024
#endif
#ifndef PAIR_OUT
#define PAIR_OUT (64 * 1024)
#endif

#define DEPTH 8

enum OpKind {
  OP_UINT,
  OP_SINT,
  OP_NIL,
  OP_BOOL,
  OP_STR,
  OP_BIN,
  OP_LIST,
  OP_MAP,
  OP_LIST_CLOSE,
  OP_MAP_CLOSE,
  OP_SORTED,
  OP_BLOB,
  OP_FLOAT,
  OP_KINDS,
  OP_ATOM /* a decoded atom of another type, exported calls only */
};

struct Op {
  enum OpKind kind;
  uint64_t u;
  const char *s;
  size_t n;
  const struct YACAtom *atom;
};

struct Sink {
  unsigned char out[PAIR_OUT];
  size_t len;
};

static uint32_t sink(void *ctx, const unsigned char *buf, size_t len) {
  struct Sink *s = ctx;
  if (len > sizeof s->out - s->len) {
    return YACErrNoMem;
  }
  memcpy(s->out + s->len, buf, len);
  s->len += len;
  return YACErrNo;
}

/* Two writers set up alike: [0] takes the inline calls, [1] the
 * exported ones. */
struct Pair {
  struct YACWriter w[2];
  unsigned char buf[2][PAIR_CAP];
  struct YACWriterLevel levels[2][DEPTH];
  unsigned char keys[2][256];
  struct Sink sink[2];
};

/* An atom of a type without an inline call. */
static YACErr write_atom(struct YACWriter *w, const struct YACAtom *a) {
  const unsigned char *p = a->v.bytes.ptr;
  size_t n = a->v.bytes.len;
  switch (a->typ) {
  case YACItemHexlet:
    return YACWriterHexlet(w, p);
  case YACItemFloat:
    return YACWriterFloatRaw(w, p, n);
  case YACItemTAI64:
    return YACWriterTAI64(w, p, n);
  case YACItemMagic:
    return YACWriterMagic(w, p, n);
  case YACItemPbig:
  case YACItemNbig:
    return YACWriterBigint(w, a->typ == YACItemNbig, p, n);
  case YACItemBlob:
    return YACWriterBlobOpenMinus1(w, a->v.uint);
  default:
    return YACErrInvalid;
  }
}

static YACErr apply(struct YACWriter *w, const struct Op *op, bool inl) {
  const unsigned char *b = (const unsigned char *)op->s;
  switch (op->kind) {
  case OP_UINT:
    return inl ? YACWriterUintInline(w, op->u) : YACWriterUint(w, op->u);
  case OP_SINT:
    return inl ? YACWriterSintInline(w, (int64_t)op->u) : YACWriterSint(w, (int64_t)op->u);
  case OP_NIL:
    return inl ? YACWriterNILInline(w) : YACWriterNIL(w);
  case OP_BOOL:
    return inl ? YACWriterBoolInline(w, op->u & 1) : YACWriterBool(w, op->u & 1);
  case OP_STR:
    return inl ? YACWriterStrInline(w, op->s, op->n) : YACWriterStr(w, op->s, op->n);
  case OP_BIN:
    return inl ? YACWriterBinInline(w, b, op->n) : YACWriterBin(w, b, op->n);
  case OP_LIST:
    return inl ? YACWriterListOpenInline(w) : YACWriterListOpen(w);
  case OP_MAP:
    return inl ? YACWriterMapOpenInline(w) : YACWriterMapOpen(w);
  case OP_LIST_CLOSE:
    return inl ? YACWriterListCloseInline(w) : YACWriterListClose(w);
  case OP_MAP_CLOSE:
    return inl ? YACWriterMapCloseInline(w) : YACWriterMapClose(w);
  case OP_SORTED:
    return YACWriterMapOpenSorted(w);
  case OP_BLOB:
    return YACWriterBlob(w, 3, b, op->n);
  case OP_FLOAT:
    return YACWriterFloat(w, (double)op->u / 3.0);
  case OP_ATOM:
    return write_atom(w, op->atom);
  default:
    return YACErrInvalid;
  }
}

/* The two writers agree. */
static bool same(const struct Pair *p) {
  const struct YACWriterHot *a = &p->w[0].hot, *b = &p->w[1].hot;
  struct YACWriter wa = p->w[0], wb = p->w[1];
  struct YACWriterFailure fa, fb;
  YACErr ea = YACWriterFailure(&wa, &fa), eb = YACWriterFailure(&wb, &fb);
  return a->calls == b->calls && a->pos == b->pos && a->lim == b->lim && a->key == b->key &&
         a->keyLen == b->keyLen && a->top == b->top && a->depth == b->depth &&
         memcmp(p->buf[0], p->buf[1], a->pos) == 0 && ea == eb &&
         memcmp(&fa, &fb, sizeof fa) == 0;
}

/* Runs one call on both; false once they disagree. */
static bool step(struct Pair *p, const struct Op *op, const char *name) {
  YACErr a = apply(&p->w[0], op, true);
  YACErr b = apply(&p->w[1], op, false);
  bool ok = a == b && same(p);
  CHECK(ok, name);
  return ok;
}

static bool finish(struct Pair *p, const char *name) {
  size_t la = 0, lb = 0;
  YACErr a = YACWriterFinish(&p->w[0], &la);
  YACErr b = YACWriterFinish(&p->w[1], &lb);
  bool ok = a == b && la == lb && same(p) && p->sink[0].len == p->sink[1].len &&
            memcmp(p->sink[0].out, p->sink[1].out, p->sink[0].len) == 0;
  CHECK(ok, name);
  return ok;
}

/* Replays the atoms of `doc` on both writers; false once they disagree. */
static bool replay(struct Pair *p, const unsigned char *doc, size_t len, const char *name) {
  char kinds[DEPTH + 1];
  int depth = 0;
  size_t off = 0;
  while (off < len) {
    struct YACAtom a;
    struct Op op;
    size_t got = 0;
    if (YACAtomDecode(&got, &a, doc + off, len - off) != YACErrNo) {
      CHECK(false, "the document decodes");
      return false;
    }
    off += got;
    memset(&op, 0, sizeof op);
    switch (a.typ) {
    case YACItemPint:
      op.kind = OP_UINT;
      op.u = a.v.uint;
      break;
    case YACItemNint:
      op.kind = OP_SINT;
      op.u = (uint64_t)a.v.sint;
      break;
    case YACItemNIL:
      op.kind = OP_NIL;
      break;
    case YACItemTrue:
    case YACItemFalse:
      op.kind = OP_BOOL;
      op.u = a.typ == YACItemTrue;
      break;
    case YACItemStr:
    case YACItemBin:
      op.kind = a.typ == YACItemStr ? OP_STR : OP_BIN;
      op.s = (const char *)a.v.bytes.ptr;
      op.n = a.v.bytes.len;
      break;
    case YACItemList:
    case YACItemMap:
      op.kind = a.typ == YACItemList ? OP_LIST : OP_MAP;
      if (depth < DEPTH) {
        kinds[depth++] = a.typ == YACItemList ? 'L' : 'M';
      }
      break;
    case YACItemEOC:
      op.kind = depth > 0 && kinds[--depth] == 'L' ? OP_LIST_CLOSE : OP_MAP_CLOSE;
      break;
    default:
      /* Atoms without an inline call: both writers take them alike. */
      op.kind = OP_ATOM;
      op.atom = &a;
      break;
    }
    if (!step(p, &op, name)) {
      return false;
    }
  }
  return finish(p, name);
}

#endif /* YAC_TEST_WRITER_PAIR_H */
