/* fm_int.c - integer typed arrays <-> msgpack arrays of ints.
 *
 * Pack writes each value in the smallest form that holds it, chosen by value
 * (fm_write_int): what @msgpack/msgpack and MessagePack-CSharp write. Unpack
 * takes every int form whose value fits the target, and floats that are
 * exactly integral only when asked (FM_INTEGRAL_FLOATS).
 *
 * SIMD pack follows MessagePack-CSharp's technique: compare every lane of a
 * vector against the size boundaries at once; if every lane is a fixint,
 * narrow the vector and store it in one write; if every lane needs the
 * widest form of its width (tag + all payload bytes), compute the tags lane
 * by lane (unsigned form, or signed form for negatives) and let one byte
 * shuffle interleave tags and big-endian payloads; otherwise emit that
 * vector's lanes one by one. Bytes (8-bit lanes) have only two sizes, so any
 * mix of them goes through a 256-entry table of shuffle controls instead.
 *
 * SIMD unpack takes blocks of 16 fixints, and blocks of 16 elements of the
 * target's own width (e.g. int32 / uint32 forms into an Int32Array), where
 * the values need no range test beyond the sign of the unsigned forms.
 */
#include "fm_blocks.h"

/* ---- pack: scalar ---------------------------------------------------------- */

#define DEFINE_PACK_SCALAR(name, T, write)                   \
  static uint8_t *name(const T *in, size_t n, uint8_t *out) { \
    for (size_t i = 0; i < n; i++) out += write(out, in[i]);  \
    return out;                                               \
  }

DEFINE_PACK_SCALAR(pack_i8_scalar, int8_t, fm_write_int)
DEFINE_PACK_SCALAR(pack_u8_scalar, uint8_t, fm_write_uint)
DEFINE_PACK_SCALAR(pack_i16_scalar, int16_t, fm_write_int)
DEFINE_PACK_SCALAR(pack_u16_scalar, uint16_t, fm_write_uint)
DEFINE_PACK_SCALAR(pack_i32_scalar, int32_t, fm_write_int)
DEFINE_PACK_SCALAR(pack_u32_scalar, uint32_t, fm_write_uint)
DEFINE_PACK_SCALAR(pack_i64_scalar, int64_t, fm_write_int)
DEFINE_PACK_SCALAR(pack_u64_scalar, uint64_t, fm_write_uint)

#if FM_SIMD

/* ---- pack: 8-bit lanes ------------------------------------------------------
 * A byte is a fixint or takes a tag (0xd0 for int8 below -32, 0xcc for uint8
 * from 128). For each 8-lane mask of "needs a tag", EXPAND8[mask] is the
 * swizzle control that spreads source bytes 0-7 to their places with the tag
 * (source byte 8) before each flagged one; lanes past the end read 0x80, 0. */
static uint8_t EXPAND8[256][16];

__attribute__((constructor)) static void init_expand8(void) {
  for (unsigned mask = 0; mask < 256; mask++) {
    unsigned p = 0;
    for (unsigned j = 0; j < 8; j++) {
      if (mask >> j & 1) EXPAND8[mask][p++] = 8;
      EXPAND8[mask][p++] = (uint8_t)j;
    }
    while (p < 16) EXPAND8[mask][p++] = 0x80;
  }
}

/* Writes the 8 bytes of one half of v (with `tag` before the flagged ones). */
FM_INLINE uint8_t *expand_half(v128_t half_and_tag, unsigned mask, uint8_t *out) {
  wasm_v128_store(out, wasm_i8x16_swizzle(half_and_tag, wasm_v128_load(EXPAND8[mask])));
  return out + 8 + (unsigned)__builtin_popcount(mask);
}

/* Packs whole vectors of 16 bytes; `needs_tag` gives a lane mask per vector. */
#define PACK_BYTES_SIMD(in, n, out, needs_tag, TAG)                                   \
  do {                                                                                 \
    v128_t tag_ = wasm_i8x16_splat((int8_t)(TAG));                                     \
    for (; done + 16 <= (n); done += 16) {                                             \
      v128_t v = wasm_v128_load((in) + done);                                          \
      unsigned mask = (unsigned)wasm_i8x16_bitmask(needs_tag);                         \
      if (mask == 0) { /* all fixints: the bytes are the msgpack */                    \
        wasm_v128_store(out, v);                                                       \
        out += 16;                                                                     \
        continue;                                                                      \
      }                                                                                \
      out = expand_half(FM_SHUFFLE(v, tag_, 0, 1, 2, 3, 4, 5, 6, 7, 16, 16, 16, 16, 16, \
                                   16, 16, 16),                                        \
                        mask & 0xff, out);                                             \
      out = expand_half(FM_SHUFFLE(v, tag_, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16,   \
                                   16, 16, 16, 16, 16),                                \
                        mask >> 8, out);                                               \
    }                                                                                  \
  } while (0)

