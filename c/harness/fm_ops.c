/* fm_ops.c - see fm_ops.h. */
#include "fm_ops.h"

#include "../fm_msgpack.h" /* fm_write_array_header: the header a pack output starts with */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Uniform faces of the typed kernels, and the table of them. */
#define FACES(name, T, wire)                                                              \
  static size_t pack_##name(const void *in, size_t n, uint8_t *out) {                     \
    return fm_pack_##name((const T *)in, n, out);                                         \
  }                                                                                       \
  static fm_code unpack_##name(const uint8_t *in, size_t len, void *out, size_t capacity, \
                               uint32_t flags, fm_result *r) {                            \
    return fm_unpack_##name(in, len, (T *)out, capacity, flags, r);                       \
  }
FM_ELEMENT_TYPES(FACES)

/* `name` is pasted or quoted where it is used, never passed on: bool is a
 * macro of <stdbool.h> (_Bool). */
#define KERNELS(name, T, wire) \
  [FM_TYPE_##name] = {#name, sizeof(T), wire, !((T)-1 > 0), pack_##name, unpack_##name},
const fm_typed_kernels FM_TYPED_KERNELS[FM_TYPE_COUNT] = {FM_ELEMENT_TYPES(KERNELS)};

/* What the harness knows of each op. */
typedef struct op_info {
  enum { OP_UNKNOWN, OP_PACK, OP_UNPACK, OP_STRING } kind;
  fm_type t;      /* pack, unpack: the element type */
  uint32_t flags; /* unpack: the decoder's flags */
  bool units;     /* string ops: the input is 16-bit units (else bytes) */
  const char *name;
} op_info;

#define TYPED_OPS(name, T, wire)                                                                    \
  [FM_OP_PACK_##name] = {OP_PACK, FM_TYPE_##name, 0, false, "PACK_" #name},                        \
  [FM_OP_UNPACK_##name] = {OP_UNPACK, FM_TYPE_##name, 0, false, "UNPACK_" #name},
#define INTEGRAL_OPS(name, T, wire)                                                                 \
  [FM_OP_UNPACK_INTEGRAL_##name] = {OP_UNPACK, FM_TYPE_##name, FM_INTEGRAL_FLOATS, false,          \
                                    "UNPACK_INTEGRAL_" #name},
#define STRING_OPS(NAME, input) [FM_OP_##NAME] = {OP_STRING, 0, 0, OP_INPUT_##input, #NAME},
#define OP_INPUT_units true
#define OP_INPUT_bytes false
static const op_info OPS[FM_OP_END] = {
    FM_ELEMENT_TYPES(TYPED_OPS) FM_INT_TYPES(INTEGRAL_OPS) FM_STRING_OPS(STRING_OPS)};

void fm_op_list(FILE *out) {
  for (int op = 0; op < FM_OP_END; op++) {
    if (OPS[op].kind != OP_UNKNOWN) fprintf(out, "%d %s\n", op, OPS[op].name);
  }
}

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

/* The max of a BMP narrow op (fm_bmp_narrow), or 0 for every other op. */
static uint32_t narrow_max(int op) {
  return op == FM_OP_BMP_NARROW_ASCII ? 0x7f : op == FM_OP_BMP_NARROW_LATIN1 ? 0xff : 0;
}

/* Bytes before a pack output that put its elements, after the array header,
 * at a 16-byte boundary of malloc's (16-aligned) block, as the JS boundary
 * places them (js/memory.js packInScratch): the SIMD packers' stores then
 * never straddle a cache line. */
static size_t pack_lead(size_t n) {
  uint8_t header[FM_MAX_ARRAY_HEADER];
  return 16 - fm_write_array_header(header, n <= FM_MAX_ELEMENTS ? (uint32_t)n : 0);
}

bool fm_op_prepare(fm_op *o, int op, const uint8_t *data, size_t len, bool in_place,
                   const char **why) {
  const op_info *info = op >= 0 && op < FM_OP_END ? &OPS[op] : &OPS[FM_OP_NONE];
  const fm_typed_kernels *type = &FM_TYPED_KERNELS[info->t];
  size_t out_cap, lead = 0;
  switch (info->kind) {
    case OP_PACK:
      if (len % type->size) return *why = "pack input is not a whole number of elements", false;
      out_cap = FM_PACK_BOUND(len / type->size, type->max_wire);
      lead = pack_lead(len / type->size);
      break;
    case OP_UNPACK:
      /* The header bounds the count by the input length, so len elements always fit. */
      out_cap = len * type->size;
      break;
    case OP_STRING:
      if (info->units && len % 2) return *why = "string encode input is not a whole number of units", false;
      if (narrow_max(op) && len % 2) return *why = "BMP narrow input is not a whole number of chars", false;
      out_cap = info->units ? FM_DER_HEADER_MAX + len : narrow_max(op) ? len / 2 : 2 * len;
      break;
    default:
      return *why = "unknown op", false;
  }
  o->op = op;
  o->len = len;
  o->in = fm_xmalloc(len);
  memcpy(o->in, data, len);
  bool bmp_in_place = in_place && (op == FM_OP_BMP_ENCODE || op == FM_OP_BMP_DECODE);
  o->out_block = bmp_in_place ? o->in : fm_xmalloc(lead + out_cap);
  o->out = (uint8_t *)o->out_block + lead;
  o->out_cap = bmp_in_place ? len : out_cap;
  return true;
}

static size_t run_string(fm_op *o, fm_result *r) {
  const uint16_t *units = o->in;
  const uint8_t *bytes = o->in;
  size_t n = o->len / 2, len = o->len;
  if (narrow_max(o->op)) { /* chars done: count, and end their content bytes */
    size_t done = fm_bmp_narrow(bytes, n, o->out, narrow_max(o->op));
    *r = (fm_result){.code = FM_OK, .count = (uint32_t)done, .index = FM_NO_INDEX, .end = 2 * done};
    return done;
  }
  fm_code code;
  switch (o->op) {
    case FM_OP_BMP_ENCODE: code = fm_bmp_encode(units, n, o->out, r); break;
    case FM_OP_IA5_ENCODE: code = fm_ia5_encode(units, n, o->out, r); break;
    case FM_OP_VISIBLE_ENCODE: code = fm_visible_encode(units, n, o->out, r); break;
    case FM_OP_PRINTABLE_ENCODE: code = fm_printable_encode(units, n, o->out, r); break;
    case FM_OP_NUMERIC_ENCODE: code = fm_numeric_encode(units, n, o->out, r); break;
    case FM_OP_DER_WRITE_BMP: code = fm_der_write_bmp(units, n, o->out, r); break;
    case FM_OP_DER_WRITE_IA5: code = fm_der_write_ia5(units, n, o->out, r); break;
    case FM_OP_DER_WRITE_VISIBLE: code = fm_der_write_visible(units, n, o->out, r); break;
    case FM_OP_DER_WRITE_PRINTABLE: code = fm_der_write_printable(units, n, o->out, r); break;
    case FM_OP_DER_WRITE_NUMERIC: code = fm_der_write_numeric(units, n, o->out, r); break;
    case FM_OP_BMP_DECODE: code = fm_bmp_decode(bytes, len, o->out, r); break;
    case FM_OP_IA5_DECODE: code = fm_ia5_decode(bytes, len, o->out, r); break;
    case FM_OP_VISIBLE_DECODE: code = fm_visible_decode(bytes, len, o->out, r); break;
    case FM_OP_PRINTABLE_DECODE: code = fm_printable_decode(bytes, len, o->out, r); break;
    case FM_OP_NUMERIC_DECODE: code = fm_numeric_decode(bytes, len, o->out, r); break;
    case FM_OP_IA5_CHECK: return fm_ia5_check(bytes, len, r), 0;
    case FM_OP_VISIBLE_CHECK: return fm_visible_check(bytes, len, r), 0;
    case FM_OP_PRINTABLE_CHECK: return fm_printable_check(bytes, len, r), 0;
    case FM_OP_NUMERIC_CHECK: return fm_numeric_check(bytes, len, r), 0;
    case FM_OP_DER_READ_BMP: code = fm_der_read_bmp(bytes, len, o->out, r); break;
    case FM_OP_DER_READ_IA5: code = fm_der_read_ia5(bytes, len, o->out, r); break;
    case FM_OP_DER_READ_VISIBLE: code = fm_der_read_visible(bytes, len, o->out, r); break;
    case FM_OP_DER_READ_PRINTABLE: code = fm_der_read_printable(bytes, len, o->out, r); break;
    default: code = fm_der_read_numeric(bytes, len, o->out, r); break; /* FM_OP_DER_READ_NUMERIC */
  }
  if (code != FM_OK) return 0;
  return OPS[o->op].units ? r->end : 2 * (size_t)r->count;
}

size_t fm_op_run(fm_op *o, fm_result *r) {
  const op_info *info = &OPS[o->op]; /* fm_op_prepare accepted the op */
  const fm_typed_kernels *type = &FM_TYPED_KERNELS[info->t];
  if (info->kind == OP_PACK) {
    size_t n = o->len / type->size;
    size_t size = type->pack(o->in, n, o->out);
    *r = (fm_result){.code = FM_OK, .count = (uint32_t)n, .end = size};
    return size;
  }
  if (info->kind == OP_UNPACK) {
    fm_code code = type->unpack(o->in, o->len, o->out, o->len, info->flags, r);
    return code == FM_OK ? r->count * type->size : 0;
  }
  return run_string(o, r);
}

void fm_op_release(fm_op *o) {
  if (o->out_block != o->in) free(o->out_block);
  free(o->in);
}
