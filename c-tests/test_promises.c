/* Promises the header makes that are easy to break quietly: a cursor from
 * before a YACItemsInit of the same pool is refused; a refused MAP put or
 * adder leaves the tree, the pool and the arena as they were; inserting
 * an empty container is O(1) however deep the tree (a million levels built
 * top-down, with every node more than a thousand behind the end made
 * unreadable, so that any walk up the tree faults); freed nodes are
 * reused, so an edit loop runs in a fixed pool; YACAtomDecode sets every
 * byte of the atom's value. */

#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "tree_checks.h"
#include "yac.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))


/* ---- 1. cursors across YACItemsInit ---- */

/* [[1, 2, 3]] and [[], 5, 6]: the same shape of indices (a LIST at 1, a
 * leaf at 2), so that only the generation can tell the trees apart. */
static const unsigned char doc_full[] = {0x08, 0x08, 0x0C, 0x81, 0x01, 0x0C, 0x81, 0x02,
                                         0x0C, 0x81, 0x03, 0x00, 0x00};
static const unsigned char doc_empty[] = {0x08, 0x08, 0x00, 0x0C, 0x81, 0x05,
                                          0x0C, 0x81, 0x06, 0x00};

static void test_cursor_across_init(void) {
  static struct YACItem pool[64];
  static struct YACItem before[64];
  struct YACItems items, saved;
  struct YACCursor cur, cur_saved, old[40];
  uint32_t x = YACItemNone, rm = YACItemNone;
  unsigned i, j;

  YACItemsInit(&items, pool, COUNT(pool));
  (void)parse_whole(&items, doc_full, sizeof doc_full, "first tree");
  CHECK(YACItemsCursorAfter(&cur, &items, 1, 2) == YACErrNo, "cursor in the first tree");

  /* The same pool, set up again for the next message. */
  YACItemsInit(&items, pool, COUNT(pool));
  (void)parse_whole(&items, doc_empty, sizeof doc_empty, "second tree");
  CHECK(YACItemsAddUint(&x, &items, 42) == YACErrNo, "add");
  saved = items;
  cur_saved = cur;
  memcpy(before, pool, sizeof pool);
  CHECK(YACItemsCursorInsert(&items, &cur, x) == YACErrInvalid, "old cursor: insert refused");
  YACItemsBuildReset(&items);
  CHECK(YACItemsCursorRemove(&rm, &items, &cur) == YACErrInvalid, "old cursor: remove refused");
  CHECK(YACItemsCursorReplace(&rm, &items, &cur, x) == YACErrInvalid,
        "old cursor: replace refused");
  CHECK(YACItemsCursorPeek(&rm, &cur, &items) == YACErrInvalid, "old cursor: peek refused");
  CHECK(memcmp(&items, &saved, sizeof items) == 0, "items unchanged");
  CHECK(memcmp(&cur, &cur_saved, sizeof cur) == 0, "cursor unchanged");
  CHECK(memcmp(before, pool, sizeof pool) == 0, "pool unchanged");
  check_ok(&items, "second tree consistent");

  /* Many messages, each with unlinking edits (which move the generation
   * on) and a new cursor: every cursor of an earlier one stays refused. */
  for (i = 0; i < COUNT(old); i++) {
    YACItemsInit(&items, pool, COUNT(pool));
    (void)parse_whole(&items, doc_full, sizeof doc_full, "message");
    for (j = 0; j < i % 3; j++) {
      CHECK(YACItemsCursorFirst(&cur, &items, 1) == YACErrNo, "first");
      CHECK(YACItemsCursorRemove(&rm, &items, &cur) == YACErrNo, "remove");
    }
    CHECK(YACItemsCursorFirst(&old[i], &items, 1) == YACErrNo, "cursor of the message");
    for (j = 0; j < i; j++) {
      CHECK(YACItemsCursorPeek(&rm, &old[j], &items) == YACErrInvalid,
            "cursor of an earlier message refused");
    }
    CHECK(YACItemsCursorPeek(&rm, &old[i], &items) == YACErrNo, "own cursor valid");
  }
}

