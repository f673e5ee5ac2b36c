/* libyac never touches the heap: every entry point is called while every
 * allocation of the process is counted, and the count must stay 0.
 *
 * How allocations are seen, without valgrind:
 * - Plain build: this file defines malloc, calloc, realloc, free and the
 *   other allocation functions glibc lets a program replace. They hand out
 *   a static bump arena (free is a no-op), so libc keeps working, and each
 *   call is counted while `counting` is set. The executable's definitions
 *   interpose on every call in the process, libyac.a's included.
 * - AddressSanitizer build: ASan owns malloc (defining it here would
 *   clash with the sanitizer's runtime), so the same counting is done by
 *   the allocation hook ASan offers, __sanitizer_install_malloc_and_free_hooks.
 * Either way the test first proves that it sees allocations: a malloc
 * through a volatile pointer, and libyac's pool-growth callback (which
 * calls realloc from inside YACItemsParse) must both be counted. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "docs.h"
#include "yac.h"
#include "yac_vectors.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static volatile int counting;
static volatile unsigned long allocations;

static void count_one(void) {
  if (counting) {
    allocations++;
  }
}

#if defined(__SANITIZE_ADDRESS__)
#define NO_HEAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_HEAP_ASAN 1
#endif
#endif

#ifdef NO_HEAP_ASAN

int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void *, size_t),
    void (*free_hook)(const volatile void *));

static void on_malloc(const volatile void *p, size_t n) {
  (void)p;
  (void)n;
  count_one();
}

static void on_free(const volatile void *p) { (void)p; }

static int install_counting(void) {
  return __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
}

static int from_arena(const void *p) {
  (void)p;
  return 1;
}

#else /* plain build: replace the allocator */

#define ARENA_SIZE ((size_t)64 << 20)
#define ALIGN ((size_t)16)

static union {
  long double ld;
  void *p;
  long long ll;
  unsigned char bytes[ARENA_SIZE];
} arena;
static size_t arena_used;

/* Every block is preceded by ALIGN bytes holding its size. */
static void *arena_alloc(size_t n, size_t align) {
  size_t start, end;
  if (align < ALIGN) {
    align = ALIGN;
  }
  if ((align & (align - 1)) != 0 || n > ARENA_SIZE) {
    return NULL;
  }
  start = (arena_used + ALIGN + align - 1) & ~(align - 1);
  end = start + n;
  if (end > ARENA_SIZE) {
    return NULL;
  }
  memcpy(arena.bytes + start - ALIGN, &n, sizeof n);
  arena_used = end;
  return arena.bytes + start;
}

static size_t block_size(const void *p) {
  size_t n;
  memcpy(&n, (const unsigned char *)p - ALIGN, sizeof n);
  return n;
}

static int from_arena(const void *p) {
  const unsigned char *b = p;
  return b >= arena.bytes && b < arena.bytes + ARENA_SIZE;
}

void *malloc(size_t n) {
  count_one();
  return arena_alloc(n, ALIGN);
}

void *calloc(size_t n, size_t size) {
  void *p;
  count_one();
  if (size != 0 && n > SIZE_MAX / size) {
    return NULL;
  }
  p = arena_alloc(n * size, ALIGN);
  if (p != NULL) {
    memset(p, 0, n * size);
  }
  return p;
}

void *realloc(void *old, size_t n) {
  void *p;
  count_one();
  p = arena_alloc(n, ALIGN);
  if (p != NULL && old != NULL) {
    size_t had = block_size(old);
    memcpy(p, old, had < n ? had : n);
  }
  return p;
}

void free(void *p) { (void)p; }

/* The optional replaceable functions, so that no glibc allocator is ever
 * mixed with this one. */
int posix_memalign(void **out, size_t align, size_t n);
int posix_memalign(void **out, size_t align, size_t n) {
  void *p;
  count_one();
  p = arena_alloc(n, align);
  if (p == NULL) {
    return 12; /* ENOMEM */
  }
  *out = p;
  return 0;
}

void *aligned_alloc(size_t align, size_t n);
void *aligned_alloc(size_t align, size_t n) {
  count_one();
  return arena_alloc(n, align);
}

void *memalign(size_t align, size_t n);
void *memalign(size_t align, size_t n) {
  count_one();
  return arena_alloc(n, align);
}

void *valloc(size_t n);
void *valloc(size_t n) {
  count_one();
  return arena_alloc(n, 4096);
}

void *pvalloc(size_t n);
void *pvalloc(size_t n) {
  count_one();
  return arena_alloc((n + 4095) & ~(size_t)4095, 4096);
}

size_t malloc_usable_size(void *p);
size_t malloc_usable_size(void *p) { return p == NULL ? 0 : block_size(p); }