/* ---- pack: 16-, 32- and 64-bit lanes: stream-vbyte ---------------------------
 * Each lane's form is one of five classes, by its payload: 0 fixint (the
 * value's low byte, no tag), 1 int8/uint8, 2 int16/uint16, 3 int32/uint32,
 * 4 int64/uint64 (payload 0, 1, 2, 4, 8 bytes after the tag). The classes of
 * a group of lanes make a key, bit b of lane j's class at bit b*G+j (G lanes
 * per group); the group's shape, SHAPE..[key], is the byte-shuffle control
 * that lays out its msgpack (index i < 16: byte i of the value vector, the
 * payloads big-endian; 16 + i: byte i of the tag vector, which holds each
 * lane's tag in its lowest byte; 0x80: zero) and LEN..[key] its length.
 * Groups: 16-bit lanes in halves of 4 (at most 12 bytes), 32-bit lanes 4 (at
 * most 20), 64-bit lanes 2 (at most 18); over 16 bytes a second store of
 * control bytes 16-31 goes at SECOND..[key] = min(len, 16): past 16 bytes
 * when the group has them, else at the group's end, where the next group's
 * bytes (or FM_PACK_SLACK) overwrite it. */
static uint8_t SHAPE16[2][256][16], LEN16[256];       /* lanes 0-3, lanes 4-7 */
static uint8_t SHAPE32[256][32], LEN32[256], SECOND32[256];
static uint8_t SHAPE64[64][32], LEN64[64], SECOND64[64];

/* Fills the shape and length of every key of a group of `lanes` lanes of
 * `width` bytes, the group starting at lane `first` of the vector; `bits`
 * bits of class per lane (classes past 4 never occur: any shape will do). */
static void build_shapes(uint8_t *shape, size_t stride, uint8_t *len, uint8_t *second,
                         unsigned lanes, unsigned bits, unsigned width, unsigned first) {
  static const unsigned payload[8] = {0, 1, 2, 4, 8, 8, 8, 8};
  for (unsigned key = 0; key < 1u << (bits * lanes); key++) {
    uint8_t *c = shape + key * stride;
    unsigned p = 0;
    memset(c, 0x80, stride);
    for (unsigned j = 0; j < lanes; j++) {
      unsigned cls = 0, lane = width * (first + j);
      for (unsigned b = 0; b < bits; b++) cls |= (key >> (b * lanes + j) & 1) << b;
      unsigned size = FM_MIN(payload[cls], width);
      if (cls == 0) c[p++] = (uint8_t)lane;
      else c[p++] = (uint8_t)(16 + lane);
      while (size > 0) c[p++] = (uint8_t)(lane + --size);
    }
    len[key] = (uint8_t)p;
    if (second) second[key] = (uint8_t)FM_MIN(p, 16);
  }
}

__attribute__((constructor)) static void init_shapes(void) {
  build_shapes(&SHAPE16[0][0][0], 16, LEN16, NULL, 4, 2, 2, 0);
  build_shapes(&SHAPE16[1][0][0], 16, LEN16, NULL, 4, 2, 2, 4);
  build_shapes(&SHAPE32[0][0], 32, LEN32, SECOND32, 4, 2, 4, 0);
  build_shapes(&SHAPE64[0][0], 32, LEN64, SECOND64, 2, 3, 8, 0);
}

/* The bytes of a group: v's and t's (its tags) as `shape` picks them. One
 * control serves both swizzles: minus 16, v's indices and 0x80 fall out of
 * range (a swizzle gives 0 there) and the tag indices come in range. */
FM_INLINE v128_t lay_out(v128_t v, v128_t t, const uint8_t *shape) {
  v128_t c = wasm_v128_load(shape);
  return wasm_v128_or(wasm_i8x16_swizzle(v, c), wasm_i8x16_swizzle(t, wasm_i8x16_sub(c, wasm_i8x16_splat(16))));
}

/* A group of up to 32 bytes: the second store goes at `second` (see above). */
FM_INLINE uint8_t *store_group(v128_t v, v128_t t, const uint8_t shape[32], unsigned len, unsigned second,
                               uint8_t *out) {
  wasm_v128_store(out, lay_out(v, t, shape));
  wasm_v128_store(out + second, lay_out(v, t, shape + 16));
  return out + len;
}

/* Class masks of the lanes: m[k] is -1 in the lanes whose class is above k,
 * i.e. above fixint (m[0]), above 8-bit (m[1]), above 16-bit (m[2]) payload:
 * the scalar fm_write_int / fm_write_uint boundaries. Signed lanes compare
 * both ways (strict compares: one SSE instruction each in V8, where >= and
 * <= take two); unsigned ones compare signed after flipping the sign bits
 * (V8 emulates unsigned compares in several instructions). */
