/* stream_atoms: decodes a YAC stream atom by atom while reading it in small
 * chunks (7 bytes at a time, as from a slow socket) through a sliding
 * buffer: YACAtomDecode says YACErrNotEnough and, in *got, how many more
 * bytes it needs at least; the program reads until it has them, then
 * decodes again from the same atom start. Consumed bytes are slid out.
 *
 *   cc -std=c99 -Iinclude examples-c/stream_atoms.c target/release/libyac.a \
 *      -lpthread -ldl -lm -o stream_atoms
 *   ./stream_atoms file.yac        (or: ./stream_atoms < file.yac)
 *
 * Prints "<offset> <type> [value]" for each atom. Exit status: 0 at a
 * clean end, 1 on bad or truncated input ("error: <reason> at offset N"
 * on stderr), 2 on a usage or I/O error. */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yac.h"

#define CHUNK 7

static void print_atom(size_t at, const struct YACAtom *a) {
  size_t i, n;
  printf("%zu %s", at, YACItemTypeName(a->typ));
  switch (a->typ) {
  case YACItemPint:
    printf(" %" PRIu64, a->v.uint);
    break;
  case YACItemNint:
    printf(" %" PRId64, a->v.sint);
    break;
  case YACItemBlob:
    printf(" chunk %" PRIu64 "+1", a->v.uint);
    break;
  case YACItemStr:
    printf(" \"%.*s\"", (int)a->v.bytes.len, (const char *)a->v.bytes.ptr);
    break;
  case YACItemHexlet:
  case YACItemFloat:
  case YACItemTAI64:
  case YACItemMagic:
  case YACItemBin:
  case YACItemPbig:
  case YACItemNbig:
    n = a->v.bytes.len;
    printf(" (%zu) ", n);
    for (i = 0; i < n && i < 16; i++) {
      printf("%02X", a->v.bytes.ptr[i]);
    }
    if (n > 16) {
      fputs("...", stdout);
    }
    break;
  default:
    break;
  }
  putchar('\n');
}

/* Closes the input and frees the buffer: every exit after the open goes
 * through here (valgrind checks that nothing leaks). */
static int finish(FILE *f, unsigned char *buf, int status) {
  if (f != stdin) {
    fclose(f);
  }
  free(buf);
  return status;
}

int main(int argc, char **argv) {
  FILE *f = stdin;
  unsigned char *buf = NULL;
  size_t cap = 0;
  size_t have = 0;  /* bytes in buf */
  size_t start = 0; /* stream offset of buf[0] */
  size_t want = 1;  /* bytes needed in buf before decoding again */
  int eof = 0;
  if (argc > 2) {
    fprintf(stderr, "usage: %s [file.yac]\n", argv[0]);
    return 2;
  }
  if (argc == 2 && strcmp(argv[1], "-") != 0) {
    f = fopen(argv[1], "rb");
    if (f == NULL) {
      perror(argv[1]);
      return 2;
    }
  }
  for (;;) {
    struct YACAtom atom;
    size_t got = 0;
    YACErr err;
    /* Read CHUNK bytes at a time until the decoder's wish is met. */
    while (have < want && !eof) {
      size_t n;
      if (cap - have < CHUNK) {
        unsigned char *bigger;
        size_t need = have + CHUNK > want ? have + CHUNK : want;
        cap = cap * 2 > need ? cap * 2 : need;
        bigger = realloc(buf, cap);
        if (bigger == NULL) {
          fprintf(stderr, "error: out of memory\n");
          return finish(f, buf, 2);
        }
        buf = bigger;
      }
      n = fread(buf + have, 1, CHUNK, f);
      have += n;
      if (n < CHUNK) {
        if (ferror(f)) {
          perror("read");
          return finish(f, buf, 2);
        }
        eof = feof(f);
      }
    }
    if (have == 0 && eof) {
      break; /* clean end between atoms */
    }
    err = YACAtomDecode(&got, &atom, buf, have);
    if (err == YACErrNotEnough && !eof) {
      want = have + got; /* read at least `got` more, then retry */
      continue;
    }
    if (err != YACErrNo) {
      fprintf(stderr, "error: %s at offset %zu\n", YACErr2Str(err), start);
      return finish(f, buf, 1);
    }
    print_atom(start, &atom);
    /* Slide the consumed atom out (its bytes were used just above). */
    memmove(buf, buf + got, have - got);
    have -= got;
    start += got;
    want = 1;
  }
  return finish(f, buf, 0);
}
