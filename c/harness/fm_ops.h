/* fm_ops.h - the harness's view of every kernel: one numbered op per kernel
 * and direction, with its input copied into aligned storage and its output
 * sized, so that the parity harness (fm_cli.c) runs each op once and the
 * speed harness (fm_bench.c) runs it many times, on the same code path.
 *
 * Ops, for element type t (0 f32, 1 f64, 2 i8, 3 u8, 4 i16, 5 u16, 6 i32,
 * 7 u32, 8 i64, 9 u64, 10 bool):
 *   1 + 2t      pack   (input: the typed array, little-endian; bool: bytes)
 *   2 + 2t      unpack (input: msgpack)
 *   23 + t - 2  unpack with FM_INTEGRAL_FLOATS, for the integer types
 *   32 BMP encode, 34 IA5 encode, 36 Visible encode (input: little-endian units)
 *   33 BMP decode, 35 IA5 decode, 37 Visible decode (input: content)
 *   38 IA5 check, 39 Visible check (input: content; no output)
 *   40 DER read BMPString, 41 IA5String, 42 VisibleString (input: DER)
 *   43 DER write BMPString, 44 IA5String, 45 VisibleString (input: units)
 */
#ifndef FM_OPS_H
#define FM_OPS_H

#include <stdbool.h>
#include <stdio.h>

#include "../fastmp.h"

typedef struct fm_op {
  int op;
  void *in;       /* the input, in storage aligned for its element type */
  size_t len;     /* input bytes */
  void *out;      /* the output buffer (for in-place ops: `in`) */
  size_t out_cap; /* its bytes */
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

/* Uniform faces of the typed kernels, by element type t (as in the op
 * numbers above), so that one table drives them all: this harness, and the
 * guard-page test. */
typedef size_t (*fm_pack_fn)(const void *in, size_t n, uint8_t *out);
typedef fm_code (*fm_unpack_fn)(const uint8_t *in, size_t len, void *out, size_t capacity,
                                uint32_t flags, fm_result *r);
typedef struct fm_typed_kernels {
  fm_pack_fn pack;
  fm_unpack_fn unpack;
} fm_typed_kernels;
enum { FM_TYPE_COUNT = 11 };
extern const fm_typed_kernels FM_TYPED_KERNELS[FM_TYPE_COUNT];

/* Exits with a message when memory runs out. */
void *fm_xmalloc(size_t size);

/* Reads the next request of a harness batch (u8 op, u32 length little-endian,
 * `length` bytes): the bytes (fm_xmalloc'd; the caller frees them), or NULL at
 * the end of the batch. A truncated request exits with a message naming `who`. */
uint8_t *fm_read_request(FILE *in, const char *who, int *op, uint32_t *len);

#endif
