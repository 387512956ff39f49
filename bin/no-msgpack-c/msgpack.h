/* msgpack.h - a stand-in for msgpack-c's header, so that
 * c/harness/fm_bench.c builds where msgpack-c is not installed
 * (bin/native.js puts this folder on the include path then, and links no
 * msgpack-c). It declares what fm_bench.c names and does nothing: the
 * bench then sends fm-bench no msgpack-c request (ops 100-105), only the
 * kernels' ops, so none of these runs; each aborts should one ever run. */
#ifndef FASTMP_BENCH_NO_MSGPACK_C_H
#define FASTMP_BENCH_NO_MSGPACK_C_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct msgpack_sbuffer {
  size_t size;
} msgpack_sbuffer;

typedef int (*msgpack_packer_write)(void *data, const char *buf, size_t len);
typedef struct msgpack_packer {
  void *data;
} msgpack_packer;

typedef enum {
  MSGPACK_OBJECT_POSITIVE_INTEGER,
  MSGPACK_OBJECT_NEGATIVE_INTEGER,
  MSGPACK_OBJECT_FLOAT32,
  MSGPACK_OBJECT_FLOAT64,
  MSGPACK_OBJECT_ARRAY
} msgpack_object_type;

typedef struct msgpack_object msgpack_object;
typedef struct msgpack_object_array {
  uint32_t size;
  msgpack_object *ptr;
} msgpack_object_array;
struct msgpack_object {
  msgpack_object_type type;
  union {
    uint64_t u64;
    int64_t i64;
    double f64;
    msgpack_object_array array;
  } via;
};
typedef struct msgpack_unpacked {
  msgpack_object data;
} msgpack_unpacked;
enum { MSGPACK_UNPACK_SUCCESS = 2 };

static inline int msgpack_sbuffer_write(void *data, const char *buf, size_t len) {
  (void)data, (void)buf, (void)len;
  abort();
}
static inline void msgpack_sbuffer_init(msgpack_sbuffer *b) { (void)b, abort(); }
static inline void msgpack_sbuffer_destroy(msgpack_sbuffer *b) { (void)b, abort(); }
static inline void msgpack_packer_init(msgpack_packer *pk, void *data, msgpack_packer_write write) {
  (void)pk, (void)data, (void)write;
  abort();
}
static inline int msgpack_pack_array(msgpack_packer *pk, size_t n) { (void)pk, (void)n, abort(); }
static inline int msgpack_pack_float(msgpack_packer *pk, float x) { (void)pk, (void)x, abort(); }
static inline int msgpack_pack_double(msgpack_packer *pk, double x) { (void)pk, (void)x, abort(); }
static inline int msgpack_pack_int32(msgpack_packer *pk, int32_t x) { (void)pk, (void)x, abort(); }
static inline void msgpack_unpacked_init(msgpack_unpacked *u) { (void)u, abort(); }
static inline void msgpack_unpacked_destroy(msgpack_unpacked *u) { (void)u, abort(); }
static inline int msgpack_unpack_next(msgpack_unpacked *u, const char *data, size_t len, size_t *off) {
  (void)u, (void)data, (void)len, (void)off;
  abort();
}

#endif
