# libyac 0.2 -> 0.3: the C API's renamed identifiers. Apply to your sources
# with GNU sed (macOS: gsed):
#   sed -i -f docs/porting-0.3.sed file.c ...
# Every pattern is anchored on word boundaries, so names that merely start
# with an old name are left alone. The behaviour changes that renaming
# cannot carry (YACUnsafeNodeSint, key pointer types) are in
# docs/porting.md, "Porting notes".

# Signed integers are "Sint" everywhere (as in YACWriterSint).
s/\bYACItemsAddInt\b/YACItemsAddSint/g
s/\bYACItemsGetInt\b/YACItemsGetSint/g
s/\bYACItemsMapPutInt\b/YACItemsMapPutSint/g

# Floats are "Float" everywhere (as in YACWriterFloat).
s/\bYACItemsAddDouble\b/YACItemsAddFloat/g
s/\bYACItemsGetDouble\b/YACItemsGetFloat/g
s/\bYACItemsMapPutDouble\b/YACItemsMapPutFloat/g

# Every cursor call is YACItemsCursor*.
s/\bYACCursorParent\b/YACItemsCursorParent/g
s/\bYACCursorPrev\b/YACItemsCursorPrev/g

# The unchecked inline readers say that they trust their arguments.
s/\bYACNodeType\b/YACUnsafeNodeType/g
s/\bYACNodeCount\b/YACUnsafeNodeCount/g
s/\bYACNodeFirst\b/YACUnsafeNodeFirst/g
s/\bYACNodeNext\b/YACUnsafeNodeNext/g
s/\bYACNodeUint\b/YACUnsafeNodeUint/g
s/\bYACNodeInt\b/YACUnsafeNodeSint/g
s/\bYACNodeBytes\b/YACUnsafeNodeBytes/g
s/\bYACNodeStr\b/YACUnsafeNodeStr/g
s/\bYACNodeAfter_\b/YACUnsafeNodeAfter_/g
s/\bYAC_FOREACH\b/YAC_UNSAFE_FOREACH/g
s/\bYAC_MAP_FOREACH\b/YAC_UNSAFE_MAP_FOREACH/g