static int install_counting(void) { return 1; }

#endif /* NO_HEAP_ASAN */

static void start(void) {
  allocations = 0;
  counting = 1;
}

/* Stops counting; `what` made no allocation. */
static void stop(const char *what) {
  unsigned long n;
  counting = 0;
  n = allocations;
  CHECK(n == 0, what);
  if (n != 0) {
    fprintf(stderr, "  %s: %lu allocations\n", what, n);
  }
}

static struct YACItem *grow_realloc(void *ctx, struct YACItem *old,
                                    size_t old_cap, size_t *new_cap) {
  (void)ctx;
  (void)old_cap;
  return realloc(old, *new_cap * sizeof *old);
}

/* The counter works: a direct malloc and libyac's growth callback are
 * both seen. */
static void test_counter_sees_allocations(void) {
  void *(*volatile m)(size_t) = malloc;
  void *p;
  struct Doc d;
  struct YACItems items;
  uint32_t root;
  size_t off = 0;
  unsigned long seen;
  build_uint_list(&d, 0, 10);
  start();
  p = m(10);
  counting = 0;
  CHECK(allocations == 1, "a malloc is counted");
  CHECK(p != NULL && from_arena(p), "malloc is this file's");
  free(p);
  YACItemsInit(&items, NULL, 0);
  items.grow = grow_realloc;
  start();
  CHECK(YACItemsParse(&items, &root, &off, d.b, d.n) == YACErrNo, "grow");
  counting = 0;
  seen = allocations;
  CHECK(seen == 1, "the growth callback's realloc is counted");
  CHECK(from_arena(items.list), "grown pool from the counted allocator");
  free(items.list);
}

/* Every valid vector: atom decoding, counting, parsing (whole and byte
 * by byte), navigation, encoding and walking. */
static void test_vectors(void) {
  static struct YACItem pool[64];
  static unsigned char out[70000];
  size_t i;
  for (i = 0; i < COUNT(valid_vectors); i++) {
    const struct ValidVector *v = &valid_vectors[i];
    struct YACItems items;
    struct YACAtom atom;
    struct YACWalk walk;
    YACWalkEvent ev;
    uint32_t root = 0, idx, depth;
    size_t off = 0, got = 0, nodes = 0, used = 0, have, elen = 0;
    size_t count;
    const unsigned char *p;
    start();
    while (off < v->len &&
           YACAtomDecode(&got, &atom, v->buf + off, v->len - off) == YACErrNo) {
      off += got;
    }
    YACItemsNodesNeeded(&nodes, &used, v->buf, v->len, 0);
    YACItemsInit(&items, pool, COUNT(pool));
    off = 0;
    YACItemsParse(&items, &root, &off, v->buf, v->len);
    (void)YACItemsType(&items, root);
    (void)YACItemsFirst(&items, root);
    (void)YACItemsNext(&items, root);
    (void)YACItemsNth(&items, root, 1);
    (void)YACItemsMapGet(&items, root, "foo");
    (void)YACItemsMapGetN(&items, root, "dh", 2);
    YACItemsChildCount(&count, &items, root);
    YACItemsGetBytes(&p, &count, &items, root);
    YACItemsEncodedLen(&elen, &items, root);
    off = 0;
    YACItemsEncode(&items, root, &off, out, sizeof out);
    YACItemsWalkInit(&walk, &items, root);
    while (YACItemsWalkNext(&ev, &idx, &depth, &walk, &items) == YACErrNo &&
           ev != YACWalkEnd) {
    }
    YACItemsInit(&items, pool, COUNT(pool));
    off = 0;
    for (have = 0; have <= v->len; have++) {
      if (YACItemsParse(&items, &root, &off, v->buf, have) != YACErrNotEnough) {
        break;
      }
    }
    stop(v->name);
    CHECK(off == v->len && elen == v->len && memcmp(out, v->buf, elen) == 0,
          v->name);
  }
  for (i = 0; i < COUNT(invalid_vectors); i++) {
    const struct InvalidVector *v = &invalid_vectors[i];
    struct YACItems items;
    struct YACAtom atom;
    uint32_t root;
    size_t off = 0, got, nodes, used;
    start();
    YACAtomDecode(&got, &atom, v->buf, v->len);
    YACItemsNodesNeeded(&nodes, &used, v->buf, v->len, 0);
    YACItemsInit(&items, pool, COUNT(pool));
    YACItemsParse(&items, &root, &off, v->buf, v->len);
    YACItemsAbort(&items);
    stop(v->name);
  }
  for (i = 0; i < COUNT(stream_vectors); i++) {
    const struct StreamVector *v = &stream_vectors[i];
    struct YACItems items;
    uint32_t root;
    size_t off = 0;
    start();
    YACItemsInit(&items, pool, COUNT(pool));
    while (YACItemsParse(&items, &root, &off, v->buf, v->len) == YACErrNo &&
           off < v->len) {
    }
    YACItemsAbort(&items);
    stop(v->name);
  }
}

