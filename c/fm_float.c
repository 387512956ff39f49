/* fm_float.c - Float32Array / Float64Array <-> msgpack arrays of numbers.
 *
 * Pack writes every element as a float of the array's own width (0xca + 4 BE
 * bytes, 0xcb + 8 BE bytes): a float is never narrowed to an int, so typed
 * consumers (Go, C#, Python) get floats back. Unpack accepts every numeric
 * element form and converts it to the nearest value of the target type (NaN
 * rules in fm_msgpack.h).
 *
 * SIMD paths work on blocks of 16 elements, so that whole output or input
 * vectors line up with whole elements: 16 floats are 4 vectors in and 5
 * vectors (80 bytes) out; 16 doubles are 8 vectors in and 9 (144 bytes) out.
 * Each wire vector draws on at most two typed vectors (and back), so one
 * two-input byte shuffle both gathers and byte-swaps it. The scalar path
 * finishes what the SIMD path leaves and is the whole of the scalar build.
 */
#include "fm_blocks.h"

#if FM_SIMD

/* ---- shuffle tables, computed by the preprocessor -------------------------
 * S = wire bytes per element, P = payload bytes (4 or 8).
 *
 * Pack, output vector k, byte b: wire position 16k+b belongs to element
 * e = (16k+b)/S at byte j = (16k+b)%S of it; j == 0 is the tag, byte j >= 1 is
 * payload byte P-j of the little-endian value. The first element of vector k
 * lives in typed vector A = ((16k)/S)*P/16; the shuffle reads A and A+1. */
#define PK_E(S, k, b) ((16 * (k) + (b)) / (S))
#define PK_J(S, k, b) ((16 * (k) + (b)) % (S))
#define PK_A(S, P, k) (((16 * (k)) / (S)) * (P) / 16)
#define PK_IDX(S, P, k, b) \
  (PK_J(S, k, b) == 0 ? -1 : PK_E(S, k, b) * (P) + (P)-PK_J(S, k, b) - 16 * PK_A(S, P, k))
#define PK_TAG(S, k, T, b) (PK_J(S, k, b) == 0 ? (int8_t)(T) : 0)

/* Wire vector k of a packed block: gather + byte-swap (the tag bytes left 0),
 * then drop the tags in. A block holds P typed vectors; the last wire vector
 * reads only the last one, so its unused second operand is clamped to stay
 * inside the block. */
#define PACK_VEC(S, P, TAG, k, v)                                                               \
  wasm_v128_or(FM_SHUFFLE(v[PK_A(S, P, k)], v[FM_MIN(PK_A(S, P, k) + 1, (P)-1)],                \
                          LANES16(PK_IDX, S, P, k)),                                            \
               FM_I8X16(LANES16(PK_TAG, S, k, TAG)))

/* ---- pack ---------------------------------------------------------------- */

/* Float32 wire vector k of a block draws on at most 4 elements (16 output
 * bytes hold at most 4 elements' payload bytes, 5 a wire element), and those
 * are adjacent in the input: one unaligned load at the first of them and one
 * swizzle gather and byte-swap it, where a shuffle of two typed vectors takes
 * two swizzles and an or (its 10 constants then stay in V8's registers);
 * two blocks a turn are faster again (bench/kernels.js --types=f32 times the
 * kernel alone). PKW_BASE is the first element whose payload
 * reaches vector k (the one holding its first byte: a tag byte there still
 * starts that element). */
#define PKW_BASE(k) ((16 * (k)) / 5)
#define PKW_IDX(k, b) (PK_J(5, k, b) == 0 ? -128 : (PK_E(5, k, b) - PKW_BASE(k)) * 4 + 4 - PK_J(5, k, b))
#define PACK_F32_VEC(in, k)                                                                  \
  wasm_v128_or(wasm_i8x16_swizzle(wasm_v128_load((in) + PKW_BASE(k)), FM_I8X16(LANES16(PKW_IDX, k))), \
               FM_I8X16(LANES16(PK_TAG, 5, k, 0xca)))

