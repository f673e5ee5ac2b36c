/* Layout checks: every public struct has one layout per pointer width,
 * whatever the compiler and its flags (no C enum type is part of any
 * struct, out-parameter or return value). The same numbers are asserted on
 * the Rust side (capi/src/ffi/layout.rs), so a header and a library that
 * disagree cannot be built. Supported: 32- and 64-bit pointers. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define YAC_LAYOUT_CHECK(name, cond) static_assert(cond, "libyac layout: " #name)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define YAC_LAYOUT_CHECK(name, cond) _Static_assert(cond, "libyac layout: " #name)
#else
#define YAC_LAYOUT_CHECK(name, cond) typedef char YACLayoutCheck_##name[(cond) ? 1 : -1]
#endif
/* P64(a, b): `a` with 64-bit pointers, `b` with 32-bit ones. */
#define YAC_P64(a, b) (sizeof(void *) == 8 ? (a) : (b))
YAC_LAYOUT_CHECK(ptr_width, sizeof(void *) == 8 || sizeof(void *) == 4);
YAC_LAYOUT_CHECK(size_t_width, sizeof(size_t) == sizeof(void *));
YAC_LAYOUT_CHECK(err_size, sizeof(YACErr) == 4);
YAC_LAYOUT_CHECK(item_type_size, sizeof(YACItemType) == 4);
YAC_LAYOUT_CHECK(walk_event_size, sizeof(YACWalkEvent) == 4);
YAC_LAYOUT_CHECK(bytes_size, sizeof(struct YACBytes) == YAC_P64(16, 8));
YAC_LAYOUT_CHECK(bytes_len, offsetof(struct YACBytes, len) == YAC_P64(8, 4));
YAC_LAYOUT_CHECK(atom_value_size, sizeof(union YACAtomValue) == YAC_P64(16, 8));
YAC_LAYOUT_CHECK(atom_size, sizeof(struct YACAtom) == YAC_P64(24, 16));
YAC_LAYOUT_CHECK(atom_typ, offsetof(struct YACAtom, typ) == YAC_P64(16, 8));
YAC_LAYOUT_CHECK(atom_tag, offsetof(struct YACAtom, tag) == YAC_P64(20, 12));
YAC_LAYOUT_CHECK(links_size, sizeof(struct YACItemLinks) == 8);
YAC_LAYOUT_CHECK(links_parent, offsetof(struct YACItemLinks, parent) == 4);
YAC_LAYOUT_CHECK(item_value_size, sizeof(union YACItemValue) == 8);
YAC_LAYOUT_CHECK(item_size, sizeof(struct YACItem) == 16);
YAC_LAYOUT_CHECK(item_next, offsetof(struct YACItem, next) == 8);
YAC_LAYOUT_CHECK(item_meta, offsetof(struct YACItem, meta) == 12);
YAC_LAYOUT_CHECK(items_size, sizeof(struct YACItems) == YAC_P64(120, 108));
YAC_LAYOUT_CHECK(items_len, offsetof(struct YACItems, len) == YAC_P64(8, 4));
YAC_LAYOUT_CHECK(items_cap, offsetof(struct YACItems, cap) == YAC_P64(12, 8));
YAC_LAYOUT_CHECK(items_max_depth, offsetof(struct YACItems, maxDepth) == YAC_P64(16, 12));
YAC_LAYOUT_CHECK(items_flags, offsetof(struct YACItems, flags) == YAC_P64(20, 16));
YAC_LAYOUT_CHECK(items_grow, offsetof(struct YACItems, grow) == YAC_P64(24, 20));
YAC_LAYOUT_CHECK(items_grow_ctx, offsetof(struct YACItems, growCtx) == YAC_P64(32, 24));
YAC_LAYOUT_CHECK(items_reserved, offsetof(struct YACItems, reserved) == YAC_P64(40, 28));
YAC_LAYOUT_CHECK(walk_size, sizeof(struct YACWalk) == 32);
YAC_LAYOUT_CHECK(cursor_size, sizeof(struct YACCursor) == 16);
YAC_LAYOUT_CHECK(writer_size, sizeof(struct YACWriter) == YAC_P64(192, 168));
YAC_LAYOUT_CHECK(writer_levels, offsetof(struct YACWriter, levels) == YAC_P64(8, 4));
YAC_LAYOUT_CHECK(writer_hot, offsetof(struct YACWriter, hot) == YAC_P64(16, 8));
YAC_LAYOUT_CHECK(writer_reserved, offsetof(struct YACWriter, reserved) == YAC_P64(72, 48));
YAC_LAYOUT_CHECK(writer_hot_size, sizeof(struct YACWriterHot) == YAC_P64(56, 40));
YAC_LAYOUT_CHECK(writer_hot_pos, offsetof(struct YACWriterHot, pos) == 8);
YAC_LAYOUT_CHECK(writer_hot_lim, offsetof(struct YACWriterHot, lim) == YAC_P64(16, 12));
YAC_LAYOUT_CHECK(writer_hot_key, offsetof(struct YACWriterHot, key) == YAC_P64(24, 16));
YAC_LAYOUT_CHECK(writer_hot_key_len, offsetof(struct YACWriterHot, keyLen) == YAC_P64(32, 20));
YAC_LAYOUT_CHECK(writer_hot_top, offsetof(struct YACWriterHot, top) == YAC_P64(40, 24));
YAC_LAYOUT_CHECK(writer_hot_depth, offsetof(struct YACWriterHot, depth) == YAC_P64(44, 28));
YAC_LAYOUT_CHECK(writer_hot_max_depth, offsetof(struct YACWriterHot, maxDepth) == YAC_P64(48, 32));
YAC_LAYOUT_CHECK(writer_hot_area, offsetof(struct YACWriterHot, area) == YAC_P64(52, 36));
YAC_LAYOUT_CHECK(writer_level_size, sizeof(struct YACWriterLevel) == 24);
YAC_LAYOUT_CHECK(writer_level_key, offsetof(struct YACWriterLevel, key) == 8);
YAC_LAYOUT_CHECK(writer_level_key_len, offsetof(struct YACWriterLevel, keyLen) == 16);
YAC_LAYOUT_CHECK(writer_level_top, offsetof(struct YACWriterLevel, top) == 20);
YAC_LAYOUT_CHECK(writer_failure_size, sizeof(struct YACWriterFailure) == 24);
YAC_LAYOUT_CHECK(writer_failure_depth, offsetof(struct YACWriterFailure, depth) == 16);
YAC_LAYOUT_CHECK(arena_size, sizeof(struct YACArena) == YAC_P64(24, 12));
YAC_LAYOUT_CHECK(arena_cap, offsetof(struct YACArena, cap) == YAC_P64(8, 4));
YAC_LAYOUT_CHECK(arena_len, offsetof(struct YACArena, len) == YAC_P64(16, 8));
