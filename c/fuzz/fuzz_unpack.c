/* fuzz_unpack.c - libFuzzer target for one typed decoder: fm_unpack_<type>,
 * chosen at build time with -DFUZZ_TYPE=FM_TYPE_<name> (fastmp.h); the
 * Makefile builds one binary per type (build/fuzz/unpack_<type>).
 *
 * The input is the msgpack given to the decoder, as a network peer would send
 * it. Each run decodes it the way the JS boundary does: first with no room
 * (which must fail before touching the output, and tells the header's count),
 * then into an output of exactly `count` elements; and, for the integer types,
 * once more with FM_INTEGRAL_FLOATS. Every result must equal the reference
 * decoder's, field for field and value for value.
 */
#include "fm_fuzz.h"

#ifndef FUZZ_TYPE
#error "build with -DFUZZ_TYPE=FM_TYPE_<name>"
#endif

static void decode(const uint8_t *in, size_t len, uint32_t flags) {
  const fuzz_type *ty = &FUZZ_TYPES[FUZZ_TYPE];
  fm_result r, want;
  uint8_t none[16], untouched[16];
  memset(none, 0x5a, sizeof none);
  memset(untouched, 0x5a, sizeof untouched);
  /* No room: header errors, or CAPACITY with the count (OK for an empty array). */
  fm_code code = FUZZ_KERNELS[FUZZ_TYPE].unpack(in, len, none, 0, flags, &r);
  ref_unpack(FUZZ_TYPE, in, len, none, 0, flags, &want);
  fuzz_expect_result("capacity 0", &r, &want);
  FUZZ_CHECK(memcmp(none, untouched, sizeof none) == 0, "capacity 0: the output was written");
  if (code != FM_ERR_CAPACITY) return;
  size_t count = r.count;
  FUZZ_CHECK(count >= 1 && count <= len, "count %zu of %zu bytes", count, len);

  /* Exactly the room the header asks for: ASan catches any store past it. */
  uint8_t *out = fuzz_alloc(count * ty->size);
  uint8_t *expected = fuzz_alloc(count * ty->size);
  memset(out, 0xa5, count * ty->size);
  memset(expected, 0xa5, count * ty->size);
  code = FUZZ_KERNELS[FUZZ_TYPE].unpack(in, len, out, count, flags, &r);
  ref_unpack(FUZZ_TYPE, in, len, expected, count, flags, &want);
  fuzz_expect_result(ty->name, &r, &want);
  /* Values: all of them on success; on failure the elements before the bad one. */
  size_t done = code == FM_OK ? count : (r.index == FM_NO_INDEX ? 0 : r.index);
  FUZZ_CHECK(memcmp(out, expected, done * ty->size) == 0, "%s: values differ from the reference",
             ty->name);
  free(expected);
  free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  decode(data, size, 0);
  if (!FUZZ_TYPES[FUZZ_TYPE].is_float && FUZZ_TYPE != FM_TYPE_bool) decode(data, size, FM_INTEGRAL_FLOATS);
  return 0;
}
