/* The header's inline writer calls against their exported twins: two
 * writers get the same calls, one through YACWriter...Inline, the other
 * through the exported functions, and must agree after every call (result,
 * hot state, buffered bytes, where the error was met) and at the end
 * (flushed bytes, size). The calls come from random documents with
 * mistakes mixed in, written under every set-up (buffer sizes from none
 * to plenty, key area or not, flushing or not, count-only), and from
 * replaying the benchmark documents atom by atom. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data.h"
#include "yac.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#include "writer_pair.h"

struct Setup {
  size_t cap; /* SIZE_MAX: count-only */
  bool keys, flush;
};

static const struct Setup setups[] = {
    {PAIR_CAP, false, false}, {0, false, false},  {5, false, false},
    {40, false, false},  {200, false, false}, {PAIR_CAP, true, false},
    {40, true, false},   {64, false, true},   {16, true, true},
    {PAIR_CAP, true, true},   {SIZE_MAX, false, false}, {SIZE_MAX, true, false},
};

static void pair_init(struct Pair *p, const struct Setup *su) {
  int k;
  for (k = 0; k < 2; k++) {
    unsigned char *keys = su->keys ? p->keys[k] : NULL;
    size_t keysLen = su->keys ? sizeof p->keys[k] : 0;
    memset(p->buf[k], 0, sizeof p->buf[k]);
    p->sink[k].len = 0;
    if (su->cap == SIZE_MAX) {
      YACWriterInitCount(&p->w[k], p->levels[k], DEPTH, keys, keysLen);
    } else {
      YACWriterInit(&p->w[k], su->cap ? p->buf[k] : NULL, su->cap, p->levels[k], DEPTH, keys,
                    keysLen);
    }
    if (su->flush) {
      YACWriterSetFlush(&p->w[k], sink, &p->sink[k]);
    }
  }
}

/* ----- random documents ----- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static uint64_t below(uint64_t n) { return rnd() % n; }

/* Texts of every kind the inline STR meets: short and long ASCII, the
 * 1- and 2-byte header edges, the inline limit, non-ASCII, NUL, invalid
 * UTF-8. */
static char text[400];

static const char *pick_text(size_t *len) {
  static const size_t lens[] = {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 60, 61, 62, 316, 317, 399};
  size_t n = lens[below(COUNT(lens))], i;
  for (i = 0; i < n; i++) {
    text[i] = (char)('a' + below(26));
  }
  switch (below(8)) {
  case 0:
    if (n >= 2) {
      text[below(n - 1)] = (char)0xC3; /* é, when the next byte is... */
      text[n - 1] = (char)0xA9;
    }
    break;
  case 1:
    if (n > 0) {
      text[below(n)] = '\0';
    }
    break;
  case 2:
    if (n > 0) {
      text[below(n)] = (char)0xFF;
    }
    break;
  case 3:
    if (n > 0) {
      text[below(n)] = (char)0x7F;
    }
    break;
  default:
    break;
  }
  *len = n;
  return text;
}

/* A key above `prev` (a counter with a prefix), or, as a mistake, not. */
struct MapState {
  char prefix[80];
  size_t prefixLen;
  unsigned long counter;
};

static char keybuf[128];

static size_t next_key(struct MapState *m, bool mistake) {
  if (!mistake) {
    m->counter += 1 + below(3);
  } else if (m->counter > 0 && below(2) == 0) {
    m->counter--;
  }
  memcpy(keybuf, m->prefix, m->prefixLen);
  return m->prefixLen +
         (size_t)snprintf(keybuf + m->prefixLen, sizeof keybuf - m->prefixLen, "%lu", m->counter);
}

static void new_map(struct MapState *m) {
  static const char *prefixes[] = {"", "k", "\xC3\xA9", "longer key ", "x"};
  const char *pre = prefixes[below(COUNT(prefixes))];
  m->prefixLen = strlen(pre);
  if (below(16) == 0) {
    memset(m->prefix, 'p', 70);
    m->prefixLen = 70;
  } else {
    memcpy(m->prefix, pre, m->prefixLen);
  }
  m->counter = 0;
}

/* Writes one random document on both writers of `p`; false once they
 * disagree. */
