/* print_atoms: prints every atom of a YAC file with its offset, indented by
 * container depth. A small, complete user of libyac's atom decoder:
 *
 *   cc -std=c99 -Iinclude examples-c/print_atoms.c target/release/libyac.a \
 *      -lpthread -ldl -lm -o print_atoms
 *   ./print_atoms examples-c/sample.yac
 *
 * Exit status: 0 when the whole file decodes, 1 on a decoding error (the
 * offset and the reason are printed), 2 on a usage or I/O error. */

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yac.h"

/* Reads a whole file into a fresh buffer; returns NULL on failure. */
static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  size_t cap = 0;
  *len = 0;
  if (f == NULL) {
    return NULL;
  }
  for (;;) {
    size_t got;
    if (*len == cap) {
      unsigned char *bigger;
      cap = cap == 0 ? 4096 : cap * 2;
      bigger = realloc(buf, cap);
      if (bigger == NULL) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = bigger;
    }
    got = fread(buf + *len, 1, cap - *len, f);
    *len += got;
    if (got == 0) {
      break;
    }
  }
  if (ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static uint64_t be(const unsigned char *p, size_t n) {
  uint64_t v = 0;
  size_t i;
  for (i = 0; i < n; i++) {
    v = (v << 8) | p[i];
  }
  return v;
}

static void print_hex(const unsigned char *p, size_t n, size_t max) {
  size_t i;
  for (i = 0; i < n && i < max; i++) {
    printf("%02X", p[i]);
  }
  if (n > max) {
    printf("...");
  }
}

/* A STR payload in quotes; UTF-8 passes through, control bytes escaped. */
static void print_str(const unsigned char *p, size_t n) {
  size_t i;
  putchar('"');
  for (i = 0; i < n; i++) {
    if (p[i] == '"' || p[i] == '\\') {
      printf("\\%c", p[i]);
    } else if (p[i] < 0x20 || p[i] == 0x7F) {
      printf("\\x%02X", p[i]);
    } else {
      putchar(p[i]);
    }
  }
  putchar('"');
}

/* The value of a binary16/32/64 payload (big-endian); wider ones are
 * printed as hex only. */
static int float_value(const unsigned char *p, size_t n, double *out) {
  if (n == 2) {
    unsigned h = (unsigned)be(p, 2);
    int exp = (int)((h >> 10) & 0x1F);
    double frac = (double)(h & 0x3FF);
    double v;
    if (exp == 0) {
      v = ldexp(frac, -24);
    } else if (exp == 31) {
      v = frac == 0 ? HUGE_VAL : NAN;
    } else {
      v = ldexp(1024 + frac, exp - 25);
    }
    *out = (h & 0x8000) ? -v : v;
    return 1;
  }
  if (n == 4) {
    uint32_t bits = (uint32_t)be(p, 4);
    float f;
    memcpy(&f, &bits, sizeof f);
    *out = f;
    return 1;
  }
  if (n == 8) {
    uint64_t bits = be(p, 8);
    memcpy(out, &bits, sizeof *out);
    return 1;
  }
  return 0;
}

/* The type's name, then what the type carries. */
static void print_atom(const struct YACAtom *a) {
  const unsigned char *p = a->v.bytes.ptr;
  size_t n = a->v.bytes.len;
  double f;
  fputs(YACItemTypeName(a->typ), stdout);
  switch (a->typ) {
  case YACItemHexlet:
    putchar(' ');
    print_hex(p, 4, 4);
    putchar('-');
    print_hex(p + 4, 2, 2);
    putchar('-');
    print_hex(p + 6, 2, 2);
    putchar('-');
    print_hex(p + 8, 2, 2);
    putchar('-');
    print_hex(p + 10, 6, 6);
    break;
  case YACItemPint:
    printf(" %" PRIu64, a->v.uint);
    break;
  case YACItemNint:
    printf(" %" PRId64, a->v.sint);
    break;
  case YACItemPbig:
    printf(" 0x");
    print_hex(p, n, 64);
    break;
  case YACItemNbig:
    printf(" -1 - 0x");
    print_hex(p, n, 64);
    break;
  case YACItemBlob:
    if (a->v.uint == UINT64_MAX) {
      printf(" chunk length 2^64");
    } else {
      printf(" chunk length %" PRIu64, a->v.uint + 1);
    }
    break;
  case YACItemFloat:
    printf("%u ", (unsigned)(n * 8));
    print_hex(p, n, 32);
    if (float_value(p, n, &f)) {
      printf(" = %.17g", f);
    }
    break;
  case YACItemTAI64: {
    /* Seconds since 1970-01-01 00:00:00 TAI (label minus 2^62). */
    uint64_t label = be(p, 8);
    if (label >= (UINT64_C(1) << 62)) {
      printf(" 1970 TAI + %" PRIu64 " s", label - (UINT64_C(1) << 62));
    } else {
      printf(" 1970 TAI - %" PRIu64 " s", (UINT64_C(1) << 62) - label);
    }
    if (n >= 12) {
      printf(" + %" PRIu64 " ns", be(p + 8, 4));
    }
    if (n == 16) {
      printf(" + %" PRIu64 " as", be(p + 12, 4));
    }
    break;
  }
  case YACItemMagic: {
    size_t len = n;
    while (len > 0 && p[len - 1] == 0) {
      len--;
    }
    putchar(' ');
    print_str(p, len);
    break;
  }
  case YACItemBin:
    printf(" %zu bytes ", n);
    print_hex(p, n, 16);
    break;
  case YACItemStr:
    putchar(' ');
    print_str(p, n);
    break;
  default:
    break;
  }
}

int main(int argc, char **argv) {
  size_t len;
  size_t off = 0;
  size_t depth = 0;
  /* Inside a BLOB: the chunk length minus one; chunks go one level deeper
   * and the first chunk shorter than the chunk length ends the BLOB. */
  int in_blob = 0;
  uint64_t chunk_minus_one = 0;
  unsigned char *buf;
  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE.yac\n", argv[0]);
    return 2;
  }
  buf = read_file(argv[1], &len);
  if (buf == NULL) {
    perror(argv[1]);
    return 2;
  }
  while (off < len) {
    struct YACAtom atom;
    size_t got = 0;
    size_t indent;
    YACErr err = YACAtomDecode(&got, &atom, buf + off, len - off);
    if (err != YACErrNo) {
      fprintf(stderr, "%s: offset %zu: %s", argv[1], off, YACErr2Str(err));
      if (err == YACErrNotEnough) {
        fprintf(stderr, " (%zu more bytes needed)", got);
      }
      fprintf(stderr, "\n");
      free(buf);
      return 1;
    }
    if (atom.typ == YACItemEOC && depth > 0) {
      depth--;
    }
    printf("%08zx ", off);
    for (indent = 0; indent < depth + (size_t)in_blob; indent++) {
      printf("  ");
    }
    print_atom(&atom);
    putchar('\n');
    if (in_blob) {
      if (atom.typ == YACItemBin && atom.v.bytes.len <= chunk_minus_one) {
        in_blob = 0;
      }
    } else if (atom.typ == YACItemList || atom.typ == YACItemMap) {
      depth++;
    } else if (atom.typ == YACItemBlob) {
      in_blob = 1;
      chunk_minus_one = atom.v.uint;
    }
    off += got;
  }
  free(buf);
  return 0;
}
