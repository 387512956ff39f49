/* fm_string.c - the ASN.1 character strings BMPString, IA5String,
 * VisibleString, PrintableString and NumericString, and their DER primitive
 * encodings.
 *
 * BMPString content is big-endian UCS-2 (X.690; .NET's BMPEncoding): two
 * bytes per char, plane 0 only, so the code units 0xD800-0xDFFF are invalid
 * and a leading FE FF is the ordinary char U+FEFF. Encode and decode are the
 * same operation, a byte swap of every 16-bit unit, with the surrogate test
 * done on the native unit (before the swap when encoding, after it when
 * decoding). The other kinds hold one byte per char, each from its own set
 * of ASCII chars (IA5String 0x00-0x7F, VisibleString 0x20-0x7E,
 * PrintableString and NumericString the sets of X.680 41.4): encoding narrows
 * 16-bit units to bytes, decoding widens them.
 *
 * SIMD paths test a whole block (several vectors, then single ones) before
 * storing it; a block that holds a bad unit is left to the scalar loop, which
 * finds the exact index. Testing before storing also makes the in-place calls
 * (out == in) safe: a block is either stored whole or not at all. The scalar
 * path finishes what the SIMD path leaves and is the whole of the scalar build.
 */
#include <stdbool.h>
#include <string.h>

#include "fastmp.h"
#include "fm_platform.h"
#include "fm_result.h"

/* ---- char sets -------------------------------------------------------------
 * Which chars each one-byte kind holds, stated once: IA5 and Visible as a
 * range (tested by the minimum and maximum of a block), Numeric as a range
 * and one more char (compares per vector), Printable as a predicate on a byte
 * c, from which its nibble table is made.
 *
 * Nibble table: every set within 0x00-0x7F is exact in 16 bytes. Byte l of the
 * table has bit h set when the char 0xhl is in the set; the char c is in it
 * when bit c >> 4 of nibbles[c & 15] is set. SIMD tests 16 bytes at once by
 * two swizzles: the table indexed by the low nibbles, and 1 << h indexed by
 * the high nibbles (0 for h >= 8, so bytes >= 0x80 fail), ANDed: a lane is
 * non-zero when its char is in the set (the classification of Muła and
 * Langdale's simdjson, and of .NET's vectorized ASN.1 strings). */
#define IN(c, a, b) ((c) >= (a) && (c) <= (b))
/* X.680 41.4 Table 10: PrintableString, A-Z a-z 0-9 space ' ( ) + , - . / : = ? */
#define PRINTABLE_CHAR(c)                                                                   \
  (IN(c, 'A', 'Z') || IN(c, 'a', 'z') || IN(c, '0', '9') || (c) == ' ' || IN(c, '\'', ')') || \
   IN(c, '+', '/') || (c) == ':' || (c) == '=' || (c) == '?')

#define NIBBLE_ROW(P, l)                                                                       \
  (uint8_t)(P(l) | P(0x10 + (l)) << 1 | P(0x20 + (l)) << 2 | P(0x30 + (l)) << 3 |              \
            P(0x40 + (l)) << 4 | P(0x50 + (l)) << 5 | P(0x60 + (l)) << 6 | P(0x70 + (l)) << 7)
#define NIBBLE_TABLE(P)                                                                        \
  {NIBBLE_ROW(P, 0),  NIBBLE_ROW(P, 1),  NIBBLE_ROW(P, 2),  NIBBLE_ROW(P, 3),                  \
   NIBBLE_ROW(P, 4),  NIBBLE_ROW(P, 5),  NIBBLE_ROW(P, 6),  NIBBLE_ROW(P, 7),                  \
   NIBBLE_ROW(P, 8),  NIBBLE_ROW(P, 9),  NIBBLE_ROW(P, 10), NIBBLE_ROW(P, 11),                 \
   NIBBLE_ROW(P, 12), NIBBLE_ROW(P, 13), NIBBLE_ROW(P, 14), NIBBLE_ROW(P, 15)}
static const uint8_t PRINTABLE_NIBBLES[16] __attribute__((aligned(16))) = NIBBLE_TABLE(PRINTABLE_CHAR);