FM_INLINE void classes16(v128_t v, bool is_signed, v128_t m[2]) {
  if (is_signed) {
    m[0] = wasm_v128_or(wasm_i16x8_gt(v, wasm_i16x8_splat(127)), wasm_i16x8_lt(v, wasm_i16x8_splat(-32)));
    m[1] = wasm_v128_or(wasm_i16x8_gt(v, wasm_i16x8_splat(255)), wasm_i16x8_lt(v, wasm_i16x8_splat(-128)));
  } else {
    v128_t x = wasm_v128_xor(v, wasm_i16x8_splat(INT16_MIN));
    m[0] = wasm_i16x8_gt(x, wasm_i16x8_splat(127 ^ INT16_MIN));
    m[1] = wasm_i16x8_gt(x, wasm_i16x8_splat(255 ^ INT16_MIN));
  }
}
FM_INLINE void classes32(v128_t v, bool is_signed, v128_t m[3]) {
  if (is_signed) {
    m[0] = wasm_v128_or(wasm_i32x4_gt(v, wasm_i32x4_splat(127)), wasm_i32x4_lt(v, wasm_i32x4_splat(-32)));
    m[1] = wasm_v128_or(wasm_i32x4_gt(v, wasm_i32x4_splat(255)), wasm_i32x4_lt(v, wasm_i32x4_splat(-128)));
    m[2] = wasm_v128_or(wasm_i32x4_gt(v, wasm_i32x4_splat(65535)), wasm_i32x4_lt(v, wasm_i32x4_splat(-32768)));
  } else {
    v128_t x = wasm_v128_xor(v, wasm_i32x4_splat(INT32_MIN));
    m[0] = wasm_i32x4_gt(x, wasm_i32x4_splat(127 ^ INT32_MIN));
    m[1] = wasm_i32x4_gt(x, wasm_i32x4_splat(255 ^ INT32_MIN));
    m[2] = wasm_i32x4_gt(x, wasm_i32x4_splat(65535 ^ INT32_MIN));
  }
}

/* The masks are nested, so a lane's class c is the number of masks set in
 * it; bit 0 of c is their parity, bit 1 the middle mask (c = 2 or 3). The
 * tag of class c > 0 is 0xcb + c (0xcc-0xcf), plus 4 (0xd0-0xd3, the signed
 * form) for a negative lane: subtracting the -1 lanes of the masks adds c. */
FM_INLINE uint8_t *pack_vec16(v128_t v, bool is_signed, uint8_t *out) {
  v128_t m[2];
  classes16(v, is_signed, m);
  /* bits 0-7: bit 0 of lanes 0-7's classes; bits 8-15: bit 1 */
  unsigned k = (unsigned)wasm_i8x16_bitmask(wasm_i8x16_narrow_i16x8(wasm_v128_xor(m[0], m[1]), m[1]));
  unsigned lo = (k & 0xf) | (k >> 4 & 0xf0), hi = (k >> 4 & 0xf) | (k >> 8 & 0xf0);
  v128_t t = wasm_i16x8_sub(wasm_i16x8_sub(wasm_i16x8_splat(0xcb), m[0]), m[1]);
  if (is_signed) t = wasm_i16x8_add(t, wasm_v128_and(wasm_i16x8_shr(v, 15), wasm_i16x8_splat(4)));
  wasm_v128_store(out, lay_out(v, t, SHAPE16[0][lo]));
  out += LEN16[lo];
  wasm_v128_store(out, lay_out(v, t, SHAPE16[1][hi]));
  return out + LEN16[hi];
}

/* The key and tags of 32-bit lanes (bit 0 of the classes in key bits 0-3,
 * bit 1 in bits 4-7). */
FM_INLINE unsigned key32(const v128_t m[3]) {
  v128_t parity = wasm_v128_xor(wasm_v128_xor(m[0], m[1]), m[2]);
  return (unsigned)wasm_i32x4_bitmask(parity) | (unsigned)wasm_i32x4_bitmask(m[1]) << 4;
}
FM_INLINE v128_t tags32(v128_t v, const v128_t m[3], bool is_signed) {
  v128_t t = wasm_i32x4_sub(wasm_i32x4_sub(wasm_i32x4_sub(wasm_i32x4_splat(0xcb), m[0]), m[1]), m[2]);
  if (is_signed) t = wasm_i32x4_add(t, wasm_v128_and(wasm_i32x4_shr(v, 31), wasm_i32x4_splat(4)));
  return t;
}

FM_INLINE uint8_t *pack_vec32(v128_t v, bool is_signed, uint8_t *out) {
  v128_t m[3];
  classes32(v, is_signed, m);
  unsigned key = key32(m);
  return store_group(v, tags32(v, m, is_signed), SHAPE32[key], LEN32[key], SECOND32[key], out);
}

