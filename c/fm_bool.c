/* fm_bool.c - booleans <-> msgpack arrays of 0xc2 (false) / 0xc3 (true).
 *
 * Pack reads bytes (0 = false, anything else = true): 16 lanes become 16 tags
 * with an unsigned minimum and an add (0xc2 + min(byte, 1)). Unpack subtracts
 * 0xc2 from 16 bytes and accepts the block when every lane is 0 or 1 (one
 * unsigned compare and one any_true), 64 bytes per test while it can;
 * otherwise the scalar path finds the element that is not a boolean.
 */
#include "fm_blocks.h"

#if FM_SIMD
/* splat(1), computed so that LLVM cannot see its value when it compiles the
 * loop: knowing it, LLVM turns min(b, 1) + 0xc2 into a compare and a select,
 * which V8 compiles to four instructions instead of two (the rounding average
 * of 0 and 1 is 1). bench/kernels.js --types=bool times these kernels. */
FM_INLINE v128_t opaque_one(void) { return wasm_u8x16_avgr(wasm_i8x16_splat(0), wasm_i8x16_splat(1)); }

/* The 16 tags of the 16 booleans at in: 0xc2 + min(byte, 1). */
FM_INLINE v128_t bool_tags(const uint8_t *in, v128_t one) {
  return wasm_i8x16_add(wasm_u8x16_min(wasm_v128_load(in), one), wasm_i8x16_splat((int8_t)0xc2));
}
#endif

FM_PACK_EXPORT size_t fm_pack_bool(const uint8_t *in, size_t n, uint8_t *out) {
  if (n > FM_MAX_ELEMENTS) return 0;
  uint8_t *p = out + fm_write_array_header(out, (uint32_t)n);
  size_t i = 0;
#if FM_SIMD
  if (n >= 16) {
    /* Stores aligned to 16 bytes: the header leaves p unaligned, and a store
     * across two cache lines costs more than a load does. The first vector
     * and the last are written unaligned, overlapping the aligned ones with
     * the same bytes. */
    v128_t one = opaque_one();
    uint8_t *end = p + n;
    wasm_v128_store(p, bool_tags(in, one));
    i = 16 - ((uintptr_t)p & 15);
    for (; i + 128 <= n; i += 128) /* 8 vectors an iteration: less loop per byte */
      for (int k = 0; k < 8; k++) wasm_v128_store(p + i + 16 * k, bool_tags(in + i + 16 * k, one));
    for (; i + 16 <= n; i += 16) wasm_v128_store(p + i, bool_tags(in + i, one));
    wasm_v128_store(end - 16, bool_tags(in + n - 16, one));
    return (size_t)(end - out);
  }
#endif
  for (; i < n; i++) *p++ = in[i] ? 0xc3 : 0xc2;
  return (size_t)(p - out);
}

static bool unpack_bool_scalar(const uint8_t *in, size_t len, size_t *pos, size_t i, size_t stop,
                               uint8_t *out, uint32_t flags, fm_result *r) {
  (void)flags;
  for (; i < stop; i++, (*pos)++) {
    if (*pos >= len) {
      fm_fail(r, FM_ERR_TRUNCATED, r->count, i, *pos, 0, 0);
      return false;
    }
    uint8_t tag = in[*pos];
    if (tag != 0xc2 && tag != 0xc3) {
      fm_fail(r, FM_ERR_TYPE, r->count, i, *pos, tag, 0);
      return false;
    }
    out[i] = tag - 0xc2;
  }
  return true;
}

#if FM_SIMD
/* Whether V wire vectors at in are all booleans; their 0 / 1 bytes in b. */
FM_INLINE bool bool_vectors(const uint8_t *in, int V, v128_t *b) {
  v128_t bad = wasm_i8x16_splat(0);
  for (int k = 0; k < V; k++) {
    b[k] = wasm_i8x16_sub(wasm_v128_load(in + 16 * k), wasm_i8x16_splat((int8_t)0xc2));
    bad = wasm_v128_or(bad, wasm_u8x16_gt(b[k], wasm_i8x16_splat(1)));
  }
  return !wasm_v128_any_true(bad);
}

FM_INLINE size_t bool_block(const uint8_t *in, size_t avail, void *out) {
  v128_t b;
  if (avail < 16 || !bool_vectors(in, 1, &b)) return 0;
  wasm_v128_store(out, b);
  return 16;
}

/* Runs of 64 booleans (one test for four vectors: the 16-at-a-time loop
 * spent much of its time on its test and loop), then of 16. */
FM_INLINE size_t unpack_bool_run(const uint8_t *in, size_t avail, uint8_t *out, size_t max, uint32_t flags,
                                 size_t *used) {
  (void)flags;
  size_t done = 0;
  v128_t b[4];
  while (done + 64 <= max && avail - done >= 64 && bool_vectors(in + done, 4, b)) {
    for (int k = 0; k < 4; k++) wasm_v128_store(out + done + 16 * k, b[k]);
    done += 64;
  }
  *used = done;
  return done + fm_run_blocks(bool_block, 1, in, avail, out + done, max - done, used);
}
#endif

FM_DEFINE_UNPACK(fm_unpack_bool, uint8_t, unpack_bool_run, unpack_bool_scalar)
