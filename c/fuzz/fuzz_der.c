/* fuzz_der.c - libFuzzer target for one DER string reader, chosen at build
 * time with -DFUZZ_STRING=<S_BMP | S_IA5 | ...> (build/fuzz/der_bmp,
 * der_ia5, der_visible, der_printable, der_numeric).
 *
 * The input is a DER encoding from the network. fm_der_read_header and
 * fm_der_read_<kind> must agree with the reference field for field, with the
 * output exactly as large as the content's chars; a string that reads must
 * write back (fm_der_write_<kind>) to the very bytes it was read from, into
 * exactly that many bytes: DER has one encoding per value.
 */
#include "fm_fuzz.h"

#ifndef FUZZ_STRING
#error "build with -DFUZZ_STRING=<S_BMP | S_IA5 | S_VISIBLE | S_PRINTABLE | S_NUMERIC>"
#endif

static const fuzz_string_kernels *const K = &FUZZ_STRING_KERNELS[FUZZ_STRING];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
  const char *name = FUZZ_STRINGS[FUZZ_STRING].name;
  uint8_t tag = FUZZ_STRINGS[FUZZ_STRING].tag;
  bool wide = FUZZ_STRING == S_BMP;
  fm_result r, want;
  size_t content = 0, want_content = 0;

  fm_code code = fm_der_read_header(data, len, tag, &content, &r);
  ref_der_header(data, len, tag, &want_content, &want);
  fuzz_expect_result("header", &r, &want);

  /* The whole string: content decoded into exactly its chars. */
  size_t content_len = code == FM_OK ? r.end - content : 0;
  size_t chars = wide ? content_len / 2 : content_len;
  uint16_t *units = fuzz_alloc(2 * chars), *expected = fuzz_alloc(2 * chars);
  fm_code read = K->der_read(data, len, units, &r);
  if (code == FM_OK) {
    FUZZ_CHECK(content == want_content, "content at %zu, want %zu", content, want_content);
    ref_str_decode(FUZZ_STRING, data + content, content_len, expected, &want);
    if (want.code == FM_OK) want.end += content;
    else want.offset += content;
  }
  fuzz_expect_result(name, &r, &want);

  if (read == FM_OK) {
    FUZZ_CHECK(memcmp(units, expected, 2 * chars) == 0, "%s: units differ", name);
    /* Written back into exactly the bytes it was read from. */
    uint8_t *again = fuzz_alloc(r.end);
    size_t end = r.end;
    fm_code wrote = K->der_write(units, chars, again, &r);
    FUZZ_CHECK(wrote == FM_OK && r.end == end && r.count == chars, "%s: write back gave %d, end %zu",
               name, wrote, r.end);
    FUZZ_CHECK(memcmp(again, data, end) == 0, "%s: written back to other bytes", name);
    free(again);
  }
  free(expected);
  free(units);
  return 0;
}
