/* ------------------------------------------------------------------------
 * Inline reads of a tree: a load or two per read, no call.
 *
 * The node layout is public (struct YACItem, 16 bytes: the value word,
 * `next`, and `meta` = the type in bits 0..4 and the size in bits 5..31,
 * see YACItemMeta), so the common reads are inline here. They check
 * nothing and trust their arguments:
 *  - `items` was set up by YACItemsInit and filled by libyac (YACItemsParse
 *    or the edit functions), and is not being changed meanwhile;
 *  - `idx` is a node libyac gave: a root from YACItemsParse, or an index
 *    these functions returned (first child, next sibling, MAP value), never
 *    YACItemNone;
 *  - the node has the type the function reads (ask YACUnsafeNodeType first).
 * A wrong index or type reads the wrong word, or out of bounds. For
 * indices from untrusted places (a file, the network, another program),
 * use the exported YACItems* functions, which check everything and are
 * the definition these inline reads are tested against.
 * ---------------------------------------------------------------------- */

/* The type of node `idx`.
 * Pointers: `items` a tree as above; trusts `idx`. */
static inline YACItemType YACUnsafeNodeType(const struct YACItems *items, uint32_t idx) {
  return (YACItemType)(items->list[idx].meta & (uint32_t)YACItemTypeMask);
}

/* The number of children of LIST, MAP or BLOB `idx` (a MAP counts its keys
 * and its values; a BLOB its chunks). One load; a container of 2^27 - 1
 * children or more costs a call (YACItemsChildCount, O(children)).
 * Pointers: `items` a tree as above; trusts `idx` and its type. */
static inline size_t YACUnsafeNodeCount(const struct YACItems *items, uint32_t idx) {
  uint32_t size = items->list[idx].meta >> (uint32_t)YACItemSizeShift;
  size_t n = 0;
  if (size != (uint32_t)YACItemSizeEsc) {
    return size;
  }
  (void)YACItemsChildCount(&n, items, idx);
  return n;
}

/* The first child of LIST, MAP or BLOB `idx`, YACItemNone when it has
 * none.
 * Pointers: `items` a tree as above; trusts `idx` and its type. */
static inline uint32_t YACUnsafeNodeFirst(const struct YACItems *items, uint32_t idx) {
  return items->list[idx].v.c.first;
}

/* The next sibling of `idx`, YACItemNone for the last child (and for a
 * root, which has no siblings).
 * Pointers: `items` a tree as above; trusts `idx`. */
static inline uint32_t YACUnsafeNodeNext(const struct YACItems *items, uint32_t idx) {
  uint32_t next = items->list[idx].next;
  return next < YACItemUnlinked ? next : YACItemNone;
}

/* The value of YACItemPint node `idx`.
 * Pointers: `items` a tree as above; trusts `idx` and its type. */
static inline uint64_t YACUnsafeNodeUint(const struct YACItems *items, uint32_t idx) {
  return items->list[idx].v.u;
}

/* The value of integer node `idx`, YACItemPint or YACItemNint, as a signed
 * number, like YACItemsGetSint: the caller trusts that it fits (a Pint up
 * to INT64_MAX; YACItemsGetSint checks that, this does not). One load: a
 * Pint's uint64_t and an Nint's int64_t share the value word, and a Pint
 * that fits has the same bits as int64_t.
 * Pointers: `items` a tree as above; trusts `idx`, its type and range. */
static inline int64_t YACUnsafeNodeSint(const struct YACItems *items, uint32_t idx) {
  return items->list[idx].v.i;
}

/* The payload of bytes node `idx` (HEXLET, FLOAT, TAI64, MAGIC, BIN, STR,
 * Pbig, Nbig), `*len` its length; it points into the parsed buffer. Two
 * loads; a payload of 2^27 - 1 bytes or more costs a call
 * (YACItemsGetBytes).
 * Pointers: `items` a tree as above, `len` writable; trusts `idx` and its
 * type. */
static inline const unsigned char *YACUnsafeNodeBytes(const struct YACItems *items, uint32_t idx,
                                                size_t *len) {
  const struct YACItem *node = &items->list[idx];
  uint32_t size = node->meta >> (uint32_t)YACItemSizeShift;
  const unsigned char *p = NULL;
  if (size != (uint32_t)YACItemSizeEsc) {
    *len = size;
    return node->v.ptr;
  }
  *len = 0;
  (void)YACItemsGetBytes(&p, len, items, idx);
  return p;
}

/* The text of YACItemStr node `idx`, `*len` bytes, NOT NUL-terminated.
 * UTF-8 without NUL when the parse checked it (not with
 * YACItemsTrustUTF8); YACItemsGetStr checks it again on every call, this
 * does not.
 * Pointers: `items` a tree as above, `len` writable; trusts `idx` and its
 * type. */
static inline const char *YACUnsafeNodeStr(const struct YACItems *items, uint32_t idx, size_t *len) {
  return (const char *)YACUnsafeNodeBytes(items, idx, len);
}

/* For the iteration macros: the node after `idx`, or YACItemNone when
 * `idx` is none. Not API.
 * Pointers: `items` a tree as above. */
static inline uint32_t YACUnsafeNodeAfter_(const struct YACItems *items, uint32_t idx) {
  return idx < YACItemUnlinked ? items->list[idx].next : YACItemNone;
}

/* Iterates over the children of LIST or BLOB `parent` (of a MAP: its keys
 * and values in turn), declaring `uint32_t child` for the loop body:
 *
 *   YAC_UNSAFE_FOREACH(items, list, child) { use(YACUnsafeNodeType(items, child)); }
 *
 * Trusts `parent` and its type; `items` and `parent` are evaluated more
 * than once. */
#define YAC_UNSAFE_FOREACH(items, parent, child)                            \
  for (uint32_t child = YACUnsafeNodeFirst((items), (parent));              \
       child < YACItemUnlinked; child = (items)->list[child].next)

/* Iterates over the pairs of MAP `map` in key order, declaring `uint32_t
 * key` (a YACItemStr node: read it with YACUnsafeNodeStr) and `uint32_t val`
 * for the loop body:
 *
 *   YAC_UNSAFE_MAP_FOREACH(items, map, key, val) { ... }
 *
 * Trusts `map` and its type; `items` and `map` are evaluated more than
 * once. */
#define YAC_UNSAFE_MAP_FOREACH(items, map, key, val)                        \
  for (uint32_t key = YACUnsafeNodeFirst((items), (map)),                   \
                val = YACUnsafeNodeAfter_((items), key);                    \
       key < YACItemUnlinked;                                               \
       key = YACUnsafeNodeAfter_((items), val),                             \
                val = YACUnsafeNodeAfter_((items), key))
