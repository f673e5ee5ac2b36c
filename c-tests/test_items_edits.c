/* Tree edits from C: LIST and MAP edits, YACItemsAdd and grafts, each
 * followed by encode and re-parse. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "docs.h"
#include "nodes.h"
#include "round_trip.h"
#include "yac.h"
#include "yac_vectors.h"

/* Encodes `idx`, re-parses the bytes into a fresh pool, checks that they
 * encode again identically and equal `want`. */
static void check_edit_result(const struct YACItems *items, uint32_t idx,
                              const struct Doc *want, const char *name) {
  unsigned char out[4096];
  size_t off = 0, nodes = 0, used = 0;
  struct YACItem pool[256];
  struct YACItems again;
  uint32_t root;
  CHECK(YACItemsEncode(items, idx, &off, out, sizeof out) == YACErrNo, name);
  CHECK(off == want->n && memcmp(out, want->b, off) == 0, name);
  CHECK(YACItemsNodesNeeded(&nodes, &used, out, off, 0) == YACErrNo, name);
  CHECK(used == off && nodes <= COUNT(pool), name);
  YACItemsInit(&again, pool, COUNT(pool));
  used = 0;
  CHECK(YACItemsParse(&again, &root, &used, out, off) == YACErrNo, name);
  CHECK(again.len == nodes, name);
  check_encodes_to(&again, root, out, off, name);
}

static void test_list_edits(void) {
  struct Doc d, want;
  struct YACItem pool[64];
  struct YACItems items;
  uint32_t root, n2, x, x100, old, removed, first;
  size_t off = 0, count = 0;
  build_uint_list(&d, 0, 5); /* [0, 1, 2, 3, 4] */
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "edits");

  /* Insert in the middle: [0, 1, 2, 100, 3, 4]. */
  n2 = YACItemsNth(&items, root, 2);
  x = x100 = add_uint(&items, 100);
  CHECK(YACItemsNext(&items, x) == YACItemNone, "new node is unlinked");
  CHECK(YACItemsInsertAfter(&items, root, n2, x) == YACErrNo, "insert");
  CHECK(YACItemsChildCount(&count, &items, root) == YACErrNo && count == 6,
        "insert count");
  want.n = 0;
  PUT0(&want, YACAtomListEncode);
  PUT(&want, YACAtomUintEncode, 0);
  PUT(&want, YACAtomUintEncode, 1);
  PUT(&want, YACAtomUintEncode, 2);
  PUT(&want, YACAtomUintEncode, 100);
  PUT(&want, YACAtomUintEncode, 3);
  PUT(&want, YACAtomUintEncode, 4);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "insert in the middle");
  CHECK(YACItemsInsertAfter(&items, root, n2, x) == YACErrInvalid,
        "insert a linked node");
  YACItemsBuildReset(&items);
  CHECK(YACItemsInsertAfter(&items, root, root, add_uint(&items, 5)) ==
            YACErrInvalid,
        "insert after the parent itself");
  YACItemsBuildReset(&items);
  CHECK(YACItemsPrepend(&items, n2, add_uint(&items, 6)) == YACErrInvalid,
        "prepend into a leaf");
  YACItemsBuildReset(&items);

  /* Prepend: [7, 0, 1, 2, 100, 3, 4]. */
  x = add_uint(&items, 7);
  CHECK(YACItemsPrepend(&items, root, x) == YACErrNo, "prepend");
  CHECK(YACItemsFirst(&items, root) == x, "prepend");
  /* Remove the first, then the one after 2 (100), then the last. */
  CHECK(YACItemsRemove(&removed, &items, root, YACItemNone) == YACErrNo &&
            removed == x,
        "remove first");
  CHECK(YACItemsRemove(&removed, &items, root, n2) == YACErrNo &&
            removed == x100,
        "remove middle");
  {
    uint64_t u = 0;
    CHECK(YACItemsGetUint(&u, &items, removed) == YACErrNo && u == 100,
          "removed node keeps its value");
  }
  CHECK(YACItemsRemove(&removed, &items, root, YACItemsNth(&items, root, 3)) ==
            YACErrNo,
        "remove last");
  CHECK(YACItemsRemove(&old, &items, root, YACItemsNth(&items, root, 3)) ==
            YACErrInvalid,
        "remove after the last");
  build_uint_list(&want, 0, 4);
  check_edit_result(&items, root, &want, "prepend, remove");

  /* Replace the first and a middle one: [10, 1, 12, 3]. */
  x = add_uint(&items, 10);
  CHECK(YACItemsReplace(&old, &items, root, YACItemNone, x) == YACErrNo,
        "replace first");
  CHECK(YACItemsType(&items, old) == YACItemPint && YACItemsNext(&items, old) ==
                                                        YACItemNone,
        "replaced is unlinked");
  x = add_uint(&items, 12);
  first = YACItemsFirst(&items, root);
  CHECK(YACItemsReplace(&old, &items, root, YACItemsNext(&items, first), x) ==
            YACErrNo,
        "replace middle");
  /* The replaced node can go elsewhere: append 2 after the last. */
  CHECK(YACItemsInsertAfter(&items, root, YACItemsNth(&items, root, 3), old) ==
            YACErrNo,
        "reinsert replaced");
  want.n = 0;
  PUT0(&want, YACAtomListEncode);
  PUT(&want, YACAtomUintEncode, 10);
  PUT(&want, YACAtomUintEncode, 1);
  PUT(&want, YACAtomUintEncode, 12);
  PUT(&want, YACAtomUintEncode, 3);
  PUT(&want, YACAtomUintEncode, 2);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "replace");
  CHECK(YACItemsChildCount(&count, &items, root) == YACErrNo && count == 5,
        "replace count");

  /* Cycles: a LIST into itself or into its own descendant. */
  {
    uint32_t inner = add_plain(&items, YACItemList);
    CHECK(YACItemsPrepend(&items, root, inner) == YACErrNo, "nested list");
    CHECK(YACItemsPrepend(&items, inner, root) == YACErrInvalid,
          "root into its child");
    YACItemsBuildReset(&items);
    CHECK(YACItemsRemove(&old, &items, root, YACItemNone) == YACErrNo &&
              old == inner,
          "unlink nested");
    CHECK(YACItemsPrepend(&items, inner, inner) == YACErrInvalid,
          "list into itself");
    YACItemsBuildReset(&items);
  }
  check_edit_result(&items, root, &want, "after refused cycles");
}