/* The v128 constants that the SIMD tests of a set other than a range read
 * (see classify and in_range_or), each form its own fields. They are kept
 * in memory that LLVM cannot see into (external globals, filled as the
 * module starts) and loaded before a loop: constants it can see, LLVM
 * rewrites (a minimum and an equality into an unsigned compare, which V8
 * emulates in four instructions), and V8 rebuilds each v128 constant in
 * every iteration (see fm_int.c's limits). The NumericString and
 * PrintableString rows of `npm run bench` time the kernels that read them. */
struct set_vectors;
#if FM_SIMD
typedef struct set_vectors {
  v128_t low, high, nibble; /* a nibble table: the table, 1 << h (h < 8), 0x0F */
  v128_t lo, span, also;    /* a range and one more char: lo, hi - lo, the char */
} set_vectors;
set_vectors fm_printable_vectors, fm_numeric_vectors;
#define VECTORS(v) (&(v))
#else
#define VECTORS(v) NULL
#endif

/* The chars in [lo, hi] (hi <= 0x7F) and `also` (-1: none), and when
 * `nibbles` is set only those its table holds (`vectors`: what SIMD reads of
 * either). Passed by value into FM_INLINE kernels, so that each caller's
 * constant set folds into its code. */
typedef struct charset {
  uint8_t lo, hi;
  int16_t also;
  const uint8_t *nibbles;
  const struct set_vectors *vectors;
} charset;
#define IA5 ((charset){0x00, 0x7f, -1, NULL, NULL})
#define VISIBLE ((charset){0x20, 0x7e, -1, NULL, NULL})
/* X.680 41.4: NumericString, the digits and space. */
#define NUMERIC ((charset){'0', '9', ' ', NULL, VECTORS(fm_numeric_vectors)})
#define PRINTABLE ((charset){0x00, 0x7f, -1, PRINTABLE_NIBBLES, VECTORS(fm_printable_vectors)})
/* A set that is one range: tested by the minimum and maximum of a block. */
#define IS_RANGE(set) (!(set).nibbles && (set).also < 0)

static inline bool in_set(charset set, uint16_t u) {
  if (u == set.also) return true;
  if (u < set.lo || u > set.hi) return false;
  return !set.nibbles || (set.nibbles[u & 15] >> (u >> 4) & 1);
}

/* ---- results --------------------------------------------------------------- */

/* Moves r's offsets (`end` on success, `offset` on failure) `shift` bytes on,
 * past a DER header. */
static fm_code shifted(fm_result *r, size_t shift) {
  if (r->code == FM_OK) {
    r->end += shift;
  } else {
    r->offset += shift;
  }
  return (fm_code)r->code;
}

static inline uint16_t load_u16(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}

static inline bool is_surrogate(uint16_t u) { return (uint16_t)(u - 0xd800u) < 0x800u; }

/* ---- SIMD -------------------------------------------------------------------- */
#if FM_SIMD

/* Swaps the two bytes of every 16-bit lane. Two shifts and an or need no v128
 * constant, where a shuffle needs a mask (V8 rebuilds every v128 constant on
 * each loop iteration; see fm_float.c). */
FM_INLINE v128_t swap16(v128_t v) { return wasm_v128_or(wasm_i16x8_shl(v, 8), wasm_u16x8_shr(v, 8)); }

/* Adding 0x2800 moves the surrogates 0xD800-0xDFFF to 0x0000-0x07FF, the only
 * units whose top 5 bits are then clear. The minimum over several vectors of
 * these biased units is below 0x800 in some lane iff one of them holds a
 * surrogate: one constant and one test per block. */
#define SURROGATE_BIAS 0x2800
FM_INLINE bool no_surrogate(v128_t biased_min) {
  return wasm_i16x8_all_true(wasm_u16x8_shr(biased_min, 11));
}

/* Swaps whole blocks of units from `in` to `out` while they hold no surrogate;
 * returns the number of units done. `wire_in`: the input is big-endian (decode),
 * so the test applies to the swapped units; otherwise to the input units.
 * Blocks of 8 vectors (64 units), then single vectors: in V8 the swap runs
 * faster the more vectors one test covers, and 8 beat 4 and 2. */
