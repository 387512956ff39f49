/* fm_ops.h - the harness's view of every kernel: one numbered op per kernel
 * and direction, with its input copied into aligned storage and its output
 * sized, so that the parity harness (fm_cli.c) runs each op once and the
 * speed harness (fm_bench.c) runs it many times, on the same code path.
 *
 * The op numbers are made from the type lists of c/fastmp.h, so that a new
 * type moves the later numbers instead of colliding with them; `fm-cli --ops`
 * prints them all. Today (t = FM_TYPE_<name>: 0 f32, 1 f64, 2 i8 ... 10 bool):
 *   FM_OP_PACK_<name>            1 + 2t  (input: the typed array, little-endian; bool: bytes)
 *   FM_OP_UNPACK_<name>          2 + 2t  (input: msgpack)
 *   FM_OP_UNPACK_INTEGRAL_<name> 23 (i8) ... 30 (u64): unpack with FM_INTEGRAL_FLOATS
 *   FM_OP_<NAME>, the string ops in FM_STRING_OPS order from 32:
 *     BMP / IA5 / Visible encode (input: little-endian units), decode (input:
 *     content), IA5 / Visible check (input: content; no output), DER read
 *     (input: DER), DER write (input: units); then the same for Printable and
 *     Numeric (appended, so that the earlier numbers stay); then BMP narrow
 *     with max 0x7F and 0xFF (fm_bmp_narrow; input: content of whole chars,
 *     an odd length is refused; output: the narrowed bytes, r.count the
 *     chars done and r.end their content bytes).
 */
#ifndef FM_OPS_H
#define FM_OPS_H

#include <stdbool.h>
#include <stdio.h>

#include "../fastmp.h"

/* X(NAME, input): the string ops in number order; input is `units` (16-bit,
 * little-endian) or `bytes`. */
#define FM_STRING_OPS(X)                                                              \
  X(BMP_ENCODE, units) X(BMP_DECODE, bytes) X(IA5_ENCODE, units) X(IA5_DECODE, bytes) \
  X(VISIBLE_ENCODE, units) X(VISIBLE_DECODE, bytes) X(IA5_CHECK, bytes)               \
  X(VISIBLE_CHECK, bytes) X(DER_READ_BMP, bytes) X(DER_READ_IA5, bytes)               \
  X(DER_READ_VISIBLE, bytes) X(DER_WRITE_BMP, units) X(DER_WRITE_IA5, units)          \
  X(DER_WRITE_VISIBLE, units) X(PRINTABLE_ENCODE, units) X(PRINTABLE_DECODE, bytes)     \
  X(NUMERIC_ENCODE, units) X(NUMERIC_DECODE, bytes) X(PRINTABLE_CHECK, bytes)            \
  X(NUMERIC_CHECK, bytes) X(DER_READ_PRINTABLE, bytes) X(DER_READ_NUMERIC, bytes)        \
  X(DER_WRITE_PRINTABLE, units) X(DER_WRITE_NUMERIC, units) X(BMP_NARROW_ASCII, bytes)     \
  X(BMP_NARROW_LATIN1, bytes)

#define FM_OP_TYPED(name, T, wire) FM_OP_PACK_##name, FM_OP_UNPACK_##name,
#define FM_OP_INTEGRAL(name, T, wire) FM_OP_UNPACK_INTEGRAL_##name,
#define FM_OP_STRING(NAME, input) FM_OP_##NAME,
enum {
  FM_OP_NONE, /* 0: no op */
  FM_ELEMENT_TYPES(FM_OP_TYPED) FM_INT_TYPES(FM_OP_INTEGRAL) FM_OP_TYPED_END,
  /* The string ops start at 32, or right after the typed ops should these
   * reach 32. fm-cli --ops prints every number; the JS tests and bench read
   * them from there (test/helpers.js harnessOps). */
  FM_OP_STRING_FIRST = FM_OP_TYPED_END > 32 ? FM_OP_TYPED_END : 32,
  FM_OP_STRING_BASE = FM_OP_STRING_FIRST - 1, /* not an op: the one before the first string op */
  FM_STRING_OPS(FM_OP_STRING) FM_OP_END
};
#undef FM_OP_TYPED
#undef FM_OP_INTEGRAL
#undef FM_OP_STRING

typedef struct fm_op {
  int op;
  void *in;       /* the input, in storage aligned for its element type */
  size_t len;     /* input bytes */
  void *out;      /* the output buffer (for in-place ops: `in`) */
  size_t out_cap; /* its bytes */
  void *out_block; /* the allocation `out` lies in (what fm_op_release frees) */
} fm_op;

/* Prepares `op` on a copy of data[0, len); false (with *why set) when the op
 * is unknown or the input is not a whole number of elements. in_place: BMP
 * encode and decode work in their input's storage, as the JS boundary does. */
bool fm_op_prepare(fm_op *o, int op, const uint8_t *data, size_t len, bool in_place,
                   const char **why);

/* Runs the op once: fills r and returns the bytes of output written (0 after
 * an error, and for the check ops). */
size_t fm_op_run(fm_op *o, fm_result *r);

void fm_op_release(fm_op *o);

/* Writes "<number> <name>" for every op, the name being its FM_OP_ suffix
 * (e.g. "1 PACK_f32", "23 UNPACK_INTEGRAL_i8", "32 BMP_ENCODE"). */
void fm_op_list(FILE *out);

/* The typed kernels by FM_TYPE_<name>, with uniform faces, so that one table
 * drives them all: this harness, and the guard-page test. */
typedef size_t (*fm_pack_fn)(const void *in, size_t n, uint8_t *out);
typedef fm_code (*fm_unpack_fn)(const uint8_t *in, size_t len, void *out, size_t capacity,
                                uint32_t flags, fm_result *r);
typedef struct fm_typed_kernels {
  const char *name; /* "f32": fm_pack_f32, fm_unpack_f32 */
  size_t size;      /* bytes per element in the typed array */
  size_t max_wire;  /* bytes of its largest msgpack form */
  bool is_signed;   /* of the C type (floats too) */
  fm_pack_fn pack;
  fm_unpack_fn unpack;
} fm_typed_kernels;
extern const fm_typed_kernels FM_TYPED_KERNELS[FM_TYPE_COUNT];

/* Exits with a message when memory runs out. */
void *fm_xmalloc(size_t size);

/* Reads the next request of a harness batch (u8 op, u32 length little-endian,
 * `length` bytes): the bytes (fm_xmalloc'd; the caller frees them), or NULL at
 * the end of the batch. A truncated request exits with a message naming `who`. */
uint8_t *fm_read_request(FILE *in, const char *who, int *op, uint32_t *len);

#endif
