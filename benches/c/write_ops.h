/* The write-side operations of benches/c/bench.c and benches/c/count.c:
 * the same content written by libyac's streaming writer
 * (struct YACWriter), by msgpack-c's packer (msgpack_pack_* calls) and by
 * mpack's writer (built from ../shared/peers/mpack, benchmarks only).
 *
 * The content is msgpack-c's tree of the .mp document with every MAP's
 * pairs put in YAC key order once (write_ops_sort), so that all three
 * writers get the same calls in the same order and libyac's output is the
 * reference .yac byte for byte. Each writer writes into a preallocated
 * buffer (msgpack-c: its sbuffer, cleared and reused). The walks recurse:
 * the documents nest at most 9 deep. */
#ifndef YAC_BENCH_WRITE_OPS_H
#define YAC_BENCH_WRITE_OPS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "mpack.h"
#include "yac.h"

#define WRITE_OPS_MAX_DEPTH 64

/* YAC key order: length first, then bytewise. */
static int write_ops_key_cmp(const void *a, const void *b) {
    const msgpack_object_str *x = &((const msgpack_object_kv *)a)->key.via.str;
    const msgpack_object_str *y = &((const msgpack_object_kv *)b)->key.via.str;
    if (x->size != y->size) {
        return x->size < y->size ? -1 : 1;
    }
    return memcmp(x->ptr, y->ptr, x->size);
}

/* Puts the pairs of every MAP under `o` in YAC key order. */
static void write_ops_sort(msgpack_object *o) {
    uint32_t i;
    if (o->type == MSGPACK_OBJECT_ARRAY) {
        for (i = 0; i < o->via.array.size; i++) {
            write_ops_sort(&o->via.array.ptr[i]);
        }
    } else if (o->type == MSGPACK_OBJECT_MAP) {
        qsort(o->via.map.ptr, o->via.map.size, sizeof *o->via.map.ptr, write_ops_key_cmp);
        for (i = 0; i < o->via.map.size; i++) {
            write_ops_sort(&o->via.map.ptr[i].val);
        }
    }
}

static void write_ops_fail(const char *who, const char *why) {
    fprintf(stderr, "bench: %s: %s\n", who, why);
    exit(2);
}

/* libyac: one writer call per item, through the header's inline calls
 * (which call the library for what they do not handle). */
static void yac_write_obj(struct YACWriter *w, const msgpack_object *o) {
  uint32_t i;
  switch (o->type) {
  case MSGPACK_OBJECT_NIL:
    YACWriterNILInline(w);
    break;
  case MSGPACK_OBJECT_BOOLEAN:
    YACWriterBoolInline(w, o->via.boolean);
    break;
  case MSGPACK_OBJECT_POSITIVE_INTEGER:
    YACWriterUintInline(w, o->via.u64);
    break;
  case MSGPACK_OBJECT_NEGATIVE_INTEGER:
    YACWriterSintInline(w, o->via.i64);
    break;
  case MSGPACK_OBJECT_STR:
    YACWriterStrInline(w, o->via.str.ptr, o->via.str.size);
    break;
  case MSGPACK_OBJECT_ARRAY:
    YACWriterListOpenInline(w);
    for (i = 0; i < o->via.array.size; i++) {
      yac_write_obj(w, &o->via.array.ptr[i]);
    }
    YACWriterListCloseInline(w);
    break;
  case MSGPACK_OBJECT_MAP:
    YACWriterMapOpenInline(w);
    for (i = 0; i < o->via.map.size; i++) {
      const msgpack_object_str *k = &o->via.map.ptr[i].key.via.str;
      YACWriterStrInline(w, k->ptr, k->size);
      yac_write_obj(w, &o->via.map.ptr[i].val);
    }
    YACWriterMapCloseInline(w);
    break;
  default:
    write_ops_fail("YACWriter", "a type the documents do not have");
  }
}