FM_INLINE size_t bmp_swap_simd(const uint8_t *in, size_t n, uint8_t *out, bool wire_in) {
  const v128_t bias = wasm_i16x8_splat(SURROGATE_BIAS);
  size_t i = 0;
  for (; n - i >= 64; i += 64) {
    v128_t v[8], s[8];
    for (int k = 0; k < 8; k++) {
      v[k] = wasm_v128_load(in + 2 * i + 16 * k);
      s[k] = swap16(v[k]);
    }
    const v128_t *u = wire_in ? s : v;
    v128_t m = wasm_i16x8_add(u[0], bias);
    for (int k = 1; k < 8; k++) m = wasm_u16x8_min(m, wasm_i16x8_add(u[k], bias));
    if (!no_surrogate(m)) return i;
    for (int k = 0; k < 8; k++) wasm_v128_store(out + 2 * i + 16 * k, s[k]);
  }
  for (; n - i >= 8; i += 8) {
    v128_t v = wasm_v128_load(in + 2 * i);
    v128_t s = swap16(v);
    if (!no_surrogate(wasm_i16x8_add(wire_in ? s : v, bias))) return i;
    wasm_v128_store(out + 2 * i, s);
  }
  return i;
}

/* Narrows whole blocks of BMP content (big-endian units) to their low bytes
 * while every unit of a block is at most the caller's max; returns the units
 * done. `wide`: the bits of a unit, as a little-endian lane holds it, that
 * are 0 in every unit <= max (see bmp_narrow). One OR over the block's
 * vectors, one test; the low byte of a wire unit is the high byte of the
 * lane, taken by a shift and an exact narrow (no v128 constant). */
FM_INLINE size_t bmp_narrow_simd(const uint8_t *in, size_t n, uint8_t *out, uint16_t wide) {
  const v128_t mask = wasm_i16x8_splat((int16_t)wide);
  size_t i = 0;
  for (; n - i >= 64; i += 64) {
    v128_t v[8];
    for (int k = 0; k < 8; k++) v[k] = wasm_v128_load(in + 2 * i + 16 * k);
    v128_t any = v[0];
    for (int k = 1; k < 8; k++) any = wasm_v128_or(any, v[k]);
    if (wasm_v128_any_true(wasm_v128_and(any, mask))) return i;
    for (int k = 0; k < 4; k++) {
      v128_t low = wasm_u8x16_narrow_i16x8(wasm_u16x8_shr(v[2 * k], 8), wasm_u16x8_shr(v[2 * k + 1], 8));
      wasm_v128_store(out + i + 16 * k, low);
    }
  }
  for (; n - i >= 16; i += 16) {
    v128_t a = wasm_v128_load(in + 2 * i), b = wasm_v128_load(in + 2 * i + 16);
    if (wasm_v128_any_true(wasm_v128_and(wasm_v128_or(a, b), mask))) return i;
    wasm_v128_store(out + i, wasm_u8x16_narrow_i16x8(wasm_u16x8_shr(a, 8), wasm_u16x8_shr(b, 8)));
  }
  return i;
}

/* True when every unsigned 16-bit unit of a block is in [lo, hi] (hi <=
 * 0x7F): tested on the lane-wise minimum and maximum of the block. For lo == 0
 * and hi == 0x7F one shift does it, with no constant. */
FM_INLINE bool units_in_range(v128_t mn, v128_t mx, uint16_t lo, uint16_t hi) {
  if (lo == 0 && hi == 0x7f) return !wasm_v128_any_true(wasm_u16x8_shr(mx, 7));
  v128_t bad = wasm_u16x8_gt(mx, wasm_i16x8_splat((int16_t)hi));
  if (lo) bad = wasm_v128_or(bad, wasm_u16x8_lt(mn, wasm_i16x8_splat((int16_t)lo)));
  return !wasm_v128_any_true(bad);
}

/* The same for bytes (hi <= 0x7F): for IA5 the sign bits alone tell. */
FM_INLINE bool bytes_in_range(v128_t mn, v128_t mx, uint8_t lo, uint8_t hi) {
  if (lo == 0 && hi == 0x7f) return wasm_i8x16_bitmask(mx) == 0;
  v128_t bad = wasm_u8x16_gt(mx, wasm_i8x16_splat((int8_t)hi));
  if (lo) bad = wasm_v128_or(bad, wasm_u8x16_lt(mn, wasm_i8x16_splat((int8_t)lo)));
  return !wasm_v128_any_true(bad);
}

