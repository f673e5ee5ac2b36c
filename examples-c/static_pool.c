/* static_pool: the tree without any heap, as on a microcontroller. The
 * node pool is a static array, the document is embedded in the program,
 * and values are read by key. Nothing here or in libyac calls malloc.
 *
 *   cc -std=c99 -Iinclude examples-c/static_pool.c target/release/libyac.a \
 *      -lpthread -ldl -lm -o static_pool && ./static_pool
 *
 * Exit status: 0, or 1 if the document does not parse or lacks a key. */

#include <inttypes.h>
#include <stdio.h>

#include "yac.h"

/* {"name": "sensor-7", "port": 8080, "tags": ["lab", "east"],
 *  "ratio": 0.5, "enabled": TRUE}: keys in the format's order (length
 * first, then bytewise). */
static const unsigned char config[] = {
    0x09,                                                 /* MAP */
    0xC4, 'n', 'a', 'm', 'e',                             /* "name" */
    0xC8, 's', 'e', 'n', 's', 'o', 'r', '-', '7',         /* "sensor-7" */
    0xC4, 'p', 'o', 'r', 't',                             /* "port" */
    0x0C, 0x82, 0x1F, 0x90,                               /* 8080 */
    0xC4, 't', 'a', 'g', 's',                             /* "tags" */
    0x08, 0xC3, 'l', 'a', 'b', 0xC4, 'e', 'a', 's', 't', 0x00, /* [...] */
    0xC5, 'r', 'a', 't', 'i', 'o',                        /* "ratio" */
    0x10, 0x38, 0x00,                                     /* FLOAT16 0.5 */
    0xC7, 'e', 'n', 'a', 'b', 'l', 'e', 'd',              /* "enabled" */
    0x03,                                                 /* TRUE */
    0x00,                                                 /* EOC */
};

static struct YACItem pool[64];

int main(void) {
  struct YACItems items;
  uint32_t root = 0, tags;
  size_t off = 0, len = 0, count = 0;
  const char *s = NULL;
  uint64_t port = 0;
  double ratio = 0;
  bool enabled = false;
  YACErr err;

  YACItemsInit(&items, pool, sizeof pool / sizeof pool[0]);
  err = YACItemsParse(&items, &root, &off, config, sizeof config);
  if (err != YACErrNo) {
    fprintf(stderr, "error: %s at offset %zu\n", YACErr2Str(err), off);
    return 1;
  }
  printf("parsed %zu bytes into %" PRIu32 " of %" PRIu32 " nodes\n", off,
         items.len, items.cap);

  if (YACItemsGetStr(&s, &len, &items, YACItemsMapGet(&items, root, "name")) !=
          YACErrNo ||
      YACItemsGetUint(&port, &items, YACItemsMapGet(&items, root, "port")) !=
          YACErrNo ||
      YACItemsGetFloat(&ratio, &items,
                        YACItemsMapGet(&items, root, "ratio")) != YACErrNo ||
      YACItemsGetBool(&enabled, &items,
                      YACItemsMapGet(&items, root, "enabled")) != YACErrNo) {
    fprintf(stderr, "error: a key is missing or of the wrong type\n");
    return 1;
  }
  /* STR values are not NUL-terminated: print them with their length. */
  printf("name=%.*s\n", (int)len, s);
  printf("port=%" PRIu64 "\n", port);
  printf("ratio=%g\n", ratio);
  printf("enabled=%s\n", enabled ? "true" : "false");

  /* Checked once (an absent key gives YACItemNone, whose type is
   * YACItemInvalid); then the header's inline reads, which trust the node
   * and check nothing, read the children at the cost of a load. */
  tags = YACItemsMapGet(&items, root, "tags");
  if (YACItemsType(&items, tags) != YACItemList) {
    fprintf(stderr, "error: tags is not a LIST\n");
    return 1;
  }
  count = YACUnsafeNodeCount(&items, tags);
  printf("tags=%zu:", count);
  YAC_UNSAFE_FOREACH(&items, tags, tag) {
    if (YACUnsafeNodeType(&items, tag) == YACItemStr) {
      s = YACUnsafeNodeStr(&items, tag, &len);
      printf(" %.*s", (int)len, s);
    }
  }
  putchar('\n');
  /* An absent key is YACItemNone, and every getter refuses it. */
  printf("missing=%s\n",
         YACItemsMapGet(&items, root, "missing") == YACItemNone ? "none"
                                                                : "found");
  return 0;
}