/* The whole document with libyac's writer; returns its length. */
static uint64_t yac_write_doc(const msgpack_object *o, unsigned char *out, size_t cap) {
  struct YACWriterLevel levels[WRITE_OPS_MAX_DEPTH];
  struct YACWriter w;
  size_t len = 0;
  YACErr e;
  YACWriterInit(&w, out, cap, levels, WRITE_OPS_MAX_DEPTH, NULL, 0);
  yac_write_obj(&w, o);
  e = YACWriterFinish(&w, &len);
  if (e != YACErrNo) {
    write_ops_fail("YACWriterFinish", YACErr2Str(e));
  }
  return len;
}

/* msgpack-c: the msgpack_pack_* call of each item. */
static void mpc_pack_obj(msgpack_packer *pk, const msgpack_object *o) {
    uint32_t i;
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        msgpack_pack_nil(pk);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        if (o->via.boolean) {
            msgpack_pack_true(pk);
        } else {
            msgpack_pack_false(pk);
        }
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        msgpack_pack_uint64(pk, o->via.u64);
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        msgpack_pack_int64(pk, o->via.i64);
        break;
    case MSGPACK_OBJECT_STR:
        msgpack_pack_str(pk, o->via.str.size);
        msgpack_pack_str_body(pk, o->via.str.ptr, o->via.str.size);
        break;
    case MSGPACK_OBJECT_ARRAY:
        msgpack_pack_array(pk, o->via.array.size);
        for (i = 0; i < o->via.array.size; i++) {
            mpc_pack_obj(pk, &o->via.array.ptr[i]);
        }
        break;
    case MSGPACK_OBJECT_MAP:
        msgpack_pack_map(pk, o->via.map.size);
        for (i = 0; i < o->via.map.size; i++) {
            const msgpack_object_str *k = &o->via.map.ptr[i].key.via.str;
            msgpack_pack_str(pk, k->size);
            msgpack_pack_str_body(pk, k->ptr, k->size);
            mpc_pack_obj(pk, &o->via.map.ptr[i].val);
        }
        break;
    default:
        write_ops_fail("msgpack_pack_*", "a type the documents do not have");
    }
}

static uint64_t mpc_pack_doc(msgpack_sbuffer *sbuf, msgpack_packer *pk, const msgpack_object *o) {
    msgpack_sbuffer_clear(sbuf);
    mpc_pack_obj(pk, o);
    return sbuf->size;
}

/* mpack: its writer's call of each item. */
static void mpack_write_obj(mpack_writer_t *w, const msgpack_object *o) {
    uint32_t i;
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        mpack_write_nil(w);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        mpack_write_bool(w, o->via.boolean);
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        mpack_write_u64(w, o->via.u64);
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        mpack_write_i64(w, o->via.i64);
        break;
    case MSGPACK_OBJECT_STR:
        mpack_write_str(w, o->via.str.ptr, o->via.str.size);
        break;
    case MSGPACK_OBJECT_ARRAY:
        mpack_start_array(w, o->via.array.size);
        for (i = 0; i < o->via.array.size; i++) {
            mpack_write_obj(w, &o->via.array.ptr[i]);
        }
        mpack_finish_array(w);
        break;
    case MSGPACK_OBJECT_MAP:
        mpack_start_map(w, o->via.map.size);
        for (i = 0; i < o->via.map.size; i++) {
            const msgpack_object_str *k = &o->via.map.ptr[i].key.via.str;
            mpack_write_str(w, k->ptr, k->size);
            mpack_write_obj(w, &o->via.map.ptr[i].val);
        }
        mpack_finish_map(w);
        break;
    default:
        write_ops_fail("mpack writer", "a type the documents do not have");
    }
}

static uint64_t mpack_write_doc(const msgpack_object *o, char *out, size_t cap) {
    mpack_writer_t w;
    size_t used;
    mpack_writer_init(&w, out, cap);
    mpack_write_obj(&w, o);
    used = mpack_writer_buffer_used(&w);
    if (mpack_writer_destroy(&w) != mpack_ok) {
        write_ops_fail("mpack writer", "error");
    }
    return used;
}

#endif /* YAC_BENCH_WRITE_OPS_H */