__attribute__((constructor)) static void init_set_vectors(void) {
  fm_printable_vectors.low = wasm_v128_load(PRINTABLE_NIBBLES);
  fm_printable_vectors.high = wasm_i8x16_make(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
  fm_printable_vectors.nibble = wasm_i8x16_splat(0x0f);
  const charset numeric = NUMERIC;
  fm_numeric_vectors.lo = wasm_i8x16_splat((int8_t)numeric.lo);
  fm_numeric_vectors.span = wasm_i8x16_splat((int8_t)(numeric.hi - numeric.lo));
  fm_numeric_vectors.also = wasm_i8x16_splat((int8_t)numeric.also);
}

/* Lanes non-zero where the byte is in the nibble table's set (see "char
 * sets"); zero for every byte >= 0x80 (a high nibble of 8-15 takes 0 from
 * `high`). The high nibbles by a 16-bit shift and the low-nibble mask: V8
 * has no byte shift, and builds one from five instructions. */
FM_INLINE v128_t classify(v128_t v, const set_vectors *t) {
  v128_t by_low = wasm_i8x16_swizzle(t->low, wasm_v128_and(v, t->nibble));
  return wasm_v128_and(by_low, wasm_i8x16_swizzle(t->high, wasm_v128_and(wasm_u16x8_shr(v, 4), t->nibble)));
}

/* Lanes all ones where the byte is in [lo, hi] or is `also`: v - lo is at
 * most hi - lo (unsigned) when its minimum with hi - lo is itself. */
FM_INLINE v128_t in_range_or(v128_t v, const set_vectors *t) {
  v128_t d = wasm_i8x16_sub(v, t->lo);
  return wasm_v128_or(wasm_i8x16_eq(wasm_u8x16_min(d, t->span), d), wasm_i8x16_eq(v, t->also));
}

/* True when every byte of the k vectors v[0..k) is in the set: a range by
 * the minimum and maximum of them all, a nibble table by the minimum of their
 * classes (zero somewhere iff some byte is out), a range and one more char
 * by the AND of each vector's compares. */
FM_INLINE bool bytes_in_set(const v128_t *v, int k, charset set) {
  if (set.nibbles) {
    v128_t m = classify(v[0], set.vectors);
    for (int i = 1; i < k; i++) m = wasm_u8x16_min(m, classify(v[i], set.vectors));
    return wasm_i8x16_all_true(m);
  }
  if (set.also >= 0) {
    v128_t m = in_range_or(v[0], set.vectors);
    for (int i = 1; i < k; i++) m = wasm_v128_and(m, in_range_or(v[i], set.vectors));
    return wasm_i8x16_all_true(m);
  }
  v128_t mn = v[0], mx = v[0];
  for (int i = 1; i < k; i++) {
    mx = wasm_u8x16_max(mx, v[i]);
    if (set.lo) mn = wasm_u8x16_min(mn, v[i]);
  }
  return bytes_in_range(mn, mx, set.lo, set.hi);
}

/* Narrows 16 units per block to 16 bytes while all are in the set. Units are
 * tested for the range first (a set that is no range: for 0x00-0x7F): then
 * the saturating narrow is exact (every unit <= 0x7F), and the narrowed
 * bytes are tested for the rest of the set. */
FM_INLINE size_t narrow_simd(const uint16_t *in, size_t n, uint8_t *out, charset set) {
  const bool range = IS_RANGE(set);
  size_t i = 0;
  for (; n - i >= 16; i += 16) {
    v128_t a = wasm_v128_load(in + i), b = wasm_v128_load(in + i + 8);
    if (!units_in_range(wasm_u16x8_min(a, b), wasm_u16x8_max(a, b), range ? set.lo : 0, range ? set.hi : 0x7f)) return i;
    v128_t v = wasm_u8x16_narrow_i16x8(a, b);
    if (!range && !bytes_in_set(&v, 1, set)) return i;
    wasm_v128_store(out + i, v);
  }
  return i;
}

/* Widens 16 bytes per block to 16 units while all are in the set. */
FM_INLINE size_t widen_simd(const uint8_t *in, size_t n, uint16_t *out, charset set) {
  size_t i = 0;
  for (; n - i >= 16; i += 16) {
    v128_t v = wasm_v128_load(in + i);
    if (!bytes_in_set(&v, 1, set)) return i;
    wasm_v128_store(out + i, wasm_u16x8_extend_low_u8x16(v));
    wasm_v128_store(out + i + 8, wasm_u16x8_extend_high_u8x16(v));
  }
  return i;
}

/* Checks 64 bytes per block, then 16, while all are in the set. */
FM_INLINE size_t check_simd(const uint8_t *in, size_t n, charset set) {
  size_t i = 0;
  for (; n - i >= 64; i += 64) {
    v128_t v[4];
    for (int k = 0; k < 4; k++) v[k] = wasm_v128_load(in + i + 16 * k);
    if (!bytes_in_set(v, 4, set)) return i;
  }
  for (; n - i >= 16; i += 16) {
    v128_t v = wasm_v128_load(in + i);
    if (!bytes_in_set(&v, 1, set)) return i;
  }
  return i;
}

#endif /* FM_SIMD */

/* ---- scalar ------------------------------------------------------------------ */
/* Each continues from unit i and returns the index of the first bad unit, or n.
 * BMP and the byte checks first take 64-bit words (SWAR: 4 units or 8 bytes
 * at a time, faster than the unit loop in the scalar wasm build); a word
 * that holds a bad unit is left to the unit loop, which finds the exact
 * index. */

/* x in each 16-bit / 8-bit part of a 64-bit word. */
#define BROADCAST16(x) (0x0001000100010001ull * (x))
#define BROADCAST8(x) (0x0101010101010101ull * (x))

/* True when none of the 4 units of w is a surrogate: (u & 0xF800) ^ 0xD800 is
 * 0 only for surrogates; its top 5 bits, plus 31, carry into bit 5 of the
 * lane unless they are all 0 (no carry reaches the next lane). */
static inline bool word_no_surrogate(uint64_t w) {
  uint64_t top = (((w & BROADCAST16(0xf800)) ^ BROADCAST16(0xd800)) >> 11) & BROADCAST16(0x1f);
  return ((top + BROADCAST16(0x1f)) & BROADCAST16(0x20)) == BROADCAST16(0x20);
}

/* True when every byte of w is in [lo, hi], hi <= 0x7F (Hacker's Delight
 * "has less" / "has more" tests, exact for these bounds). */
static inline bool word_in_range(uint64_t w, uint8_t lo, uint8_t hi) {
  uint64_t high = BROADCAST8(0x80);
  uint64_t above = ((w + BROADCAST8(0x7f - hi)) | w) & high;
  uint64_t below = lo ? (w - BROADCAST8(lo)) & ~w & high : 0;
  return (above | below) == 0;
}

static size_t bmp_swap_scalar(const uint8_t *in, size_t i, size_t n, uint8_t *out, bool wire_in) {
  for (; n - i >= 4; i += 4) {
    uint64_t v;
    memcpy(&v, in + 2 * i, 8);
    uint64_t s = ((v >> 8) & BROADCAST16(0x00ff)) | ((v & BROADCAST16(0x00ff)) << 8);
    if (!word_no_surrogate(wire_in ? s : v)) break;
    memcpy(out + 2 * i, &s, 8);
  }
  for (; i < n; i++) {
    uint16_t v = load_u16(in + 2 * i);
    uint16_t s = __builtin_bswap16(v);
    if (is_surrogate(wire_in ? s : v)) return i;
    memcpy(out + 2 * i, &s, 2);
  }
  return n;
}

/* 4 units a word while none has a `wide` bit (as bmp_narrow_simd), then unit
 * by unit to the exact first unit above max. */
static size_t bmp_narrow_scalar(const uint8_t *in, size_t i, size_t n, uint8_t *out, uint16_t wide) {
  for (; n - i >= 4; i += 4) {
    uint64_t w;
    memcpy(&w, in + 2 * i, 8);
    if (w & BROADCAST16(wide)) break;
    /* The low byte of unit k is byte 2k + 1 of the word. */
    uint32_t low = (uint32_t)((w >> 8) & 0xffu) | (uint32_t)((w >> 16) & 0xff00u) |
                   (uint32_t)((w >> 24) & 0xff0000u) | (uint32_t)((w >> 32) & 0xff000000u);
    memcpy(out + i, &low, 4);
  }
  for (; i < n; i++) {
    if ((load_u16(in + 2 * i) & wide) != 0) return i;
    out[i] = in[2 * i + 1];
  }
  return n;
}

static size_t narrow_scalar(const uint16_t *in, size_t i, size_t n, uint8_t *out, charset set) {
  for (; i < n; i++) {
    uint16_t u = in[i];
    if (!in_set(set, u)) return i;
    out[i] = (uint8_t)u;
  }
  return n;
}

static size_t widen_scalar(const uint8_t *in, size_t i, size_t n, uint16_t *out, charset set) {
  for (; i < n; i++) {
    uint8_t c = in[i];
    if (!in_set(set, c)) return i;
    out[i] = c;
  }
  return n;
}

/* Ranges take 8 bytes a word first; other sets are tested byte by byte. */
static size_t check_scalar(const uint8_t *in, size_t i, size_t n, charset set) {
  for (; IS_RANGE(set) && n - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, in + i, 8);
    if (!word_in_range(w, set.lo, set.hi)) break;
  }
  for (; i < n; i++) {
    if (!in_set(set, in[i])) return i;
  }
  return n;
}

