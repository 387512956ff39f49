/* fuzz_strings.c - libFuzzer target for one ASN.1 character-string family,
 * chosen at build time with -DFUZZ_STRING=<S_BMP | S_IA5 | ...>
 * (build/fuzz/decode_bmp, decode_ia5, decode_visible, decode_printable,
 * decode_numeric).
 *
 * The input is content bytes from the network: decoded into an output of
 * exactly the chars it holds, and for BMP also in place (as the JS boundary
 * does); the one-byte kinds also through the check-only kernel. The same bytes,
 * read as little-endian 16-bit units, go through the encoder (BMP also in
 * place). Every result and every stored unit or byte must equal the
 * reference's.
 */
#include "fm_fuzz.h"

#ifndef FUZZ_STRING
#error "build with -DFUZZ_STRING=<S_BMP | S_IA5 | S_VISIBLE | S_PRINTABLE | S_NUMERIC>"
#endif

static const fuzz_string_kernels *const K = &FUZZ_STRING_KERNELS[FUZZ_STRING];

/* Chars stored: all on success; on failure the kernels have stored every
 * char before the bad one (nothing for an odd BMP length). The API promises
 * nothing about them and the JS boundary reads none, but none may be wrong. */
static size_t done_of(const fm_result *r, size_t all) {
  if (r->code == FM_OK) return all;
  return r->code == FM_ERR_ODD_LENGTH ? 0 : r->index;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
  const char *name = FUZZ_STRINGS[FUZZ_STRING].name;
  bool wide = FUZZ_STRING == S_BMP;
  size_t chars = wide ? len / 2 : len;
  fm_result r, want;

  /* Decode into exactly `chars` units. */
  uint16_t *units = fuzz_alloc(2 * chars), *expected = fuzz_alloc(2 * chars);
  fm_code code = K->decode(data, len, units, &r);
  ref_str_decode(FUZZ_STRING, data, len, expected, &want);
  fuzz_expect_result(name, &r, &want);
  FUZZ_CHECK(memcmp(units, expected, 2 * done_of(&r, chars)) == 0, "%s decode: units differ", name);

  if (wide) { /* in place, in a block of exactly the input */
    uint8_t *inplace = fuzz_alloc(len);
    memcpy(inplace, data, len);
    fm_bmp_decode(inplace, len, (uint16_t *)(void *)inplace, &r);
    fuzz_expect_result("BMPString in place", &r, &want);
    FUZZ_CHECK(memcmp(inplace, expected, 2 * done_of(&r, chars)) == 0, "BMP in place: units differ");
    free(inplace);
  } else {
    fm_code checked = K->check(data, len, &r);
    fuzz_expect_result("check", &r, &want);
    FUZZ_CHECK(checked == code, "check %d, decode %d", checked, code);
  }
  free(expected);
  free(units);

  /* Encode the same bytes read as units, into exactly the content's size. */
  size_t n = len / 2;
  size_t out_size = wide ? 2 * n : n;
  units = fuzz_alloc(2 * n);
  memcpy(units, data, 2 * n);
  uint8_t *out = fuzz_alloc(out_size), *bytes = fuzz_alloc(out_size);
  K->encode(units, n, out, &r);
  ref_str_encode(FUZZ_STRING, units, n, bytes, &want);
  fuzz_expect_result("encode", &r, &want);
  size_t done = done_of(&r, n);
  FUZZ_CHECK(memcmp(out, bytes, wide ? 2 * done : done) == 0, "%s encode: bytes differ", name);
  if (wide) {
    fm_bmp_encode(units, n, (uint8_t *)units, &r);
    fuzz_expect_result("BMPString encode in place", &r, &want);
    FUZZ_CHECK(memcmp(units, bytes, 2 * done) == 0, "BMP encode in place: bytes differ");
  }
  free(bytes);
  free(out);
  free(units);
  return 0;
}
