/* fm_msgpack.h - wire helpers shared by every kernel family: big-endian
 * loads and stores, array headers, the one scalar reader of a numeric element,
 * and the float conversions whose NaN rules every build must agree on.
 */
#ifndef FM_MSGPACK_H
#define FM_MSGPACK_H

#include <stdbool.h>
#include <string.h>

#include "fastmp.h"
#include "fm_platform.h"
#include "fm_result.h"

/* ---- big-endian bytes ---------------------------------------------------- */

static inline uint16_t fm_load_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }

static inline uint32_t fm_load_be32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}

static inline uint64_t fm_load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

static inline void fm_store_be32(uint8_t *p, uint32_t v) {
  v = __builtin_bswap32(v);
  memcpy(p, &v, 4);
}

static inline void fm_store_be64(uint8_t *p, uint64_t v) {
  v = __builtin_bswap64(v);
  memcpy(p, &v, 8);
}

/* ---- array headers --------------------------------------------------------- */

/* Writes the smallest header for n elements (n <= FM_MAX_ELEMENTS); returns its size. */
static inline size_t fm_write_array_header(uint8_t *out, uint32_t n) {
  if (n <= 15) {
    out[0] = (uint8_t)(0x90 | n);
    return 1;
  }
  if (n <= 0xffff) {
    out[0] = 0xdc;
    out[1] = (uint8_t)(n >> 8);
    out[2] = (uint8_t)n;
    return 3;
  }
  out[0] = 0xdd;
  fm_store_be32(out + 1, n);
  return 5;
}

/* Reads an array header at in[0]. Every element takes at least one byte, so a
 * count larger than the bytes that remain is rejected here, before any caller
 * sizes an allocation by it. Sets r (`count`; `end` is set once the elements
 * are read) and *body (offset of element 0). */
static inline fm_code fm_read_array_header(const uint8_t *in, size_t len, size_t *body,
                                           fm_result *r) {
  if (len == 0) return fm_fail(r, FM_ERR_TRUNCATED, 0, FM_NO_INDEX, 0, 0, 0);
  uint8_t tag = in[0];
  size_t header;
  uint32_t count;
  if ((tag & 0xf0) == 0x90) {
    header = 1;
    count = tag & 0x0f;
  } else if (tag == 0xdc) {
    if (len < 3) return fm_fail(r, FM_ERR_TRUNCATED, 0, FM_NO_INDEX, 0, tag, 0);
    header = 3;
    count = fm_load_be16(in + 1);
  } else if (tag == 0xdd) {
    if (len < 5) return fm_fail(r, FM_ERR_TRUNCATED, 0, FM_NO_INDEX, 0, tag, 0);
    header = 5;
    count = fm_load_be32(in + 1);
  } else {
    return fm_fail(r, FM_ERR_NOT_ARRAY, 0, FM_NO_INDEX, 0, tag, 0);
  }
  if (count > len - header) return fm_fail(r, FM_ERR_LENGTH, count, FM_NO_INDEX, 0, tag, 0);
  *body = header;
  return fm_ok(r, count, 0);
}

/* ---- numeric elements ------------------------------------------------------ */

typedef enum fm_num_kind { FM_NUM_UINT, FM_NUM_INT, FM_NUM_F32, FM_NUM_F64 } fm_num_kind;

typedef struct fm_number {
  fm_num_kind kind;
  uint64_t bits; /* the value (two's complement for INT) or the IEEE bits */
} fm_number;

static inline bool fm_is_fixint(uint8_t tag) { return tag < 0x80 || tag >= 0xe0; }

/* Size in bytes of the numeric element starting with `tag`; 0 if `tag` is not
 * a number (nil, bool, str, bin, array, map, ext). */
static inline size_t fm_number_size(uint8_t tag) {
  if (fm_is_fixint(tag)) return 1;
  switch (tag) {
    case 0xcc: case 0xd0: return 2;
    case 0xcd: case 0xd1: return 3;
    case 0xca: case 0xce: case 0xd2: return 5;
    case 0xcb: case 0xcf: case 0xd3: return 9;
    default: return 0;
  }
}

/* Reads the numeric element at in[pos] (element `index`). Returns its size,
 * or 0 after filling r with FM_ERR_TYPE or FM_ERR_TRUNCATED. */
