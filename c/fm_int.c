/* fm_int.c - integer typed arrays <-> msgpack arrays of ints.
 *
 * Pack writes each value in the smallest form that holds it, chosen by value
 * (fm_write_int): what @msgpack/msgpack and MessagePack-CSharp write. Unpack
 * takes every int form whose value fits the target, and floats that are
 * exactly integral only when asked (FM_INTEGRAL_FLOATS).
 *
 * SIMD pack: a block of 16 lanes that are all fixints narrows to one store
 * (MessagePack-CSharp's test: every lane against the boundaries at once).
 * Any other vector goes through the stream-vbyte technique: classify each
 * lane's form with a few compares, make a key of the classes, and one table
 * lookup gives the byte-shuffle control (tags and big-endian payloads) and
 * the output length: no lane-by-lane fallback (see "stream-vbyte" below).
 * Bytes (8-bit lanes) have only two sizes: a 256-entry table of shuffle
 * controls by the mask of lanes that need a tag.
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

#if FM_SIMD_PACK

/* ---- pack: 8-bit lanes ------------------------------------------------------
 * A byte is a fixint or takes a tag (0xd0 for int8 below -32, 0xcc for uint8
 * from 128). For each 8-lane mask of "needs a tag", EXPAND8[mask] is the
 * swizzle control that spreads source bytes 0-7 to their places with the tag
 * (source byte 8) before each flagged one; lanes past the end read 0x80, 0
 * (built by init_shapes, as the shapes of 8 lanes of one byte). */
