/* print_tree: decodes a YAC file (or stdin) into a tree and pretty-prints
 * it, one node a line, indented by depth, MAP keys before their values.
 * Shows YACItemsNodesNeeded (an exactly sized pool), YACItemsParse and the
 * walk API (no recursion, whatever the nesting depth).
 *
 *   cc -std=c99 -Iinclude examples-c/print_tree.c target/release/libyac.a \
 *      -lpthread -ldl -lm -o print_tree
 *   ./print_tree file.yac        (or: ./print_tree < file.yac)
 *
 * Exit status: 0 when every item of the input decodes, 1 on bad input
 * ("error: <reason> at offset N" on stderr), 2 on a usage or I/O error. */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yac.h"

/* Reads all of `f` into a fresh buffer; NULL on failure. */
static unsigned char *read_all(FILE *f, size_t *len) {
  unsigned char *buf = NULL;
  size_t cap = 0;
  *len = 0;
  for (;;) {
    size_t got;
    if (*len == cap) {
      unsigned char *bigger;
      cap = cap == 0 ? 4096 : cap * 2;
      bigger = realloc(buf, cap);
      if (bigger == NULL) {
        free(buf);
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
    return NULL;
  }
  return buf;
}

static void indent(uint32_t depth) {
  uint32_t i;
  for (i = 0; i < depth; i++) {
    fputs("  ", stdout);
  }
}

static void print_hex(const unsigned char *p, size_t n, size_t max) {
  size_t i;
  for (i = 0; i < n && i < max; i++) {
    printf("%02X", p[i]);
  }
  if (n > max) {
    fputs("...", stdout);
  }
}

/* A STR in double quotes: UTF-8 as is, quotes, backslashes and control
 * characters escaped. */
static void print_str(const char *s, size_t n) {
  size_t i;
  putchar('"');
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      printf("\\%c", c);
    } else if (c < 0x20 || c == 0x7F) {
      printf("\\x%02X", c);
    } else {
      putchar(c);
    }
  }
  putchar('"');
}

static void print_uuid(const unsigned char *p) {
  size_t i;
  for (i = 0; i < 16; i++) {
    printf("%02x", p[i]);
    if (i == 3 || i == 5 || i == 7 || i == 9) {
      putchar('-');
    }
  }
}

/* Civil date from days since 1970-01-01 (proleptic Gregorian; H. Hinnant's
 * algorithm), so that any TAI64 label prints without gmtime's limits. */