static void test_map_edits(void) {
  struct Doc d, want;
  struct YACItem pool[64];
  struct YACItems items;
  uint32_t root, k, v, old;
  size_t off = 0, count = 0;
  d.n = 0;
  PUT0(&d, YACAtomMapEncode);
  PUT_STR(&d, "b");
  PUT(&d, YACAtomUintEncode, 2);
  PUT_STR(&d, "dd");
  PUT(&d, YACAtomUintEncode, 4);
  PUT0(&d, YACAtomEOCEncode);
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "map");

  /* New keys go to their place: "a" first, "c" between, "eee" last. */
  k = add_bytes(&items, YACItemStr, "c", 1, YACErrNo);
  v = add_uint(&items, 3);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo &&
            old == YACItemNone,
        "set c");
  k = add_bytes(&items, YACItemStr, "a", 1, YACErrNo);
  v = add_uint(&items, 1);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo, "set a");
  k = add_bytes(&items, YACItemStr, "eee", 3, YACErrNo);
  v = add_plain(&items, YACItemNIL);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo, "set eee");
  /* An existing key: its value is replaced. */
  k = add_bytes(&items, YACItemStr, "dd", 2, YACErrNo);
  v = add_uint(&items, 44);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrNo, "set dd");
  CHECK(YACItemsGetUint((uint64_t[1]){0}, &items, old) == YACErrNo, "old dd");
  CHECK(YACItemsMapGet(&items, root, "dd") == v, "dd replaced");
  CHECK(YACItemsChildCount(&count, &items, root) == YACErrNo && count == 10,
        "map count");
  want.n = 0;
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "a");
  PUT(&want, YACAtomUintEncode, 1);
  PUT_STR(&want, "b");
  PUT(&want, YACAtomUintEncode, 2);
  PUT_STR(&want, "c");
  PUT(&want, YACAtomUintEncode, 3);
  PUT_STR(&want, "dd");
  PUT(&want, YACAtomUintEncode, 44);
  PUT_STR(&want, "eee");
  PUT0(&want, YACAtomNILEncode);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "map set");

  /* Delete: present, absent. */
  CHECK(YACItemsMapDel(&old, &items, root, "c", 1) ==
            YACErrNo,
        "del c");
  CHECK(YACItemsType(&items, old) == YACItemPint, "del c");
  CHECK(YACItemsMapDel(&old, &items, root, "zz", 2) ==
                YACErrNo &&
            old == YACItemNone,
        "del absent");
  CHECK(YACItemsMapDel(&old, &items, root, "a", 1) ==
            YACErrNo,
        "del first");
  CHECK(YACItemsMapDel(&old, &items, root, "eee", 3) ==
            YACErrNo,
        "del last");
  want.n = 0;
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "b");
  PUT(&want, YACAtomUintEncode, 2);
  PUT_STR(&want, "dd");
  PUT(&want, YACAtomUintEncode, 44);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, root, &want, "map del");

  /* Refused: bad keys, the same node as key and value, LIST-style edits,
   * a container value into itself. */
  v = add_uint(&items, 9);
  k = add_uint(&items, 8);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrMapBadKey,
        "INT key");
  YACItemsBuildReset(&items);
  k = add_bytes(&items, YACItemStr, "", 0, YACErrNo);
  CHECK(YACItemsMapSet(&old, &items, root, k, v) == YACErrMapBadKey,
        "empty key");
  YACItemsBuildReset(&items);
  k = add_bytes(&items, YACItemStr, "q", 1, YACErrNo);
  CHECK(YACItemsMapSet(&old, &items, root, k, k) == YACErrInvalid,
        "key is value");
  YACItemsBuildReset(&items);
  CHECK(YACItemsMapSet(&old, &items, k, k, v) == YACErrInvalid, "not a MAP");
  YACItemsBuildReset(&items);
  CHECK(YACItemsMapSet(&old, &items, root, k, root) == YACErrInvalid,
        "MAP into itself");
  YACItemsBuildReset(&items);
  CHECK(YACItemsPrepend(&items, root, v) == YACErrInvalid, "prepend to MAP");
  YACItemsBuildReset(&items);
  CHECK(YACItemsInsertAfter(&items, root, YACItemsFirst(&items, root), v) ==
            YACErrInvalid,
        "insert into MAP");
  YACItemsBuildReset(&items);
  CHECK(YACItemsRemove(&old, &items, root, YACItemNone) == YACErrInvalid,
        "remove from MAP");
  CHECK(YACItemsReplace(&old, &items, root, YACItemNone, v) == YACErrInvalid,
        "replace in MAP");
  check_edit_result(&items, root, &want, "after refused map edits");

  /* SetValue: a value in place; a key out of order is refused by Encode. */
  {
    struct YACAtom a;
    unsigned char out[64];
    memset(&a, 0, sizeof a);
    a.typ = YACItemNint;
    a.v.sint = -7;
    CHECK(YACItemsSetValue(&items, YACItemsMapGet(&items, root, "b"), &a) ==
              YACErrNo,
          "set value");
    CHECK(YACItemsSetValue(&items, root, &a) == YACErrInvalid,
          "set value of a MAP");
    a.typ = YACItemList;
    CHECK(YACItemsSetValue(&items, YACItemsMapGet(&items, root, "b"), &a) ==
              YACErrInvalid,
          "set value to a LIST");
    want.n = 0;
    PUT0(&want, YACAtomMapEncode);
    PUT_STR(&want, "b");
    PUT(&want, YACAtomSintEncode, -7);
    PUT_STR(&want, "dd");
    PUT(&want, YACAtomUintEncode, 44);
    PUT0(&want, YACAtomEOCEncode);
    check_edit_result(&items, root, &want, "set value");
    a.typ = YACItemStr;
    a.v.bytes.ptr = (const unsigned char *)"zzz";
    a.v.bytes.len = 3;
    CHECK(YACItemsSetValue(&items, YACItemsFirst(&items, root), &a) ==
              YACErrNo,
          "key changed");
    off = 0;
    CHECK(YACItemsEncode(&items, root, &off, out, sizeof out) ==
              YACErrMapUnordered,
          "unordered after key change");
    CHECK(YACItemsEncodedLen(&count, &items, root) == YACErrMapUnordered,
          "unordered after key change");
    a.typ = YACItemPint;
    a.v.uint = 1;
    CHECK(YACItemsSetValue(&items, YACItemsFirst(&items, root), &a) ==
              YACErrNo,
          "key made an INT");
    off = 0;
    CHECK(YACItemsEncode(&items, root, &off, out, sizeof out) ==
              YACErrMapBadKey,
          "INT key refused by Encode");
  }
}