/* One block of 16 float32 elements: 80 wire bytes. */
FM_INLINE void pack_f32_block(const float *in, uint8_t *out) {
  wasm_v128_store(out + 0, PACK_F32_VEC(in, 0));
  wasm_v128_store(out + 16, PACK_F32_VEC(in, 1));
  wasm_v128_store(out + 32, PACK_F32_VEC(in, 2));
  wasm_v128_store(out + 48, PACK_F32_VEC(in, 3));
  wasm_v128_store(out + 64, PACK_F32_VEC(in, 4));
}

/* Packs whole blocks of 16; returns the number of elements done. */
static size_t pack_f32_simd(const float *in, size_t n, uint8_t *out) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32, out += 32 * FM_WIRE_f32) {
    pack_f32_block(in + i, out);
    pack_f32_block(in + i + 16, out + 16 * FM_WIRE_f32);
  }
  if (i + 16 <= n) {
    pack_f32_block(in + i, out);
    i += 16;
  }
  return i;
}

static size_t pack_f64_simd(const double *in, size_t n, uint8_t *out) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16, out += 16 * FM_WIRE_f64) {
    v128_t v[8];
    for (int k = 0; k < 8; k++) v[k] = wasm_v128_load(in + i + 2 * k);
    wasm_v128_store(out + 0, PACK_VEC(9, 8, 0xcb, 0, v));
    wasm_v128_store(out + 16, PACK_VEC(9, 8, 0xcb, 1, v));
    wasm_v128_store(out + 32, PACK_VEC(9, 8, 0xcb, 2, v));
    wasm_v128_store(out + 48, PACK_VEC(9, 8, 0xcb, 3, v));
    wasm_v128_store(out + 64, PACK_VEC(9, 8, 0xcb, 4, v));
    wasm_v128_store(out + 80, PACK_VEC(9, 8, 0xcb, 5, v));
    wasm_v128_store(out + 96, PACK_VEC(9, 8, 0xcb, 6, v));
    wasm_v128_store(out + 112, PACK_VEC(9, 8, 0xcb, 7, v));
    wasm_v128_store(out + 128, PACK_VEC(9, 8, 0xcb, 8, v));
  }
  return i;
}

/* ---- unpack: uniform blocks of 16 elements ---------------------------------
 * Each returns the wire bytes consumed, or 0 when the block is not uniform
 * (or holds a NaN that needs the exact scalar conversion): the caller then
 * decodes those elements one by one. `avail` is the bytes left in the input. */

FM_INLINE bool block_is_f32(const v128_t w[5]) {
  v128_t tag = wasm_i8x16_splat((int8_t)0xca);
  return (TAG_MISSES(5, 0, w, tag) | TAG_MISSES(5, 1, w, tag) | TAG_MISSES(5, 2, w, tag) |
          TAG_MISSES(5, 3, w, tag) | TAG_MISSES(5, 4, w, tag)) == 0;
}

FM_INLINE bool block_is_f64(const v128_t w[9]) {
  v128_t tag = wasm_i8x16_splat((int8_t)0xcb);
  return (TAG_MISSES(9, 0, w, tag) | TAG_MISSES(9, 1, w, tag) | TAG_MISSES(9, 2, w, tag) |
          TAG_MISSES(9, 3, w, tag) | TAG_MISSES(9, 4, w, tag) | TAG_MISSES(9, 5, w, tag) |
          TAG_MISSES(9, 6, w, tag) | TAG_MISSES(9, 7, w, tag) | TAG_MISSES(9, 8, w, tag)) == 0;
}

/* Reads 16 float32 elements as 4 typed vectors, or returns false. */
FM_INLINE bool load_block_f32(const uint8_t *in, size_t avail, v128_t f[4]) {
  if (avail < 16 * FM_WIRE_f32 || in[0] != 0xca) return false;
  v128_t w[5];
  for (int k = 0; k < 5; k++) w[k] = wasm_v128_load(in + 16 * k);
  if (!block_is_f32(w)) return false;
  f[0] = UNPACK_AT(5, 4, 0, in);
  f[1] = UNPACK_AT(5, 4, 1, in);
  f[2] = UNPACK_AT(5, 4, 2, in);
  f[3] = UNPACK_AT(5, 4, 3, in);
  return true;
}

