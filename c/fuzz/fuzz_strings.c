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
 * reference's. For BMP, the same content is also narrowed (fm_bmp_narrow)
 * and checked against the chars themselves.
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

/* fm_bmp_narrow on the whole chars of the content (in a block of exactly
 * their size, into exactly one byte per char filled with a canary), for
 * every max the API allows, 2^k - 1 for k = 0..8: the count must be the
 * index of the first char above max (or all of them), each byte before it
 * that char's low byte, and every byte from it on the canary. */
static void check_narrow(const uint8_t *data, size_t len) {
  size_t n = len / 2;
  uint8_t *in = fuzz_alloc(2 * n), *out = fuzz_alloc(n);
  memcpy(in, data, 2 * n);
  for (unsigned k = 0; k <= 8; k++) {
    uint32_t max = (1u << k) - 1;
    size_t first = 0;
    while (first < n && (uint32_t)(data[2 * first] << 8 | data[2 * first + 1]) <= max) first++;
    memset(out, 0x5a, n);
    size_t done = fm_bmp_narrow(in, n, out, max);
    FUZZ_CHECK(done == first, "narrow, max 0x%02x: %zu chars done, the first above max is %zu", max,
               done, first);
    for (size_t i = 0; i < n; i++) {
      uint8_t want = i < first ? data[2 * i + 1] : 0x5a;
      FUZZ_CHECK(out[i] == want, "narrow, max 0x%02x: byte %zu is %02x, want %02x", max, i, out[i], want);
    }
    FUZZ_CHECK(memcmp(in, data, 2 * n) == 0, "narrow changed its input");
  }
  free(out);
  free(in);
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
    check_narrow(data, len);
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