static uint8_t EXPAND8[256][16];

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
 * 4 int64/uint64 (payload 0, 1, 2, 4, 8 bytes after the tag); a negative
 * lane takes the signed form. The classes of a group of lanes make a key,
 * and the key a shape, SHAPE..[key]: the byte-shuffle control that lays out
 * the group's msgpack from a source vector (index i: byte i of the source;
 * 0x80: zero), its length in byte 15 (see store_shape).
 *   16- and 32-bit lanes: the source is the group's lanes (8 bytes) beside
 *   each lane's tags, one per class (one i64x2 interleave), so one swizzle
 *   and one 16-byte store write a group: 16-bit lanes in groups of 4 (at
 *   most 12 bytes), 32-bit lanes in groups of 2 (at most 10). Both halves of
 *   a vector have the same layout and share a table; the key is the byte
 *   mask of one vector made from the class masks, two bits per lane, for
 *   one vector of 16-bit lanes or two of 32-bit lanes (see pack_vec16,
 *   pack_pair32).
 *   64-bit lanes that do not all fit 32 bits: both lanes in one group of at
 *   most 18 bytes from two sources (the vector, and its tags) and two
 *   stores; the second goes at SECOND64[key] = min(len, 16): past 16 bytes
 *   when the group has them, else at its end, where the next group's bytes
 *   (or FM_PACK_SLACK) overwrite it.
 * Blocks of 16 lanes go narrower first when their range allows (the class
 * is the value's, whatever its width): all fixints -> narrowed to 16 bytes
 * and stored; 32-bit lanes all in the int16 (uint16) range -> two vectors
 * of 16-bit lanes; 64-bit lanes all in 32 bits -> four vectors of 32-bit
 * lanes (and so on down). Stores are whole vectors: up to FM_PACK_SLACK
 * bytes past the output are written and later overwritten. */
static uint8_t SHAPE16[256][16]; /* 4 lanes: bits 2j, 2j+1 = lane j's class */
static uint8_t SHAPE32[16][16]; /* 2 lanes: bits 2j, 2j+1 = lane j's class */
static uint8_t SHAPES32[256][2][16]; /* a vector's two: SHAPE32[key & 15], SHAPE32[key >> 4] */
static uint8_t SHAPE64[64][32], LEN64[64], SECOND64[64];

/* Fills SHAPE..[key] and LEN..[key] (no lengths where len is NULL) for every
 * key below `keys`, for a group of G lanes of `width` bytes at the start of
 * the source: bit b of lane j's class is key bit bit[b] + step*j (NO_BIT: 0).
 * Its tag is the source byte tag + tag_step*j, plus class - 1 where the
 * source holds a tag per class (`by_class`). Classes past 4 never occur: any
 * shape will do. Run once: compiled for size (FM_COLD). */
#define NO_BIT 31
typedef struct {
  unsigned keys, G, width, bit[3], step, tag, tag_step;
  bool by_class;
} shape_spec;
FM_COLD static void build_shapes(uint8_t *shape, size_t stride, uint8_t *len, const shape_spec *s) {
  static const unsigned payload[8] = {0, 1, 2, 4, 8, 8, 8, 8};
  for (unsigned key = 0; key < s->keys; key++) {
    uint8_t *c = shape + key * stride;
    unsigned p = 0;
    /* two fixed-size fills, not one of `stride` bytes: that one would be a
     * call to a memset the module otherwise does without */
    memset(c, 0x80, 16);
    if (stride > 16) memset(c + 16, 0x80, 16);
    for (unsigned j = 0; j < s->G; j++) {
      unsigned cls = 0, lane = s->width * j;
      for (unsigned b = 0; b < 3; b++) cls |= (s->bit[b] != NO_BIT && (key >> (s->bit[b] + s->step * j) & 1)) << b;
      unsigned size = FM_MIN(payload[cls], s->width);
      c[p++] = (uint8_t)(cls == 0 ? lane : s->tag + s->tag_step * j + (s->by_class ? cls - 1 : 0));
      while (size > 0) c[p++] = (uint8_t)(lane + --size); /* big-endian */
    }
    if (len) len[key * (len == shape + 15 ? stride : 1)] = (uint8_t)p;
  }
}

/* The constants of the kernels, loaded from memory where they are used:
 * constants LLVM can see, it rewrites (each biased compare back into two
 * compares and an or, each unsigned one into an add and an unsigned
 * compare, which V8 emulates in four instructions; an `and` with a mask into
 * a select, three instructions), and V8 rebuilds a v128.const at every use
 * (three instructions). The tables' address is loaded too: LLVM then keeps
 * one address per shape, and V8 reads the length at offset 15 of it (one
 * instruction fewer per group). */
typedef struct {
  v128_t bias[3], bound[3]; /* signed: class > k where v + bias[k] > bound[k] */
  v128_t uhi[3], flip;      /* unsigned: where (v ^ flip) > uhi[k], signed */
  v128_t bias16[2], bound16[2]; /* 32-bit lanes: LIMITS16's bias, bound (pack_pair32) */
  v128_t tags;              /* each lane's tags of classes 1, 2(, 3): 0xcc, 0xcd(, 0xce), in its bytes 0, 1(, 2) */
  v128_t four;              /* 4 in each of those bytes: a negative lane's tags are 0xd0, 0xd1(, 0xd2) */
  v128_t low_byte;          /* 0x00ff in 16-bit lanes (the keys of pack_vec16, pack_pair32) */
  v128_t min0, max0, not0;  /* 32-bit lanes: -32, 127, ~127: the fixints (within32) */
  v128_t min16, max16, not16; /* 32-bit lanes: INT16_MIN, INT16_MAX, ~UINT16_MAX */
  v128_t tag0;              /* 32-bit lanes: 0xcb, the tag of class c is 0xcb + c (pack_vec64) */
  const uint8_t (*shapes)[16];     /* SHAPE16 */
  const uint8_t (*shapes2)[2][16]; /* SHAPES32 */
} limits;
static limits LIMITS16, LIMITS32;

FM_COLD __attribute__((constructor)) static void init_shapes(void) {
  static const shape_spec spec[4] = {
      {256, 8, 1, {0, NO_BIT, NO_BIT}, 1, 8, 0, false}, /* EXPAND8: a byte's class is 0 or 1 */
      {256, 4, 2, {0, 1, NO_BIT}, 2, 8, 2, true},       /* SHAPE16 */
      {16, 2, 4, {0, 1, NO_BIT}, 2, 8, 4, true},        /* SHAPE32 */
      {64, 2, 8, {0, 2, 4}, 1, 16, 8, false},           /* SHAPE64 */
  };
  build_shapes(&EXPAND8[0][0], 16, NULL, &spec[0]);
  build_shapes(&SHAPE16[0][0], 16, &SHAPE16[0][15], &spec[1]);
  build_shapes(&SHAPE32[0][0], 16, &SHAPE32[0][15], &spec[2]);
  for (unsigned key = 0; key < 256; key++) {
    memcpy(SHAPES32[key][0], SHAPE32[key & 15], 16);
    memcpy(SHAPES32[key][1], SHAPE32[key >> 4], 16);
  }
  build_shapes(&SHAPE64[0][0], 32, LEN64, &spec[3]);
  for (unsigned key = 0; key < 64; key++) SECOND64[key] = (uint8_t)FM_MIN(LEN64[key], 16);
  /* A lane is above class k when it lies outside [lo, hi]: when v - lo, as
   * an unsigned number, exceeds hi - lo; flipping the sign bits of both
   * sides (adding INT_MIN) makes that one signed compare. */
  static const int32_t hi[3] = {127, 255, 65535}, lo[3] = {-32, -128, -32768};
  for (int k = 0; k < 3; k++) {
    int32_t hi16 = FM_MIN(hi[k], INT16_MAX);
    LIMITS16.bias[k] = wasm_i16x8_splat((int16_t)(INT16_MIN - lo[k]));
    LIMITS16.bound[k] = wasm_i16x8_splat((int16_t)((hi16 - lo[k]) ^ INT16_MIN));
    LIMITS16.uhi[k] = wasm_i16x8_splat((int16_t)(hi[k] ^ INT16_MIN));
    LIMITS32.bias[k] = wasm_i32x4_splat((int32_t)((uint32_t)INT32_MIN - (uint32_t)lo[k]));
    LIMITS32.bound[k] = wasm_i32x4_splat((hi[k] - lo[k]) ^ INT32_MIN);
    LIMITS32.uhi[k] = wasm_i32x4_splat(hi[k] ^ INT32_MIN);
  }
  LIMITS16.flip = wasm_i16x8_splat(INT16_MIN);
  for (int k = 0; k < 2; k++) LIMITS32.bias16[k] = LIMITS16.bias[k], LIMITS32.bound16[k] = LIMITS16.bound[k];
  LIMITS32.flip = wasm_i32x4_splat(INT32_MIN);
  LIMITS16.tags = wasm_i16x8_splat((int16_t)0xcdcc);
  LIMITS32.tags = wasm_i32x4_splat((int32_t)0xcfcecdcc);
  LIMITS16.four = wasm_i16x8_splat(0x0404);
  LIMITS32.four = wasm_i32x4_splat(0x04040404);
  LIMITS16.low_byte = wasm_i16x8_splat(0x00ff);
  LIMITS32.low_byte = wasm_i16x8_splat(0x00ff);
  LIMITS32.tag0 = wasm_i32x4_splat(0xcb);
  LIMITS16.shapes = SHAPE16;
  LIMITS32.shapes2 = SHAPES32;
  LIMITS32.min0 = wasm_i32x4_splat(-32);
  LIMITS32.max0 = wasm_i32x4_splat(127);
  LIMITS32.not0 = wasm_i32x4_splat(~127);
  LIMITS32.min16 = wasm_i32x4_splat(INT16_MIN);
  LIMITS32.max16 = wasm_i32x4_splat(INT16_MAX);
  LIMITS32.not16 = wasm_i32x4_splat(~UINT16_MAX);
}

/* Class masks: m[k] is -1 in the lanes whose class is above k (above
 * fixint, above 8-bit, above 16-bit payload): the boundaries of the scalar
 * fm_write_int / fm_write_uint. Signed: an add and a compare each (see
 * init_shapes); unsigned lanes compare signed after flipping their sign bits
 * (V8 emulates unsigned compares). Strict compares: one SSE instruction
 * each in V8, where >= and <= take two. The masks are nested, so a lane's
 * class is the number of its masks set. */
FM_INLINE void classes16(v128_t v, const limits *c, bool is_signed, v128_t m[2]) {
  v128_t x = wasm_v128_xor(v, c->flip);
  for (int k = 0; k < 2; k++)
    m[k] = is_signed ? wasm_i16x8_gt(wasm_i16x8_add(v, c->bias[k]), c->bound[k]) : wasm_i16x8_gt(x, c->uhi[k]);
}
FM_INLINE void classes32(v128_t v, const limits *c, bool is_signed, v128_t m[3]) {
  v128_t x = wasm_v128_xor(v, c->flip);
  for (int k = 0; k < 3; k++)
    m[k] = is_signed ? wasm_i32x4_gt(wasm_i32x4_add(v, c->bias[k]), c->bound[k]) : wasm_i32x4_gt(x, c->uhi[k]);
}

/* Each lane's tags, one byte per class above 0 (see limits): a constant, and
 * 4 more in a negative lane (its sign, spread over the lane, and 4). Tags
 * picked from eight constant ones by a key with the signs in it would save
 * these three instructions, but run slower: 16-bit lanes need keys of
 * 12 bits, a table of 64 KB whose entries 4 KB apart compete for the same
 * cache sets; for 32-bit lanes, LLVM made selects of the masks that key
 * needs. */
FM_INLINE v128_t lane_tags16(v128_t v, const limits *c, bool is_signed) {
  return is_signed ? wasm_i16x8_add(c->tags, wasm_v128_and(wasm_i16x8_shr(v, 15), c->four)) : c->tags;
}
FM_INLINE v128_t lane_tags32(v128_t v, const limits *c, bool is_signed) {
  return is_signed ? wasm_i32x4_add(c->tags, wasm_v128_and(wasm_i32x4_shr(v, 31), c->four)) : c->tags;
}

/* One group of lanes from its source, see above; its length is byte 15 of
 * its shape (a group of 16- or 32-bit lanes is at most 12 bytes: the 16th
 * byte stored is overwritten). */
FM_INLINE uint8_t *store_shape(v128_t source, const uint8_t shape[16], uint8_t *out) {
  wasm_v128_store(out, wasm_i8x16_swizzle(source, wasm_v128_load(shape)));
  return out + shape[15];
}

/* The two halves of v, each beside its lanes' tags t: i64x2 interleaves,
 * one unpack instruction each in V8 (no swizzle mask). */
FM_INLINE uint8_t *store_halves(v128_t v, v128_t t, const uint8_t *shape0, const uint8_t *shape1, uint8_t *out) {
  out = store_shape(wasm_i64x2_shuffle(v, t, 0, 2), shape0, out);
  return store_shape(wasm_i64x2_shuffle(v, t, 1, 3), shape1, out);
}

/* The key of 16-bit lanes is the byte mask of a vector whose low byte is
 * -1 in class 1, its high byte in class 2: bits 2j, 2j+1 hold lane j's
 * class, and each half's key is 8 of the 16 bits (one instruction each). */
FM_INLINE uint8_t *pack_vec16(v128_t v, const v128_t m[2], const limits *c, bool is_signed, uint8_t *out) {
  unsigned k = (unsigned)wasm_i8x16_bitmask(wasm_v128_xor(wasm_v128_and(m[0], c->low_byte), m[1]));
  return store_halves(v, lane_tags16(v, c, is_signed), c->shapes[k & 0xff], c->shapes[k >> 8], out);
}

/* 32-bit lanes two vectors at a time: their class masks narrowed to 16-bit
 * lanes (exact: 0 and -1) make one vector of both, and its key is built as
 * that of 16-bit lanes (pack_vec16): bits 2j, 2j+1 hold lane j's class, 8
 * bits per vector. The low byte is -1 in class 1 and 3 (m0 ^ m2 of nested
 * masks), the high byte in class 2 and 3 (m1). A vector's two shapes are
 * adjacent (SHAPES32): one address for both, which runs faster than a key
 * and an address per group, or a key per vector. */
FM_INLINE uint8_t *pack_pair32(const v128_t q[2], const limits *c, bool is_signed, uint8_t *out) {
  v128_t n[3];
  if (is_signed) {
    /* masks 0 and 1 from the lanes narrowed to 16 bits, one vector for
     * both (a saturated lane is above both bounds, as it was): 5 fewer
     * vector instructions a pair */
    v128_t h = wasm_i16x8_narrow_i32x4(q[0], q[1]);
    for (int b = 0; b < 2; b++) n[b] = wasm_i16x8_gt(wasm_i16x8_add(h, c->bias16[b]), c->bound16[b]);
    n[2] = wasm_i16x8_narrow_i32x4(wasm_i32x4_gt(wasm_i32x4_add(q[0], c->bias[2]), c->bound[2]),
                                   wasm_i32x4_gt(wasm_i32x4_add(q[1], c->bias[2]), c->bound[2]));
  } else {
    v128_t m[2][3];
    for (int k = 0; k < 2; k++) classes32(q[k], c, is_signed, m[k]);
    for (int b = 0; b < 3; b++) n[b] = wasm_i16x8_narrow_i32x4(m[0][b], m[1][b]);
  }
  unsigned k = (unsigned)wasm_i8x16_bitmask(wasm_v128_xor(wasm_v128_and(wasm_v128_xor(n[0], n[2]), c->low_byte), n[1]));
  const uint8_t(*s0)[16] = c->shapes2[k & 0xff], (*s1)[16] = c->shapes2[k >> 8];
  out = store_halves(q[0], lane_tags32(q[0], c, is_signed), s0[0], s0[1], out);
  return store_halves(q[1], lane_tags32(q[1], c, is_signed), s1[0], s1[1], out);
}

/* 64-bit lanes are classified with 32-bit operations, which V8 compiles to
 * single SSE instructions (with i64x2 compares the BigInt64Array kernel ran
 * far behind BigUint64Array's). A lane fits 32 bits (the int32 /
 * uint32 range, where its class is its low word's) when its high word is the
 * sign of its low word (signed), or 0 (unsigned): -1 in the high word of
 * each such lane. */
FM_INLINE v128_t fits32(v128_t v, bool is_signed) {
  if (!is_signed) return wasm_i32x4_eq(v, wasm_i32x4_splat(0));
  v128_t sign = wasm_i32x4_shr(v, 31);
  return wasm_i32x4_eq(v, wasm_i32x4_shuffle(sign, sign, 0, 0, 2, 2));
}

/* Two 64-bit lanes in classes 0-4 (SHAPE64; key bits j, 2+j, 4+j: bits 0-2
 * of lane j's class; sources: v, and the tags in the low byte of each lane).
 * `fit` is fits32(v). A lane takes its low word's class when it fits; a
 * signed lane in [2^31, 2^32) (high word 0, low word negative as an int32)
 * is a uint32 (class 3); any other, class 4. With no lane in 32 bits (random
 * data) both take the widest form: a constant layout. */
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
  const limits c = LIMITS32;
  v128_t m[3];
  classes32(v, &c, is_signed, m); /* of the low words */
  for (int k = 0; k < 3; k++) m[k] = wasm_v128_or(wasm_i32x4_shuffle(m[k], m[k], 0, 0, 2, 2), uint32);
  v128_t b0 = wasm_v128_andnot(wasm_v128_xor(wasm_v128_xor(m[0], m[1]), m[2]), wide);
  v128_t b1 = wasm_v128_andnot(m[1], wide);
  unsigned key = (unsigned)(wasm_i64x2_bitmask(b0) | wasm_i64x2_bitmask(b1) << 2 | wasm_i64x2_bitmask(wide) << 4);
  v128_t low_tag = wasm_i32x4_sub(wasm_i32x4_sub(wasm_i32x4_sub(c.tag0, m[0]), m[1]), m[2]);
  v128_t t = wasm_i32x4_add(wasm_v128_bitselect(wasm_i32x4_splat(0xcf), low_tag, wide), plus4);
  /* The shape's control serves both sources: minus 16, v's indices and 0x80
   * fall out of range (a swizzle gives 0 there) and the tag indices in. */
  for (int h = 0; h < 2; h++) {
    v128_t s = wasm_v128_load(SHAPE64[key] + 16 * h);
    wasm_v128_store(out + (h ? SECOND64[key] : 0),
                    wasm_v128_or(wasm_i8x16_swizzle(v, s), wasm_i8x16_swizzle(t, wasm_i8x16_sub(s, wasm_i8x16_splat(16)))));
  }
  return out + LEN64[key];
}