/* Reads 16 float64 elements as 8 typed vectors, or returns false. */
FM_INLINE bool load_block_f64(const uint8_t *in, size_t avail, v128_t d[8]) {
  if (avail < 16 * FM_WIRE_f64 || in[0] != 0xcb) return false;
  v128_t w[9];
  for (int k = 0; k < 9; k++) w[k] = wasm_v128_load(in + 16 * k);
  if (!block_is_f64(w)) return false;
  d[0] = UNPACK_AT(9, 8, 0, in);
  d[1] = UNPACK_AT(9, 8, 1, in);
  d[2] = UNPACK_AT(9, 8, 2, in);
  d[3] = UNPACK_AT(9, 8, 3, in);
  d[4] = UNPACK_AT(9, 8, 4, in);
  d[5] = UNPACK_AT(9, 8, 5, in);
  d[6] = UNPACK_AT(9, 8, 6, in);
  d[7] = UNPACK_AT(9, 8, 7, in);
  return true;
}

/* Reads 16 fixints (one byte each: 0..127 or -32..-1) as 4 vectors of i32. */
FM_INLINE bool load_block_fixint(const uint8_t *in, size_t avail, v128_t q[4]) {
  if (avail < 16 || !fm_is_fixint(in[0])) return false;
  v128_t bytes = wasm_v128_load(in);
  /* As signed bytes, fixints are exactly the values >= -32. */
  if (wasm_v128_any_true(wasm_i8x16_lt(bytes, wasm_i8x16_splat(-32)))) return false;
  v128_t lo = wasm_i16x8_extend_low_i8x16(bytes), hi = wasm_i16x8_extend_high_i8x16(bytes);
  q[0] = wasm_i32x4_extend_low_i16x8(lo);
  q[1] = wasm_i32x4_extend_high_i16x8(lo);
  q[2] = wasm_i32x4_extend_low_i16x8(hi);
  q[3] = wasm_i32x4_extend_high_i16x8(hi);
  return true;
}

FM_INLINE bool any_nan_f32(const v128_t f[4]) {
  v128_t nan = wasm_v128_or(wasm_f32x4_ne(f[0], f[0]), wasm_f32x4_ne(f[1], f[1]));
  nan = wasm_v128_or(nan, wasm_v128_or(wasm_f32x4_ne(f[2], f[2]), wasm_f32x4_ne(f[3], f[3])));
  return wasm_v128_any_true(nan);
}

FM_INLINE bool any_nan_f64(const v128_t d[8]) {
  v128_t nan = wasm_f64x2_ne(d[0], d[0]);
  for (int k = 1; k < 8; k++) nan = wasm_v128_or(nan, wasm_f64x2_ne(d[k], d[k]));
  return wasm_v128_any_true(nan);
}

/* Small ints as floats, exactly: for |x| < 2^22, the float with bits
 * 0x4B400000 + x is 2^23 + 2^22 + x. (Not f32x4.convert_i32x4 after the
 * extends: LLVM folds sign-extend + convert into a convert from bytes, which
 * wasm lacks, and scalarizes it.) */
FM_INLINE v128_t small_ints_to_f32(v128_t i32) {
  v128_t biased = wasm_i32x4_add(i32, wasm_i32x4_splat(0x4B400000));
  return wasm_f32x4_sub(biased, wasm_f32x4_splat(12582912.0f));
}

/* The same for doubles: bits 0x4338000000000000 + x are 2^52 + 2^51 + x. */
FM_INLINE v128_t small_ints_to_f64(v128_t i64) {
  v128_t biased = wasm_i64x2_add(i64, wasm_i64x2_splat(0x4338000000000000ll));
  return wasm_f64x2_sub(biased, wasm_f64x2_splat(6755399441055744.0));
}