/* 64-bit lanes are classified with 32-bit operations, which V8 compiles to
 * single SSE instructions (measured: i64x2 compares made the BigInt64Array
 * kernel 3x slower than BigUint64Array's). A lane fits 32 bits (the int32 /
 * uint32 range, where its class is its low word's) when its high word is the
 * sign of its low word (signed), or 0 (unsigned): -1 in the high word of
 * each such lane. */
FM_INLINE v128_t fits32(v128_t v, bool is_signed) {
  if (!is_signed) return wasm_i32x4_eq(v, wasm_i32x4_splat(0));
  v128_t sign = wasm_i32x4_shr(v, 31);
  return wasm_i32x4_eq(v, wasm_i32x4_shuffle(sign, sign, 0, 0, 2, 2));
}

/* Two 64-bit lanes in classes 0-4 (SHAPE64; key bits j, 2+j, 4+j: bits 0-2
 * of lane j's class). `fit` is fits32(v). A lane takes its low word's class
 * when it fits; a signed lane in [2^31, 2^32) (high word 0, low word
 * negative as an int32) is a uint32 (class 3); any other, class 4. With no
 * lane in 32 bits (random data) both take the widest form: a constant layout. */
FM_INLINE uint8_t *pack_vec64(v128_t v, v128_t fit, bool is_signed, uint8_t *out) {
  v128_t in32 = is_signed ? wasm_v128_or(fit, wasm_i32x4_eq(v, wasm_i32x4_splat(0))) : fit;
  v128_t negative = is_signed ? wasm_i32x4_shr(v, 31) : wasm_i32x4_splat(0);
  /* 4 in the low byte of the tag of a negative lane (the signed form) */
  v128_t plus4 = wasm_v128_and(wasm_i32x4_shuffle(negative, negative, 1, 1, 3, 3), wasm_i32x4_splat(4));
  if (wasm_i64x2_bitmask(in32) == 0) {
    v128_t t = wasm_i32x4_add(wasm_i32x4_splat(0xcf), plus4);
    wasm_v128_store(out, FM_SHUFFLE(v, t, 16, 7, 6, 5, 4, 3, 2, 1, 0, 24, 15, 14, 13, 12, 11, 10));
    wasm_v128_store(out + 16, FM_SHUFFLE(v, t, 9, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    return out + 18;
  }
  /* the masks of the high words, in both words of each lane */
  v128_t wide = wasm_v128_not(wasm_i32x4_shuffle(in32, in32, 1, 1, 3, 3));
  v128_t uint32 = wasm_v128_andnot(wasm_v128_not(wide), wasm_i32x4_shuffle(fit, fit, 1, 1, 3, 3));
  v128_t m[3];
  classes32(v, is_signed, m); /* of the low words */
  for (int k = 0; k < 3; k++) m[k] = wasm_v128_or(wasm_i32x4_shuffle(m[k], m[k], 0, 0, 2, 2), uint32);
  v128_t b0 = wasm_v128_andnot(wasm_v128_xor(wasm_v128_xor(m[0], m[1]), m[2]), wide);
  v128_t b1 = wasm_v128_andnot(m[1], wide);
  unsigned key = (unsigned)(wasm_i64x2_bitmask(b0) | wasm_i64x2_bitmask(b1) << 2 | wasm_i64x2_bitmask(wide) << 4);
  v128_t low_tag = wasm_i32x4_sub(wasm_i32x4_sub(wasm_i32x4_sub(wasm_i32x4_splat(0xcb), m[0]), m[1]), m[2]);
  v128_t t = wasm_i32x4_add(wasm_v128_bitselect(wasm_i32x4_splat(0xcf), low_tag, wide), plus4);
  return store_group(v, t, SHAPE64[key], LEN64[key], SECOND64[key], out);
}

/* Four 64-bit lanes (two vectors): when all fit 32 bits, as one vector of
 * 32-bit lanes (the same classes, by value); else vector by vector. */
FM_INLINE uint8_t *pack_pair64(v128_t a, v128_t b, bool is_signed, uint8_t *out) {
  v128_t fa = fits32(a, is_signed), fb = fits32(b, is_signed);
  if ((wasm_i32x4_bitmask(wasm_v128_and(fa, fb)) & 0xa) == 0xa)
    return pack_vec32(wasm_i32x4_shuffle(a, b, 0, 2, 4, 6), is_signed, out);
  out = pack_vec64(a, fa, is_signed, out);
  return pack_vec64(b, fb, is_signed, out);
}

/* Lanes that are fixints, for the block test (any lane width: every byte of
 * a fixint lane is -1). */
FM_INLINE v128_t fixints16(v128_t v, bool is_signed) {
  v128_t m[2];
  classes16(v, is_signed, m);
  return wasm_v128_not(m[0]);
}
FM_INLINE v128_t fixints32(v128_t v, bool is_signed) {
  return is_signed ? wasm_v128_and(wasm_i32x4_gt(v, wasm_i32x4_splat(-33)), wasm_i32x4_lt(v, wasm_i32x4_splat(128)))
                   : wasm_u32x4_lt(v, wasm_i32x4_splat(128));
}
FM_INLINE v128_t fixints64(v128_t v, bool is_signed) {
  if (!is_signed) return wasm_i64x2_eq(wasm_u64x2_shr(v, 7), wasm_i64x2_splat(0));
  v128_t low_fix = fixints32(v, true);
  /* both words of each lane: the low word's test, and the high word's sign test */
  v128_t both = wasm_v128_and(fits32(v, true), wasm_i32x4_shuffle(low_fix, low_fix, 0, 0, 2, 2));
  return wasm_i32x4_shuffle(both, both, 1, 1, 3, 3);
}

/* Four vectors of i32 fixints as 16 bytes (saturating narrows are exact here). */
FM_INLINE v128_t narrow_32x4_to_bytes(const v128_t q[4]) {
  return wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(q[0], q[1]), wasm_i16x8_narrow_i32x4(q[2], q[3]));
}

/* The 16 bytes of a block of fixints, from its V vectors (V = 2, 4 or 8). */
FM_INLINE v128_t block_bytes16(const v128_t *v) { return wasm_i8x16_narrow_i16x8(v[0], v[1]); }
FM_INLINE v128_t block_bytes32(const v128_t *v) { return narrow_32x4_to_bytes(v); }
FM_INLINE v128_t block_bytes64(const v128_t *v) {
  v128_t q[4]; /* the low 32 bits of each lane: the whole value of a fixint */
  for (int k = 0; k < 4; k++) q[k] = wasm_i32x4_shuffle(v[2 * k], v[2 * k + 1], 0, 2, 4, 6);
  return narrow_32x4_to_bytes(q);
}

/* A block of 16 lanes that is not all fixints, group by group. */
FM_INLINE uint8_t *pack_block16(const void *in, bool is_signed, uint8_t *out) {
  const int16_t *p = in;
  out = pack_vec16(wasm_v128_load(p), is_signed, out);
  return pack_vec16(wasm_v128_load(p + 8), is_signed, out);
}
FM_INLINE uint8_t *pack_block32(const void *in, bool is_signed, uint8_t *out) {
  const int32_t *p = in;
  for (int k = 0; k < 4; k++) out = pack_vec32(wasm_v128_load(p + 4 * k), is_signed, out);
  return out;
}
FM_INLINE uint8_t *pack_block64(const void *in, bool is_signed, uint8_t *out) {
  const int64_t *p = in;
  for (int k = 0; k < 4; k++) out = pack_pair64(wasm_v128_load(p + 4 * k), wasm_v128_load(p + 4 * k + 2), is_signed, out);
  return out;
}

/* Blocks of 16 lanes (V vectors of L lanes): all fixints -> one store; else
 * group by group. The block test keeps no lane masks alive: with 8 vectors
 * of 64-bit lanes, keeping them for the vector pass spills registers in V8
 * (measured: 2-5x slower). */
#define PACK_WIDE_SIMD(in, n, out, V, L, W, is_signed)                        \
  for (; done + 16 <= (n); done += 16) {                                      \
    v128_t v_[V], all_ = wasm_i32x4_splat(-1);                                \
    for (int k_ = 0; k_ < (V); k_++) {                                        \
      v_[k_] = wasm_v128_load((in) + done + (L) * k_);                        \
      all_ = wasm_v128_and(all_, fixints##W(v_[k_], is_signed));              \
    }                                                                         \
    if (wasm_i8x16_all_true(all_)) { /* every byte: masks of any lane width */ \
      wasm_v128_store(out, block_bytes##W(v_));                               \
      out += 16;                                                              \
      continue;                                                               \
    }                                                                         \
    out = pack_block##W((in) + done, is_signed, out);                         \
  }

#endif /* FM_SIMD */

/* ---- pack: entry points -------------------------------------------------------
 * SIMD takes whole vectors, the scalar loop the rest (and all of it in the
 * scalar build). */
#if FM_SIMD
#define SIMD_PART(...) __VA_ARGS__
#else
#define SIMD_PART(...)
#endif

#define DEFINE_PACK(name, T, simd, scalar_fn)                                          \
  FM_EXPORT size_t name(const T *in, size_t n, uint8_t *out) {                         \
    if (n > FM_MAX_ELEMENTS) return 0;                                                 \
    uint8_t *p = out + fm_write_array_header(out, (uint32_t)n);                        \
    size_t done = 0;                                                                   \
    SIMD_PART(simd);                                                                   \
    p = scalar_fn(in + done, n - done, p);                                             \
    return (size_t)(p - out);                                                          \
  }

DEFINE_PACK(fm_pack_i8, int8_t,
            PACK_BYTES_SIMD(in, n, p, wasm_i8x16_lt(v, wasm_i8x16_splat(-32)), 0xd0),
            pack_i8_scalar)
DEFINE_PACK(fm_pack_u8, uint8_t, PACK_BYTES_SIMD(in, n, p, v, 0xcc), pack_u8_scalar)
DEFINE_PACK(fm_pack_i16, int16_t, PACK_WIDE_SIMD(in, n, p, 2, 8, 16, true), pack_i16_scalar)
DEFINE_PACK(fm_pack_u16, uint16_t, PACK_WIDE_SIMD(in, n, p, 2, 8, 16, false), pack_u16_scalar)
DEFINE_PACK(fm_pack_i32, int32_t, PACK_WIDE_SIMD(in, n, p, 4, 4, 32, true), pack_i32_scalar)
DEFINE_PACK(fm_pack_u32, uint32_t, PACK_WIDE_SIMD(in, n, p, 4, 4, 32, false), pack_u32_scalar)
DEFINE_PACK(fm_pack_i64, int64_t, PACK_WIDE_SIMD(in, n, p, 8, 2, 64, true), pack_i64_scalar)
DEFINE_PACK(fm_pack_u64, uint64_t, PACK_WIDE_SIMD(in, n, p, 8, 2, 64, false), pack_u64_scalar)

/* ---- unpack: scalar ---------------------------------------------------------- */

/* The scalar decoder of one target: fixints and the target's own-width forms
 * (UTAG unsigned, STAG signed, P payload bytes) inline, everything else
 * through the general reader. Both own-width forms carry the same payload
 * load, so random data that mixes them costs no mispredicted dispatch
 * (measured: Int32Array of random values, scalar build, 35 -> 8 us per 4096). */
#define DEFINE_UNPACK_SCALAR(name, T, MIN, MAX, UTAG, STAG, P)                               \
  static bool name(const uint8_t *in, size_t len, size_t *pos, size_t i, size_t stop, T *out, \
                   uint32_t flags, fm_result *r) {                                            \
    size_t p = *pos; /* a local: stores to out (bytes may alias anything) keep it in a register */ \
    for (; i < stop; i++) {                                                                   \
      if (p < len) {                                                                          \
        uint8_t tag = in[p];                                                                  \
        if (tag < 0x80 || ((MIN) < 0 && tag >= 0xe0)) {                                       \
          out[i] = (T)(int8_t)tag;                                                            \
          p++;                                                                                \
          continue;                                                                           \
        }                                                                                     \
        if ((tag == (UTAG) || tag == (STAG)) && len - p > (P)) {                              \
          uint64_t v = load_be_n(in + p + 1, P);                                              \
          /* Only the unsigned form into a signed target, or the signed form into an \
           * unsigned one, needs a range test: the top payload bit. */                        \
          bool top = v >> (8 * (P)-1);                                                        \
          if (!top || ((MIN) < 0) == (tag == (STAG))) {                                       \
            out[i] = (T)v;                                                                    \
            p += 1 + (P);                                                                     \
            continue;                                                                         \
          }                                                                                   \
        }                                                                                     \
      }                                                                                       \
      fm_number num;                                                                          \
      size_t size = fm_read_number(in, len, p, i, &num, r);                                   \
      uint64_t v;                                                                             \
      fm_code code = size ? fm_number_to_int(num, MIN, MAX, flags, &v) : (fm_code)r->code;    \
      if (code != FM_OK) {                                                                    \
        if (size) fm_fail(r, code, r->count, i, p, in[p], num.bits);                          \
        *pos = p;                                                                             \
        return false;                                                                         \
      }                                                                                       \
      out[i] = (T)v;                                                                          \
      p += size;                                                                              \
    }                                                                                         \
    *pos = p;                                                                                 \
    return true;                                                                              \
  }

/* A big-endian unsigned value of n bytes (1, 2, 4 or 8; n is a constant at every use). */
static inline uint64_t load_be_n(const uint8_t *p, size_t n) {
  return n == 1 ? p[0] : n == 2 ? fm_load_be16(p) : n == 4 ? fm_load_be32(p) : fm_load_be64(p);
}

DEFINE_UNPACK_SCALAR(unpack_i8_scalar, int8_t, INT8_MIN, INT8_MAX, 0xcc, 0xd0, 1)
DEFINE_UNPACK_SCALAR(unpack_u8_scalar, uint8_t, 0, UINT8_MAX, 0xcc, 0xd0, 1)
DEFINE_UNPACK_SCALAR(unpack_i16_scalar, int16_t, INT16_MIN, INT16_MAX, 0xcd, 0xd1, 2)
DEFINE_UNPACK_SCALAR(unpack_u16_scalar, uint16_t, 0, UINT16_MAX, 0xcd, 0xd1, 2)
DEFINE_UNPACK_SCALAR(unpack_i32_scalar, int32_t, INT32_MIN, INT32_MAX, 0xce, 0xd2, 4)
DEFINE_UNPACK_SCALAR(unpack_u32_scalar, uint32_t, 0, UINT32_MAX, 0xce, 0xd2, 4)
DEFINE_UNPACK_SCALAR(unpack_i64_scalar, int64_t, INT64_MIN, INT64_MAX, 0xcf, 0xd3, 8)
DEFINE_UNPACK_SCALAR(unpack_u64_scalar, uint64_t, 0, UINT64_MAX, 0xcf, 0xd3, 8)

/* ---- unpack: SIMD blocks --------------------------------------------------------- */
#if FM_SIMD

/* 16 fixints as bytes: any fixint for a signed target; for an unsigned one
 * only the non-negative (bytes below 0x80), so the block needs no range test. */
FM_INLINE bool load_fixints(const uint8_t *in, size_t avail, bool is_signed, v128_t *bytes) {
  if (avail < 16 || !fm_is_fixint(in[0])) return false;
  v128_t b = wasm_v128_load(in);
  if (is_signed ? wasm_v128_any_true(wasm_i8x16_lt(b, wasm_i8x16_splat(-32)))
                : wasm_i8x16_bitmask(b) != 0)
    return false;
  *bytes = b;
  return true;
}

/* Whether the S wire vectors of a block hold 16 elements of the target's own
 * width: every tag the unsigned form `utag` or the signed form `stag`. A
 * signed target takes a `utag` element only with its top payload bit clear
 * (the payload's first byte follows the tag: bit b+1 of the top-bit masks);
 * an unsigned target takes no `stag` element here (the scalar path accepts
 * the non-negative ones and reports the others). */
FM_INLINE bool own_width_block(const v128_t *w, int S, uint8_t utag, uint8_t stag,
                               bool is_signed) {
  v128_t u = wasm_i8x16_splat((int8_t)utag), s = wasm_i8x16_splat((int8_t)stag);
  uint32_t bad = 0, carry = 0;
  for (int k = 0; k < S; k++) {
    uint32_t tags = 0;
    for (int b = 0; b < 16; b++) tags |= (16 * k + b) % S == 0 ? 1u << b : 0;
    uint32_t is_u = EQ_BITS(w[k], u) & tags;
    if (is_signed) {
      uint32_t top = (uint32_t)wasm_i8x16_bitmask(w[k]);
      bad |= (tags & ~(is_u | (EQ_BITS(w[k], s) & tags))) | (((is_u << 1) | carry) & top);
      carry = is_u >> 15;
    } else {
      bad |= tags & ~is_u;
    }
  }
  return (bad & 0xffff) == 0;
}

/* The 16 decoded elements of a fixint block (its bytes) or an own-width
 * block (read again from `in`, see UNPACK_AT), stored at out. */
FM_INLINE void store_fixints_8(v128_t b, void *out) { wasm_v128_store(out, b); }
FM_INLINE void store_fixints_16(v128_t b, void *out) {
  wasm_v128_store(out, wasm_i16x8_extend_low_i8x16(b));
  wasm_v128_store((uint16_t *)out + 8, wasm_i16x8_extend_high_i8x16(b));
}
FM_INLINE void store_fixints_32(v128_t b, void *out) {
  v128_t lo = wasm_i16x8_extend_low_i8x16(b), hi = wasm_i16x8_extend_high_i8x16(b);
  wasm_v128_store(out, wasm_i32x4_extend_low_i16x8(lo));
  wasm_v128_store((uint32_t *)out + 4, wasm_i32x4_extend_high_i16x8(lo));
  wasm_v128_store((uint32_t *)out + 8, wasm_i32x4_extend_low_i16x8(hi));
  wasm_v128_store((uint32_t *)out + 12, wasm_i32x4_extend_high_i16x8(hi));
}
FM_INLINE void store_fixints_64(v128_t b, void *out) {
  v128_t lo = wasm_i16x8_extend_low_i8x16(b), hi = wasm_i16x8_extend_high_i8x16(b);
  v128_t q[4] = {wasm_i32x4_extend_low_i16x8(lo), wasm_i32x4_extend_high_i16x8(lo),
                 wasm_i32x4_extend_low_i16x8(hi), wasm_i32x4_extend_high_i16x8(hi)};
  for (int k = 0; k < 4; k++) {
    wasm_v128_store((uint64_t *)out + 4 * k, wasm_i64x2_extend_low_i32x4(q[k]));
    wasm_v128_store((uint64_t *)out + 4 * k + 2, wasm_i64x2_extend_high_i32x4(q[k]));
  }
}

FM_INLINE void store_own_8(const uint8_t *in, void *out) { wasm_v128_store(out, UNPACK_AT(2, 1, 0, in)); }
FM_INLINE void store_own_16(const uint8_t *in, void *out) {
  wasm_v128_store(out, UNPACK_AT(3, 2, 0, in));
  wasm_v128_store((uint16_t *)out + 8, UNPACK_AT(3, 2, 1, in));
}
FM_INLINE void store_own_32(const uint8_t *in, void *out) {
  wasm_v128_store(out, UNPACK_AT(5, 4, 0, in));
  wasm_v128_store((uint32_t *)out + 4, UNPACK_AT(5, 4, 1, in));
  wasm_v128_store((uint32_t *)out + 8, UNPACK_AT(5, 4, 2, in));
  wasm_v128_store((uint32_t *)out + 12, UNPACK_AT(5, 4, 3, in));
}
FM_INLINE void store_own_64(const uint8_t *in, void *out) {
  uint64_t *o = out;
  wasm_v128_store(o, UNPACK_AT(9, 8, 0, in));
  wasm_v128_store(o + 2, UNPACK_AT(9, 8, 1, in));
  wasm_v128_store(o + 4, UNPACK_AT(9, 8, 2, in));
  wasm_v128_store(o + 6, UNPACK_AT(9, 8, 3, in));
  wasm_v128_store(o + 8, UNPACK_AT(9, 8, 4, in));
  wasm_v128_store(o + 10, UNPACK_AT(9, 8, 5, in));
  wasm_v128_store(o + 12, UNPACK_AT(9, 8, 6, in));
  wasm_v128_store(o + 14, UNPACK_AT(9, 8, 7, in));
}

/* The run decoders, for FM_DEFINE_UNPACK: a run of fixint blocks, or of
 * own-width blocks, each in its own loop (see fm_run_blocks). */
#define DEFINE_RUN(name, T, W, S, UTAG, STAG, is_signed)                                         \
  FM_INLINE size_t name##_fixints(const uint8_t *in, size_t avail, void *out) {                  \
    v128_t b;                                                                                    \
    if (!load_fixints(in, avail, is_signed, &b)) return 0;                                       \
    store_fixints_##W(b, out);                                                                   \
    return 16;                                                                                   \
  }                                                                                              \
  FM_INLINE size_t name##_own(const uint8_t *in, size_t avail, void *out) {                      \
    v128_t w[S];                                                                                 \
    if (avail < 16 * (S)) return 0;                                                              \
    LOAD_WIRE(w, S, in);                                                                         \
    if (!own_width_block(w, S, UTAG, STAG, is_signed)) return 0;                                 \
    store_own_##W(in, out);                                                                      \
    return 16 * (S);                                                                             \
  }                                                                                              \
  FM_INLINE size_t name(const uint8_t *in, size_t avail, T *out, size_t max, uint32_t flags,     \
                        size_t *used) {                                                          \
    (void)flags;                                                                                 \
    if (avail == 0) return 0;                                                                    \
    if (fm_is_fixint(in[0])) return fm_run_blocks(name##_fixints, sizeof(T), in, avail, out, max, used); \
    if (in[0] == (UTAG) || in[0] == (STAG)) return fm_run_blocks(name##_own, sizeof(T), in, avail, out, max, used); \
    return 0;                                                                                    \
  }

DEFINE_RUN(unpack_i8_run, int8_t, 8, 2, 0xcc, 0xd0, true)
DEFINE_RUN(unpack_u8_run, uint8_t, 8, 2, 0xcc, 0xd0, false)
DEFINE_RUN(unpack_i16_run, int16_t, 16, 3, 0xcd, 0xd1, true)
DEFINE_RUN(unpack_u16_run, uint16_t, 16, 3, 0xcd, 0xd1, false)
DEFINE_RUN(unpack_i32_run, int32_t, 32, 5, 0xce, 0xd2, true)
DEFINE_RUN(unpack_u32_run, uint32_t, 32, 5, 0xce, 0xd2, false)
DEFINE_RUN(unpack_i64_run, int64_t, 64, 9, 0xcf, 0xd3, true)
DEFINE_RUN(unpack_u64_run, uint64_t, 64, 9, 0xcf, 0xd3, false)

#endif /* FM_SIMD */

FM_DEFINE_UNPACK(fm_unpack_i8, int8_t, unpack_i8_run, unpack_i8_scalar)
FM_DEFINE_UNPACK(fm_unpack_u8, uint8_t, unpack_u8_run, unpack_u8_scalar)
FM_DEFINE_UNPACK(fm_unpack_i16, int16_t, unpack_i16_run, unpack_i16_scalar)
FM_DEFINE_UNPACK(fm_unpack_u16, uint16_t, unpack_u16_run, unpack_u16_scalar)
FM_DEFINE_UNPACK(fm_unpack_i32, int32_t, unpack_i32_run, unpack_i32_scalar)
FM_DEFINE_UNPACK(fm_unpack_u32, uint32_t, unpack_u32_run, unpack_u32_scalar)
FM_DEFINE_UNPACK(fm_unpack_i64, int64_t, unpack_i64_run, unpack_i64_scalar)
FM_DEFINE_UNPACK(fm_unpack_u64, uint64_t, unpack_u64_run, unpack_u64_scalar)
