/* fm_blocks.h - what every kernel family shares to decode msgpack arrays:
 * the block-of-16 SIMD vocabulary (shuffle tables and tag tests, computed by
 * the preprocessor) and the one decode loop that ties the SIMD blocks to the
 * scalar path. S = wire bytes per element (tag + payload), P = payload bytes.
 *
 * A block is 16 elements: S wire vectors, P typed vectors. Each typed vector
 * draws on at most two consecutive wire vectors, so one two-input byte
 * shuffle both gathers the payloads and turns them little-endian.
 */
#ifndef FM_BLOCKS_H
#define FM_BLOCKS_H

#include "fm_msgpack.h"

#define FM_MIN(a, b) ((a) < (b) ? (a) : (b))

#if FM_SIMD

#define LANES16(M, ...)                                                                   \
  M(__VA_ARGS__, 0), M(__VA_ARGS__, 1), M(__VA_ARGS__, 2), M(__VA_ARGS__, 3),             \
      M(__VA_ARGS__, 4), M(__VA_ARGS__, 5), M(__VA_ARGS__, 6), M(__VA_ARGS__, 7),         \
      M(__VA_ARGS__, 8), M(__VA_ARGS__, 9), M(__VA_ARGS__, 10), M(__VA_ARGS__, 11),       \
      M(__VA_ARGS__, 12), M(__VA_ARGS__, 13), M(__VA_ARGS__, 14), M(__VA_ARGS__, 15)

/* Typed vector j, byte b: element e = j*(16/P) + b/P, little-endian byte
 * q = b%P, found on the wire at S*e + 1 + (P-1-q). The vector's first element
 * starts in wire vector C = (S*j*(16/P))/16; the shuffle reads C and C+1. */
#define UP_C(S, P, j) (((S) * (j) * (16 / (P))) / 16)
#define UP_IDX(S, P, j, b) \
  ((S) * ((j) * (16 / (P)) + (b) / (P)) + 1 + (P)-1 - (b) % (P) - 16 * UP_C(S, P, j))
/* The last typed vector of a one-byte-payload block reads only wire vector
 * C; clamping keeps its unused second operand inside the block. */
#define UNPACK_VEC(S, P, j, w)                                                    \
  FM_SHUFFLE(w[UP_C(S, P, j)], w[FM_MIN(UP_C(S, P, j) + 1, (S)-1)], \
             LANES16(UP_IDX, S, P, j))

/* Bit b of TAG_BITS(S, k) is set when byte b of wire vector k is a tag. Tag
 * tests compare whole wire vectors with a splat of the tag and check these
 * bits of the byte masks: one constant per block, where masking the vectors
 * takes two per wire vector (V8 rebuilds every v128 constant per iteration,
 * measured: the masked test halved the float32 unpack speed). */
#define TAG_BIT(S, k, b) ((16 * (k) + (b)) % (S) == 0 ? 1u << (b) : 0u)
#define TAG_BITS(S, k)                                                                  \
  (TAG_BIT(S, k, 0) | TAG_BIT(S, k, 1) | TAG_BIT(S, k, 2) | TAG_BIT(S, k, 3) |           \
   TAG_BIT(S, k, 4) | TAG_BIT(S, k, 5) | TAG_BIT(S, k, 6) | TAG_BIT(S, k, 7) |           \
   TAG_BIT(S, k, 8) | TAG_BIT(S, k, 9) | TAG_BIT(S, k, 10) | TAG_BIT(S, k, 11) |         \
   TAG_BIT(S, k, 12) | TAG_BIT(S, k, 13) | TAG_BIT(S, k, 14) | TAG_BIT(S, k, 15))

/* Bytes of v equal to the splat `tag`, as a 16-bit mask. */
#define EQ_BITS(v, tag) ((uint32_t)wasm_i8x16_bitmask(wasm_i8x16_eq(v, tag)))

/* The tag positions of wire vector k that do not hold the splat `tag`. */
#define TAG_MISSES(S, k, w, tag) (TAG_BITS(S, k) & ~EQ_BITS(w[k], tag))

/* Loads the S wire vectors of a block at `in` (the caller checked 16*S bytes remain). */
#define LOAD_WIRE(w, S, in) \
  for (int k_ = 0; k_ < (S); k_++) w[k_] = wasm_v128_load((in) + 16 * k_)

#endif /* FM_SIMD */

/* ---- the decode loop --------------------------------------------------------
 * FM_DEFINE_UNPACK(name, T, block_fn, scalar_fn) defines
 *   fm_code name(const uint8_t *in, size_t len, T *out, size_t capacity,
 *                uint32_t flags, fm_result *r)
 * which reads the array header and decodes its elements into out:
 *   size_t block_fn(const uint8_t *in, size_t avail, T *out, uint32_t flags)
 *     decodes 16 elements of a uniform block through SIMD and returns the wire
 *     bytes used, or 0 when the block is not one it handles;
 *   bool scalar_fn(const uint8_t *in, size_t len, size_t *pos, size_t i,
 *                  size_t stop, T *out, uint32_t flags, fm_result *r)
 *     decodes elements [i, stop) one by one, false once r holds an error.
 * A block SIMD declines is decoded one by one and SIMD is tried again on the
 * next 16, so a run of mixed forms costs one failed test per block. */
#if FM_SIMD
#define FM_UNPACK_ELEMENTS(block_fn, scalar_fn)                                          \
  for (size_t i = 0; i < count; i += 16) {                                               \
    size_t used = count - i >= 16 ? block_fn(in + pos, len - pos, out + i, flags) : 0;  \
    if (used) {                                                                          \
      pos += used;                                                                       \
    } else if (!scalar_fn(in, len, &pos, i, FM_MIN(count, i + 16), out, flags, r)) {     \
      return (fm_code)r->code;                                                           \
    }                                                                                    \
  }
#else
#define FM_UNPACK_ELEMENTS(block_fn, scalar_fn) \
  if (!scalar_fn(in, len, &pos, 0, count, out, flags, r)) return (fm_code)r->code;
#endif

#define FM_DEFINE_UNPACK(name, T, block_fn, scalar_fn)                                  \
  FM_EXPORT fm_code name(const uint8_t *in, size_t len, T *out, size_t capacity,        \
                         uint32_t flags, fm_result *r) {                                \
    size_t pos;                                                                         \
    if (fm_read_array_header(in, len, &pos, r) != FM_OK) return (fm_code)r->code;       \
    size_t count = r->count;                                                            \
    if (count > capacity) return fm_fail(r, FM_ERR_CAPACITY, FM_NO_INDEX, 0, in, len);  \
    FM_UNPACK_ELEMENTS(block_fn, scalar_fn)                                             \
    r->end = pos;                                                                       \
    return FM_OK;                                                                       \
  }

#endif