/* Edits, getters, pool exhaustion and every atom encoder. */
static void test_edits_and_encoders(void) {
  static struct YACItem pool[RICH_DOC_NODES + 16];
  static unsigned char out[8192];
  struct Doc d;
  struct YACItems items;
  struct YACAtom a;
  uint32_t root, h, x, k, old;
  size_t off = 0, len, cap;
  uint64_t u;
  int64_t i64;
  bool b;
  double f;
  const char *s;
  const unsigned char *p;
  int64_t sec;
  uint32_t nsec, asec;
  bool leap;
  unsigned char label[16];

  start();
  build_rich_doc(&d);
  stop("atom encoders");

  start();
  /* The pool short by one node at every size: NoMem, nothing allocated. */
  for (cap = 0; cap < RICH_DOC_NODES; cap++) {
    YACItemsInit(&items, pool, cap);
    off = 0;
    YACItemsParse(&items, &root, &off, d.b, d.n);
  }
  YACItemsInit(&items, pool, COUNT(pool));
  off = 0;
  YACItemsParse(&items, &root, &off, d.b, d.n);
  YACItemsGetUint(&u, &items, YACItemsMapGet(&items, root, "n"));
  YACItemsGetSint(&i64, &items, YACItemsMapGet(&items, root, "e"));
  YACItemsGetBool(&b, &items, YACItemsMapGet(&items, root, "m"));
  YACItemsGetFloat(&f, &items, YACItemsMapGet(&items, root, "p"));
  YACItemsGetStr(&s, &len, &items, YACItemsMapGet(&items, root, "k"));
  YACItemsGetBin(&p, &len, &items, YACItemsMapGet(&items, root, "a"));
  YACItemsGetBlob(&u, &u, &items, YACItemsMapGet(&items, root, "b"));
  YACItemsGetBytes(&p, &len, &items, YACItemsMapGet(&items, root, "l"));
  YACTAI64ToTAI(&sec, &nsec, &asec, p, len);
  YACTAI64ToUTC(&sec, &nsec, &leap, p, len);
  YACTAIToTAI64(&len, label, sizeof label, sec, nsec, 0);
  YACUTCToTAI64(&len, label, sizeof label, 1483228800, 0);
  YACUTCToTAI(&sec, 1483228800);
  YACTAIToUTC(&sec, &leap, sec);
  YACItemsGetBytes(&p, &len, &items, YACItemsMapGet(&items, root, "c"));
  YACFloatToDouble(&f, p, len);
  (void)YACErr2Str(YACErrNoMem);

  h = YACItemsMapGet(&items, root, "h");
  memset(&a, 0, sizeof a);
  a.typ = YACItemPint;
  a.v.uint = 42;
  YACItemsAdd(&x, &items, &a);
  YACItemsInsertAfter(&items, h, YACItemsFirst(&items, h), x);
  YACItemsAdd(&x, &items, &a);
  YACItemsPrepend(&items, h, x);
  YACItemsRemove(&old, &items, h, YACItemNone);
  YACItemsAdd(&x, &items, &a);
  YACItemsReplace(&old, &items, h, YACItemNone, x);
  YACItemsSetValue(&items, x, &a);
  a.typ = YACItemStr;
  a.v.bytes.ptr = (const unsigned char *)"zz";
  a.v.bytes.len = 2;
  YACItemsAdd(&k, &items, &a);
  a.typ = YACItemNIL;
  YACItemsAdd(&x, &items, &a);
  YACItemsMapSet(&old, &items, root, k, x);
  YACItemsMapDel(&old, &items, root, "j", 1);
  YACItemsEncodedLen(&len, &items, root);
  off = 0;
  YACItemsEncode(&items, root, &off, out, sizeof out);
  stop("parse, getters, edits, encode");
  CHECK(off == len && len > d.n, "edited document encoded");
}

static uint32_t writer_sink(void *ctx, const unsigned char *buf, size_t len) {
  size_t *total = ctx;
  (void)buf;
  *total += len;
  return 0;
}

/* The streaming writer: into a buffer, through a flush callback, counted,
 * with MAPs in order and sorted on close, and refusals. */