/* Whether the lanes of four vectors all lie within [lo, hi] (signed) or at
 * most hi (unsigned, `above` = ~hi, hi + 1 a power of 2), from their minimum
 * mn and maximum mx, or the bits of all of them (mn, unsigned). */
FM_INLINE void range32(const v128_t q[4], bool is_signed, v128_t *mn, v128_t *mx) {
  *mn = *mx = q[0];
  for (int k = 1; k < 4; k++) {
    *mn = is_signed ? wasm_i32x4_min(*mn, q[k]) : wasm_v128_or(*mn, q[k]);
    *mx = is_signed ? wasm_i32x4_max(*mx, q[k]) : *mn;
  }
}
FM_INLINE bool within32(v128_t mn, v128_t mx, v128_t lo, v128_t hi, v128_t above, bool is_signed) {
  v128_t out = is_signed ? wasm_v128_or(wasm_i32x4_gt(mx, hi), wasm_i32x4_gt(lo, mn)) : wasm_v128_and(mn, above);
  return !wasm_v128_any_true(out);
}

/* A block of 16 lanes, in 2 / 4 / 8 vectors: narrower when it can (see the
 * section's comment), else vector by vector. 16-bit lanes are all fixints
 * when no lane is above class 0: the test is the first class mask; a block
 * made of 32-bit lanes has been tested (`may_be_fixints` false). */
