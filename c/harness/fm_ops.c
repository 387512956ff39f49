/* fm_ops.c - see fm_ops.h. */
#include "fm_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const fm_typed_kernels FM_TYPED_KERNELS[FM_TYPE_COUNT] = {
    {pack_f32, unpack_f32}, {pack_f64, unpack_f64}, {pack_i8, unpack_i8},    {pack_u8, unpack_u8},
    {pack_i16, unpack_i16}, {pack_u16, unpack_u16}, {pack_i32, unpack_i32},  {pack_u32, unpack_u32},
    {pack_i64, unpack_i64}, {pack_u64, unpack_u64}, {pack_bool, unpack_bool},
};

static const struct {
  size_t size;     /* bytes per element in the typed array */
  size_t max_wire; /* bytes of its largest msgpack form */
} TYPES[] = {
    {4, 5}, {8, 9}, {1, 2}, {1, 2}, {2, 3}, {2, 3}, {4, 5}, {4, 5}, {8, 9}, {8, 9}, {1, 1},
};
_Static_assert(sizeof TYPES / sizeof TYPES[0] == FM_TYPE_COUNT, "one row per type");
enum { TYPE_COUNT = sizeof TYPES / sizeof TYPES[0], OP_INTEGRAL_FLOATS = 23 };
enum {
  OP_BMP_ENCODE = 32, OP_BMP_DECODE, OP_IA5_ENCODE, OP_IA5_DECODE, OP_VISIBLE_ENCODE,
  OP_VISIBLE_DECODE, OP_IA5_CHECK, OP_VISIBLE_CHECK, OP_DER_READ_BMP, OP_DER_READ_IA5,
  OP_DER_READ_VISIBLE, OP_DER_WRITE_BMP, OP_DER_WRITE_IA5, OP_DER_WRITE_VISIBLE
};

uint8_t *fm_read_request(FILE *in, const char *who, int *op, uint32_t *len) {
  if ((*op = fgetc(in)) == EOF) return NULL;
  uint8_t b[4];
  uint8_t *data = NULL;
  if (fread(b, 1, 4, in) == 4) {
    *len = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    data = fm_xmalloc(*len);
    if (fread(data, 1, *len, in) == *len) return data;
  }
  fprintf(stderr, "%s: truncated request\n", who);
  exit(2);
}

void *fm_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) {
    fprintf(stderr, "fastmp harness: out of memory\n");
    exit(2);
  }
  return p;
}

static bool is_pack(int op) { return op >= 1 && op <= 2 * TYPE_COUNT && op % 2; }
static bool is_unpack(int op) {
  return (op >= 1 && op <= 2 * TYPE_COUNT && op % 2 == 0) ||
         (op >= OP_INTEGRAL_FLOATS && op < OP_INTEGRAL_FLOATS + 8);
}
static size_t type_of(int op) {
  return op >= OP_INTEGRAL_FLOATS ? (size_t)(op - OP_INTEGRAL_FLOATS) + 2 : (size_t)(op - 1) / 2;
}
static bool takes_units(int op) {
  return op == OP_BMP_ENCODE || op == OP_IA5_ENCODE || op == OP_VISIBLE_ENCODE ||
         (op >= OP_DER_WRITE_BMP && op <= OP_DER_WRITE_VISIBLE);
}
static bool takes_string_bytes(int op) { return op >= OP_BMP_DECODE && op <= OP_DER_READ_VISIBLE && !takes_units(op); }

bool fm_op_prepare(fm_op *o, int op, const uint8_t *data, size_t len, bool in_place,
                   const char **why) {
  size_t out_cap;
  if (is_pack(op)) {
    size_t t = type_of(op);
    if (len % TYPES[t].size) return *why = "pack input is not a whole number of elements", false;
    out_cap = FM_PACK_BOUND(len / TYPES[t].size, TYPES[t].max_wire);
  } else if (is_unpack(op)) {
    /* The header bounds the count by the input length, so len elements always fit. */
    out_cap = len * TYPES[type_of(op)].size;
  } else if (takes_units(op)) {
    if (len % 2) return *why = "string encode input is not a whole number of units", false;
    out_cap = FM_DER_HEADER_MAX + len;
  } else if (takes_string_bytes(op)) {
    out_cap = 2 * len;
  } else {
    return *why = "unknown op", false;
  }
  o->op = op;
  o->len = len;
  o->in = fm_xmalloc(len);
  memcpy(o->in, data, len);
  bool bmp_in_place = in_place && (op == OP_BMP_ENCODE || op == OP_BMP_DECODE);
  o->out = bmp_in_place ? o->in : fm_xmalloc(out_cap);
  o->out_cap = bmp_in_place ? len : out_cap;
  return true;
}

static size_t run_string(fm_op *o, fm_result *r) {
  const uint16_t *units = o->in;
  const uint8_t *bytes = o->in;
  size_t n = o->len / 2, len = o->len;
  fm_code code;
  switch (o->op) {
    case OP_BMP_ENCODE: code = fm_bmp_encode(units, n, o->out, r); break;
    case OP_IA5_ENCODE: code = fm_ia5_encode(units, n, o->out, r); break;
    case OP_VISIBLE_ENCODE: code = fm_visible_encode(units, n, o->out, r); break;
    case OP_DER_WRITE_BMP: code = fm_der_write_bmp(units, n, o->out, r); break;
    case OP_DER_WRITE_IA5: code = fm_der_write_ia5(units, n, o->out, r); break;
    case OP_DER_WRITE_VISIBLE: code = fm_der_write_visible(units, n, o->out, r); break;
    case OP_BMP_DECODE: code = fm_bmp_decode(bytes, len, o->out, r); break;
    case OP_IA5_DECODE: code = fm_ia5_decode(bytes, len, o->out, r); break;
    case OP_VISIBLE_DECODE: code = fm_visible_decode(bytes, len, o->out, r); break;
    case OP_IA5_CHECK: return fm_ia5_check(bytes, len, r), 0;
    case OP_VISIBLE_CHECK: return fm_visible_check(bytes, len, r), 0;
    case OP_DER_READ_BMP: code = fm_der_read_bmp(bytes, len, o->out, r); break;
    case OP_DER_READ_IA5: code = fm_der_read_ia5(bytes, len, o->out, r); break;
    default: code = fm_der_read_visible(bytes, len, o->out, r); break;
  }
  if (code != FM_OK) return 0;
  return takes_units(o->op) ? r->end : 2 * (size_t)r->count;
}

size_t fm_op_run(fm_op *o, fm_result *r) {
  if (is_pack(o->op)) {
    size_t t = type_of(o->op), n = o->len / TYPES[t].size;
    size_t size = FM_TYPED_KERNELS[t].pack(o->in, n, o->out);
    *r = (fm_result){.code = FM_OK, .count = (uint32_t)n, .end = size};
    return size;
  }
  if (is_unpack(o->op)) {
    size_t t = type_of(o->op);
    uint32_t flags = o->op >= OP_INTEGRAL_FLOATS ? FM_INTEGRAL_FLOATS : 0;
    fm_code code = FM_TYPED_KERNELS[t].unpack(o->in, o->len, o->out, o->len, flags, r);
    return code == FM_OK ? r->count * TYPES[t].size : 0;
  }
  return run_string(o, r);
}

void fm_op_release(fm_op *o) {
  if (o->out != o->in) free(o->out);
  free(o->in);
}
