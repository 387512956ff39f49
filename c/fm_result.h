/* fm_result.h - how every kernel fills the caller's fm_result (c/fastmp.h):
 * all fields at once, so that no field keeps what an earlier call left.
 */
#ifndef FM_RESULT_H
#define FM_RESULT_H

#include "fastmp.h"

/* Success: `count` elements or chars, `end` the bytes consumed or written. */
static inline fm_code fm_ok(fm_result *r, size_t count, size_t end) {
  *r = (fm_result){.code = FM_OK, .count = (uint32_t)count, .index = FM_NO_INDEX, .end = end};
  return FM_OK;
}

/* Failure, with the fields in fm_result's order (`end` is 0): `count` from
 * the array header (0 before it is read, and for strings), `index` the
 * element or char (FM_NO_INDEX for none), `offset` the byte, `tag` the byte
 * of msgpack or DER input found there (0 past its end, and for strings),
 * `value` the offending value. */
static inline fm_code fm_fail(fm_result *r, fm_code code, uint32_t count, size_t index,
                              size_t offset, uint32_t tag, uint64_t value) {
  *r = (fm_result){.code = (uint32_t)code, .count = count, .index = index, .offset = offset,
                   .tag = tag, .value = value};
  return code;
}

#endif