static inline size_t fm_read_number(const uint8_t *in, size_t len, size_t pos, size_t index,
                                    fm_number *num, fm_result *r) {
  if (pos >= len) { /* the elements before this one used up the input */
    fm_fail(r, FM_ERR_TRUNCATED, r->count, index, pos, 0, 0);
    return 0;
  }
  uint8_t tag = in[pos];
  size_t size = fm_number_size(tag);
  if (size == 0) {
    fm_fail(r, FM_ERR_TYPE, r->count, index, pos, tag, 0);
    return 0;
  }
  if (size > len - pos) {
    fm_fail(r, FM_ERR_TRUNCATED, r->count, index, pos, tag, 0);
    return 0;
  }
  const uint8_t *p = in + pos + 1;
  switch (tag) {
    case 0xcc: *num = (fm_number){FM_NUM_UINT, p[0]}; break;
    case 0xcd: *num = (fm_number){FM_NUM_UINT, fm_load_be16(p)}; break;
    case 0xce: *num = (fm_number){FM_NUM_UINT, fm_load_be32(p)}; break;
    case 0xcf: *num = (fm_number){FM_NUM_UINT, fm_load_be64(p)}; break;
    case 0xd0: *num = (fm_number){FM_NUM_INT, (uint64_t)(int64_t)(int8_t)p[0]}; break;
    case 0xd1: *num = (fm_number){FM_NUM_INT, (uint64_t)(int64_t)(int16_t)fm_load_be16(p)}; break;
    case 0xd2: *num = (fm_number){FM_NUM_INT, (uint64_t)(int64_t)(int32_t)fm_load_be32(p)}; break;
    case 0xd3: *num = (fm_number){FM_NUM_INT, fm_load_be64(p)}; break;
    case 0xca: *num = (fm_number){FM_NUM_F32, fm_load_be32(p)}; break;
    case 0xcb: *num = (fm_number){FM_NUM_F64, fm_load_be64(p)}; break;
    default: /* fixint */
      *num = (fm_number){FM_NUM_INT, (uint64_t)(int64_t)(int8_t)tag};
      break;
  }
  return size;
}

/* ---- integer elements ------------------------------------------------------ */

/* Writes v in its smallest msgpack form (the rule @msgpack/msgpack and
 * MessagePack-CSharp follow: chosen by value, not by the array's type);
 * returns the bytes written. */
static inline size_t fm_write_uint(uint8_t *out, uint64_t v) {
  if (v < 0x80) {
    out[0] = (uint8_t)v;
    return 1;
  }
  if (v <= 0xff) {
    out[0] = 0xcc;
    out[1] = (uint8_t)v;
    return 2;
  }
  if (v <= 0xffff) {
    out[0] = 0xcd;
    out[1] = (uint8_t)(v >> 8);
    out[2] = (uint8_t)v;
    return 3;
  }
  if (v <= 0xffffffffu) {
    out[0] = 0xce;
    fm_store_be32(out + 1, (uint32_t)v);
    return 5;
  }
  out[0] = 0xcf;
  fm_store_be64(out + 1, v);
  return 9;
}

static inline size_t fm_write_int(uint8_t *out, int64_t v) {
  if (v >= 0) return fm_write_uint(out, (uint64_t)v);
  if (v >= -32) {
    out[0] = (uint8_t)v;
    return 1;
  }
  if (v >= -128) {
    out[0] = 0xd0;
    out[1] = (uint8_t)v;
    return 2;
  }
  if (v >= -32768) {
    out[0] = 0xd1;
    out[1] = (uint8_t)((uint16_t)v >> 8);
    out[2] = (uint8_t)v;
    return 3;
  }
  if (v >= INT32_MIN) {
    out[0] = 0xd2;
    fm_store_be32(out + 1, (uint32_t)v);
    return 5;
  }
  out[0] = 0xd3;
  fm_store_be64(out + 1, (uint64_t)v);
  return 9;
}

/* A float element as an integer: FM_OK when it is exactly integral and in
 * [min, max] (every double from 2^53 up is integral). */