/* ---- the kernels: SIMD for whole blocks, scalar for the rest ----------------- */
/* FM_INLINE so that the constant ranges and directions fold into each caller. */

FM_INLINE size_t bmp_swap(const uint8_t *in, size_t n, uint8_t *out, bool wire_in) {
  size_t done = 0;
#if FM_SIMD
  done = bmp_swap_simd(in, n, out, wire_in);
#endif
  return bmp_swap_scalar(in, done, n, out, wire_in);
}

FM_INLINE size_t narrow(const uint16_t *in, size_t n, uint8_t *out, charset set) {
  size_t done = 0;
#if FM_SIMD
  done = narrow_simd(in, n, out, set);
#endif
  return narrow_scalar(in, done, n, out, set);
}

FM_INLINE size_t widen(const uint8_t *in, size_t n, uint16_t *out, charset set) {
  size_t done = 0;
#if FM_SIMD
  done = widen_simd(in, n, out, set);
#endif
  return widen_scalar(in, done, n, out, set);
}

FM_INLINE size_t check(const uint8_t *in, size_t n, charset set) {
  size_t done = 0;
#if FM_SIMD
  done = check_simd(in, n, set);
#endif
  return check_scalar(in, done, n, set);
}

/* ---- BMPString ----------------------------------------------------------------- */

