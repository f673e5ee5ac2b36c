/* Writing YAC: the same nested document three ways, with no heap.
 *
 *   write OUT.yac
 *
 * 1. The streaming writer (struct YACWriter) into a buffer, keys given in
 *    any order to a MAP sorted on close.
 * 2. The tree builder: typed adders and YACItemsMapPut*, then
 *    YACItemsEncode.
 * 3. The streaming writer again, through a 16-byte buffer and a flush
 *    callback that writes to OUT.yac.
 * 4. The mistakes a writer refuses, each reported at the faulty call: its
 *    index (from 0), the output offset and the containers open then; and
 *    the builder's, with the index of the faulty build call.
 * It prints the document in hex (from 1), whether 2 and 3 agree and what
 * each mistake of 4 reports, and exits 1 on any error of 1 to 3.
 *
 * The checked style: the first error sticks and every later call does
 * nothing, so only YACWriterFinish's result needs checking;
 * YACWriterFailure then says which call failed. The builder likewise:
 * YACItemsBuildFailure gives its first error and the call's index.
 *
 * The document: MAP {"id": 7, "name": "sensor-7", "when": <TAI64 of
 * 2024-11-20 12:19:08 UTC>, "ratio": 0.5, "tags": ["lab", "east"],
 * "limits": {"lo": -40, "hi": 125}}. */

#include <stdio.h>
#include <string.h>

#include "yac.h"

#define WHEN 1732105148 /* UNIX seconds */

static int fail(const char *what, YACErr err) {
  fprintf(stderr, "%s: %s\n", what, YACErr2Str(err));
  return 1;
}

/* The document through any writer; the errors stick, so only the result
 * of YACWriterFinish needs checking (done by the caller). */
static void write_doc(struct YACWriter *w) {
  YACWriterMapOpenSorted(w); /* keys in the program's order */
  YACWriterStrZ(w, "name");
  YACWriterStrZ(w, "sensor-7");
  YACWriterStrZ(w, "id");
  YACWriterUint(w, 7);
  YACWriterStrZ(w, "when");
  YACWriterUTC(w, WHEN, 0);
  YACWriterStrZ(w, "ratio");
  YACWriterFloat(w, 0.5);
  YACWriterStrZ(w, "tags");
  YACWriterListOpen(w);
  YACWriterStrZ(w, "lab");
  YACWriterStrZ(w, "east");
  YACWriterListClose(w);
  YACWriterStrZ(w, "limits");
  YACWriterMapOpenSorted(w);
  YACWriterStrZ(w, "lo");
  YACWriterSint(w, -40);
  YACWriterStrZ(w, "hi");
  YACWriterSint(w, 125);
  YACWriterMapClose(w);
  YACWriterMapClose(w);
}

/* 4: what a mistake reports, once the writer is finished. */
static void report(const char *mistake, struct YACWriter *w) {
  struct YACWriterFailure where;
  size_t len = 0;
  YACErr err = YACWriterFinish(w, &len);
  YACWriterFailure(w, &where);
  printf("%s: %s (call %u, offset %u, depth %u)\n", mistake, YACErr2Str(err),
         (unsigned)where.call, (unsigned)where.offset, (unsigned)where.depth);
}