/* ---- 2. refused puts and adders change nothing ---- */

struct snapshot {
  struct YACItems items;
  struct YACArena arena;
  struct YACItem pool[32];
  unsigned char mem[64];
};

static struct YACItem put_pool[32];
static unsigned char put_mem[64];

static void take(struct snapshot *s, const struct YACItems *items, const struct YACArena *arena) {
  s->items = *items;
  s->arena = *arena;
  memcpy(s->pool, put_pool, sizeof put_pool);
  memcpy(s->mem, put_mem, sizeof put_mem);
}

static bool same(const struct snapshot *s, const struct YACItems *items,
                 const struct YACArena *arena) {
  return memcmp(&s->items, items, sizeof *items) == 0 &&
         memcmp(&s->arena, arena, sizeof *arena) == 0 &&
         memcmp(s->pool, put_pool, sizeof put_pool) == 0 &&
         memcmp(s->mem, put_mem, sizeof put_mem) == 0;
}

/* YACItemsMapPut of `value` under `map`, with and without an arena, must
 * return `want` and change nothing; with `new_values`, so must the puts
 * that make their value. */
static void refuse_puts(struct YACItems *items, struct YACArena *arena, uint32_t map,
                        uint32_t value, bool new_values, YACErr want, const char *name) {
  struct snapshot s;
  struct YACArena *arenas[2];
  uint32_t old = 12345;
  unsigned i;
  arenas[0] = arena;
  arenas[1] = NULL;
  take(&s, items, arena);
  for (i = 0; i < 2; i++) {
    struct YACArena *a = arenas[i];
    CHECK(YACItemsMapPut(&old, items, a, map, "key", value) == want, name);
    YACItemsBuildReset(items);
    CHECK(old == 12345 && same(&s, items, arena), name);
    if (!new_values) {
      continue;
    }
    CHECK(YACItemsMapPutUint(items, a, map, "key", 7) == want, name);
    YACItemsBuildReset(items);
    CHECK(same(&s, items, arena), name);
    CHECK(YACItemsMapPutSint(items, a, map, "key", -7) == want, name);
    YACItemsBuildReset(items);
    CHECK(same(&s, items, arena), name);
    CHECK(YACItemsMapPutBool(items, a, map, "key", true) == want, name);
    YACItemsBuildReset(items);
    CHECK(same(&s, items, arena), name);
    CHECK(YACItemsMapPutNIL(items, a, map, "key") == want, name);
    YACItemsBuildReset(items);
    CHECK(same(&s, items, arena), name);
    CHECK(YACItemsMapPutStr(items, a, map, "key", "value") == want, name);
    YACItemsBuildReset(items);
    CHECK(same(&s, items, arena), name);
    CHECK(YACItemsMapPutFloat(items, a, map, "key", 0.1) == want, name);
    YACItemsBuildReset(items);
    CHECK(same(&s, items, arena), name);
  }
}

