/* fm_fuzz.h - what the libFuzzer targets share: the element types as one
 * table, a reference decoder written from the wire rules (REFERENCE.md, not
 * from the kernels' helpers), exact-size buffers, and the checks that abort
 * on any disagreement.
 *
 * Every buffer a kernel touches is a separate malloc of exactly the size the
 * API documents (plus FM_PACK_SLACK for packers), so AddressSanitizer reports
 * any read or write past it. The kernels are built with the SIMD paths on
 * (SIMDe on x86-64) unless a target says otherwise.
 */
#ifndef FM_FUZZ_H
#define FM_FUZZ_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fastmp.h"

/* Each target uses part of what is here. */
#define FUZZ_FN static __attribute__((unused))

/* ---- failing loudly ------------------------------------------------------ */

#define FUZZ_CHECK(cond, ...)                                                     \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                               \
      fprintf(stderr, "\n");                                                      \
      abort();                                                                    \
    }                                                                             \
  } while (0)

/* A heap block of exactly `size` bytes (one byte when size is 0, never used). */
FUZZ_FN inline void *fuzz_alloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) abort();
  return p;
}

FUZZ_FN inline void fuzz_expect_result(const char *what, const fm_result *got, const fm_result *want) {
  FUZZ_CHECK(got->code == want->code && got->count == want->count && got->index == want->index &&
                 got->offset == want->offset && got->end == want->end && got->tag == want->tag &&
                 got->value == want->value,
             "%s: got code %u count %u index %lld offset %zu end %zu tag %u value %llx;\n"
             "  want code %u count %u index %lld offset %zu end %zu tag %u value %llx",
             what, got->code, got->count, (long long)got->index, got->offset, got->end, got->tag,
             (unsigned long long)got->value, want->code, want->count, (long long)want->index,
             want->offset, want->end, want->tag, (unsigned long long)want->value);
}

/* ---- the element types ----------------------------------------------------- */

typedef size_t (*fuzz_pack_fn)(const void *in, size_t n, uint8_t *out);
typedef fm_code (*fuzz_unpack_fn)(const uint8_t *in, size_t len, void *out, size_t capacity,
                                  uint32_t flags, fm_result *r);

/* FM_TYPE_<name> (fastmp.h) indexes the tables below. */
typedef struct fuzz_type {
  const char *name;
  size_t size;     /* bytes per element */
  size_t max_wire; /* bytes of the largest msgpack form of an element */
  bool is_float, is_signed;
  int64_t min;
  uint64_t max;
} fuzz_type;

/* A row from fastmp.h's type lists: the range of an integer type from its C
 * type's width and signedness alone. These macros take `name` already pasted
 * or quoted: passed on as it is, bool would become _Bool (<stdbool.h>). */
#define FUZZ_IS_SIGNED(T) (!((T)-1 > 0))
#define FUZZ_INT_MAX(T) (UINT64_MAX >> (64 - 8 * sizeof(T) + FUZZ_IS_SIGNED(T)))
#define FUZZ_INT_MIN(T) (FUZZ_IS_SIGNED(T) ? -(int64_t)FUZZ_INT_MAX(T) - 1 : 0)
#define FUZZ_ROW(type, name, T, wire, is_float, min, max) \
  [type] = {name, sizeof(T), wire, is_float, FUZZ_IS_SIGNED(T), min, max},