static void mistakes(void) {
  unsigned char buf[64];
  struct YACWriterLevel levels[4];
  struct YACWriter w;
  /* {"tags": ["lab"], "id": 7} with the LIST's close forgotten: the MAP's
   * close finds the LIST open. */
  YACWriterInit(&w, buf, sizeof buf, levels, 4, NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "tags");
  YACWriterListOpen(&w);
  YACWriterStrZ(&w, "lab");
  YACWriterMapClose(&w);
  report("LIST closed as a MAP", &w);
  /* A container left open at the end. */
  YACWriterInit(&w, buf, sizeof buf, levels, 4, NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "tags");
  YACWriterListOpen(&w);
  report("LIST left open", &w);
  /* Keys out of order, in a buffer too small for the document. */
  YACWriterInit(&w, buf, 4, levels, 4, NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "name");
  YACWriterNIL(&w);
  YACWriterStrZ(&w, "id");
  report("keys out of order", &w);
  /* Two roots: an outer LIST forgotten. */
  YACWriterInit(&w, buf, sizeof buf, levels, 4, NULL, 0);
  YACWriterUint(&w, 1);
  YACWriterUint(&w, 2);
  report("second root", &w);
  /* A MAGIC is 12 bytes: pad a shorter one yourself. */
  YACWriterInit(&w, buf, sizeof buf, levels, 4, NULL, 0);
  YACWriterMagic(&w, (const unsigned char *)"cm/x", 4);
  report("short MAGIC", &w);
}

/* 2: the tree builder, in the checked style too: the first error a
 * build call meets sticks (later build calls are refused with it and
 * change nothing), so YACItemsBuildFailure is checked once at the end.
 * Returns the error; `*len` the encoded length. */
static YACErr build_doc(unsigned char *out, size_t cap, size_t *len) {
  static struct YACItem pool[32];
  static unsigned char mem[64]; /* the arena: copies of keys and values */
  struct YACItems items;
  struct YACArena arena;
  struct YACCursor end;
  uint32_t root, tags, lab, east, limits, when;
  YACErr err;
  YACItemsInit(&items, pool, sizeof pool / sizeof pool[0]);
  YACArenaInit(&arena, mem, sizeof mem);
  YACItemsAddMap(&root, &items);
  YACItemsMapPutStr(&items, &arena, root, "name", "sensor-7");
  YACItemsMapPutUint(&items, &arena, root, "id", 7);
  YACItemsAddUTC(&when, &items, &arena, WHEN, 0);
  YACItemsMapPut(NULL, &items, &arena, root, "when", when);
  YACItemsMapPutFloat(&items, &arena, root, "ratio", 0.5);
  /* A LIST: its children are appended in O(1) through a cursor at its
   * end (the cursor moves past each node it inserts). */
  YACItemsAddList(&tags, &items);
  YACItemsCursorEnd(&end, &items, tags);
  YACItemsAddStr(&lab, &items, NULL, "lab", 3);
  YACItemsCursorInsert(&items, &end, lab);
  YACItemsAddStr(&east, &items, NULL, "east", 4);
  YACItemsCursorInsert(&items, &end, east);
  YACItemsMapPut(NULL, &items, &arena, root, "tags", tags);
  /* Keys in order: each put appends in O(1). */
  YACItemsAddMap(&limits, &items);
  YACItemsMapPutSint(&items, &arena, limits, "hi", 125);
  YACItemsMapPutSint(&items, &arena, limits, "lo", -40);
  YACItemsMapPut(NULL, &items, &arena, root, "limits", limits);
  err = YACItemsBuildFailure(&items, NULL);
  *len = 0;
  if (err == YACErrNo) err = YACItemsEncode(&items, root, len, out, cap);
  return err;
}

/* 4, the builder's: what a mistake reports, once the tree is built. */
static void build_report(const char *mistake, struct YACItems *items) {
  uint64_t call = 0;
  YACErr err = YACItemsBuildFailure(items, &call);
  printf("%s: %s (call %u)\n", mistake, YACErr2Str(err), (unsigned)call);
}

