/* test_atom_inline.c again with the header's portable STR test (words of
 * 8 bytes), the one every target without SSE2 compiles: without this
 * file only the SSE2 test would run on x86_64. */
#undef __SSE2__
#include "test_atom_inline.c"
