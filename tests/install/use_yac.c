/* A program built against an installed libyac with nothing but
 * `pkg-config --cflags --libs yac` (or `--static`): tests/install.rs. It
 * checks the version it was compiled against is the one it runs with, then
 * parses LIST [123, FALSE] into a tree on the stack and re-encodes it. */
#include <stdio.h>
#include <string.h>
#include <yac.h>

int main(void) {
  static const unsigned char doc[] = {0x08, 0x0C, 0x81, 0x7B, 0x02, 0x00};
  struct YACItem pool[8];
  struct YACItems items;
  unsigned char out[16];
  uint32_t root = YACItemNone;
  size_t off = 0, len = 0;
  uint64_t v = 0;
  YACErr err;

  if (strcmp(YACVersion(), YAC_VERSION) != 0) {
    fprintf(stderr, "header %s, library %s\n", YAC_VERSION, YACVersion());
    return 1;
  }
  err = YACItemsInit(&items, pool, sizeof pool / sizeof pool[0]);
  if (err == YACErrNo) {
    err = YACItemsParse(&items, &root, &off, doc, sizeof doc);
  }
  if (err == YACErrNo) {
    err = YACItemsGetUint(&v, &items, YACItemsFirst(&items, root));
  }
  if (err == YACErrNo) {
    err = YACItemsEncode(&items, root, &len, out, sizeof out);
  }
  if (err != YACErrNo) {
    fprintf(stderr, "error: %s\n", YACErr2Str(err));
    return 1;
  }
  if (v != 123 || len != sizeof doc || memcmp(out, doc, len) != 0) {
    fprintf(stderr, "wrong tree: v=%llu len=%zu\n", (unsigned long long)v, len);
    return 1;
  }
  printf("libyac %s ok\n", YACVersion());
  return 0;
}