FM_INLINE uint8_t *pack_block16(const v128_t v[2], bool is_signed, bool may_be_fixints, uint8_t *out) {
  const limits c = LIMITS16;
  v128_t m[2][2];
  for (int k = 0; k < 2; k++) classes16(v[k], &c, is_signed, m[k]);
  if (may_be_fixints && !wasm_v128_any_true(wasm_v128_or(m[0][0], m[1][0]))) {
    wasm_v128_store(out, wasm_i8x16_narrow_i16x8(v[0], v[1]));
    return out + 16;
  }
  out = pack_vec16(v[0], m[0], &c, is_signed, out);
  return pack_vec16(v[1], m[1], &c, is_signed, out);
}
FM_INLINE uint8_t *pack_block32(const v128_t q[4], bool is_signed, uint8_t *out) {
  const limits c = LIMITS32;
  v128_t mn, mx;
  range32(q, is_signed, &mn, &mx);
  if (within32(mn, mx, c.min0, c.max0, c.not0, is_signed)) { /* fixints: the saturating narrows are exact */
    wasm_v128_store(out, wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(q[0], q[1]), wasm_i16x8_narrow_i32x4(q[2], q[3])));
    return out + 16;
  }
  if (!within32(mn, mx, c.min16, c.max16, c.not16, is_signed)) {
    out = pack_pair32(q, &c, is_signed, out);
    return pack_pair32(q + 2, &c, is_signed, out);
  }
  v128_t h[2] = {is_signed ? wasm_i16x8_narrow_i32x4(q[0], q[1]) : wasm_u16x8_narrow_i32x4(q[0], q[1]),
                 is_signed ? wasm_i16x8_narrow_i32x4(q[2], q[3]) : wasm_u16x8_narrow_i32x4(q[2], q[3])};
  return pack_block16(h, is_signed, false, out);
}
/* 64-bit lanes: the low words of the 16 lanes gathered into four vectors,
 * their high words into four more (one shuffle instruction each in V8); all
 * 16 fit 32 bits when every high word is 0 (unsigned) or the sign of its
 * low word (signed), and then go as 32-bit lanes. */