FM_EXPORT fm_code fm_bmp_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  size_t bad = bmp_swap((const uint8_t *)in, n, out, false);
  if (bad < n) return fm_fail(r, FM_ERR_SURROGATE, 0, bad, 2 * bad, 0, in[bad]);
  return fm_ok(r, n, 2 * n);
}

FM_EXPORT fm_code fm_bmp_decode(const uint8_t *in, size_t len, uint16_t *out, fm_result *r) {
  /* The whole length is checked first: a half char at the end is an error
   * whatever the chars before it hold. */
  if (len % 2) return fm_fail(r, FM_ERR_ODD_LENGTH, 0, len / 2, len - 1, 0, in[len - 1]);
  size_t n = len / 2;
  size_t bad = bmp_swap(in, n, (uint8_t *)out, true);
  if (bad < n) {
    /* Not yet stored: in place, the unit at `bad` still holds its input. */
    uint16_t unit = __builtin_bswap16(load_u16(in + 2 * bad));
    return fm_fail(r, FM_ERR_SURROGATE, 0, bad, 2 * bad, 0, unit);
  }
  return fm_ok(r, n, len);
}

/* BMPString content to one byte per char while every char is at most max
 * (the contract: c/fastmp.h). */
FM_EXPORT size_t fm_bmp_narrow(const uint8_t *in, size_t n, uint8_t *out, uint32_t max) {
  /* As a little-endian lane holds a wire unit: its high byte in the lane's
   * low byte (all 8 bits must be 0), its low byte above max's bits. */
  uint16_t wide = (uint16_t)(0x00ffu | (~max & 0xffu) << 8);
  size_t done = 0;
#if FM_SIMD
  done = bmp_narrow_simd(in, n, out, wide);
#endif
  return bmp_narrow_scalar(in, done, n, out, wide);
}

/* ---- the one-byte kinds: IA5String, VisibleString, PrintableString,
 *      NumericString ---------------------------------------------------------- */