static void build_mistakes(void) {
  static struct YACItem pool[8];
  unsigned char mem[16];
  struct YACItems items;
  struct YACArena arena;
  uint32_t map, list, v;
  /* An empty key; the NIL after it is refused too. */
  YACItemsInit(&items, pool, 8);
  YACArenaInit(&arena, mem, sizeof mem);
  YACItemsAddMap(&map, &items);
  YACItemsMapPutUint(&items, &arena, map, "", 1);
  YACItemsAddNIL(&v, &items);
  build_report("empty key", &items);
  /* A put into a LIST. */
  YACItemsInit(&items, pool, 8);
  YACItemsAddList(&list, &items);
  YACItemsMapPutUint(&items, &arena, list, "id", 7);
  build_report("put into a LIST", &items);
  /* Negative zero has no encoding. */
  YACItemsInit(&items, pool, 8);
  YACItemsAddMap(&map, &items);
  YACItemsMapPutFloat(&items, &arena, map, "t", -0.0);
  build_report("negative zero", &items);
  /* A pool of 2 nodes (no grow callback): a pair needs 2 more. */
  YACItemsInit(&items, pool, 2);
  YACItemsAddMap(&map, &items);
  YACItemsMapPutUint(&items, &arena, map, "id", 7);
  build_report("pool full", &items);
}

/* 3: the flush callback: the bytes go to a FILE. */
static uint32_t to_file(void *ctx, const unsigned char *buf, size_t len) {
  return fwrite(buf, 1, len, (FILE *)ctx) == len ? YACErrNo : YACErrInvalid;
}

int main(int argc, char **argv) {
  static unsigned char doc[128], tree[128];
  unsigned char small[16], keys[32];
  struct YACWriterLevel levels[4];
  struct YACWriter w;
  size_t len = 0, streamed = 0, i;
  size_t tree_len = 0;
  FILE *f;
  YACErr err;

  if (argc != 2) {
    fprintf(stderr, "usage: write OUT.yac\n");
    return 2;
  }

  /* 1. Into a buffer. */
  YACWriterInit(&w, doc, sizeof doc, levels, 4, NULL, 0);
  write_doc(&w);
  err = YACWriterFinish(&w, &len);
  if (err != YACErrNo) return fail("writer", err);
  printf("%u bytes:", (unsigned)len);
  for (i = 0; i < len; i++) printf(" %02X", doc[i]);
  printf("\n");

  /* 2. The same document built as a tree. */
  err = build_doc(tree, sizeof tree, &tree_len);
  if (err != YACErrNo) return fail("builder", err);
  printf("builder: %s\n",
         tree_len == len && memcmp(tree, doc, tree_len) == 0 ? "same bytes" : "DIFFERENT");

  /* 3. Streamed to a file through a 16-byte buffer. A MAP sorted on close
   * stays in the buffer until closed, so this stream writes its MAPs with
   * keys in order (YACWriterMapOpen) instead: the writer checks them, and
   * keeps each open MAP's last key in `keys`. */
  f = fopen(argv[1], "wb");
  if (f == NULL) {
    perror(argv[1]);
    return 1;
  }
  YACWriterInit(&w, small, sizeof small, levels, 4, keys, sizeof keys);
  YACWriterSetFlush(&w, to_file, f);
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "id");
  YACWriterUint(&w, 7);
  YACWriterStrZ(&w, "name");
  YACWriterStrZ(&w, "sensor-7");
  YACWriterStrZ(&w, "tags");
  YACWriterListOpen(&w);
  YACWriterStrZ(&w, "lab");
  YACWriterStrZ(&w, "east");
  YACWriterListClose(&w);
  YACWriterStrZ(&w, "when");
  YACWriterUTC(&w, WHEN, 0);
  YACWriterStrZ(&w, "ratio");
  YACWriterFloat(&w, 0.5);
  YACWriterStrZ(&w, "limits");
  YACWriterMapOpen(&w);
  YACWriterStrZ(&w, "hi");
  YACWriterSint(&w, 125);
  YACWriterStrZ(&w, "lo");
  YACWriterSint(&w, -40);
  YACWriterMapClose(&w);
  YACWriterMapClose(&w);
  err = YACWriterFinish(&w, &streamed);
  if (fclose(f) != 0 && err == YACErrNo) err = YACErrInvalid;
  if (err != YACErrNo) return fail(argv[1], err);
  printf("streamed %u bytes to %s\n", (unsigned)streamed, argv[1]);

  /* 4. Mistakes. */
  mistakes();
  build_mistakes();
  return 0;
}