/* Nodes made from atoms: every type, and the refused ones. */
static void test_add(void) {
  static const unsigned char f16_one[2] = {0x3C, 0x00};
  static const unsigned char f32_one[4] = {0x3F, 0x80, 0x00, 0x00};
  static const unsigned char neg0[2] = {0x80, 0x00};
  static const unsigned char tai_bad[8] = {0x80, 0, 0, 0, 0, 0, 0, 0};
  static const unsigned char big0[3] = {0, 0, 5};
  static const unsigned char magic[12] = {'K', 'E', 'K', 'S', 'x'};
  struct YACItem pool[32];
  struct YACItems items;
  struct YACAtom a;
  uint32_t idx, blob, c1, c2;
  unsigned char out[64];
  size_t off;
  struct Doc want;
  YACItemsInit(&items, pool, COUNT(pool));
  add_bytes(&items, YACItemFloat, f16_one, 2, YACErrNo);
  add_bytes(&items, YACItemFloat, f32_one, 4, YACErrFloatNonMinimal);
  add_bytes(&items, YACItemFloat, neg0, 2, YACErrFloatNonMinimal);
  add_bytes(&items, YACItemFloat, f32_one, 3, YACErrInvalid);
  add_bytes(&items, YACItemTAI64, tai_bad, 8, YACErrTAI64TooBig);
  add_bytes(&items, YACItemTAI64, tai_bad, 7, YACErrInvalid);
  add_bytes(&items, YACItemHexlet, doc_hexlet, 15, YACErrInvalid);
  add_bytes(&items, YACItemHexlet, NULL, 16, YACErrInvalid);
  add_bytes(&items, YACItemMagic, magic, 11, YACErrInvalid);
  add_bytes(&items, YACItemStr, "a\0b", 3, YACErrBadUTF8);
  add_bytes(&items, YACItemStr, "\xC0\x80", 2, YACErrBadUTF8);
  add_bytes(&items, YACItemStr, NULL, 0, YACErrNo);
  add_bytes(&items, YACItemBin, NULL, 0, YACErrNo);
  memset(&a, 0, sizeof a);
  a.typ = YACItemEOC;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add EOC");
  YACItemsBuildReset(&items);
  a.typ = YACItemInvalid;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add Invalid");
  YACItemsBuildReset(&items);
  a.typ = 99;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add 99");
  YACItemsBuildReset(&items);
  a.typ = YACItemNint;
  a.v.sint = 0;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrInvalid, "add Nint 0");
  YACItemsBuildReset(&items);

  /* Leading zeros of a bigint magnitude are dropped: 5 encodes as +INT 5. */
  idx = add_bytes(&items, YACItemPbig, big0, sizeof big0, YACErrNo);
  off = 0;
  CHECK(YACItemsEncode(&items, idx, &off, out, sizeof out) == YACErrNo &&
            off == 3 && out[0] == 0x0C && out[1] == 0x81 && out[2] == 5,
        "bigint canonical");
  idx = add_bytes(&items, YACItemMagic, magic, 12, YACErrNo);
  off = 0;
  CHECK(YACItemsEncode(&items, idx, &off, out, sizeof out) == YACErrNo &&
            off == 16,
        "magic node");

  /* A BLOB built by hand: chunk length 3, "abc" then "de". */
  memset(&a, 0, sizeof a);
  a.typ = YACItemBlob;
  a.v.uint = 2;
  CHECK(YACItemsAdd(&blob, &items, &a) == YACErrNo, "add BLOB");
  CHECK(YACItemsType(&items, blob + 1) == YACItemInvalid, "BLOB slot");
  c2 = add_bytes(&items, YACItemBin, "de", 2, YACErrNo);
  c1 = add_bytes(&items, YACItemBin, "abc", 3, YACErrNo);
  CHECK(YACItemsPrepend(&items, blob, c2) == YACErrNo, "chunk de");
  CHECK(YACItemsPrepend(&items, blob, c1) == YACErrNo, "chunk abc");
  CHECK(YACItemsPrepend(&items, blob, add_uint(&items, 1)) ==
            YACErrBlobBadTerm,
        "INT into a BLOB");
  YACItemsBuildReset(&items);
  want.n = 0;
  PUT(&want, YACAtomBlobEncode, 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"abc", 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"de", 2);
  check_edit_result(&items, blob, &want, "hand-made BLOB");
  /* The BLOB's extension slot is not a node: no edit may use it. */
  CHECK(YACItemsSetValue(&items, blob + 1, &a) == YACErrInvalid,
        "SetValue on a BLOB slot");
  a.typ = YACItemPint;
  a.v.uint = 7;
  CHECK(YACItemsSetValue(&items, blob + 1, &a) == YACErrInvalid,
        "SetValue on a BLOB slot");
  c1 = add_bytes(&items, YACItemBin, "xyz", 3, YACErrNo);
  CHECK(YACItemsInsertAfter(&items, blob, blob + 1, c1) == YACErrInvalid,
        "insert after a BLOB slot");
  YACItemsBuildReset(&items);
  check_edit_result(&items, blob, &want, "BLOB untouched");
  /* A full chunk after the short one is refused on the way out. */
  CHECK(YACItemsInsertAfter(&items, blob, c2, c1) == YACErrNo, "chunk xyz");
  off = 0;
  CHECK(YACItemsEncode(&items, blob, &off, out, sizeof out) ==
            YACErrBlobBadChunk,
        "short chunk not last");
  /* A full last chunk gets the empty terminating chunk. */
  CHECK(YACItemsRemove(&idx, &items, blob, YACItemsFirst(&items, blob)) ==
            YACErrNo &&
            idx == c2,
        "remove de");
  want.n = 0;
  PUT(&want, YACAtomBlobEncode, 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"abc", 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"xyz", 3);
  PUT(&want, YACAtomChunkEncode, (const unsigned char *)"", 0);
  check_edit_result(&items, blob, &want, "BLOB of full chunks");

  /* The pool full: Add is NoMem, nothing changes. */
  while (items.len < items.cap) {
    add_uint(&items, 1);
  }
  memset(&a, 0, sizeof a);
  a.typ = YACItemNIL;
  CHECK(YACItemsAdd(&idx, &items, &a) == YACErrNoMem, "add to a full pool");
  YACItemsBuildReset(&items);
  CHECK(items.len == items.cap, "add to a full pool");
}

