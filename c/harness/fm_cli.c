/* fm_cli.c - the native parity harness: runs a batch of requests through the
 * kernels of this build, so that tests can compare the native builds (x86-64
 * and aarch64, SIMD and scalar) with the wasm builds byte for byte.
 *
 *   fm-cli IN OUT      (a path of "-" means stdin / stdout)
 *
 * Request:  u8 op, u32 length, `length` bytes. For element type t (0 f32,
 *   1 f64, 2 i8, 3 u8, 4 i16, 5 u16, 6 i32, 7 u32, 8 i64, 9 u64, 10 bool):
 *   op 1 + 2t      pack   (bytes: the typed array, little-endian; bool: bytes)
 *   op 2 + 2t      unpack (bytes: msgpack)
 *   op 23 + t - 2  unpack with FM_INTEGRAL_FLOATS, for the integer types
 *   op 32 BMP encode, 34 IA5 encode, 36 Visible encode (bytes: little-endian
 *         16-bit units; BMP runs in place, as the JS boundary does)
 *   op 33 BMP decode, 35 IA5 decode, 37 Visible decode (bytes: content)
 *   op 38 IA5 check, 39 Visible check (bytes: content; no output bytes)
 *   op 40 DER read BMPString, 41 IA5String, 42 VisibleString (bytes: DER)
 *   op 43 DER write BMPString, 44 IA5String, 45 VisibleString (bytes: units)
 * Response: u32 code, count, index, offset, end, tag, value low, value high,
 *   length, then `length` bytes (packed msgpack, or the decoded values
 *   little-endian; for string ops the encoded bytes or the decoded units
 *   little-endian, nothing after an error); index is 0xffffffff for errors outside any element. All
 *   integers little-endian.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fastmp.h"

/* Uniform faces of the typed kernels, so that one table drives them all. */
typedef size_t (*pack_fn)(const void *in, size_t n, uint8_t *out);
typedef fm_code (*unpack_fn)(const uint8_t *in, size_t len, void *out, size_t capacity,
                             uint32_t flags, fm_result *r);

#define FACES(t, T)                                                                     \
  static size_t pack_##t(const void *in, size_t n, uint8_t *out) {                      \
    return fm_pack_##t((const T *)in, n, out);                                          \
  }                                                                                     \
  static fm_code unpack_##t(const uint8_t *in, size_t len, void *out, size_t capacity,  \
                            uint32_t flags, fm_result *r) {                             \
    return fm_unpack_##t(in, len, (T *)out, capacity, flags, r);                        \
  }

FACES(f32, float)
FACES(f64, double)
FACES(i8, int8_t)
FACES(u8, uint8_t)
FACES(i16, int16_t)
FACES(u16, uint16_t)
FACES(i32, int32_t)
FACES(u32, uint32_t)
FACES(i64, int64_t)
FACES(u64, uint64_t)
FACES(bool, uint8_t)

static const struct {
  size_t size;     /* bytes per element in the typed array */
  size_t max_wire; /* bytes of its largest msgpack form */
  pack_fn pack;
  unpack_fn unpack;
} TYPES[] = {
    {4, 5, pack_f32, unpack_f32}, {8, 9, pack_f64, unpack_f64}, {1, 2, pack_i8, unpack_i8},
    {1, 2, pack_u8, unpack_u8},   {2, 3, pack_i16, unpack_i16}, {2, 3, pack_u16, unpack_u16},
    {4, 5, pack_i32, unpack_i32}, {4, 5, pack_u32, unpack_u32}, {8, 9, pack_i64, unpack_i64},
    {8, 9, pack_u64, unpack_u64}, {1, 1, pack_bool, unpack_bool},
};
enum { TYPE_COUNT = sizeof TYPES / sizeof TYPES[0], OP_INTEGRAL_FLOATS = 23 };
enum {
  OP_BMP_ENCODE = 32, OP_BMP_DECODE, OP_IA5_ENCODE, OP_IA5_DECODE, OP_VISIBLE_ENCODE,
  OP_VISIBLE_DECODE, OP_IA5_CHECK, OP_VISIBLE_CHECK, OP_DER_READ_BMP, OP_DER_READ_IA5,
  OP_DER_READ_VISIBLE, OP_DER_WRITE_BMP, OP_DER_WRITE_IA5, OP_DER_WRITE_VISIBLE
};

static void die(const char *what) {
  fprintf(stderr, "fm-cli: %s\n", what);
  exit(2);
}

static void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) die("out of memory");
  return p;
}

static void put_u32(FILE *out, size_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  if (fwrite(b, 1, 4, out) != 4) die("write failed");
}

static bool get_u32(FILE *in, uint32_t *v) {
  uint8_t b[4];
  if (fread(b, 1, 4, in) != 4) return false;
  *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return true;
}

static void put_response(FILE *out, const fm_result *r, const void *data, size_t size) {
  put_u32(out, r->code);
  put_u32(out, r->count);
  put_u32(out, r->index == FM_NO_INDEX ? 0xffffffffu : r->index);
  put_u32(out, r->offset);
  put_u32(out, r->end);
  put_u32(out, r->tag);
  put_u32(out, (uint32_t)r->value);
  put_u32(out, (uint32_t)(r->value >> 32));
  put_u32(out, size);
  if (size && fwrite(data, 1, size, out) != size) die("write failed");
}

