/* fuzz_unpack.c - libFuzzer target for one typed decoder: fm_unpack_<type>,
 * chosen at build time with -DFUZZ_TYPE=FM_TYPE_<name> (fastmp.h); the
 * Makefile builds one binary per type (build/fuzz/unpack_<type>).
 *
 * The input is the msgpack given to the decoder, as a network peer would send
 * it. Each run decodes it the way the JS boundary does: first with no room
 * (which must fail before touching the output, and tells the header's count),
 * then into an output of exactly `count` elements; and, for the integer types,
 * once more with FM_INTEGRAL_FLOATS. Every result must equal the reference
 * decoder's, field for field and value for value. Then the elements are
 * decoded again in pieces of a few bytes with FM_ELEMENTS_ONLY, resuming at
 * each element a piece cuts (TRUNCATED), as js/memory.js unpackChunked does:
 * the outcome must be the whole decode's.
 */
#include "fm_fuzz.h"

#ifndef FUZZ_TYPE
#error "build with -DFUZZ_TYPE=FM_TYPE_<name>"
#endif

#define FM_MIN_SIZE(a, b) ((a) < (b) ? (a) : (b))

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

/* The elements after the header at in[0] (count of them, from in[body])
 * decoded `piece` bytes at a time, each piece an exact-size copy; the error's
 * index and offset as the whole decode reports them, the values in out. */
static fm_code decode_in_pieces(const uint8_t *in, size_t len, size_t body, size_t count,
                                size_t piece, uint32_t flags, uint8_t *out, fm_result *r) {
  const fuzz_type *ty = &FUZZ_TYPES[FUZZ_TYPE];
  size_t pos = body;
  for (size_t i = 0; i < count;) {
    size_t avail = FM_MIN_SIZE(piece, len - pos);
    size_t asked = FM_MIN_SIZE(count - i, avail ? avail : 1);
    uint8_t *copy = fuzz_alloc(avail);
    memcpy(copy, in + pos, avail);
    fm_code code = FUZZ_KERNELS[FUZZ_TYPE].unpack(copy, avail, out + i * ty->size, asked,
                                                 flags | FM_ELEMENTS_ONLY, r);
    free(copy);
    size_t done = asked, used = r->end;
    if (code != FM_OK) {
      if (code != FM_ERR_TRUNCATED || pos + avail == len) {
        r->count = (uint32_t)count;
        r->index += i;
        r->offset += pos;
        return code;
      }
      FUZZ_CHECK(r->index > 0, "a piece of %zu bytes decoded no element", avail);
      done = r->index;
      used = r->offset;
    }
    i += done;
    pos += used;
  }
  r->code = FM_OK;
  r->count = (uint32_t)count;
  r->end = pos;
  return FM_OK;
}

static void decode_pieces(const uint8_t *in, size_t len, uint32_t flags) {
  const fuzz_type *ty = &FUZZ_TYPES[FUZZ_TYPE];
  fm_result whole, r;
  uint8_t none[1];
  if (FUZZ_KERNELS[FUZZ_TYPE].unpack(in, len, none, 0, flags, &whole) != FM_ERR_CAPACITY) return;
  size_t count = whole.count;
  size_t body = in[0] == 0xdc ? 3 : in[0] == 0xdd ? 5 : 1; /* a valid header: array16, array32, fixarray */
  uint8_t *want = fuzz_alloc(count * ty->size);
  uint8_t *got = fuzz_alloc(count * ty->size);
  fm_code code = FUZZ_KERNELS[FUZZ_TYPE].unpack(in, len, want, count, flags, &whole);
  /* Pieces longer than the longest element any target reads (9 bytes), of every length to 41. */
  size_t piece = 10 + in[len - 1] % 32;
  FUZZ_CHECK(decode_in_pieces(in, len, body, count, piece, flags, got, &r) == code,
             "pieces of %zu: code %u, whole %u", piece, r.code, code);
  FUZZ_CHECK(r.count == whole.count && (code == FM_OK ? r.end == whole.end
                                                      : r.index == whole.index && r.offset == whole.offset),
             "pieces of %zu: count %u index %zu offset %zu end %zu; whole %u %zu %zu %zu", piece, r.count,
             (size_t)r.index, r.offset, r.end, whole.count, (size_t)whole.index, whole.offset, whole.end);
  size_t done = code == FM_OK ? count : whole.index;
  FUZZ_CHECK(memcmp(got, want, done * ty->size) == 0, "pieces of %zu: values differ", piece);
  free(got);
  free(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  decode(data, size, 0);
  decode_pieces(data, size, 0);
  if (!FUZZ_TYPES[FUZZ_TYPE].is_float && FUZZ_TYPE != FM_TYPE_bool) {
    decode(data, size, FM_INTEGRAL_FLOATS);
    decode_pieces(data, size, FM_INTEGRAL_FLOATS);
  }
  return 0;
}