/* One block of each form for each target; each returns its wire bytes, or 0. */
FM_INLINE size_t f32_from_f32(const uint8_t *in, size_t avail, void *out) {
  v128_t v[4];
  if (!load_block_f32(in, avail, v)) return 0;
  for (int k = 0; k < 4; k++) wasm_v128_store((float *)out + 4 * k, v[k]);
  return 16 * FM_WIRE_f32;
}

FM_INLINE size_t f32_from_fixints(const uint8_t *in, size_t avail, void *out) {
  v128_t q[4];
  if (!load_block_fixint(in, avail, q)) return 0;
  for (int k = 0; k < 4; k++) wasm_v128_store((float *)out + 4 * k, small_ints_to_f32(q[k]));
  return 16;
}

FM_INLINE size_t f32_from_f64(const uint8_t *in, size_t avail, void *out) {
  v128_t d[8];
  if (!load_block_f64(in, avail, d) || any_nan_f64(d)) return 0;
  for (int k = 0; k < 4; k++) {
    v128_t lo = wasm_f32x4_demote_f64x2_zero(d[2 * k]);
    v128_t hi = wasm_f32x4_demote_f64x2_zero(d[2 * k + 1]);
    wasm_v128_store((float *)out + 4 * k, wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5));
  }
  return 16 * FM_WIRE_f64;
}

FM_INLINE size_t f64_from_f64(const uint8_t *in, size_t avail, void *out) {
  v128_t d[8];
  if (!load_block_f64(in, avail, d)) return 0;
  for (int k = 0; k < 8; k++) wasm_v128_store((double *)out + 2 * k, d[k]);
  return 16 * FM_WIRE_f64;
}

FM_INLINE size_t f64_from_fixints(const uint8_t *in, size_t avail, void *out) {
  v128_t q[4];
  if (!load_block_fixint(in, avail, q)) return 0;
  for (int k = 0; k < 4; k++) {
    wasm_v128_store((double *)out + 4 * k, small_ints_to_f64(wasm_i64x2_extend_low_i32x4(q[k])));
    wasm_v128_store((double *)out + 4 * k + 2, small_ints_to_f64(wasm_i64x2_extend_high_i32x4(q[k])));
  }
  return 16;
}

FM_INLINE size_t f64_from_f32(const uint8_t *in, size_t avail, void *out) {
  v128_t f[4];
  if (!load_block_f32(in, avail, f) || any_nan_f32(f)) return 0;
  for (int k = 0; k < 4; k++) {
    v128_t high_pair = wasm_i32x4_shuffle(f[k], f[k], 2, 3, 2, 3);
    wasm_v128_store((double *)out + 4 * k, wasm_f64x2_promote_low_f32x4(f[k]));
    wasm_v128_store((double *)out + 4 * k + 2, wasm_f64x2_promote_low_f32x4(high_pair));
  }
  return 16 * FM_WIRE_f32;
}

/* The run decoders: the first element's tag picks the form (one direct call
 * per form, so that each loop inlines its block). */
FM_INLINE size_t unpack_run_f32(const uint8_t *in, size_t avail, float *out, size_t max, uint32_t flags,
                                size_t *used) {
  (void)flags;
  if (avail == 0) return 0;
  if (in[0] == 0xca) return fm_run_blocks(f32_from_f32, 4, in, avail, out, max, used);
  if (fm_is_fixint(in[0])) return fm_run_blocks(f32_from_fixints, 4, in, avail, out, max, used);
  if (in[0] == 0xcb) return fm_run_blocks(f32_from_f64, 4, in, avail, out, max, used);
  return 0;
}

FM_INLINE size_t unpack_run_f64(const uint8_t *in, size_t avail, double *out, size_t max, uint32_t flags,
                                size_t *used) {
  (void)flags;
  if (avail == 0) return 0;
  if (in[0] == 0xcb) return fm_run_blocks(f64_from_f64, 8, in, avail, out, max, used);
  if (fm_is_fixint(in[0])) return fm_run_blocks(f64_from_fixints, 8, in, avail, out, max, used);
  if (in[0] == 0xca) return fm_run_blocks(f64_from_f32, 8, in, avail, out, max, used);
  return 0;
}