static void run_pack(FILE *out, size_t t, const uint8_t *data, size_t len) {
  size_t elem = TYPES[t].size;
  if (len % elem) die("pack input is not a whole number of elements");
  size_t n = len / elem;
  /* Copy into typed storage: the kernels take aligned typed arrays. */
  void *values = xmalloc(len);
  memcpy(values, data, len);
  uint8_t *packed = xmalloc(FM_PACK_BOUND(n, TYPES[t].max_wire));
  size_t size = TYPES[t].pack(values, n, packed);
  fm_result r = {.code = FM_OK, .count = (uint32_t)n, .end = size, .value = 0};
  put_response(out, &r, packed, size);
  free(packed);
  free(values);
}

static void run_unpack(FILE *out, size_t t, uint32_t flags, const uint8_t *data, size_t len) {
  size_t elem = TYPES[t].size;
  /* The header bounds the count by the input length, so len elements always fit. */
  void *values = xmalloc(len * elem);
  fm_result r;
  fm_code code = TYPES[t].unpack(data, len, values, len, flags, &r);
  put_response(out, &r, values, code == FM_OK ? r.count * elem : 0);
  free(values);
}

/* Ops that take 16-bit units: copied into aligned storage. */
static void run_string_encode(FILE *out, int op, const uint8_t *data, size_t len) {
  if (len % 2) die("string encode input is not a whole number of units");
  size_t n = len / 2;
  uint16_t *units = xmalloc(len);
  memcpy(units, data, len);
  uint8_t *bytes = xmalloc(FM_DER_HEADER_MAX + len);
  fm_result r;
  fm_code code;
  switch (op) {
    case OP_BMP_ENCODE: code = fm_bmp_encode(units, n, (uint8_t *)units, &r); break;
    case OP_IA5_ENCODE: code = fm_ia5_encode(units, n, bytes, &r); break;
    case OP_VISIBLE_ENCODE: code = fm_visible_encode(units, n, bytes, &r); break;
    case OP_DER_WRITE_BMP: code = fm_der_write_bmp(units, n, bytes, &r); break;
    case OP_DER_WRITE_IA5: code = fm_der_write_ia5(units, n, bytes, &r); break;
    default: code = fm_der_write_visible(units, n, bytes, &r); break;
  }
  const void *written = op == OP_BMP_ENCODE ? (const void *)units : bytes;
  put_response(out, &r, written, code == FM_OK ? r.end : 0);
  free(bytes);
  free(units);
}

static void run_string_decode(FILE *out, int op, const uint8_t *data, size_t len) {
  uint16_t *units = xmalloc(2 * len);
  fm_result r;
  fm_code code;
  switch (op) {
    case OP_BMP_DECODE: /* in place, in aligned storage */
      memcpy(units, data, len);
      code = fm_bmp_decode((const uint8_t *)units, len, units, &r);
      break;
    case OP_IA5_DECODE: code = fm_ia5_decode(data, len, units, &r); break;
    case OP_VISIBLE_DECODE: code = fm_visible_decode(data, len, units, &r); break;
    case OP_IA5_CHECK: code = fm_ia5_check(data, len, &r); break;
    case OP_VISIBLE_CHECK: code = fm_visible_check(data, len, &r); break;
    case OP_DER_READ_BMP: code = fm_der_read_bmp(data, len, units, &r); break;
    case OP_DER_READ_IA5: code = fm_der_read_ia5(data, len, units, &r); break;
    default: code = fm_der_read_visible(data, len, units, &r); break;
  }
  bool checks = op == OP_IA5_CHECK || op == OP_VISIBLE_CHECK;
  put_response(out, &r, units, code == FM_OK && !checks ? 2 * (size_t)r.count : 0);
  free(units);
}

int main(int argc, char **argv) {
  if (argc != 3) die("usage: fm-cli IN OUT");
  FILE *in = strcmp(argv[1], "-") ? fopen(argv[1], "rb") : stdin;
  FILE *out = strcmp(argv[2], "-") ? fopen(argv[2], "wb") : stdout;
  if (!in || !out) die("cannot open input or output");
  int op;
  while ((op = fgetc(in)) != EOF) {
    uint32_t len;
    if (!get_u32(in, &len)) die("truncated request");
    uint8_t *data = xmalloc(len);
    if (fread(data, 1, len, in) != len) die("truncated request");
    if (op >= 1 && op <= 2 * TYPE_COUNT) {
      size_t t = (size_t)(op - 1) / 2;
      if (op % 2) {
        run_pack(out, t, data, len);
      } else {
        run_unpack(out, t, 0, data, len);
      }
    } else if (op >= OP_INTEGRAL_FLOATS && op < OP_INTEGRAL_FLOATS + 8) {
      run_unpack(out, (size_t)(op - OP_INTEGRAL_FLOATS) + 2, FM_INTEGRAL_FLOATS, data, len);
    } else if (op == OP_BMP_ENCODE || op == OP_IA5_ENCODE || op == OP_VISIBLE_ENCODE ||
               (op >= OP_DER_WRITE_BMP && op <= OP_DER_WRITE_VISIBLE)) {
      run_string_encode(out, op, data, len);
    } else if (op >= OP_BMP_DECODE && op <= OP_DER_READ_VISIBLE) {
      run_string_decode(out, op, data, len);
    } else {
      die("unknown op");
    }
    free(data);
  }
  if (fclose(out) != 0) die("write failed");
  return 0;
}