static inline fm_code fm_float_to_int(double d, int64_t min, uint64_t max, uint64_t *v) {
  if (d != d) return FM_ERR_RANGE;
  if (d > -9007199254740992.0 && d < 9007199254740992.0 && d != (double)(int64_t)d)
    return FM_ERR_RANGE;
  if (d < 0) {
    if (d < (double)min) return FM_ERR_RANGE;
    *v = (uint64_t)(int64_t)d;
    return FM_OK;
  }
  /* max is 2^k - 1, so max/2 + 1 = 2^(k-1) and the exclusive bound 2^k are exact doubles. */
  if (d >= (double)(max / 2 + 1) * 2.0) return FM_ERR_RANGE;
  *v = (uint64_t)d;
  return FM_OK;
}

/* A numeric element as an integer of the range [min, max] (min <= 0, max a
 * power of two minus one): its two's-complement bits in *v, or FM_ERR_RANGE,
 * or FM_ERR_TYPE for a float without FM_INTEGRAL_FLOATS. */
static inline fm_code fm_number_to_int(fm_number num, int64_t min, uint64_t max, uint32_t flags,
                                       uint64_t *v) {
  switch (num.kind) {
    case FM_NUM_UINT:
      if (num.bits > max) return FM_ERR_RANGE;
      *v = num.bits;
      return FM_OK;
    case FM_NUM_INT: {
      int64_t s = (int64_t)num.bits;
      if (s < min || (s > 0 && (uint64_t)s > max)) return FM_ERR_RANGE;
      *v = num.bits;
      return FM_OK;
    }
    default: {
      if (!(flags & FM_INTEGRAL_FLOATS)) return FM_ERR_TYPE;
      double d;
      if (num.kind == FM_NUM_F64) {
        memcpy(&d, &num.bits, 8);
      } else {
        uint32_t b = (uint32_t)num.bits;
        float f;
        memcpy(&f, &b, 4);
        d = f;
      }
      return fm_float_to_int(d, min, max, v);
    }
  }
}

/* ---- float conversions ----------------------------------------------------- */
/* Hardware and wasm leave NaN conversions loosely specified (wasm allows any
 * NaN result), so NaNs are converted in integer arithmetic, identically on
 * every build: widening keeps the payload bit for bit; narrowing keeps the
 * sign and the top payload bits and sets the quiet bit, as Math.fround does on
 * x86-64 and aarch64. Every other value converts with round-to-nearest-even. */

static inline bool fm_f32_bits_is_nan(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }

static inline bool fm_f64_bits_is_nan(uint64_t b) {
  return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static inline uint64_t fm_f32_to_f64_bits(uint32_t b) {
  if (fm_f32_bits_is_nan(b))
    return ((uint64_t)(b & 0x80000000u) << 32) | 0x7ff0000000000000ull |
           ((uint64_t)(b & 0x007fffffu) << 29);
  float f;
  memcpy(&f, &b, 4);
  double d = (double)f;
  uint64_t out;
  memcpy(&out, &d, 8);
  return out;
}

static inline uint32_t fm_f64_to_f32_bits(uint64_t b) {
  if (fm_f64_bits_is_nan(b))
    return ((uint32_t)(b >> 32) & 0x80000000u) | 0x7fc00000u | ((uint32_t)(b >> 29) & 0x003fffffu);
  double d;
  memcpy(&d, &b, 8);
  float f = (float)d;
  uint32_t out;
  memcpy(&out, &f, 4);
  return out;
}

/* The nearest float / double to a numeric element (one rounding step). */
static inline uint32_t fm_number_to_f32_bits(fm_number num) {
  float f;
  switch (num.kind) {
    case FM_NUM_F32: return (uint32_t)num.bits;
    case FM_NUM_F64: return fm_f64_to_f32_bits(num.bits);
    case FM_NUM_INT: f = (float)(int64_t)num.bits; break;
    default: f = (float)num.bits; break;
  }
  uint32_t out;
  memcpy(&out, &f, 4);
  return out;
}

static inline uint64_t fm_number_to_f64_bits(fm_number num) {
  double d;
  switch (num.kind) {
    case FM_NUM_F64: return num.bits;
    case FM_NUM_F32: return fm_f32_to_f64_bits((uint32_t)num.bits);
    case FM_NUM_INT: d = (double)(int64_t)num.bits; break;
    default: d = (double)num.bits; break;
  }
  uint64_t out;
  memcpy(&out, &d, 8);
  return out;
}

#endif