static void test_refused_puts(void) {
  static const unsigned char doc[] = {0x08, 0x09, 0xC1, 'a', 0x01, 0x00, 0x00}; /* [{"a": NIL}] */
  struct YACItems items;
  struct YACArena arena;
  struct snapshot s;
  uint32_t list, map, inner, leaf = YACItemNone, idx = 12345;
  size_t off = 0;

  memset(put_pool, 0xA5, sizeof put_pool);
  memset(put_mem, 0x5A, sizeof put_mem);
  YACItemsInit(&items, put_pool, COUNT(put_pool));
  YACArenaInit(&arena, put_mem, sizeof put_mem);
  list = parse_whole(&items, doc, sizeof doc, "doc");
  map = YACItemsFirst(&items, list);
  inner = YACItemsFirst(&items, map);
  CHECK(YACItemsAddUint(&leaf, &items, 1) == YACErrNo, "leaf");

  /* Into a LIST: no MAP. */
  refuse_puts(&items, &arena, list, leaf, true, YACErrInvalid, "put into a LIST");
  /* A value that is linked already (the key node "a"). */
  refuse_puts(&items, &arena, map, inner, false, YACErrInvalid, "linked value");
  /* A MAP into itself. */
  refuse_puts(&items, &arena, map, map, false, YACErrInvalid, "map into itself");
  /* A node index past the end. */
  refuse_puts(&items, &arena, map, 999, false, YACErrInvalid, "no such value");
  /* An empty key. */
  take(&s, &items, &arena);
  CHECK(YACItemsMapPutUint(&items, &arena, map, "", 1) == YACErrMapBadKey, "empty key");
  YACItemsBuildReset(&items);
  CHECK(same(&s, &items, &arena), "empty key changes nothing");
  /* A full arena: the key does not fit. */
  arena.len = arena.cap - 2;
  take(&s, &items, &arena);
  CHECK(YACItemsMapPutStr(&items, &arena, map, "key", "v") == YACErrNoMem, "arena full");
  YACItemsBuildReset(&items);
  CHECK(same(&s, &items, &arena), "arena full changes nothing");
  CHECK(YACItemsMapPut(&idx, &items, &arena, map, "key", leaf) == YACErrNoMem, "arena full");
  YACItemsBuildReset(&items);
  CHECK(same(&s, &items, &arena), "arena full changes nothing");
  CHECK(YACItemsAddFloat(&idx, &items, &arena, 0.1) == YACErrNoMem, "float: arena full");
  YACItemsBuildReset(&items);
  CHECK(same(&s, &items, &arena) && idx == 12345, "float: arena full changes nothing");
  arena.len = 0;

  /* During an unfinished parse every edit is refused. */
  off = 0;
  CHECK(YACItemsParse(&items, &idx, &off, doc, 3) == YACErrNotEnough, "unfinished parse");
  CHECK(YACItemsParsing(&items), "parsing");
  refuse_puts(&items, &arena, map, leaf, true, YACErrInvalid, "put during a parse");
  take(&s, &items, &arena);
  idx = 12345;
  CHECK(YACItemsAddStr(&idx, &items, &arena, "copied", 6) == YACErrInvalid, "add during a parse");
  YACItemsBuildReset(&items);
  CHECK(YACItemsAddBin(&idx, &items, &arena, (const unsigned char *)"b", 1) == YACErrInvalid,
        "add bin during a parse");
  YACItemsBuildReset(&items);
  CHECK(YACItemsAddUTC(&idx, &items, &arena, 0, 0) == YACErrInvalid, "add time during a parse");
  YACItemsBuildReset(&items);
  CHECK(YACItemsAddMagic(&idx, &items, &arena, (const unsigned char *)"m\0\0\0\0\0\0\0\0\0\0\0", 12) ==
            YACErrInvalid,
        "add magic during a parse");
  YACItemsBuildReset(&items);
  CHECK(same(&s, &items, &arena) && idx == 12345, "refused adders change nothing");
  CHECK(YACItemsAbort(&items) == YACErrNo, "abort");
  check_ok(&items, "consistent after the refusals");
}

/* ---- 3. a million levels, built top-down in O(1) per level ---- */

/* The depth: a million, or YAC_TEST_DEPTH when set (the harness lowers it
 * under valgrind). */
static uint32_t test_depth(void) {
  const char *env = getenv("YAC_TEST_DEPTH");
  long d = env != NULL ? strtol(env, NULL, 10) : 0;
  return d > 0 ? (uint32_t)d : 1000000u;
}

/* Nodes that stay readable behind the end of the pool: every edit of the
 * build touches the newest levels only, so anything older than this
 * faults if an insertion walks up the tree. */
#define WINDOW_NODES 1024u

struct fenced {
  struct YACItem *pool;
  size_t bytes, page, fenced_to; /* bytes of the pool made unreadable */
};

/* Makes the whole pages of the pool below `WINDOW_NODES` before node
 * `end` unreadable. */
