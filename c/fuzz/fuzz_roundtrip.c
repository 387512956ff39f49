/* fuzz_roundtrip.c - libFuzzer target for the packers (build/fuzz/roundtrip).
 *
 * Input: a selector byte (element type = byte % FM_TYPE_COUNT), then the typed array's
 * bytes (little-endian; a partial last element is dropped). fm_pack_<type>
 * writes into a block of exactly the reference encoding's size plus
 * FM_PACK_SLACK (the documented overhang of the SIMD packers), must return
 * that size and those bytes (smallest int forms, floats of their own width),
 * and fm_unpack_<type> must give back the very bits (bool: 0 / 1).
 */
#include "fm_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  int t = data[0] % FM_TYPE_COUNT;
  const fuzz_type *ty = &FUZZ_TYPES[t];
  size_t n = (size - 1) / ty->size;
  uint8_t *typed = fuzz_alloc(n * ty->size);
  memcpy(typed, data + 1, n * ty->size);

  /* The reference encoding, and the packer into exactly its size + slack. */
  uint8_t *want = fuzz_alloc(FM_PACK_BOUND(n, ty->max_wire));
  size_t want_size = ref_put_header(want, n);
  for (size_t i = 0; i < n; i++) want_size += ref_put_element(t, typed, i, want + want_size);
  FUZZ_CHECK(want_size + FM_PACK_SLACK <= FM_PACK_BOUND(n, ty->max_wire), "bound");
  uint8_t *packed = fuzz_alloc(want_size + FM_PACK_SLACK);
  size_t got = FUZZ_KERNELS[t].pack(typed, n, packed);
  FUZZ_CHECK(got == want_size, "pack %s of %zu: %zu bytes, want %zu", ty->name, n, got, want_size);
  FUZZ_CHECK(memcmp(packed, want, want_size) == 0, "pack %s of %zu: bytes differ", ty->name, n);

  /* And back, into exactly n elements. */
  uint8_t *back = fuzz_alloc(n * ty->size);
  fm_result r;
  fm_code code = FUZZ_KERNELS[t].unpack(packed, got, back, n, 0, &r);
  FUZZ_CHECK(code == FM_OK && r.count == n && r.end == got, "unpack %s of %zu: code %d", ty->name,
             n, code);
  for (size_t i = 0; t == FM_TYPE_bool && i < n; i++) typed[i] = typed[i] != 0;
  FUZZ_CHECK(memcmp(back, typed, n * ty->size) == 0, "%s of %zu: not the same bits", ty->name, n);
  free(back);
  free(packed);
  free(want);
  free(typed);
  return 0;
}