static bool random_doc(struct Pair *p, const char *name) {
  char kinds[DEPTH + 2];
  bool valueDue[DEPTH + 2];
  struct MapState maps[DEPTH + 2];
  int depth = 0, ops = 0;
  static const unsigned char bin[400] = {1, 2, 3};
  for (;;) {
    struct Op op;
    bool mistake = below(48) == 0;
    bool inMap = depth > 0 && kinds[depth - 1] == 'M';
    memset(&op, 0, sizeof op);
    if (depth == 0 && ops > 0 && !mistake) {
      return finish(p, name);
    }
    if (inMap && !valueDue[depth - 1] && !mistake) {
      if (ops > 60 || below(6) == 0) {
        op.kind = OP_MAP_CLOSE;
      } else {
        op.kind = OP_STR;
        op.s = keybuf;
        op.n = next_key(&maps[depth - 1], below(24) == 0);
      }
    } else if (depth > 0 && !mistake && (ops > 60 || below(8) == 0) && !inMap) {
      op.kind = OP_LIST_CLOSE;
    } else {
      op.kind = (enum OpKind)below(mistake ? OP_KINDS : OP_MAP_CLOSE);
      if (depth == 0 && !mistake) {
        op.kind = below(2) ? OP_LIST : OP_MAP;
      }
      if (op.kind == OP_MAP && below(8) == 0) {
        op.kind = OP_SORTED;
      }
      op.u = rnd();
      op.u = below(9) == 0 ? 0 : op.u >> (8 * below(8));
      if (op.kind == OP_STR) {
        op.s = pick_text(&op.n);
      } else if (op.kind == OP_BIN || op.kind == OP_BLOB) {
        op.s = (const char *)bin;
        op.n = (size_t)below(sizeof bin);
      }
    }
    if (!step(p, &op, name)) {
      return false;
    }
    ops++;
    if (ops > 400 || YACWriterError(&p->w[1]) != YACErrNo) {
      if (YACWriterError(&p->w[1]) != YACErrNoMem || ops > 400) {
        return finish(p, name);
      }
    }
    /* Follow the grammar as the writer sees it. */
    if (inMap && op.kind == OP_STR && !valueDue[depth - 1]) {
      valueDue[depth - 1] = true;
      continue;
    }
    if (inMap) {
      valueDue[depth - 1] = false;
    }
    if ((op.kind == OP_LIST || op.kind == OP_MAP || op.kind == OP_SORTED) && depth < DEPTH) {
      kinds[depth] = op.kind == OP_LIST ? 'L' : 'M';
      valueDue[depth] = false;
      new_map(&maps[depth]);
      depth++;
    } else if ((op.kind == OP_LIST_CLOSE || op.kind == OP_MAP_CLOSE) && depth > 0) {
      depth--;
    }
  }
}

/* Under valgrind (which the harness tells by YAC_TEST_DEPTH) a lighter
 * run: fewer random documents, only the small benchmark document. */
static bool light(void) { return getenv("YAC_TEST_DEPTH") != NULL; }

static void test_random(void) {
  static struct Pair p;
  char name[64];
  size_t s;
  int doc;
  for (s = 0; s < COUNT(setups); s++) {
    for (doc = 0; doc < (light() ? 20 : 150); doc++) {
      snprintf(name, sizeof name, "setup %u, doc %d", (unsigned)s, doc);
      pair_init(&p, &setups[s]);
      if (!random_doc(&p, name)) {
        return;
      }
    }
  }
}

static void test_documents(void) {
  static const char *docs[] = {"licenses", "canada-list", "canada-map"};
  static struct Pair p;
  size_t d;
  for (d = 0; d < (light() ? 1 : COUNT(docs)); d++) {
    size_t len = 0, s;
    unsigned char *doc = read_bench_doc(docs[d], &len);
    if (doc == NULL) {
      continue;
    }
    /* Every set-up for the small document; streamed with a key area and
     * counted for the big ones (which the sink cannot hold). */
    for (s = 0; s < COUNT(setups); s++) {
      if (d == 0 || (setups[s].flush && setups[s].cap == 16) || setups[s].cap == SIZE_MAX) {
        pair_init(&p, &setups[s]);
        replay(&p, doc, len, docs[d]);
        if (setups[s].flush && YACWriterError(&p.w[1]) == YACErrNo) {
          CHECK(p.sink[0].len == len && memcmp(p.sink[0].out, doc, len) == 0,
                "streamed back byte for byte");
        }
      }
    }
    free(doc);
  }
}

int main(void) {
  test_random();
  test_documents();
  return check_report();
}