static void test_writer(void) {
  static unsigned char out[512];
  struct YACWriterLevel levels[4];
  unsigned char keys[32];
  struct YACWriter w;
  size_t len = 0;
  size_t flushed = 0;
  int mode;
  start();
  for (mode = 0; mode < 4; mode++) {
    if (mode == 3) {
      YACWriterInitCount(&w, levels, 4, keys, sizeof keys);
    } else {
      YACWriterInit(&w, out, mode == 1 ? 8 : sizeof out, levels, 4, keys,
                    sizeof keys);
    }
    if (mode == 1) {
      YACWriterSetFlush(&w, writer_sink, &flushed);
    }
    YACWriterMagic(&w, (const unsigned char *)"cm/x\0\0\0\0\0\0\0\0", 12);
    if (mode == 2) {
      YACWriterMapOpenSorted(&w);
    } else {
      YACWriterMapOpen(&w);
    }
    YACWriterStrZ(&w, "a");
    YACWriterListOpen(&w);
    YACWriterUint(&w, 1);
    YACWriterSint(&w, -1000);
    YACWriterFloat(&w, 0.5);
    YACWriterUTC(&w, 1483228800, 5);
    YACWriterListClose(&w);
    YACWriterStrZ(&w, "b");
    YACWriterBlob(&w, 3, (const unsigned char *)"abcdefg", 7);
    YACWriterStrZ(&w, mode == 2 ? "a" : "c");
    YACWriterNIL(&w);
    YACWriterMapClose(&w);
    YACWriterFinish(&w, &len);
  }
  YACWriterInit(&w, out, sizeof out, levels, 4, NULL, 0);
  YACWriterMapOpen(&w);
  YACWriterStr(&w, "\xC0\x80", 2);
  YACWriterFinish(&w, &len);
  stop("writer");
  CHECK(flushed > 0, "writer: streamed");
}

/* The builder's typed adders and MAP puts, into a fixed pool and arena. */
static void test_builder(void) {
  static struct YACItem pool[32];
  static unsigned char mem[64], out[128];
  struct YACItems items;
  struct YACArena arena;
  uint32_t root, list, v;
  size_t off = 0;
  start();
  YACItemsInit(&items, pool, 32);
  YACArenaInit(&arena, mem, sizeof mem);
  YACItemsAddMap(&root, &items);
  YACItemsMapPutUint(&items, &arena, root, "u", 1);
  YACItemsMapPutSint(&items, &arena, root, "i", -1);
  YACItemsMapPutStr(&items, &arena, root, "s", "text");
  YACItemsMapPutFloat(&items, &arena, root, "d", 0.25);
  YACItemsMapPutBool(&items, &arena, root, "b", true);
  YACItemsMapPutNIL(&items, &arena, root, "n");
  YACItemsAddList(&list, &items);
  YACItemsAddUTC(&v, &items, &arena, 1483228800, 1);
  YACItemsPrepend(&items, list, v);
  YACItemsAddMagic(&v, &items, &arena, (const unsigned char *)"m\0\0\0\0\0\0\0\0\0\0\0", 12);
  YACItemsPrepend(&items, list, v);
  YACItemsAddBin(&v, &items, &arena, (const unsigned char *)"ab", 2);
  YACItemsPrepend(&items, list, v);
  YACItemsMapPut(NULL, &items, &arena, root, "l", list);
  YACItemsEncode(&items, root, &off, out, sizeof out);
  stop("builder");
  CHECK(off > 0, "builder: encoded");
}

/* A deep document: no allocation whatever the depth. */
static void test_deep(void) {
  const size_t depth = 100000;
  unsigned char *buf = malloc(2 * depth);
  unsigned char *out = malloc(2 * depth);
  struct YACItem *pool = malloc(depth * sizeof *pool);
  struct YACItems items;
  struct YACWalk walk;
  YACWalkEvent ev;
  uint32_t root, idx, d;
  size_t nodes = 0, used, off = 0, events = 0;
  if (buf == NULL || out == NULL || pool == NULL) {
    CHECK(0, "deep: memory");
    return;
  }
  memset(buf, 0x08, depth);
  memset(buf + depth, 0x00, depth);
  start();
  YACItemsNodesNeeded(&nodes, &used, buf, 2 * depth, 0);
  YACItemsInit(&items, pool, depth);
  YACItemsParse(&items, &root, &off, buf, 2 * depth);
  off = 0;
  YACItemsEncode(&items, root, &off, out, 2 * depth);
  YACItemsWalkInit(&walk, &items, root);
  while (YACItemsWalkNext(&ev, &idx, &d, &walk, &items) == YACErrNo &&
         ev != YACWalkEnd) {
    events++;
  }
  stop("deep");
  CHECK(nodes == depth && off == 2 * depth && events == 2 * depth, "deep");
  free(buf);
  free(out);
  free(pool);
}

int main(void) {
  CHECK(install_counting(), "allocation counting installed");
  test_counter_sees_allocations();
  test_vectors();
  test_edits_and_encoders();
  test_writer();
  test_builder();
  test_deep();
  return check_report();
}