FM_INLINE fm_code encode_narrow(const uint16_t *in, size_t n, uint8_t *out, charset set,
                                fm_result *r) {
  size_t bad = narrow(in, n, out, set);
  if (bad < n) return fm_fail(r, FM_ERR_RANGE_CHAR, 0, bad, bad, 0, in[bad]);
  return fm_ok(r, n, n);
}

FM_INLINE fm_code decode_widen(const uint8_t *in, size_t n, uint16_t *out, charset set,
                               fm_result *r) {
  size_t bad = widen(in, n, out, set);
  if (bad < n) return fm_fail(r, FM_ERR_RANGE_CHAR, 0, bad, bad, 0, in[bad]);
  return fm_ok(r, n, n);
}

FM_INLINE fm_code check_bytes(const uint8_t *in, size_t n, charset set, fm_result *r) {
  size_t bad = check(in, n, set);
  if (bad < n) return fm_fail(r, FM_ERR_RANGE_CHAR, 0, bad, bad, 0, in[bad]);
  return fm_ok(r, n, n);
}

FM_EXPORT fm_code fm_ia5_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return encode_narrow(in, n, out, IA5, r);
}

FM_EXPORT fm_code fm_visible_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return encode_narrow(in, n, out, VISIBLE, r);
}

FM_EXPORT fm_code fm_printable_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return encode_narrow(in, n, out, PRINTABLE, r);
}

FM_EXPORT fm_code fm_numeric_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return encode_narrow(in, n, out, NUMERIC, r);
}

FM_EXPORT fm_code fm_ia5_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r) {
  return decode_widen(in, n, out, IA5, r);
}

FM_EXPORT fm_code fm_visible_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r) {
  return decode_widen(in, n, out, VISIBLE, r);
}

FM_EXPORT fm_code fm_printable_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r) {
  return decode_widen(in, n, out, PRINTABLE, r);
}

FM_EXPORT fm_code fm_numeric_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r) {
  return decode_widen(in, n, out, NUMERIC, r);
}

FM_EXPORT fm_code fm_ia5_check(const uint8_t *in, size_t n, fm_result *r) {
  return check_bytes(in, n, IA5, r);
}

FM_EXPORT fm_code fm_visible_check(const uint8_t *in, size_t n, fm_result *r) {
  return check_bytes(in, n, VISIBLE, r);
}

FM_EXPORT fm_code fm_printable_check(const uint8_t *in, size_t n, fm_result *r) {
  return check_bytes(in, n, PRINTABLE, r);
}

FM_EXPORT fm_code fm_numeric_check(const uint8_t *in, size_t n, fm_result *r) {
  return check_bytes(in, n, NUMERIC, r);
}

/* ---- DER ------------------------------------------------------------------------ */

size_t fm_der_write_header(uint8_t *out, uint8_t tag, uint32_t length) {
  out[0] = tag;
  if (length < 0x80) {
    out[1] = (uint8_t)length;
    return 2;
  }
  size_t octets = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
  out[1] = (uint8_t)(0x80 | octets);
  for (size_t k = 0; k < octets; k++) out[2 + k] = (uint8_t)(length >> (8 * (octets - 1 - k)));
  return 2 + octets;
}

/* X.690 8.1.3 and DER's 10.1: primitive form, definite length, fewest octets.
 * A failure names the tag (offset 0) or the first length octet (offset 1),
 * and the byte found there. */
fm_code fm_der_read_header(const uint8_t *in, size_t len, uint8_t tag, size_t *content,
                           fm_result *r) {
  if (len == 0) return fm_fail(r, FM_ERR_TRUNCATED, 0, FM_NO_INDEX, 0, 0, 0);
  if (in[0] != tag) {
    fm_code code = in[0] == (tag | 0x20) ? FM_ERR_DER_CONSTRUCTED : FM_ERR_DER_TAG;
    return fm_fail(r, code, 0, FM_NO_INDEX, 0, in[0], 0);
  }
  if (len < 2) return fm_fail(r, FM_ERR_TRUNCATED, 0, FM_NO_INDEX, 1, 0, 0);
  uint8_t first = in[1];
  size_t header = 2;
  uint32_t length = first;
  if (first == 0x80) return fm_fail(r, FM_ERR_DER_INDEFINITE, 0, FM_NO_INDEX, 1, first, 0);
  if (first > 0x80) {
    size_t octets = first & 0x7f;
    if (first == 0xff || octets > 4) {
      return fm_fail(r, FM_ERR_DER_LENGTH, 0, FM_NO_INDEX, 1, first, 0);
    }
    if (len - 2 < octets) return fm_fail(r, FM_ERR_TRUNCATED, 0, FM_NO_INDEX, 1, first, 0);
    length = 0;
    for (size_t k = 0; k < octets; k++) length = length << 8 | in[2 + k];
    /* A leading zero octet, or one octet for a length below 0x80. */
    if (in[2] == 0 || length < 0x80) {
      return fm_fail(r, FM_ERR_DER_NONMINIMAL, 0, FM_NO_INDEX, 1, first, 0);
    }
    header += octets;
  }
  if (length > len - header) return fm_fail(r, FM_ERR_TRUNCATED, 0, FM_NO_INDEX, 1, first, 0);
  *content = header;
  return fm_ok(r, 0, header + length);
}

