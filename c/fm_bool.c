/* fm_bool.c - booleans <-> msgpack arrays of 0xc2 (false) / 0xc3 (true).
 *
 * Pack reads bytes (0 = false, anything else = true): 16 lanes become 16 tags
 * with one compare and one subtract (0xc2 - (-1) = 0xc3). Unpack subtracts
 * 0xc2 from 16 bytes and accepts the block when every lane is 0 or 1 (one
 * unsigned compare and one any_true), 64 bytes per test while it can;
 * otherwise the scalar path finds the element that is not a boolean.
 */
#include "fm_blocks.h"

FM_EXPORT size_t fm_pack_bool(const uint8_t *in, size_t n, uint8_t *out) {
  if (n > FM_MAX_ELEMENTS) return 0;
  uint8_t *p = out + fm_write_array_header(out, (uint32_t)n);
  size_t i = 0;
#if FM_SIMD
  v128_t zero = wasm_i8x16_splat(0), false_tag = wasm_i8x16_splat((int8_t)0xc2);
  for (; i + 16 <= n; i += 16, p += 16) {
    v128_t truth = wasm_i8x16_ne(wasm_v128_load(in + i), zero); /* -1 where true */
    wasm_v128_store(p, wasm_i8x16_sub(false_tag, truth));
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
 * spent as much on its test and loop as on the bytes), then of 16. */
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
