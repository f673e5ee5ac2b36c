/* Instruction counting driver for callgrind (benches/count.sh): runs one
 * operation of libyac's C API, or of a peer, three times over one benchmark
 * document, so that `valgrind --tool=callgrind` gives a deterministic count
 * to compare builds and peers with (wall-clock timings on a shared machine
 * vary by far more than most single optimisations). The operations are
 * those of bench.c:
 *
 *   count DATA_DIR DOC OP
 *
 *   parse, trust   YACItemsParse (trust: with YACItemsTrustUTF8)
 *   walk           a YACAtomDecode loop
 *   encode         YACItemsEncode (after one parse, not repeated)
 *   check          msgpuck mp_check
 *   read           YACItemsParse, then every node read (inline reads)
 *   validate       YACValidate (vtrust: with YACItemsTrustUTF8)
 *   batch          a YACAtomsDecode loop (256 atoms per call)
 *   inline         a YACAtomDecodeInline loop
 *   mparse         mpack's node-pool parse (mread: then every node read)
 *   mdecode        msgpuck mp_check, then every item decoded
 *   unpack         msgpack-c msgpack_unpack_next, msgpack_unpacked reused
 *   pack           msgpack-c msgpack_pack_object (after one unpack)
 *   write          YACWriter calls, one per item (write_ops.h; after one
 *                  unpack and the sort of the MAP pairs into YAC key order)
 *   mpcwrite       msgpack-c msgpack_pack_* calls on the same content
 *   mwrite         mpack writer calls on the same content
 *   wsetup         nothing but the writers' setup (unpack and sort), whose
 *                  count is to be subtracted from theirs */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>
#include <msgpuck.h>

#include "read_file.h"
#include "read_ops.h"
#include "write_ops.h"
#include "yac.h"

static void check(YACErr e, const char *what) {
    if (e != YACErrNo) {
        fprintf(stderr, "count: %s: %s\n", what, YACErr2Str(e));
        exit(1);
    }
}