fm_code fm_der_read_bmp(const uint8_t *in, size_t len, uint16_t *out, fm_result *r) {
  size_t content;
  if (fm_der_read_header(in, len, FM_DER_BMP_STRING, &content, r) != FM_OK) return (fm_code)r->code;
  fm_bmp_decode(in + content, r->end - content, out, r);
  return shifted(r, content);
}

/* A whole DER string of a one-byte kind. */
FM_INLINE fm_code der_read_narrow(const uint8_t *in, size_t len, uint16_t *out, uint8_t tag,
                                  charset set, fm_result *r) {
  size_t content;
  if (fm_der_read_header(in, len, tag, &content, r) != FM_OK) return (fm_code)r->code;
  decode_widen(in + content, r->end - content, out, set, r);
  return shifted(r, content);
}

fm_code fm_der_read_ia5(const uint8_t *in, size_t len, uint16_t *out, fm_result *r) {
  return der_read_narrow(in, len, out, FM_DER_IA5_STRING, IA5, r);
}

fm_code fm_der_read_visible(const uint8_t *in, size_t len, uint16_t *out, fm_result *r) {
  return der_read_narrow(in, len, out, FM_DER_VISIBLE_STRING, VISIBLE, r);
}

fm_code fm_der_read_printable(const uint8_t *in, size_t len, uint16_t *out, fm_result *r) {
  return der_read_narrow(in, len, out, FM_DER_PRINTABLE_STRING, PRINTABLE, r);
}

fm_code fm_der_read_numeric(const uint8_t *in, size_t len, uint16_t *out, fm_result *r) {
  return der_read_narrow(in, len, out, FM_DER_NUMERIC_STRING, NUMERIC, r);
}

/* Content longer than FM_DER_MAX_LENGTH bytes has no DER length here:
 * FM_ERR_DER_LENGTH, at no char and no byte. */
fm_code fm_der_write_bmp(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  if (n > FM_DER_MAX_LENGTH / 2) return fm_fail(r, FM_ERR_DER_LENGTH, 0, FM_NO_INDEX, 0, 0, 0);
  size_t header = fm_der_write_header(out, FM_DER_BMP_STRING, (uint32_t)(2 * n));
  fm_bmp_encode(in, n, out + header, r);
  return shifted(r, header);
}

FM_INLINE fm_code der_write_narrow(const uint16_t *in, size_t n, uint8_t *out, uint8_t tag,
                                   charset set, fm_result *r) {
  if (n > FM_DER_MAX_LENGTH) return fm_fail(r, FM_ERR_DER_LENGTH, 0, FM_NO_INDEX, 0, 0, 0);
  size_t header = fm_der_write_header(out, tag, (uint32_t)n);
  encode_narrow(in, n, out + header, set, r);
  return shifted(r, header);
}

fm_code fm_der_write_ia5(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return der_write_narrow(in, n, out, FM_DER_IA5_STRING, IA5, r);
}

fm_code fm_der_write_visible(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return der_write_narrow(in, n, out, FM_DER_VISIBLE_STRING, VISIBLE, r);
}

fm_code fm_der_write_printable(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return der_write_narrow(in, n, out, FM_DER_PRINTABLE_STRING, PRINTABLE, r);
}

fm_code fm_der_write_numeric(const uint16_t *in, size_t n, uint8_t *out, fm_result *r) {
  return der_write_narrow(in, n, out, FM_DER_NUMERIC_STRING, NUMERIC, r);
}
