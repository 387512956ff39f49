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

/* Typed vector j of the block at `in`, gathered and made little-endian by
 * two unaligned loads and two swizzles whose index vectors are the same for
 * every j (so a loop holds two constants, not two per vector: V8 rebuilds
 * constants it cannot keep in registers, at every use). The vector's
 * L = 16/P elements have their payloads at base + S*k (base: the first
 * payload byte); load A starts at base and holds the elements whose payload
 * ends by its byte 15, load B ends at the last payload byte and holds the
 * rest. UP_D is B's offset from A. */
#define UP_D(S, P) ((S) * (16 / (P)-1) + (P)-16)
#define UP_IN_A(S, P, b) ((S) * ((b) / (P)) + (P)-1 <= 15)
#define UP_REL(S, P, b) ((S) * ((b) / (P)) + (P)-1 - (b) % (P))
#define UP_FROM_A(S, P, b) (UP_IN_A(S, P, b) ? UP_REL(S, P, b) : -128)
#define UP_FROM_B(S, P, b) (UP_IN_A(S, P, b) ? -128 : UP_REL(S, P, b) - UP_D(S, P))
#define UNPACK_AT(S, P, j, in)                                                              \
  wasm_v128_or(wasm_i8x16_swizzle(wasm_v128_load((in) + (S) * (j) * (16 / (P)) + 1),        \
                                  FM_I8X16(LANES16(UP_FROM_A, S, P))),                      \
               wasm_i8x16_swizzle(wasm_v128_load((in) + (S) * (j) * (16 / (P)) + 1 + UP_D(S, P)), \
                                  FM_I8X16(LANES16(UP_FROM_B, S, P))))

/* Bit b of TAG_BITS(S, k) is set when byte b of wire vector k is a tag. Tag
 * tests compare whole wire vectors with a splat of the tag and check these
 * bits of the byte masks: one constant per block, where masking the vectors
 * takes two per wire vector (V8 rebuilds every v128 constant per iteration,
 * which slows the float32 unpack loop down badly).
 * The tags of vector k are those of vector 0 (bytes 0, S, 2S, ...) moved up
 * to the first byte b with 16k + b a multiple of S: a shift, cheap even where
 * k is a loop variable. GCC -O3 unrolls a loop over k only while its body is
 * small (--param max-completely-peeled-insns): a mask built bit by bit (16
 * divisions) kept the loop, and the wire vectors on the stack, and made native
 * Int32Array unpack slower than the scalar build (the native simd and native
 * scalar rows of `npm run bench`). */
#define TAG_BIT(S, b) ((b) % (S) == 0 ? 1u << (b) : 0u)
#define TAG_BITS_0(S)                                                                   \
  (TAG_BIT(S, 0) | TAG_BIT(S, 1) | TAG_BIT(S, 2) | TAG_BIT(S, 3) | TAG_BIT(S, 4) |      \
   TAG_BIT(S, 5) | TAG_BIT(S, 6) | TAG_BIT(S, 7) | TAG_BIT(S, 8) | TAG_BIT(S, 9) |      \
   TAG_BIT(S, 10) | TAG_BIT(S, 11) | TAG_BIT(S, 12) | TAG_BIT(S, 13) | TAG_BIT(S, 14) | \
   TAG_BIT(S, 15))
#define TAG_BITS(S, k) ((TAG_BITS_0(S) << (((S) - 16 * (k) % (S)) % (S))) & 0xffffu)

/* Bytes of v equal to the splat `tag`, as a 16-bit mask. */
#define EQ_BITS(v, tag) ((uint32_t)wasm_i8x16_bitmask(wasm_i8x16_eq(v, tag)))

/* The tag positions of wire vector k that do not hold the splat `tag`. */
#define TAG_MISSES(S, k, w, tag) (TAG_BITS(S, k) & ~EQ_BITS(w[k], tag))

/* Loads the S wire vectors of a block at `in` (the caller checked 16*S bytes remain). */
#define LOAD_WIRE(w, S, in) \
  for (int k_ = 0; k_ < (S); k_++) w[k_] = wasm_v128_load((in) + 16 * k_)

#endif /* FM_SIMD */

