/* fuzz_diff.c - the differential target (build/fuzz/diff): the SIMD kernels
 * (-DFM_SIMD=1, SIMDe) and the scalar kernels (-DFM_SIMD=0) linked into one
 * binary, run on the same input; any difference aborts.
 *
 * The scalar set is the same sources compiled a second time, linked into one
 * relocatable object whose fm_* symbols are then renamed scalar_fm_* (see the
 * Makefile's fuzz rules): no kernel source is copied or changed for this.
 *
 * Input: a selector byte (which operation, byte % OP_COUNT), then the
 * operation's input: msgpack for unpack, typed-array bytes for pack, content
 * or DER bytes for the string decoders, little-endian units for the string
 * encoders; for BMP narrow, a byte that chooses max, then content. Compared:
 * every fm_result field, and every byte of the output buffers (filled alike
 * beforehand), except the packers' slack past their end.
 */
#include "fm_fuzz.h"

/* The scalar set: each API function again, renamed, with the same type. */
#define SCALAR(f) extern __typeof__(f) scalar_##f;
#define SCALAR_TYPED(name, T, wire) SCALAR(fm_pack_##name) SCALAR(fm_unpack_##name)
FM_ELEMENT_TYPES(SCALAR_TYPED)
#define SCALAR_STRING(kind)                                                              \
  SCALAR(fm_##kind##_encode) SCALAR(fm_##kind##_decode) SCALAR(fm_der_read_##kind) \
  SCALAR(fm_der_write_##kind)
SCALAR(fm_simd_enabled) SCALAR_STRING(bmp) SCALAR_STRING(ia5) SCALAR_STRING(visible)
SCALAR_STRING(printable) SCALAR_STRING(numeric) SCALAR(fm_ia5_check) SCALAR(fm_visible_check)
SCALAR(fm_printable_check) SCALAR(fm_numeric_check) SCALAR(fm_bmp_narrow)

/* Its typed kernels' faces and their table (fm_fuzz.h has the SIMD set's). */
#define SCALAR_FACES(name, T, wire)                                                  \
  FUZZ_FACES(scalar_pack_##name##_face, scalar_unpack_##name##_face, scalar_fm_pack_##name, \
             scalar_fm_unpack_##name, T)
#define SCALAR_KERNELS(name, T, wire) \
  [FM_TYPE_##name] = {scalar_pack_##name##_face, scalar_unpack_##name##_face},
FM_ELEMENT_TYPES(SCALAR_FACES)

/* The integer types, in the order of the FM_INTEGRAL_FLOATS ops. */
#define INT_TYPE(name, T, wire) FM_TYPE_##name,
static const fm_type INT_TYPES[] = {FM_INT_TYPES(INT_TYPE)};
enum { INT_TYPE_COUNT = sizeof INT_TYPES / sizeof INT_TYPES[0] };

/* One build's kernels, as tables. */
typedef struct build {
  const char *name;
  fuzz_kernels typed[FM_TYPE_COUNT];
  fuzz_string_kernels str[S_COUNT];
  size_t (*bmp_narrow)(const uint8_t *, size_t, uint8_t *, uint32_t);
  int (*simd_enabled)(void);
} build;

#define BUILD(PREFIX, NAME, KERNELS)                                                         \
  {NAME, {FM_ELEMENT_TYPES(KERNELS)}, FUZZ_STRING_KERNELS_OF(PREFIX), PREFIX##fm_bmp_narrow, \
   PREFIX##fm_simd_enabled}

static const build BUILDS[2] = {BUILD(, "simd", FUZZ_KERNELS_OF),
                                 BUILD(scalar_, "scalar", SCALAR_KERNELS)};

/* The operations, in selector order. */
enum {
  OP_UNPACK = 0,                                  /* + type */
  OP_UNPACK_INTEGRAL = OP_UNPACK + FM_TYPE_COUNT, /* + index in INT_TYPES */
  OP_PACK = OP_UNPACK_INTEGRAL + INT_TYPE_COUNT,  /* + type */
  OP_DECODE = OP_PACK + FM_TYPE_COUNT,            /* + string kind */
  OP_BMP_DECODE_IN_PLACE = OP_DECODE + S_COUNT,
  OP_CHECK, /* + string kind - S_IA5 (every kind after BMP has a check) */
  OP_ENCODE = OP_CHECK + S_COUNT - S_IA5, /* + string kind */
  OP_BMP_ENCODE_IN_PLACE = OP_ENCODE + S_COUNT,
  OP_DER_READ, /* + string kind */
  OP_DER_WRITE = OP_DER_READ + S_COUNT, /* + string kind */
  OP_BMP_NARROW = OP_DER_WRITE + S_COUNT, /* a byte for max, then content */
  OP_COUNT
};

/* One run: the result, and the output buffer it filled. */
typedef struct outcome {
  fm_result r;
  uint8_t *out;
  size_t compared; /* bytes of out to compare */
} outcome;

static void run(const build *b, int op, const uint8_t *in, size_t len, outcome *o) {
  memset(&o->r, 0x3c, sizeof o->r);
  size_t n16 = len / 2; /* units, for the encoders */
  size_t out_size;
  int t = -1, s = -1;
  if (op < OP_PACK) {
    t = op < OP_UNPACK_INTEGRAL ? op - OP_UNPACK : (int)INT_TYPES[op - OP_UNPACK_INTEGRAL];
    out_size = len * FUZZ_TYPES[t].size; /* room for the most elements len bytes can hold */
  } else if (op < OP_DECODE) {
    t = op - OP_PACK;
    out_size = FM_PACK_BOUND(len / FUZZ_TYPES[t].size, FUZZ_TYPES[t].max_wire);
  } else if (op < OP_ENCODE) {
    out_size = 2 * len;
  } else if (op < OP_DER_READ) {
    out_size = 2 * n16;
  } else if (op < OP_DER_WRITE) {
    out_size = 2 * len;
  } else if (op < OP_BMP_NARROW) {
    out_size = FM_DER_HEADER_MAX + 2 * n16;
  } else {
    out_size = len ? (len - 1) / 2 : 0; /* a byte per char */
  }
  o->out = fuzz_alloc(out_size);
  memset(o->out, 0xa5, out_size);
  o->compared = out_size;
  /* Typed inputs live in an aligned block of their own, as in the JS boundary. */
  uint8_t *copy = fuzz_alloc(len);
  memcpy(copy, in, len);
  if (op < OP_PACK) {
    b->typed[t].unpack(in, len, o->out, len, op < OP_UNPACK_INTEGRAL ? 0 : FM_INTEGRAL_FLOATS, &o->r);
  } else if (op < OP_DECODE) {
    size_t n = len / FUZZ_TYPES[t].size;
    size_t size = b->typed[t].pack(copy, n, o->out);
    o->r = (fm_result){.count = (uint32_t)n, .end = size}; /* packers return only the size */
    o->compared = size;
  } else if (op < OP_BMP_DECODE_IN_PLACE) {
    s = op - OP_DECODE;
    b->str[s].decode(in, len, (uint16_t *)(void *)o->out, &o->r);
  } else if (op == OP_BMP_DECODE_IN_PLACE) {
    b->str[S_BMP].decode(copy, len, (uint16_t *)(void *)copy, &o->r);
    memcpy(o->out, copy, len);
  } else if (op < OP_ENCODE) {
    b->str[S_IA5 + op - OP_CHECK].check(in, len, &o->r);
  } else if (op < OP_BMP_ENCODE_IN_PLACE) {
    b->str[op - OP_ENCODE].encode((const uint16_t *)(void *)copy, n16, o->out, &o->r);
  } else if (op == OP_BMP_ENCODE_IN_PLACE) {
    b->str[S_BMP].encode((const uint16_t *)(void *)copy, n16, copy, &o->r);
    memcpy(o->out, copy, 2 * n16);
  } else if (op < OP_DER_WRITE) {
    b->str[op - OP_DER_READ].der_read(in, len, (uint16_t *)(void *)o->out, &o->r);
  } else if (op < OP_BMP_NARROW) {
    b->str[op - OP_DER_WRITE].der_write((const uint16_t *)(void *)copy, n16, o->out, &o->r);
  } else { /* OP_BMP_NARROW */
    /* max 2^k - 1 for k = in[0] % 9 (0x7F, 0xFF and every other max the API
     * allows); the content, of whole chars, in a block of its own size. */
    uint32_t max = len ? (1u << (in[0] % 9)) - 1 : 0;
    size_t n = out_size;
    uint8_t *content = fuzz_alloc(2 * n);
    if (n) memcpy(content, in + 1, 2 * n);
    size_t done = b->bmp_narrow(content, n, o->out, max);
    o->r = (fm_result){.count = (uint32_t)done}; /* it returns only the count */
    free(content);
  }
  free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool checked;
  if (!checked) { /* the two sets really are the two builds */
    FUZZ_CHECK(BUILDS[0].simd_enabled() == 1 && BUILDS[1].simd_enabled() == 0, "builds mixed up");
    checked = true;
  }
  if (size == 0) return 0;
  int op = data[0] % OP_COUNT;
  outcome simd, scalar;
  run(&BUILDS[0], op, data + 1, size - 1, &simd);
  run(&BUILDS[1], op, data + 1, size - 1, &scalar);
  char what[32];
  snprintf(what, sizeof what, "op %d, simd vs scalar", op);
  fuzz_expect_result(what, &simd.r, &scalar.r);
  FUZZ_CHECK(simd.compared == scalar.compared, "op %d: %zu vs %zu bytes", op, simd.compared,
             scalar.compared);
  for (size_t k = 0; k < simd.compared; k++) {
    FUZZ_CHECK(simd.out[k] == scalar.out[k], "op %d: output byte %zu: simd %02x, scalar %02x", op,
               k, simd.out[k], scalar.out[k]);
  }
  free(simd.out);
  free(scalar.out);
  return 0;
}
