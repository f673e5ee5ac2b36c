/* YACAtomDecode and YACErr2Str, driven exactly as a C caller would:
 * every vector of FORMAT.md (from the generated yac_vectors.h, shared
 * with the Rust tests), every truncation of them, every atom-level invalid
 * input, NULL arguments and every error code. */

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "yac.h"
#include "yac_vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* An exact-size heap copy of `len` bytes (at least one byte is allocated),
 * so that the sanitizers see any read past the end. */
static unsigned char *copy_of(const unsigned char *buf, size_t len) {
  unsigned char *copy = malloc(len == 0 ? 1 : len);
  if (copy == NULL) {
    perror("malloc");
    exit(EXIT_FAILURE);
  }
  if (len > 0) {
    memcpy(copy, buf, len);
  }
  return copy;
}

/* Every proper prefix of one atom must ask for at least one more byte and
 * never for more than the atom still lacks; feeding what it asks for must
 * make progress up to the whole atom. Prefixes of short atoms (and the
 * ends of long ones) are decoded from exact-size copies. */
static void check_truncations(const unsigned char *whole, size_t used,
                              const char *name) {
  size_t cut;
  for (cut = 0; cut < used; cut++) {
    int exact = used <= 1024 || cut < 32 || used - cut <= 32;
    size_t have = cut;
    while (have < used) {
      struct YACAtom atom;
      size_t got = 0;
      YACErr err;
      if (exact) {
        unsigned char *copy = copy_of(whole, have);
        err = YACAtomDecode(&got, &atom, copy, have);
        free(copy);
      } else {
        err = YACAtomDecode(&got, &atom, whole, have);
      }
      CHECK(err == YACErrNotEnough, name);
      CHECK(got >= 1 && have + got <= used, name);
      if (err != YACErrNotEnough || got == 0 || have + got > used) {
        break;
      }
      have += got;
    }
  }
}

static void check_valid(const struct ValidVector *v) {
  unsigned char *buf = copy_of(v->buf, v->len);
  size_t off = 0;
  size_t i;
  for (i = 0; i < v->natoms; i++) {
    const struct ExpectAtom *e = &v->atoms[i];
    struct YACAtom atom;
    size_t got = 12345;
    YACErr err = YACAtomDecode(&got, &atom, buf + off, v->len - off);
    CHECK(err == YACErrNo, v->name);
    if (err != YACErrNo) {
      break;
    }
    CHECK(got == e->used, v->name);
    CHECK(atom.typ == e->typ, v->name);
    CHECK(atom.tag == buf[off], v->name);
    switch (e->kind) {
    case 1:
      CHECK(atom.v.uint == e->uint, v->name);
      break;
    case 2:
      CHECK(atom.v.sint == e->sint, v->name);
      break;
    case 3:
      /* The value is the atom's last bytes_len bytes, in place. */
      CHECK(atom.v.bytes.len == e->bytes_len, v->name);
      CHECK(atom.v.bytes.ptr == buf + off + e->used - e->bytes_len, v->name);
      break;
    default:
      break;
    }
    check_truncations(buf + off, e->used, v->name);
    off += e->used;
  }
  CHECK(off == v->len, v->name);
  free(buf);
}

static void check_invalid(const struct InvalidVector *v) {
  unsigned char *buf = v->buf == NULL ? NULL : copy_of(v->buf, v->len);
  struct YACAtom atom;
  struct YACAtom before;
  size_t got = 12345;
  YACErr err;
  memset(&atom, 0x5A, sizeof atom);
  memcpy(&before, &atom, sizeof atom);
  err = YACAtomDecode(&got, &atom, buf, v->len);
  CHECK(err == v->err, v->name);
  /* NotEnough says how much more is needed; any other error gives 0. */
  CHECK(got == v->got, v->name);
  CHECK(memcmp(&atom, &before, sizeof atom) == 0, v->name);
  free(buf);
}

static void check_null_arguments(void) {
  static const unsigned char nil[1] = {0x01};
  struct YACAtom atom;
  size_t got;
  CHECK(YACAtomDecode(NULL, &atom, nil, 1) == YACErrInvalid, "NULL got");
  got = 12345;
  CHECK(YACAtomDecode(&got, NULL, nil, 1) == YACErrInvalid, "NULL atom");
  CHECK(got == 0, "NULL atom: got");
  got = 12345;
  CHECK(YACAtomDecode(&got, &atom, NULL, 1) == YACErrInvalid, "NULL buf");
  CHECK(got == 0, "NULL buf: got");
  got = 0;
  CHECK(YACAtomDecode(&got, &atom, NULL, 0) == YACErrNotEnough,
        "NULL buf, len 0");
  CHECK(got == 1, "NULL buf, len 0: got");
  got = 12345;
  CHECK(YACAtomDecode(&got, &atom, nil, SIZE_MAX) == YACErrInvalid,
        "len beyond PTRDIFF_MAX");
  CHECK(got == 0, "len beyond PTRDIFF_MAX: got");
}

static void check_error_strings(void) {
  static const int out_of_range[] = {-1, YACErrSecondRoot + 1, 1000, INT_MAX,
                                     INT_MIN};
  const char *seen[YACErrSecondRoot + 1];
  int code;
  size_t i;
  CHECK(YACErrNo == 0 && YACErrNotEnough == 1 && YACErrInvalid == 21 &&
            YACErrUnclosed == 22 && YACErrSecondRoot == 24,
        "stable error values");
  CHECK(strcmp(YACErr2Str(YACErrNo), "no error") == 0, "YACErrNo text");
  for (code = YACErrNo; code <= YACErrSecondRoot; code++) {
    const char *s = YACErr2Str(code);
    int j;
    CHECK(s != NULL && s[0] != '\0', "error text");
    if (s == NULL) {
      return;
    }
    CHECK(strcmp(s, "unknown error") != 0, s);
    for (j = YACErrNo; j < code; j++) {
      CHECK(strcmp(s, seen[j]) != 0, s);
    }
    seen[code] = s;
  }
  for (i = 0; i < COUNT(out_of_range); i++) {
    const char *s = YACErr2Str(out_of_range[i]);
    CHECK(s != NULL && strcmp(s, "unknown error") == 0, "out of range");
  }
}

int main(void) {
  size_t i;
  for (i = 0; i < COUNT(valid_vectors); i++) {
    check_valid(&valid_vectors[i]);
  }
  for (i = 0; i < COUNT(invalid_vectors); i++) {
    check_invalid(&invalid_vectors[i]);
  }
  check_null_arguments();
  check_error_strings();
  return check_report();
}
