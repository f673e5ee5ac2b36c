/* The tree's C API with good, NULL and out-of-range arguments: every
 * YACItems* function refuses what it must and changes nothing then. */
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

/* NULL and out-of-range arguments of every function. */
static void test_bad_arguments(void) {
  static const unsigned char doc[] = {0x08, 0x0C, 0x81, 0x7B, 0x02, 0x00};
  struct YACItem pool[8];
  struct YACItems items;
  struct YACWalk walk;
  YACWalkEvent ev;
  struct YACAtom atom;
  uint32_t root = 0, idx = 0, d = 0;
  size_t off = 0, count = 0, len = 0, nodes = 0;
  uint64_t u = 0;
  int64_t i = 0;
  bool b = false;
  double f = 0;
  const char *s = NULL;
  const unsigned char *p = NULL;
  unsigned char out[16];
  static const uint32_t bad[] = {3 /* not yet used */, 7, YACItemUnlinked,
                                 YACItemNone};
  size_t k;

  CHECK(YACItemsInit(NULL, pool, 8) == YACErrInvalid, "Init NULL items");
  CHECK(YACItemsInit(&items, NULL, 8) == YACErrInvalid, "Init NULL pool");
  CHECK(YACItemsInit(&items, NULL, 0) == YACErrNo, "Init empty");
  CHECK(items.len == 0 && items.cap == 0 && items.grow == NULL, "Init");
  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrNoMem,
        "parse into no pool");
  CHECK(items.len == 0 && off == 0, "parse into no pool");
  CHECK(YACItemsInit(&items, pool, 8) == YACErrNo, "Init");
  CHECK(items.list == pool && items.cap == 8 && items.maxDepth == 0 &&
            items.flags == 0,
        "Init fields");

  CHECK(YACItemsParse(NULL, &root, &off, doc, sizeof doc) == YACErrInvalid,
        "Parse NULL items");
  CHECK(YACItemsParse(&items, NULL, &off, doc, sizeof doc) == YACErrInvalid,
        "Parse NULL root");
  CHECK(YACItemsParse(&items, &root, NULL, doc, sizeof doc) == YACErrInvalid,
        "Parse NULL off");
  CHECK(YACItemsParse(&items, &root, &off, NULL, 3) == YACErrInvalid,
        "Parse NULL buf");
  off = sizeof doc + 1;
  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrInvalid,
        "Parse off beyond len");
  CHECK(items.len == 0, "Parse off beyond len");
  off = 0;
  CHECK(YACItemsParse(&items, &root, &off, NULL, 0) == YACErrNotEnough,
        "Parse nothing");
  CHECK(YACItemsAbort(&items) == YACErrNo, "Abort");
  CHECK(YACItemsAbort(NULL) == YACErrInvalid, "Abort NULL");
  CHECK(YACItemsNodesNeeded(NULL, &len, doc, sizeof doc, 0) == YACErrInvalid,
        "NodesNeeded NULL nodes");
  CHECK(YACItemsNodesNeeded(&nodes, NULL, doc, sizeof doc, 0) ==
            YACErrInvalid,
        "NodesNeeded NULL used");
  CHECK(YACItemsNodesNeeded(&nodes, &len, NULL, 1, 0) == YACErrInvalid,
        "NodesNeeded NULL buf");
  CHECK(YACItemsNodesNeeded(&nodes, &len, doc, sizeof doc, 0) == YACErrNo &&
            nodes == 3 && len == sizeof doc,
        "NodesNeeded");
  CHECK(YACItemsNodesNeeded(&nodes, &len, doc, sizeof doc - 1, 0) ==
            YACErrNotEnough,
        "NodesNeeded short");

  CHECK(YACItemsParse(&items, &root, &off, doc, sizeof doc) == YACErrNo,
        "Parse");
  CHECK(items.len == 3 && root == 0, "Parse");

  /* Navigation: NULL items and bad indices give YACItemNone / Invalid. */
  CHECK(YACItemsType(NULL, 0) == YACItemInvalid, "Type NULL");
  CHECK(YACItemsFirst(NULL, 0) == YACItemNone, "First NULL");
  CHECK(YACItemsNext(NULL, 1) == YACItemNone, "Next NULL");
  CHECK(YACItemsNth(NULL, 0, 0) == YACItemNone, "Nth NULL");
  CHECK(YACItemsMapGet(NULL, 0, "a") == YACItemNone, "MapGet NULL");
  CHECK(YACItemsMapGetN(NULL, 0, "a", 1) ==
            YACItemNone,
        "MapGetN NULL");
  for (k = 0; k < COUNT(bad); k++) {
    CHECK(YACItemsType(&items, bad[k]) == YACItemInvalid, "Type bad");
    CHECK(YACItemsFirst(&items, bad[k]) == YACItemNone, "First bad");
    CHECK(YACItemsNext(&items, bad[k]) == YACItemNone, "Next bad");
    CHECK(YACItemsNth(&items, bad[k], 0) == YACItemNone, "Nth bad");
    CHECK(YACItemsChildCount(&count, &items, bad[k]) == YACErrInvalid,
          "ChildCount bad");
    CHECK(YACItemsGetUint(&u, &items, bad[k]) == YACErrInvalid, "Get bad");
    CHECK(YACItemsGetBytes(&p, &len, &items, bad[k]) == YACErrInvalid,
          "GetBytes bad");
    off = 0;
    CHECK(YACItemsEncode(&items, bad[k], &off, out, sizeof out) ==
              YACErrInvalid,
          "Encode bad");
    CHECK(YACItemsEncodedLen(&len, &items, bad[k]) == YACErrInvalid,
          "EncodedLen bad");
    CHECK(YACItemsWalkInit(&walk, &items, bad[k]) == YACErrNo, "WalkInit");
    CHECK(YACItemsWalkNext(&ev, &idx, &d, &walk, &items) == YACErrInvalid,
          "WalkNext bad root");
    CHECK(YACItemsWalkNext(&ev, &idx, &d, &walk, &items) == YACErrNo &&
              ev == YACWalkEnd && idx == YACItemNone,
          "walk ended");
  }
  CHECK(YACItemsFirst(&items, 1) == YACItemNone, "First of a leaf");
  CHECK(YACItemsNext(&items, 0) == YACItemNone, "Next of the root");
  CHECK(YACItemsNext(&items, 2) == YACItemNone, "Next of the last");
  CHECK(YACItemsNext(&items, 1) == 2, "Next");
  CHECK(YACItemsNth(&items, 0, 2) == YACItemNone, "Nth past the end");
  CHECK(YACItemsNth(&items, 0, SIZE_MAX) == YACItemNone, "Nth SIZE_MAX");
  CHECK(YACItemsMapGet(&items, 0, "a") == YACItemNone, "MapGet on a LIST");
  CHECK(YACItemsMapGet(&items, 0, NULL) == YACItemNone, "MapGet NULL key");
  CHECK(YACItemsMapGetN(&items, 0, NULL, 1) == YACItemNone,
        "MapGetN NULL key");
  CHECK(YACItemsChildCount(NULL, &items, 0) == YACErrInvalid,
        "ChildCount NULL");
  CHECK(YACItemsChildCount(&count, NULL, 0) == YACErrInvalid,
        "ChildCount NULL items");
  CHECK(YACItemsChildCount(&count, &items, 1) == YACErrInvalid,
        "ChildCount of a leaf");
  CHECK(YACItemsChildCount(&count, &items, 0) == YACErrNo && count == 2,
        "ChildCount");

  /* Getters: NULL outputs, NULL items, wrong types. */
  CHECK(YACItemsGetUint(NULL, &items, 1) == YACErrInvalid, "GetUint NULL");
  CHECK(YACItemsGetUint(&u, NULL, 1) == YACErrInvalid, "GetUint NULL items");
  CHECK(YACItemsGetUint(&u, &items, 1) == YACErrNo && u == 123, "GetUint");
  CHECK(YACItemsGetSint(NULL, &items, 1) == YACErrInvalid, "GetInt NULL");
  CHECK(YACItemsGetSint(&i, &items, 1) == YACErrNo && i == 123, "GetInt");
  CHECK(YACItemsGetSint(&i, &items, 2) == YACErrInvalid, "GetInt of FALSE");
  CHECK(YACItemsGetBool(NULL, &items, 2) == YACErrInvalid, "GetBool NULL");
  CHECK(YACItemsGetBool(&b, &items, 2) == YACErrNo && !b, "GetBool");
  CHECK(YACItemsGetBool(&b, &items, 1) == YACErrInvalid, "GetBool of INT");
  CHECK(YACItemsGetFloat(NULL, &items, 1) == YACErrInvalid, "GetDouble NULL");
  CHECK(YACItemsGetFloat(&f, &items, 1) == YACErrInvalid, "GetDouble INT");
  CHECK(YACItemsGetStr(NULL, &len, &items, 1) == YACErrInvalid, "GetStr NULL");
  CHECK(YACItemsGetStr(&s, NULL, &items, 1) == YACErrInvalid, "GetStr NULL");
  CHECK(YACItemsGetStr(&s, &len, &items, 1) == YACErrInvalid, "GetStr INT");
  CHECK(YACItemsGetBin(NULL, &len, &items, 1) == YACErrInvalid, "GetBin NULL");
  CHECK(YACItemsGetBin(&p, &len, &items, 1) == YACErrInvalid, "GetBin INT");
  CHECK(YACItemsGetBytes(&p, NULL, &items, 1) == YACErrInvalid,
        "GetBytes NULL");
  CHECK(YACItemsGetBytes(&p, &len, &items, 1) == YACErrInvalid,
        "GetBytes of INT");
  CHECK(YACItemsGetBytes(&p, &len, &items, 0) == YACErrInvalid,
        "GetBytes of LIST");
  CHECK(YACItemsGetBlob(NULL, &u, &items, 0) == YACErrInvalid, "GetBlob NULL");
  CHECK(YACItemsGetBlob(&u, NULL, &items, 0) == YACErrInvalid, "GetBlob NULL");

  /* Encode. */
  off = 0;
  CHECK(YACItemsEncode(NULL, 0, &off, out, sizeof out) == YACErrInvalid,
        "Encode NULL items");
  CHECK(YACItemsEncode(&items, 0, NULL, out, sizeof out) == YACErrInvalid,
        "Encode NULL off");
  CHECK(YACItemsEncode(&items, 0, &off, NULL, 4) == YACErrInvalid,
        "Encode NULL buf");
  CHECK(YACItemsEncode(&items, 0, &off, NULL, 0) == YACErrNoMem,
        "Encode no room");
  off = sizeof out + 1;
  CHECK(YACItemsEncode(&items, 0, &off, out, sizeof out) == YACErrInvalid,
        "Encode off beyond cap");
  CHECK(off == sizeof out + 1, "Encode off beyond cap");
  off = 3;
  CHECK(YACItemsEncode(&items, 0, &off, out, sizeof out) == YACErrNo &&
            off == 3 + sizeof doc && memcmp(out + 3, doc, sizeof doc) == 0,
        "Encode at an offset");
  off = 0;
  CHECK(YACItemsEncode(&items, 1, &off, out, sizeof out) == YACErrNo &&
            off == 3 && memcmp(out, doc + 1, 3) == 0,
        "Encode a subtree");
  CHECK(YACItemsEncodedLen(NULL, &items, 0) == YACErrInvalid,
        "EncodedLen NULL");
  CHECK(YACItemsEncodedLen(&len, NULL, 0) == YACErrInvalid,
        "EncodedLen NULL items");

  /* Walk. */
  CHECK(YACItemsWalkInit(NULL, &items, 0) == YACErrInvalid, "WalkInit NULL");
  CHECK(YACItemsWalkInit(&walk, NULL, 0) == YACErrInvalid,
        "WalkInit NULL items");
  YACItemsWalkInit(&walk, &items, 0);
  CHECK(YACItemsWalkNext(NULL, &idx, &d, &walk, &items) == YACErrInvalid,
        "WalkNext NULL event");
  CHECK(YACItemsWalkNext(&ev, NULL, &d, &walk, &items) == YACErrInvalid,
        "WalkNext NULL idx");
  CHECK(YACItemsWalkNext(&ev, &idx, NULL, &walk, &items) == YACErrInvalid,
        "WalkNext NULL depth");
  CHECK(YACItemsWalkNext(&ev, &idx, &d, NULL, &items) == YACErrInvalid,
        "WalkNext NULL walk");
  CHECK(YACItemsWalkNext(&ev, &idx, &d, &walk, NULL) == YACErrInvalid,
        "WalkNext NULL items");

  /* Edits with NULL and bad arguments. */
  memset(&atom, 0, sizeof atom);
  atom.typ = YACItemNIL;
  CHECK(YACItemsAdd(NULL, &items, &atom) == YACErrInvalid, "Add NULL idx");
  YACItemsBuildReset(&items);
  CHECK(YACItemsAdd(&idx, NULL, &atom) == YACErrInvalid, "Add NULL items");
  CHECK(YACItemsAdd(&idx, &items, NULL) == YACErrInvalid, "Add NULL atom");
  YACItemsBuildReset(&items);
  CHECK(items.len == 3, "nothing added");
  CHECK(YACItemsSetValue(NULL, 1, &atom) == YACErrInvalid, "SetValue NULL");
  CHECK(YACItemsSetValue(&items, 1, NULL) == YACErrInvalid, "SetValue NULL");
  CHECK(YACItemsSetValue(&items, 7, &atom) == YACErrInvalid, "SetValue bad");
  CHECK(YACItemsInsertAfter(NULL, 0, 1, 2) == YACErrInvalid, "Insert NULL");
  CHECK(YACItemsPrepend(NULL, 0, 1) == YACErrInvalid, "Prepend NULL");
  CHECK(YACItemsRemove(NULL, &items, 0, YACItemNone) == YACErrInvalid,
        "Remove NULL removed");
  CHECK(YACItemsRemove(&idx, NULL, 0, YACItemNone) == YACErrInvalid,
        "Remove NULL items");
  CHECK(YACItemsReplace(NULL, &items, 0, YACItemNone, 1) == YACErrInvalid,
        "Replace NULL old");
  CHECK(YACItemsMapSet(NULL, &items, 0, 1, 2) == YACErrInvalid,
        "MapSet NULL");
  YACItemsBuildReset(&items);
  CHECK(YACItemsMapDel(NULL, &items, 0, "a", 1) ==
            YACErrInvalid,
        "MapDel NULL");
  CHECK(YACItemsMapDel(&idx, &items, 0, NULL, 1) == YACErrInvalid,
        "MapDel NULL key");
  CHECK(YACItemsMapDel(&idx, &items, 0, "a", 1) ==
            YACErrInvalid,
        "MapDel on a LIST");
  for (k = 0; k < COUNT(bad); k++) {
    CHECK(YACItemsInsertAfter(&items, bad[k], 1, 2) == YACErrInvalid,
          "Insert bad parent");
    YACItemsBuildReset(&items);
    CHECK(YACItemsPrepend(&items, bad[k], 1) == YACErrInvalid,
          "Prepend bad parent");
    YACItemsBuildReset(&items);
    CHECK(YACItemsPrepend(&items, 0, bad[k]) == YACErrInvalid,
          "Prepend bad child");
    YACItemsBuildReset(&items);
    CHECK(YACItemsRemove(&idx, &items, bad[k], YACItemNone) == YACErrInvalid,
          "Remove bad parent");
  }
  CHECK(items.len == 3, "edits refused");
  check_encodes_to(&items, 0, doc, sizeof doc, "unchanged after bad edits");
}

int main(void) {
  test_bad_arguments();
  return check_report();
}