/* Graft: a second document parsed into the same pool goes into the first. */
static void test_graft(void) {
  struct Doc a, b, want;
  struct YACItem pool[64];
  struct YACItems items;
  uint32_t ra, rb, rc, old;
  size_t off = 0;
  build_uint_list(&a, 1, 3); /* [1, 2, 3] */
  b.n = 0;                   /* {k: "v"} */
  PUT0(&b, YACAtomMapEncode);
  PUT_STR(&b, "k");
  PUT_STR(&b, "v");
  PUT0(&b, YACAtomEOCEncode);
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsParse(&items, &ra, &off, a.b, a.n) == YACErrNo, "graft a");
  off = 0;
  CHECK(YACItemsParse(&items, &rb, &off, b.b, b.n) == YACErrNo, "graft b");
  off = 0;
  CHECK(YACItemsParse(&items, &rc, &off, b.b, b.n) == YACErrNo, "graft c");
  CHECK(YACItemsInsertAfter(&items, ra, YACItemsNth(&items, ra, 1), rb) ==
            YACErrNo,
        "graft insert");
  CHECK(YACItemsReplace(&old, &items, ra, YACItemNone, rc) == YACErrNo,
        "graft replace");
  CHECK(YACItemsPrepend(&items, rb, ra) == YACErrInvalid,
        "graft a cycle through the grafted MAP");
  YACItemsBuildReset(&items);
  want.n = 0;
  PUT0(&want, YACAtomListEncode);
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "k");
  PUT_STR(&want, "v");
  PUT0(&want, YACAtomEOCEncode);
  PUT(&want, YACAtomUintEncode, 2);
  PUT0(&want, YACAtomMapEncode);
  PUT_STR(&want, "k");
  PUT_STR(&want, "v");
  PUT0(&want, YACAtomEOCEncode);
  PUT(&want, YACAtomUintEncode, 3);
  PUT0(&want, YACAtomEOCEncode);
  check_edit_result(&items, ra, &want, "graft");
  CHECK(YACItemsMapGet(&items, YACItemsNth(&items, ra, 2), "k") == rb + 2,
        "grafted MAP reachable");
  /* The grafted MAP can be moved out again and encoded alone. */
  CHECK(YACItemsRemove(&old, &items, ra, YACItemsNth(&items, ra, 1)) ==
                YACErrNo &&
            old == rb,
        "ungraft");
  check_edit_result(&items, rb, &b, "ungrafted");
}


int main(void) {
  test_list_edits();
  test_map_edits();
  test_add();
  test_graft();
  return check_report();
}