#define FUZZ_FLOAT_ROW(name, T, wire) FUZZ_ROW(FM_TYPE_##name, #name, T, wire, true, 0, 0)
#define FUZZ_INT_ROW(name, T, wire) \
  FUZZ_ROW(FM_TYPE_##name, #name, T, wire, false, FUZZ_INT_MIN(T), FUZZ_INT_MAX(T))
#define FUZZ_BOOL_ROW(name, T, wire) FUZZ_ROW(FM_TYPE_##name, #name, T, wire, false, 0, 1)

static const fuzz_type FUZZ_TYPES[FM_TYPE_COUNT] = {
    FM_FLOAT_TYPES(FUZZ_FLOAT_ROW) FM_INT_TYPES(FUZZ_INT_ROW) FM_BOOL_TYPES(FUZZ_BOOL_ROW)};

/* Uniform faces of the typed kernels of one build, and their table by
 * FM_TYPE_<name>. */
typedef struct fuzz_kernels {
  fuzz_pack_fn pack;
  fuzz_unpack_fn unpack;
} fuzz_kernels;

#define FUZZ_FACES(pack_face, unpack_face, pack, unpack, T)                                \
  FUZZ_FN size_t pack_face(const void *in, size_t n, uint8_t *out) {                        \
    return pack((const T *)in, n, out);                                                     \
  }                                                                                         \
  FUZZ_FN fm_code unpack_face(const uint8_t *in, size_t len, void *out, size_t capacity,    \
                              uint32_t flags, fm_result *r) {                               \
    return unpack(in, len, (T *)out, capacity, flags, r);                                   \
  }

/* The kernels under test (for the differential target: the SIMD set). */
#define FUZZ_FACES_OF(name, T, wire) \
  FUZZ_FACES(pack_##name##_face, unpack_##name##_face, fm_pack_##name, fm_unpack_##name, T)
#define FUZZ_KERNELS_OF(name, T, wire) [FM_TYPE_##name] = {pack_##name##_face, unpack_##name##_face},
FM_ELEMENT_TYPES(FUZZ_FACES_OF)
static const fuzz_kernels FUZZ_KERNELS[FM_TYPE_COUNT] __attribute__((unused)) = {
    FM_ELEMENT_TYPES(FUZZ_KERNELS_OF)};

/* ---- reference decoder ------------------------------------------------------
 * Written from the wire rules, element by element, with no SIMD and none of
 * the kernels' helpers: what fm_unpack_<type> must return, field for field,
 * and the values it must store. */

FUZZ_FN inline uint64_t ref_be(const uint8_t *p, size_t bytes) {
  uint64_t v = 0;
  for (size_t k = 0; k < bytes; k++) v = v << 8 | p[k];
  return v;
}

FUZZ_FN inline fm_code ref_fail(fm_result *r, fm_code code, size_t index, size_t offset,
                               const uint8_t *in, size_t len, uint64_t value) {
  r->code = code;
  r->index = index;
  r->offset = offset;
  r->end = 0;
  r->tag = offset < len ? in[offset] : 0;
  r->value = value;
  return code;
}

/* f64 bits -> f32 bits: a NaN keeps its sign and top 22 payload bits and is
 * made quiet; every other value rounds to nearest even. */
FUZZ_FN inline uint32_t ref_f64_to_f32(uint64_t b) {
  if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) {
    uint32_t sign = (uint32_t)(b >> 63) << 31;
    uint32_t payload = (uint32_t)((b >> 29) & 0x3fffff); /* f64 payload bits 50..29 */
    return sign | 0x7fc00000u | payload;
  }
  double d;
  memcpy(&d, &b, 8);
  float f = (float)d;
  uint32_t out;
  memcpy(&out, &f, 4);
  return out;
}

/* f32 bits -> f64 bits: exact; a NaN keeps its payload bit for bit. */
FUZZ_FN inline uint64_t ref_f32_to_f64(uint32_t b) {
  if ((b & 0x7fffffffu) > 0x7f800000u) {
    return (uint64_t)(b >> 31) << 63 | 0x7ff0000000000000ull | (uint64_t)(b & 0x7fffff) << 29;
  }
  float f;
  memcpy(&f, &b, 4);
  double d = f;
  uint64_t out;
  memcpy(&out, &d, 8);
  return out;
}

/* Decodes like fm_unpack_<t>(in, len, out, capacity, flags, r). `out` holds
 * `capacity` elements of the type. */
FUZZ_FN fm_code ref_unpack(int t, const uint8_t *in, size_t len, void *out, size_t capacity,
                          uint32_t flags, fm_result *r) {
  const fuzz_type *ty = &FUZZ_TYPES[t];
  memset(r, 0, sizeof *r);
  r->index = FM_NO_INDEX;
  if (len == 0) return ref_fail(r, FM_ERR_TRUNCATED, FM_NO_INDEX, 0, in, len, 0);
  size_t header;
  uint64_t count;
  if (in[0] >= 0x90 && in[0] <= 0x9f) {
    header = 1, count = in[0] - 0x90;
  } else if (in[0] == 0xdc || in[0] == 0xdd) {
    header = in[0] == 0xdc ? 3 : 5;
    if (len < header) return ref_fail(r, FM_ERR_TRUNCATED, FM_NO_INDEX, 0, in, len, 0);
    count = ref_be(in + 1, header - 1);
  } else {
    return ref_fail(r, FM_ERR_NOT_ARRAY, FM_NO_INDEX, 0, in, len, 0);
  }
  r->count = (uint32_t)count;
  if (header + count > len) return ref_fail(r, FM_ERR_LENGTH, FM_NO_INDEX, 0, in, len, 0);
  if (count > capacity) return ref_fail(r, FM_ERR_CAPACITY, FM_NO_INDEX, 0, in, len, 0);
  size_t pos = header;
  for (size_t i = 0; i < count; i++) {
    if (pos >= len) return ref_fail(r, FM_ERR_TRUNCATED, i, pos, in, len, 0);
    uint8_t tag = in[pos];
    if (t == FM_TYPE_bool) {
      if (tag != 0xc2 && tag != 0xc3) return ref_fail(r, FM_ERR_TYPE, i, pos, in, len, 0);
      ((uint8_t *)out)[i] = tag == 0xc3;
      pos++;
      continue;
    }
    /* kind: 'u' unsigned int, 's' signed int, 'f' float32, 'd' float64 */
    char kind;
    size_t size;
    uint64_t bits;
    if (tag <= 0x7f) {
      kind = 's', size = 1, bits = tag;
    } else if (tag >= 0xe0) {
      kind = 's', size = 1, bits = (uint64_t)(int64_t)(int8_t)tag;
    } else if (tag >= 0xcc && tag <= 0xd3) {
      kind = tag <= 0xcf ? 'u' : 's';
      size = 1 + ((size_t)1 << ((tag - 0xcc) & 3));
    } else if (tag == 0xca || tag == 0xcb) {
      kind = tag == 0xca ? 'f' : 'd';
      size = tag == 0xca ? 5 : 9;
    } else {
      return ref_fail(r, FM_ERR_TYPE, i, pos, in, len, 0);
    }
    if (size > len - pos) return ref_fail(r, FM_ERR_TRUNCATED, i, pos, in, len, 0);
    if (size > 1) {
      bits = ref_be(in + pos + 1, size - 1);
      if (kind == 's') { /* sign-extend the payload */
        unsigned shift = (unsigned)(64 - 8 * (size - 1));
        bits = shift < 64 ? (uint64_t)((int64_t)(bits << shift) >> shift) : bits;
      }
    }
    if (t == FM_TYPE_f32 || t == FM_TYPE_f64) {
      uint64_t d64;
      uint32_t f32;
      if (kind == 'f') {
        f32 = (uint32_t)bits, d64 = ref_f32_to_f64(f32);
      } else if (kind == 'd') {
        d64 = bits, f32 = ref_f64_to_f32(bits);
      } else {
        float f = kind == 'u' ? (float)bits : (float)(int64_t)bits;
        double d = kind == 'u' ? (double)bits : (double)(int64_t)bits;
        memcpy(&f32, &f, 4);
        memcpy(&d64, &d, 8);
      }
      if (t == FM_TYPE_f32) memcpy((uint8_t *)out + 4 * i, &f32, 4);
      else memcpy((uint8_t *)out + 8 * i, &d64, 8);
      pos += size;
      continue;
    }
    /* Integer targets: the exact value as a long double (64-bit mantissa on
     * x86-64: every int64 / uint64 is exact), range-checked. */
    long double v;
    if (kind == 'u') {
      v = (long double)bits;
    } else if (kind == 's') {
      v = (long double)(int64_t)bits;
    } else {
      if (!(flags & FM_INTEGRAL_FLOATS)) return ref_fail(r, FM_ERR_TYPE, i, pos, in, len, bits);
      if (kind == 'f') {
        float f;
        uint32_t b32 = (uint32_t)bits;
        memcpy(&f, &b32, 4);
        v = f;
      } else {
        double d;
        memcpy(&d, &bits, 8);
        v = d;
      }
      if (v != v || isinf(v) || floorl(v) != v) return ref_fail(r, FM_ERR_RANGE, i, pos, in, len, bits);
    }
    if (v < (long double)ty->min || v > (long double)ty->max) {
      return ref_fail(r, FM_ERR_RANGE, i, pos, in, len, bits);
    }
    uint64_t u = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
    memcpy((uint8_t *)out + ty->size * i, &u, ty->size); /* little-endian low bytes */
    pos += size;
  }
  r->end = pos;
  return FM_OK;
}

/* ---- reference encoder: the smallest form of each value ------------------------ */

FUZZ_FN inline size_t ref_put_header(uint8_t *out, size_t n) {
  if (n <= 15) {
    out[0] = (uint8_t)(0x90 | n);
    return 1;
  }
  size_t bytes = n <= 0xffff ? 2 : 4;
  out[0] = n <= 0xffff ? 0xdc : 0xdd;
  for (size_t k = 0; k < bytes; k++) out[1 + k] = (uint8_t)(n >> (8 * (bytes - 1 - k)));
  return 1 + bytes;
}

FUZZ_FN inline size_t ref_put_be(uint8_t *out, uint8_t tag, uint64_t v, size_t bytes) {
  out[0] = tag;
  for (size_t k = 0; k < bytes; k++) out[1 + k] = (uint8_t)(v >> (8 * (bytes - 1 - k)));
  return 1 + bytes;
}

/* Element i of a typed array of type t, as msgpack. */
FUZZ_FN size_t ref_put_element(int t, const uint8_t *typed, size_t i, uint8_t *out) {
  const fuzz_type *ty = &FUZZ_TYPES[t];
  uint64_t raw = 0;
  memcpy(&raw, typed + ty->size * i, ty->size);
  if (t == FM_TYPE_f32) return ref_put_be(out, 0xca, raw, 4);
  if (t == FM_TYPE_f64) return ref_put_be(out, 0xcb, raw, 8);
  if (t == FM_TYPE_bool) return out[0] = raw ? 0xc3 : 0xc2, 1;
  if (ty->is_signed) { /* sign-extend the element */
    unsigned shift = (unsigned)(64 - 8 * ty->size);
    if (shift) raw = (uint64_t)((int64_t)(raw << shift) >> shift);
  }
  int64_t s = (int64_t)raw;
  if (!ty->is_signed || s >= 0) {
    if (raw < 0x80) return out[0] = (uint8_t)raw, 1;
    if (raw <= 0xff) return ref_put_be(out, 0xcc, raw, 1);
    if (raw <= 0xffff) return ref_put_be(out, 0xcd, raw, 2);
    if (raw <= 0xffffffffu) return ref_put_be(out, 0xce, raw, 4);
    return ref_put_be(out, 0xcf, raw, 8);
  }
  if (s >= -32) return out[0] = (uint8_t)s, 1;
  if (s >= INT8_MIN) return ref_put_be(out, 0xd0, raw, 1);
  if (s >= INT16_MIN) return ref_put_be(out, 0xd1, raw, 2);
  if (s >= INT32_MIN) return ref_put_be(out, 0xd2, raw, 4);
  return ref_put_be(out, 0xd3, raw, 8);
}

/* ---- strings --------------------------------------------------------------------- */

enum { S_BMP, S_IA5, S_VISIBLE, S_PRINTABLE, S_NUMERIC, S_COUNT };
/* Each kind's chars: the range [lo, hi], or the chars listed in `set`
 * (written out from X.680 41.4, not from the kernels' tables). */
static const struct {
  const char *name;
  uint8_t tag, lo, hi;
  const char *set;
} FUZZ_STRINGS[S_COUNT] = {
    {"BMPString", FM_DER_BMP_STRING, 0, 0, NULL},
    {"IA5String", FM_DER_IA5_STRING, 0x00, 0x7f, NULL},
    {"VisibleString", FM_DER_VISIBLE_STRING, 0x20, 0x7e, NULL},
    {"PrintableString", FM_DER_PRINTABLE_STRING, 0, 0,
     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?"},
    {"NumericString", FM_DER_NUMERIC_STRING, 0, 0, "0123456789 "},
};

FUZZ_FN inline bool ref_unit_ok(int s, uint16_t u) {
  if (s == S_BMP) return u < 0xd800 || u > 0xdfff;
  const char *set = FUZZ_STRINGS[s].set;
  if (set) return u != 0 && u < 0x100 && strchr(set, u) != NULL; /* strchr finds the final NUL too */
  return u >= FUZZ_STRINGS[s].lo && u <= FUZZ_STRINGS[s].hi;
}

/* One build's string kernels by kind (P: the prefix of its names, empty for
 * the kernels under test), so that each target picks its kind's from a table. */
typedef struct fuzz_string_kernels {
  fm_code (*decode)(const uint8_t *, size_t, uint16_t *, fm_result *);
  fm_code (*encode)(const uint16_t *, size_t, uint8_t *, fm_result *);
  fm_code (*check)(const uint8_t *, size_t, fm_result *); /* NULL for BMP */
  fm_code (*der_read)(const uint8_t *, size_t, uint16_t *, fm_result *);
  fm_code (*der_write)(const uint16_t *, size_t, uint8_t *, fm_result *);
} fuzz_string_kernels;
#define FUZZ_STRING_ROW(P, kind, check) \
  {P##fm_##kind##_decode, P##fm_##kind##_encode, check, P##fm_der_read_##kind, P##fm_der_write_##kind}
#define FUZZ_STRING_KERNELS_OF(P)                                                            \
  {FUZZ_STRING_ROW(P, bmp, NULL), FUZZ_STRING_ROW(P, ia5, P##fm_ia5_check),                    \
   FUZZ_STRING_ROW(P, visible, P##fm_visible_check),                                          \
   FUZZ_STRING_ROW(P, printable, P##fm_printable_check),                                      \
   FUZZ_STRING_ROW(P, numeric, P##fm_numeric_check)}
static const fuzz_string_kernels FUZZ_STRING_KERNELS[S_COUNT] __attribute__((unused)) =
    FUZZ_STRING_KERNELS_OF();

FUZZ_FN inline void ref_str_ok(fm_result *r, size_t chars, size_t end) {
  memset(r, 0, sizeof *r);
  r->index = FM_NO_INDEX;
  r->count = (uint32_t)chars;
  r->end = end;
}

FUZZ_FN inline fm_code ref_str_fail(fm_result *r, fm_code code, size_t index, size_t offset,
                                   uint64_t value) {
  memset(r, 0, sizeof *r);
  r->code = code;
  r->index = index;
  r->offset = offset;
  r->value = value;
  return code;
}

/* Content decode (BMP: big-endian units; the others: one byte per char)
 * into `units` (NULL: only check, as fm_*_check does). */
FUZZ_FN fm_code ref_str_decode(int s, const uint8_t *in, size_t len, uint16_t *units, fm_result *r) {
  if (s == S_BMP) {
    if (len % 2) return ref_str_fail(r, FM_ERR_ODD_LENGTH, len / 2, len - 1, in[len - 1]);
    for (size_t i = 0; i < len / 2; i++) {
      uint16_t u = (uint16_t)(in[2 * i] << 8 | in[2 * i + 1]);
      if (!ref_unit_ok(s, u)) return ref_str_fail(r, FM_ERR_SURROGATE, i, 2 * i, u);
      if (units) units[i] = u;
    }
    ref_str_ok(r, len / 2, len);
    return FM_OK;
  }
  for (size_t i = 0; i < len; i++) {
    if (!ref_unit_ok(s, in[i])) return ref_str_fail(r, FM_ERR_RANGE_CHAR, i, i, in[i]);
    if (units) units[i] = in[i];
  }
  ref_str_ok(r, len, len);
  return FM_OK;
}

/* Content encode of n units into `out` (BMP: 2n bytes, else n). */
FUZZ_FN fm_code ref_str_encode(int s, const uint16_t *units, size_t n, uint8_t *out, fm_result *r) {
  for (size_t i = 0; i < n; i++) {
    uint16_t u = units[i];
    if (!ref_unit_ok(s, u)) {
      return ref_str_fail(r, s == S_BMP ? FM_ERR_SURROGATE : FM_ERR_RANGE_CHAR, i,
                          s == S_BMP ? 2 * i : i, u);
    }
    if (s == S_BMP) {
      out[2 * i] = (uint8_t)(u >> 8);
      out[2 * i + 1] = (uint8_t)u;
    } else {
      out[i] = (uint8_t)u;
    }
  }
  ref_str_ok(r, n, s == S_BMP ? 2 * n : n);
  return FM_OK;
}

FUZZ_FN inline fm_code ref_der_fail(fm_result *r, fm_code code, size_t at, const uint8_t *in,
                                   size_t len) {
  r->code = code;
  r->offset = at;
  r->tag = at < len ? in[at] : 0;
  return code;
}

/* DER header of a primitive `tag` (X.690 8.1.2-8.1.3, DER 10.1). */
FUZZ_FN fm_code ref_der_header(const uint8_t *in, size_t len, uint8_t tag, size_t *content,
                              fm_result *r) {
  memset(r, 0, sizeof *r);
  r->index = FM_NO_INDEX;
  if (len == 0) return ref_der_fail(r, FM_ERR_TRUNCATED, 0, in, len);
  if (in[0] == (tag | 0x20)) return ref_der_fail(r, FM_ERR_DER_CONSTRUCTED, 0, in, len);
  if (in[0] != tag) return ref_der_fail(r, FM_ERR_DER_TAG, 0, in, len);
  if (len == 1) return ref_der_fail(r, FM_ERR_TRUNCATED, 1, in, len);
  uint64_t length;
  size_t header;
  if (in[1] < 0x80) {
    length = in[1], header = 2;
  } else if (in[1] == 0x80) {
    return ref_der_fail(r, FM_ERR_DER_INDEFINITE, 1, in, len);
  } else {
    size_t octets = in[1] - 0x80;
    /* more than 4 octets, including the reserved 0xFF */
    if (octets > 4) return ref_der_fail(r, FM_ERR_DER_LENGTH, 1, in, len);
    if (len < 2 + octets) return ref_der_fail(r, FM_ERR_TRUNCATED, 1, in, len);
    length = ref_be(in + 2, octets);
    if (in[2] == 0 || length < 0x80) return ref_der_fail(r, FM_ERR_DER_NONMINIMAL, 1, in, len);
    header = 2 + octets;
  }
  if (header + length > len) return ref_der_fail(r, FM_ERR_TRUNCATED, 1, in, len);
  *content = header;
  r->end = header + length;
  return FM_OK;
}

#endif
