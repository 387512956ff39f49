/* fm_cli.c - the native parity harness: runs a batch of requests through the
 * kernels of this build, so that tests can compare the native builds (x86-64
 * and aarch64, SIMD and scalar) with the wasm builds byte for byte.
 *
 *   fm-cli IN OUT      (a path of "-" means stdin / stdout)
 *   fm-cli --ops       (prints the op numbers, see fm_ops.h)
 *
 * Request:  u8 op, u32 length, `length` bytes: the ops of fm_ops.h (BMP encode
 *   and decode run in place, as the JS boundary does).
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

#include "fm_ops.h"

static void die(const char *what) {
  fprintf(stderr, "fm-cli: %s\n", what);
  exit(2);
}

static void put_u32(FILE *out, size_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  if (fwrite(b, 1, 4, out) != 4) die("write failed");
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

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--ops") == 0) {
    fm_op_list(stdout);
    return fclose(stdout) == 0 ? 0 : 2;
  }
  if (argc != 3) die("usage: fm-cli IN OUT, or fm-cli --ops");
  FILE *in = strcmp(argv[1], "-") ? fopen(argv[1], "rb") : stdin;
  FILE *out = strcmp(argv[2], "-") ? fopen(argv[2], "wb") : stdout;
  if (!in || !out) die("cannot open input or output");
  int op;
  uint32_t len;
  uint8_t *data;
  while ((data = fm_read_request(in, "fm-cli", &op, &len)) != NULL) {
    fm_op o;
    const char *why;
    if (!fm_op_prepare(&o, op, data, len, true, &why)) die(why);
    fm_result r;
    size_t size = fm_op_run(&o, &r);
    put_response(out, &r, o.out, size);
    fm_op_release(&o);
    free(data);
  }
  if (fclose(out) != 0) die("write failed");
  return 0;
}