/* ---- the decode loop --------------------------------------------------------
 * FM_DEFINE_UNPACK(name, T, run_fn, scalar_fn) defines
 *   fm_code name(const uint8_t *in, size_t len, T *out, size_t capacity,
 *                uint32_t flags, fm_result *r)
 * which reads the array header (none with FM_ELEMENTS_ONLY: then `capacity`
 * elements) and decodes its elements into out:
 *   size_t run_fn(const uint8_t *in, size_t avail, T *out, size_t max,
 *                 uint32_t flags, size_t *used)
 *     decodes a run of uniform blocks of 16 elements (at most max elements)
 *     through SIMD; returns the elements done (0 when the first block is not
 *     one it handles) and sets *used to their wire bytes;
 *   bool scalar_fn(const uint8_t *in, size_t len, size_t *pos, size_t i,
 *                  size_t stop, T *out, uint32_t flags, fm_result *r)
 *     decodes elements [i, stop) one by one, false once r holds an error.
 * Where SIMD declines, elements are decoded one by one for a stretch (16,
 * doubling while SIMD keeps declining) and SIMD is tried again. */
#if FM_SIMD
#define FM_UNPACK_ELEMENTS(run_fn, scalar_fn)                                            \
  for (size_t i = 0, scalar_run = 16; i < count;) {                                      \
    size_t used = 0;                                                                     \
    size_t done = count - i >= 16 ? run_fn(in + pos, len - pos, out + i, count - i, flags, &used) : 0; \
    if (done) {                                                                          \
      pos += used;                                                                       \
      i += done;                                                                         \
      scalar_run = 16;                                                                   \
    } else if (scalar_fn(in, len, &pos, i, FM_MIN(count, i + scalar_run), out, flags, r)) { \
      i = FM_MIN(count, i + scalar_run);                                                 \
      /* Each refusal doubles the stretch before SIMD is tried again (to 256): \
       * mixed data then pays for few failed tests. */                                   \
      scalar_run = FM_MIN(2 * scalar_run, 256);                                          \
    } else {                                                                             \
      return (fm_code)r->code;                                                           \
    }                                                                                    \
  }
/* A run of blocks: calls block(in, avail, out) -> wire bytes of 16 elements
 * (0: not a block of its form) while it succeeds. One loop per form, so that
 * a loop holds only its own form's constant vectors: V8 rebuilds those it
 * cannot keep in registers at every use. `elem` is the bytes of one decoded
 * element. */
typedef size_t (*fm_block_fn)(const uint8_t *in, size_t avail, void *out);
FM_INLINE size_t fm_run_blocks(fm_block_fn block, size_t elem, const uint8_t *in, size_t avail,
                               void *out, size_t max, size_t *used) {
  size_t done = 0, bytes;
  while (done + 16 <= max && (bytes = block(in + *used, avail - *used, (uint8_t *)out + done * elem)) != 0) {
    *used += bytes;
    done += 16;
  }
  return done;
}
#else
#define FM_UNPACK_ELEMENTS(run_fn, scalar_fn) \
  if (!scalar_fn(in, len, &pos, 0, count, out, flags, r)) return (fm_code)r->code;
#endif

#define FM_DEFINE_UNPACK(name, T, run_fn, scalar_fn)                                  \
  FM_UNPACK_EXPORT fm_code name(const uint8_t *in, size_t len, T *out, size_t capacity, \
                         uint32_t flags, fm_result *r) {                                \
    size_t pos = 0, count = capacity;                                                   \
    if (flags & FM_ELEMENTS_ONLY) {                                                     \
      /* every field as a success's (no field keeps an earlier call's), count as an     \
       * error reports it: as fm_read_array_header() leaves them for a header */         \
      fm_ok(r, capacity, 0);                                                            \
    } else {                                                                            \
      if (fm_read_array_header(in, len, &pos, r) != FM_OK) return (fm_code)r->code;     \
      count = r->count;                                                                 \
      if (count > capacity)                                                             \
        return fm_fail(r, FM_ERR_CAPACITY, r->count, FM_NO_INDEX, 0, in[0], 0);         \
    }                                                                                   \
    FM_UNPACK_ELEMENTS(run_fn, scalar_fn)                                               \
    r->end = pos;                                                                       \
    return FM_OK;                                                                       \
  }

#endif