static void civil(int64_t days, int64_t *y, unsigned *m, unsigned *d) {
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
  *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

/* A TAI64 label as UTC: 2017-01-01T00:00:00Z, with nanoseconds when the
 * label has them (TAI64NA attoseconds are not shown). */
static void print_tai64(const unsigned char *p, size_t n) {
  int64_t sec = 0, days, rem, y;
  uint32_t nsec = 0;
  bool leap = false;
  unsigned mo, d;
  YACErr err = YACTAI64ToUTC(&sec, &nsec, &leap, p, n);
  printf("%s ", n == 8 ? "TAI64" : n == 12 ? "TAI64N" : "TAI64NA");
  if (err != YACErrNo) {
    print_hex(p, n, 16);
    return;
  }
  days = sec / 86400;
  rem = sec % 86400;
  if (rem < 0) {
    rem += 86400;
    days--;
  }
  civil(days, &y, &mo, &d);
  printf("%04" PRId64 "-%02u-%02uT%02u:%02u:%02u", y, mo, d,
         (unsigned)(rem / 3600), (unsigned)(rem / 60 % 60),
         (unsigned)(rem % 60) + (leap ? 1u : 0u));
  if (n > 8) {
    printf(".%09" PRIu32, nsec);
  }
  putchar('Z');
}

/* One line's content for node `idx` (the indentation is printed). The
 * node comes from a walk of a tree YACItemsParse made, so the header's
 * inline reads (YACUnsafeNode*), which trust their index and check nothing, are
 * enough: one load each instead of a checked call. */
static void print_node(const struct YACItems *items, uint32_t idx) {
  const unsigned char *p = NULL;
  const char *s = NULL;
  size_t len = 0, count = 0;
  uint64_t u = 0, total = 0;
  int64_t i = 0;
  double f = 0;
  switch (YACUnsafeNodeType(items, idx)) {
  case YACItemNIL:
    fputs("NIL", stdout);
    break;
  case YACItemFalse:
    fputs("FALSE", stdout);
    break;
  case YACItemTrue:
    fputs("TRUE", stdout);
    break;
  case YACItemPint:
    u = YACUnsafeNodeUint(items, idx);
    printf("%" PRIu64, u);
    break;
  case YACItemNint:
    i = YACUnsafeNodeSint(items, idx);
    printf("%" PRId64, i);
    break;
  case YACItemPbig:
    p = YACUnsafeNodeBytes(items, idx, &len);
    fputs("+INT 0x", stdout);
    print_hex(p, len, 64);
    break;
  case YACItemNbig:
    p = YACUnsafeNodeBytes(items, idx, &len);
    fputs("-INT -1-0x", stdout);
    print_hex(p, len, 64);
    break;
  case YACItemHexlet:
    p = YACUnsafeNodeBytes(items, idx, &len);
    fputs("HEXLET ", stdout);
    print_uuid(p);
    break;
  case YACItemFloat:
    p = YACUnsafeNodeBytes(items, idx, &len);
    printf("FLOAT%u ", (unsigned)(len * 8));
    if (YACFloatToDouble(&f, p, len) == YACErrNo) {
      printf("%.17g", f);
    } else {
      print_hex(p, len, 32);
    }
    break;
  case YACItemTAI64:
    p = YACUnsafeNodeBytes(items, idx, &len);
    print_tai64(p, len);
    break;
  case YACItemMagic:
    p = YACUnsafeNodeBytes(items, idx, &len);
    while (len > 0 && p[len - 1] == 0) {
      len--;
    }
    fputs("MAGIC ", stdout);
    print_str((const char *)p, len);
    break;
  case YACItemBin:
    p = YACUnsafeNodeBytes(items, idx, &len);
    printf("BIN(%zu) ", len);
    print_hex(p, len, 32);
    break;
  case YACItemStr:
    s = YACUnsafeNodeStr(items, idx, &len);
    print_str(s, len);
    break;
  case YACItemList:
    count = YACUnsafeNodeCount(items, idx);
    printf("LIST(%zu) [", count);
    break;
  case YACItemMap:
    count = YACUnsafeNodeCount(items, idx);
    printf("MAP(%zu) {", count / 2);
    break;
  case YACItemBlob:
    YACItemsGetBlob(&u, &total, items, idx);
    printf("BLOB(chunk %" PRIu64 ", %" PRIu64 " bytes) {", u + 1, total);
    break;
  default:
    fputs("?", stdout);
    break;
  }
}

/* Prints the tree at `root`. MAP keys are marked in `is_key` (one byte a
 * node) when their MAP is entered, so a key's value goes on its line. */
static int print_tree(const struct YACItems *items, uint32_t root,
                      unsigned char *is_key) {
  struct YACWalk walk;
  YACWalkEvent ev;
  uint32_t idx, depth;
  int after_key = 0;
  YACItemsWalkInit(&walk, items, root);
  for (;;) {
    if (YACItemsWalkNext(&ev, &idx, &depth, &walk, items) != YACErrNo) {
      return -1;
    }
    if (ev == YACWalkEnd) {
      return 0;
    }
    if (ev == YACWalkExit) {
      YACItemType t = YACUnsafeNodeType(items, idx);
      indent(depth);
      puts(t == YACItemList ? "]" : "}");
      continue;
    }
    if (!after_key) {
      indent(depth);
    }
    print_node(items, idx);
    if (is_key[idx]) {
      fputs(": ", stdout);
      after_key = 1;
      continue;
    }
    after_key = 0;
    putchar('\n');
    if (ev == YACWalkEnter && YACUnsafeNodeType(items, idx) == YACItemMap) {
      YAC_UNSAFE_MAP_FOREACH(items, idx, k, v) {
        is_key[k] = 1;
        (void)v;
      }
    }
  }
}

int main(int argc, char **argv) {
  FILE *f = stdin;
  unsigned char *buf;
  size_t len, off = 0;
  int status = 0;
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
  buf = read_all(f, &len);
  if (f != stdin) {
    fclose(f);
  }
  if (buf == NULL) {
    fprintf(stderr, "error: cannot read the input\n");
    return 2;
  }
  /* Every item of the input, one after another. */
  while (off < len && status == 0) {
    size_t nodes = 0, used = 0;
    struct YACItems items;
    struct YACItem *pool;
    unsigned char *is_key;
    uint32_t root = 0;
    YACErr err = YACItemsNodesNeeded(&nodes, &used, buf + off, len - off, 0);
    if (err != YACErrNo) {
      /* The counting pass does not say where the input went wrong; the
       * parser does. No item needs more nodes than it has bytes (every
       * node but a BLOB's second takes at least one byte, a BLOB nine),
       * so this pool is always enough to find the error. */
      nodes = len - off;
    }
    pool = malloc((nodes == 0 ? 1 : nodes) * sizeof *pool);
    is_key = calloc(nodes == 0 ? 1 : nodes, 1);
    if (pool == NULL || is_key == NULL) {
      fprintf(stderr, "error: out of memory\n");
      return 2;
    }
    YACItemsInit(&items, pool, nodes);
    err = YACItemsParse(&items, &root, &off, buf, len);
    if (err == YACErrNo) {
      if (print_tree(&items, root, is_key) != 0) {
        fprintf(stderr, "error: broken tree\n");
        status = 2;
      }
    } else {
      fflush(stdout);
      fprintf(stderr, "error: %s at offset %zu\n", YACErr2Str(err), off);
      status = 1;
    }
    free(is_key);
    free(pool);
  }
  free(buf);
  return status;
}