FM_INLINE uint8_t *pack_block64(const int64_t *p, bool is_signed, uint8_t *out) {
  v128_t lo[4], bad = wasm_i32x4_splat(0);
  for (int k = 0; k < 4; k++) {
    v128_t a = wasm_v128_load(p + 4 * k), b = wasm_v128_load(p + 4 * k + 2);
    lo[k] = wasm_i32x4_shuffle(a, b, 0, 2, 4, 6);
    v128_t hi = wasm_i32x4_shuffle(a, b, 1, 3, 5, 7);
    bad = wasm_v128_or(bad, is_signed ? wasm_v128_xor(hi, wasm_i32x4_shr(lo[k], 31)) : hi);
  }
  if (!wasm_v128_any_true(bad)) return pack_block32(lo, is_signed, out);
  for (int k = 0; k < 8; k++) {
    v128_t v = wasm_v128_load(p + 2 * k);
    out = pack_vec64(v, fits32(v, is_signed), is_signed, out);
  }
  return out;
}

/* The block of 16 lanes at p. */
FM_INLINE uint8_t *pack_at16(const int16_t *p, bool is_signed, uint8_t *out) {
  v128_t v[2] = {wasm_v128_load(p), wasm_v128_load(p + 8)};
  return pack_block16(v, is_signed, true, out);
}
FM_INLINE uint8_t *pack_at32(const int32_t *p, bool is_signed, uint8_t *out) {
  v128_t q[4];
  for (int k = 0; k < 4; k++) q[k] = wasm_v128_load(p + 4 * k);
  return pack_block32(q, is_signed, out);
}
#define pack_at64 pack_block64