#endif /* FM_SIMD */

/* ---- pack: scalar ---------------------------------------------------------- */

static void pack_f32_scalar(const float *in, size_t n, uint8_t *out) {
  for (size_t i = 0; i < n; i++, out += FM_WIRE_f32) {
    uint32_t bits;
    memcpy(&bits, in + i, 4);
    out[0] = 0xca;
    fm_store_be32(out + 1, bits);
  }
}

static void pack_f64_scalar(const double *in, size_t n, uint8_t *out) {
  for (size_t i = 0; i < n; i++, out += FM_WIRE_f64) {
    uint64_t bits;
    memcpy(&bits, in + i, 8);
    out[0] = 0xcb;
    fm_store_be64(out + 1, bits);
  }
}

FM_PACK_EXPORT size_t fm_pack_f32(const float *in, size_t n, uint8_t *out) {
  if (n > FM_MAX_ELEMENTS) return 0;
  uint8_t *body = out + fm_write_array_header(out, (uint32_t)n);
  size_t done = 0;
#if FM_SIMD
  done = pack_f32_simd(in, n, body);
#endif
  pack_f32_scalar(in + done, n - done, body + FM_WIRE_f32 * done);
  return (size_t)(body - out) + FM_WIRE_f32 * n;
}

FM_PACK_EXPORT size_t fm_pack_f64(const double *in, size_t n, uint8_t *out) {
  if (n > FM_MAX_ELEMENTS) return 0;
  uint8_t *body = out + fm_write_array_header(out, (uint32_t)n);
  size_t done = 0;
#if FM_SIMD
  done = pack_f64_simd(in, n, body);
#endif
  pack_f64_scalar(in + done, n - done, body + FM_WIRE_f64 * done);
  return (size_t)(body - out) + FM_WIRE_f64 * n;
}

/* ---- unpack ---------------------------------------------------------------- */

/* Decodes elements [i, stop) one by one from in[*pos]; false once r holds an
 * error. The element form of the target's own width is tested first: it is
 * what fastmp and most typed producers write, and the general reader would
 * cost it two dispatches per element. */
static bool unpack_f32_scalar(const uint8_t *in, size_t len, size_t *pos, size_t i, size_t stop,
                              float *out, uint32_t flags, fm_result *r) {
  (void)flags;
  for (; i < stop; i++) {
    if (len - *pos >= FM_WIRE_f32 && in[*pos] == 0xca) {
      uint32_t bits = fm_load_be32(in + *pos + 1);
      memcpy(out + i, &bits, 4);
      *pos += FM_WIRE_f32;
      continue;
    }
    fm_number num;
    size_t size = fm_read_number(in, len, *pos, i, &num, r);
    if (size == 0) return false;
    uint32_t bits = fm_number_to_f32_bits(num);
    memcpy(out + i, &bits, 4);
    *pos += size;
  }
  return true;
}

static bool unpack_f64_scalar(const uint8_t *in, size_t len, size_t *pos, size_t i, size_t stop,
                              double *out, uint32_t flags, fm_result *r) {
  (void)flags;
  for (; i < stop; i++) {
    if (len - *pos >= FM_WIRE_f64 && in[*pos] == 0xcb) {
      uint64_t bits = fm_load_be64(in + *pos + 1);
      memcpy(out + i, &bits, 8);
      *pos += FM_WIRE_f64;
      continue;
    }
    fm_number num;
    size_t size = fm_read_number(in, len, *pos, i, &num, r);
    if (size == 0) return false;
    uint64_t bits = fm_number_to_f64_bits(num);
    memcpy(out + i, &bits, 8);
    *pos += size;
  }
  return true;
}

FM_DEFINE_UNPACK(fm_unpack_f32, float, unpack_run_f32, unpack_f32_scalar)
FM_DEFINE_UNPACK(fm_unpack_f64, double, unpack_run_f64, unpack_f64_scalar)