int main(int argc, char **argv) {
    size_t yac_len, mp_len, need, out_len, off, got;
    unsigned char *yac, *mp, *out;
    struct YACItem *pool;
    struct YACItems items;
    struct YACAtom atom;
    mpack_node_data_t *mpool;
    uint32_t root = 0;
    uint64_t acc = 0;
    const char *op;
    int rep;
    msgpack_unpacked un;
    msgpack_sbuffer sbuf;
    msgpack_packer pk;

    if (argc != 4) {
        fprintf(stderr, "usage: %s DATA_DIR DOC OP (see the comment at the top)\n", argv[0]);
        return 2;
    }
    op = argv[3];
    yac = read_file("count", argv[1], argv[2], ".yac", &yac_len);
    mp = read_file("count", argv[1], argv[2], ".mp", &mp_len);
    /* A node takes at least one byte of input (a BLOB: two for its nine),
     * so this is enough; YACItemsNodesNeeded would add its own count. */
    need = yac_len + 1;
    pool = malloc(need * sizeof *pool);
    out_len = yac_len;
    out = malloc(out_len);
    /* An mpack node takes at least one byte of the .mp. */
    mpool = malloc((mp_len + 1) * sizeof *mpool);
    if (pool == NULL || out == NULL || mpool == NULL) {
        return 2;
    }
    msgpack_unpacked_init(&un);
    msgpack_sbuffer_init(&sbuf);
    msgpack_packer_init(&pk, &sbuf, msgpack_sbuffer_write);
    if (strcmp(op, "pack") == 0 || strcmp(op, "write") == 0 || strcmp(op, "mpcwrite") == 0 ||
        strcmp(op, "mwrite") == 0 || strcmp(op, "wsetup") == 0) {
        off = 0;
        if (msgpack_unpack_next(&un, (const char *)mp, mp_len, &off) != MSGPACK_UNPACK_SUCCESS) {
            return 1;
        }
        if (strcmp(op, "pack") != 0) {
            write_ops_sort(&un.data);
        }
    }
    if (strcmp(op, "encode") == 0) {
        off = 0;
        check(YACItemsInit(&items, pool, need), "YACItemsInit");
        check(YACItemsParse(&items, &root, &off, yac, yac_len), "YACItemsParse");
    }
    for (rep = 0; rep < 3; rep++) {
        if (strcmp(op, "parse") == 0 || strcmp(op, "trust") == 0) {
            off = 0;
            check(YACItemsInit(&items, pool, need), "YACItemsInit");
            items.flags = strcmp(op, "trust") == 0 ? YACItemsTrustUTF8 : 0;
            check(YACItemsParse(&items, &root, &off, yac, yac_len), "YACItemsParse");
            acc += items.len;
        } else if (strcmp(op, "read") == 0) {
            off = 0;
            check(YACItemsInit(&items, pool, need), "YACItemsInit");
            check(YACItemsParse(&items, &root, &off, yac, yac_len), "YACItemsParse");
            acc += yac_read_all(&items, root);
        } else if (strcmp(op, "validate") == 0 || strcmp(op, "vtrust") == 0) {
            acc += yac_validate(yac, yac_len, strcmp(op, "vtrust") == 0 ? YACItemsTrustUTF8 : 0);
        } else if (strcmp(op, "batch") == 0) {
            acc += yac_atoms_batch(yac, yac_len);
        } else if (strcmp(op, "inline") == 0) {
            acc += yac_atoms_inline(yac, yac_len);
        } else if (strcmp(op, "mparse") == 0 || strcmp(op, "mread") == 0) {
            acc += mpack_parse((const char *)mp, mp_len, mpool, mp_len + 1,
                               strcmp(op, "mread") == 0);
        } else if (strcmp(op, "mdecode") == 0) {
            acc += mpuck_check_and_walk((const char *)mp, mp_len);
        } else if (strcmp(op, "walk") == 0) {
            for (off = 0; off < yac_len; off += got) {
                check(YACAtomDecode(&got, &atom, yac + off, yac_len - off), "YACAtomDecode");
                acc += (uint64_t)atom.typ;
            }
        } else if (strcmp(op, "encode") == 0) {
            off = 0;
            check(YACItemsEncode(&items, root, &off, out, out_len), "YACItemsEncode");
            acc += off;
        } else if (strcmp(op, "check") == 0) {
            const char *p = (const char *)mp;
            if (mp_check(&p, (const char *)mp + mp_len) != 0) {
                return 1;
            }
            acc += (uint64_t)(p - (const char *)mp);
        } else if (strcmp(op, "unpack") == 0) {
            off = 0;
            if (msgpack_unpack_next(&un, (const char *)mp, mp_len, &off) != MSGPACK_UNPACK_SUCCESS) {
                return 1;
            }
            acc += off;
        } else if (strcmp(op, "wsetup") == 0) {
            acc += 1; /* the writers' setup alone, to subtract */
        } else if (strcmp(op, "write") == 0) {
            acc += yac_write_doc(&un.data, out, out_len);
        } else if (strcmp(op, "mpcwrite") == 0) {
            acc += mpc_pack_doc(&sbuf, &pk, &un.data);
        } else if (strcmp(op, "mwrite") == 0) {
            acc += mpack_write_doc(&un.data, (char *)out, out_len); /* out_len >= mp_len */
        } else if (strcmp(op, "pack") == 0) {
            msgpack_sbuffer_clear(&sbuf);
            if (msgpack_pack_object(&pk, un.data) != 0) {
                return 1;
            }
            acc += sbuf.size;
        } else {
            fprintf(stderr, "count: unknown operation %s\n", op);
            return 2;
        }
    }
    printf("%llu\n", (unsigned long long)acc);
    msgpack_unpacked_destroy(&un);
    msgpack_sbuffer_destroy(&sbuf);
    free(yac);
    free(mp);
    free(pool);
    free(mpool);
    free(out);
    return 0;
}