static void fence(struct fenced *f, uint32_t end) {
  size_t upto;
  if (end < WINDOW_NODES) {
    return;
  }
  upto = (size_t)(end - WINDOW_NODES) * sizeof(struct YACItem) / f->page * f->page;
  if (upto > f->fenced_to) {
    CHECK(mprotect((char *)f->pool + f->fenced_to, upto - f->fenced_to, PROT_NONE) == 0,
          "mprotect");
    f->fenced_to = upto;
  }
}

/* Levels cycle through the three O(1) insertions: YACItemsPrepend into a
 * LIST, YACItemsCursorInsert into a LIST, YACItemsMapAppend into a MAP
 * (with a key "k"). Each new level is an empty container. */
static void test_deep_top_down(void) {
  uint32_t depth = test_depth();
  struct fenced f;
  struct YACItems items;
  struct YACCursor cur;
  uint32_t parent = YACItemNone, child = YACItemNone, key = YACItemNone, level, at, n;
  YACErr e = YACErrNo;
  size_t cap = (size_t)depth * 2 + 16;

  f.page = (size_t)sysconf(_SC_PAGESIZE);
  f.bytes = cap * sizeof(struct YACItem);
  f.fenced_to = 0;
  f.pool = mmap(NULL, f.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(f.pool != MAP_FAILED, "mmap");
  if (f.pool == MAP_FAILED) {
    return;
  }
  YACItemsInit(&items, f.pool, cap);
  CHECK(YACItemsAddList(&parent, &items) == YACErrNo, "root");
  for (level = 1; level < depth && e == YACErrNo; level++) {
    switch (level % 3) {
    case 1: /* `parent` is a LIST: prepend a LIST. */
      e = YACItemsAddList(&child, &items);
      if (e == YACErrNo) {
        e = YACItemsPrepend(&items, parent, child);
      }
      break;
    case 2: /* `parent` is a LIST: insert a MAP at a cursor. */
      e = YACItemsAddMap(&child, &items);
      if (e == YACErrNo) {
        e = YACItemsCursorFirst(&cur, &items, parent);
      }
      if (e == YACErrNo) {
        e = YACItemsCursorInsert(&items, &cur, child);
      }
      break;
    default: /* `parent` is a MAP: append "k" and a LIST. */
      e = YACItemsAddStr(&key, &items, NULL, "k", 1);
      if (e == YACErrNo) {
        e = YACItemsAddList(&child, &items);
      }
      if (e == YACErrNo) {
        e = YACItemsCursorEnd(&cur, &items, parent);
      }
      if (e == YACErrNo) {
        e = YACItemsMapAppend(&items, &cur, key, child);
      }
      break;
    }
    parent = child;
    fence(&f, items.len);
  }
  CHECK(e == YACErrNo, YACErr2Str((int)e));
  CHECK(level == depth, "every level built");
  CHECK(mprotect(f.pool, f.bytes, PROT_READ | PROT_WRITE) == 0, "unfence");
  check_ok(&items, "deep tree consistent");
  /* Down from the root: one child per level, the last one empty. */
  at = 0;
  for (n = 1; n < depth; n++) {
    uint32_t first = YACItemsFirst(&items, at);
    if (YACItemsType(&items, at) == YACItemMap && first != YACItemNone) {
      first = YACItemsNext(&items, first); /* past the key */
    }
    if (first == YACItemNone) {
      break;
    }
    at = first;
  }
  CHECK(n == depth && YACItemsFirst(&items, at) == YACItemNone, "depth as built");
  munmap(f.pool, f.bytes);
}

/* ---- 4. freed nodes are reused ---- */

/* A long-lived tree in a static pool, its second child replaced by a new
 * subtree (a LIST of a STR and a MAP of one pair) for each of many
 * messages: freeing each old subtree keeps the pool's use fixed. */
static void test_edit_loop_in_a_fixed_pool(void) {
  static struct YACItem pool[16];
  struct YACItems items;
  struct YACCursor at;
  uint32_t list, one, sub, s, map, old;
  size_t freed = 0;
  unsigned round;
  bool ok = true;
  YACItemsInit(&items, pool, COUNT(pool));
  CHECK(YACItemsAddList(&list, &items) == YACErrNo, "list");
  CHECK(YACItemsAddUint(&one, &items, 1) == YACErrNo, "one");
  CHECK(YACItemsPrepend(&items, list, one) == YACErrNo, "prepend");
  for (round = 0; round < 100000 && ok; round++) {
    ok = YACItemsAddList(&sub, &items) == YACErrNo &&
         YACItemsCursorFirst(&at, &items, sub) == YACErrNo &&
         YACItemsAddStr(&s, &items, NULL, "s", 1) == YACErrNo &&
         YACItemsCursorInsert(&items, &at, s) == YACErrNo &&
         YACItemsAddMap(&map, &items) == YACErrNo &&
         YACItemsMapPutUint(&items, NULL, map, "k", round) == YACErrNo &&
         YACItemsCursorInsert(&items, &at, map) == YACErrNo &&
         YACItemsCursorAfter(&at, &items, list, one) == YACErrNo;
    if (ok && round == 0) {
      ok = YACItemsCursorInsert(&items, &at, sub) == YACErrNo;
      continue;
    }
    ok = ok && YACItemsCursorReplace(&old, &items, &at, sub) == YACErrNo &&
         YACItemsFree(&freed, &items, old) == YACErrNo && freed == 5;
  }
  CHECK(ok && round == 100000, "every message fits the pool");
  CHECK(items.len == 12, "two nodes and two subtrees, no more");
  check_ok(&items, "consistent after the loop");
  /* A node freed is no node any more. */
  CHECK(YACItemsFree(&freed, &items, old) == YACErrInvalid, "freed twice");
  CHECK(YACItemsType(&items, old) == YACItemInvalid, "freed node has no type");
}

/* ---- 5. YACAtomDecode sets all of atom.v ---- */

static void test_atom_value_zeroed(void) {
  /* +INT 7, then NIL, each with 16 bytes after it (the inline window) and
   * alone (the checked path). */
  static const unsigned char docs[][17] = {
      {0x0C, 0x81, 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0x0D, 0x81, 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0x0B, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, /* BLOB */
  };
  static const size_t short_len[] = {3, 1, 3, 9};
  unsigned char zero[sizeof(union YACAtomValue)];
  struct YACAtom atom;
  size_t got = 0, i, n, k, tail;
  memset(zero, 0, sizeof zero);
  for (i = 0; i < COUNT(docs); i++) {
    for (k = 0; k < 3; k++) {
      YACErr e;
      n = k == 0 ? sizeof docs[i] : short_len[i];
      memset(&atom, 0xA5, sizeof atom);
      if (k == 2) {
        e = YACAtomDecodeInline(&got, &atom, docs[i], n);
      } else {
        e = YACAtomDecode(&got, &atom, docs[i], n);
      }
      CHECK(e == YACErrNo, "decode");
      /* The bytes of the union past the 8-byte word are zero. */
      tail = sizeof atom.v - sizeof atom.v.uint;
      CHECK(memcmp((unsigned char *)&atom.v + sizeof atom.v.uint, zero, tail) == 0,
            "the rest of atom.v is zeroed");
    }
  }
  {
    struct YACAtom atoms[4];
    size_t count = 0;
    memset(atoms, 0xA5, sizeof atoms);
    CHECK(YACAtomsDecode(&count, &got, atoms, COUNT(atoms), docs[0], sizeof docs[0]) == YACErrNo,
          "batch");
    for (i = 0; i < count; i++) {
      tail = sizeof atoms[i].v - sizeof atoms[i].v.uint;
      CHECK(memcmp((unsigned char *)&atoms[i].v + sizeof atoms[i].v.uint, zero, tail) == 0,
            "batch: the rest of atom.v is zeroed");
    }
    CHECK(count == 4, "batch count");
  }
}

int main(void) {
  test_cursor_across_init();
  test_refused_puts();
  test_deep_top_down();
  test_edit_loop_in_a_fixed_pool();
  test_atom_value_zeroed();
  return check_report();
}