#define PACK_WIDE_SIMD(in, n, out, W, is_signed) \
  for (; done + 16 <= (n); done += 16) out = pack_at##W((const int##W##_t *)(in) + done, is_signed, out);

#endif /* FM_SIMD_PACK */

/* ---- pack: entry points -------------------------------------------------------
 * SIMD takes whole vectors, the scalar loop the rest (and all of it in the
 * scalar build). */
#if FM_SIMD_PACK
#define SIMD_PART(...) __VA_ARGS__
#else
#define SIMD_PART(...)
#endif

#define DEFINE_PACK(name, T, simd, scalar_fn)                                          \
  FM_PACK_EXPORT size_t name(const T *in, size_t n, uint8_t *out) {                    \
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
DEFINE_PACK(fm_pack_i16, int16_t, PACK_WIDE_SIMD(in, n, p, 16, true), pack_i16_scalar)
DEFINE_PACK(fm_pack_u16, uint16_t, PACK_WIDE_SIMD(in, n, p, 16, false), pack_u16_scalar)
DEFINE_PACK(fm_pack_i32, int32_t, PACK_WIDE_SIMD(in, n, p, 32, true), pack_i32_scalar)
DEFINE_PACK(fm_pack_u32, uint32_t, PACK_WIDE_SIMD(in, n, p, 32, false), pack_u32_scalar)
DEFINE_PACK(fm_pack_i64, int64_t, PACK_WIDE_SIMD(in, n, p, 64, true), pack_i64_scalar)
DEFINE_PACK(fm_pack_u64, uint64_t, PACK_WIDE_SIMD(in, n, p, 64, false), pack_u64_scalar)

/* ---- unpack: scalar ---------------------------------------------------------- */

/* The scalar decoder of one target: fixints and the target's own-width forms
 * (UTAG unsigned, STAG signed, P payload bytes) inline, everything else
 * through the general reader. Both own-width forms carry the same payload
 * load, so random data that mixes them costs no mispredicted dispatch
 * (bench/kernels.js --types=i32 --contents=uniform times the scalar kernel
 * on such data). */
/* gcc at -O2 warns that v may be read unset in the loop below: it is read only after
 * fm_number_to_int() returned FM_OK, which sets it, but gcc follows the path where
 * fm_read_number() failed (size 0) with r->code unknown. Initialising v, or telling gcc the
 * code there, changes what clang emits for the wasm modules (slower small-int unpacks, a larger
 * module: docs/history.md, the twelfth step): the false warning is silenced instead, for gcc
 * alone. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
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
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

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
    uint32_t tags = TAG_BITS(S, k); /* (fm_blocks.h: built bit by bit here, the loop kept GCC from unrolling) */
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
