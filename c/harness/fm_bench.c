/* fm_bench.c - the native speed harness: times the kernels of this build (and
 * msgpack-c, and memcpy) on a batch of inputs, so that the benchmark compares
 * native and wasm speed on the same inputs.
 *
 *   fm-bench IN OUT
 *
 * Request: u8 op, u32 length, `length` bytes: the ops of fm_ops.h, or a
 *   msgpack-c peer: 100 pack float32, 101 unpack float32, 102 pack float64,
 *   103 unpack float64, 104 pack int32, 105 unpack int32 (inputs as for the
 *   fastmp ops of the same type).
 * Response: one text line per request, "<ns per call> <ns per memcpy of the
 *   output size> <output bytes>": each the best of 7 rounds of at least 2 ms.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fm_ops.h"

enum { PEER_FIRST = 100, PEER_LAST = 105, ROUNDS = 7 };
_Static_assert((int)FM_OP_END <= (int)PEER_FIRST, "the fastmp ops (fm_ops.h) end before the peers' numbers");
#define ROUND_NS 2e6

static void die(const char *what) {
  fprintf(stderr, "fm-bench: %s\n", what);
  exit(2);
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Keeps results observable, so that the compiler cannot drop the calls. */
static volatile size_t sink;

/* ---- msgpack-c, as a C program would use it ------------------------------------ */

typedef struct peer {
  int op;
  const uint8_t *in;
  size_t len;
  msgpack_sbuffer buffer; /* reused across calls, like a long-lived writer */
  void *out;
} peer;

static size_t peer_pack(peer *p) {
  msgpack_packer pk;
  p->buffer.size = 0;
  msgpack_packer_init(&pk, &p->buffer, msgpack_sbuffer_write);
  if (p->op == 100) {
    size_t n = p->len / 4;
    const float *x = (const float *)p->in;
    msgpack_pack_array(&pk, n);
    for (size_t i = 0; i < n; i++) msgpack_pack_float(&pk, x[i]);
  } else if (p->op == 102) {
    size_t n = p->len / 8;
    const double *x = (const double *)p->in;
    msgpack_pack_array(&pk, n);
    for (size_t i = 0; i < n; i++) msgpack_pack_double(&pk, x[i]);
  } else {
    size_t n = p->len / 4;
    const int32_t *x = (const int32_t *)p->in;
    msgpack_pack_array(&pk, n);
    for (size_t i = 0; i < n; i++) msgpack_pack_int32(&pk, x[i]);
  }
  return p->buffer.size;
}

static size_t peer_unpack(peer *p) {
  msgpack_unpacked result;
  msgpack_unpacked_init(&result);
  size_t off = 0, n = 0;
  if (msgpack_unpack_next(&result, (const char *)p->in, p->len, &off) == MSGPACK_UNPACK_SUCCESS &&
      result.data.type == MSGPACK_OBJECT_ARRAY) {
    n = result.data.via.array.size;
    const msgpack_object *o = result.data.via.array.ptr;
    for (size_t i = 0; i < n; i++) {
      double v = o[i].type == MSGPACK_OBJECT_FLOAT32 || o[i].type == MSGPACK_OBJECT_FLOAT64 ? o[i].via.f64
                 : o[i].type == MSGPACK_OBJECT_POSITIVE_INTEGER ? (double)o[i].via.u64
                                                                 : (double)o[i].via.i64;
      if (p->op == 101) ((float *)p->out)[i] = (float)v;
      else if (p->op == 103) ((double *)p->out)[i] = v;
      else ((int32_t *)p->out)[i] = (int32_t)v;
    }
  }
  msgpack_unpacked_destroy(&result);
  return n * (p->op == 103 ? 8 : 4);
}

static size_t peer_run(peer *p) { return p->op % 2 == 0 ? peer_pack(p) : peer_unpack(p); }

/* ---- timing ----------------------------------------------------------------- */

typedef size_t (*call_fn)(void *ctx);

/* Best of ROUNDS rounds of at least ROUND_NS each: ns per call. */
static double best_ns(call_fn call, void *ctx) {
  double once = now_ns();
  sink = call(ctx);
  once = now_ns() - once;
  size_t reps = once > 0 ? (size_t)(ROUND_NS / once) + 1 : 1000;
  double best = 1e300;
  for (int round = 0; round < ROUNDS; round++) {
    double start = now_ns();
    for (size_t i = 0; i < reps; i++) sink = call(ctx);
    double per = (now_ns() - start) / (double)reps;
    if (per < best) best = per;
  }
  return best;
}

static size_t call_op(void *ctx) {
  fm_result r;
  return fm_op_run(ctx, &r);
}

static size_t call_peer(void *ctx) { return peer_run(ctx); }

typedef struct copy {
  void *to;
  const void *from;
  size_t size;
} copy;

static size_t call_memcpy(void *ctx) {
  copy *c = ctx;
  memcpy(c->to, c->from, c->size);
  return ((volatile uint8_t *)c->to)[c->size ? c->size - 1 : 0];
}

int main(int argc, char **argv) {
  if (argc != 3) die("usage: fm-bench IN OUT");
  FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "w");
  if (!in || !out) die("cannot open input or output");
  int op;
  uint32_t len;
  uint8_t *data;
  while ((data = fm_read_request(in, "fm-bench", &op, &len)) != NULL) {
    double ns;
    size_t size;
    if (op >= PEER_FIRST && op <= PEER_LAST) {
      peer p = {.op = op, .in = data, .len = len, .out = fm_xmalloc(8 * (size_t)len)};
      msgpack_sbuffer_init(&p.buffer);
      size = peer_run(&p);
      ns = best_ns(call_peer, &p);
      msgpack_sbuffer_destroy(&p.buffer);
      free(p.out);
    } else {
      fm_op o;
      const char *why;
      if (!fm_op_prepare(&o, op, data, len, false, &why)) die(why);
      fm_result r;
      size = fm_op_run(&o, &r);
      ns = best_ns(call_op, &o);
      fm_op_release(&o);
    }
    copy c = {.to = fm_xmalloc(size), .from = fm_xmalloc(size), .size = size};
    memset((void *)c.from, 1, size);
    double copy_ns = best_ns(call_memcpy, &c);
    free(c.to);
    free((void *)c.from);
    fprintf(out, "%.3f %.3f %zu\n", ns, copy_ns, size);
    free(data);
  }
  if (fclose(out) != 0) die("write failed");
  return 0;
}
