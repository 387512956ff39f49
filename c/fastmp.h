/* fastmp.h - the C API of the fastmp kernels.
 *
 * One error convention everywhere: a decoder returns an fm_code and, whatever
 * the outcome, fills the caller's fm_result. On success `end` is the offset
 * just past what was consumed; on failure `index` is the element (or char)
 * index and `offset` the byte offset of the first bad input, `tag` the byte
 * found there. Encoders of typed arrays cannot fail: they return the number of
 * bytes written into a buffer of at least the matching *_BOUND size.
 *
 * The same declarations serve the wasm builds (where size_t is 32 bits and the
 * JS boundary reads fm_result as six little-endian u32 and a u64) and the
 * native builds.
 */
#ifndef FASTMP_H
#define FASTMP_H

#include <stddef.h>
#include <stdint.h>

/* Codes 1-15 are msgpack decoding errors, 16-31 string (BMP, the one-byte
 * kinds, DER) errors; js/errors.js names them by these numbers. */
typedef enum fm_code {
  FM_OK = 0,
  FM_ERR_NOT_ARRAY = 1, /* the input does not start with an array header */
  FM_ERR_TRUNCATED = 2, /* the input ends inside a header or an element */
  FM_ERR_LENGTH = 3,    /* the header claims more elements than bytes remain */
  FM_ERR_TYPE = 4,      /* an element is not of a kind the target accepts */
  FM_ERR_CAPACITY = 5,  /* the caller's output holds fewer elements than the header claims */
  FM_ERR_RANGE = 6,     /* a value does not fit the target type (r->value holds it) */

  /* Strings and DER (c/fm_string.c). A DER input that ends inside the
   * header, or holds less content than its length says, is FM_ERR_TRUNCATED. */
  FM_ERR_SURROGATE = 16,       /* a BMPString unit in 0xD800-0xDFFF */
  FM_ERR_ODD_LENGTH = 17,      /* BMPString content of an odd number of bytes */
  FM_ERR_RANGE_CHAR = 18,      /* an IA5 / Visible / Printable / Numeric char outside its set */
  FM_ERR_DER_TAG = 19,         /* not the expected universal tag */
  FM_ERR_DER_CONSTRUCTED = 20, /* the constructed form of the expected tag */
  FM_ERR_DER_INDEFINITE = 21,  /* indefinite length (0x80) */
  FM_ERR_DER_NONMINIMAL = 22,  /* a long-form length that a shorter form could hold */
  FM_ERR_DER_LENGTH = 23       /* the reserved length octet 0xFF, or more than 4 length octets */
} fm_code;

/* `index` of an error that belongs to no element (the array header). */
#define FM_NO_INDEX ((size_t)-1)

typedef struct fm_result {
  uint32_t code;  /* an fm_code */
  uint32_t count; /* elements in the array header (once it has been read) */
  size_t index;   /* element index of the error, or FM_NO_INDEX */
  size_t offset;  /* byte offset of the error */
  size_t end;     /* on success: offset just past the array */
  uint32_t tag;   /* on error: the byte at `offset` (0 when past the end) */
  uint64_t value; /* on a range error: the element's raw value (its tag tells the kind) */
} fm_result;

/* The layout the JS boundary reads on wasm32: js/abi.js RESULT states the same
 * offsets (and NO_INDEX_U32 the same FM_NO_INDEX); test/c-interface.test.js
 * reads these lines and checks that both agree. */
#if defined(__wasm32__)
_Static_assert(offsetof(fm_result, code) == 0, "js/abi.js RESULT.code");
_Static_assert(offsetof(fm_result, count) == 4, "js/abi.js RESULT.count");
_Static_assert(offsetof(fm_result, index) == 8, "js/abi.js RESULT.index");
_Static_assert(offsetof(fm_result, offset) == 12, "js/abi.js RESULT.offset");
_Static_assert(offsetof(fm_result, end) == 16, "js/abi.js RESULT.end");
_Static_assert(offsetof(fm_result, tag) == 20, "js/abi.js RESULT.tag");
_Static_assert(offsetof(fm_result, value) == 24, "js/abi.js RESULT.valueLo (valueHi: + 4)");
_Static_assert(sizeof(fm_result) == 32, "js/abi.js RESULT.size");
_Static_assert(FM_NO_INDEX == 0xffffffffu, "js/abi.js NO_INDEX_U32");
#endif
/* On every build: the fields in this order, `code` and `count` first, `value`
 * last, so that only the width of size_t moves the offsets. */
_Static_assert(offsetof(fm_result, code) == 0 && offsetof(fm_result, count) == 4,
               "code and count lead");
_Static_assert(offsetof(fm_result, count) < offsetof(fm_result, index) &&
                   offsetof(fm_result, index) < offsetof(fm_result, offset) &&
                   offsetof(fm_result, offset) < offsetof(fm_result, end) &&
                   offsetof(fm_result, end) < offsetof(fm_result, tag) &&
                   offsetof(fm_result, tag) < offsetof(fm_result, value),
               "fm_result's fields in declaration order");
_Static_assert(sizeof(fm_result) == offsetof(fm_result, value) + sizeof(uint64_t),
               "value is the last field");

/* Largest msgpack array: its length field is a u32. */
#define FM_MAX_ELEMENTS 0xffffffffu

/* SIMD packers may store up to this many bytes past the end of their output
 * (whole-vector stores of partly used vectors): every bound includes it. */
#define FM_PACK_SLACK 16u

/* The longest array header (array32: 0xdd + u32). */
#define FM_MAX_ARRAY_HEADER 5u

/* Output bounds of the packers: array32 header, the largest element form, slack. */
#define FM_PACK_BOUND(n, max_element) \
  (FM_MAX_ARRAY_HEADER + (size_t)(max_element) * (size_t)(n) + FM_PACK_SLACK)

/* Flags of the decoders. */
#define FM_INTEGRAL_FLOATS 1u /* integer targets: accept floats that are exactly integral and in range */
/* `in` is the first element, no array header: decode `capacity` elements (at
 * most FM_MAX_ELEMENTS). An element cut off by the end of `len` is
 * FM_ERR_TRUNCATED with its index and its offset: a caller that feeds a long
 * array in pieces resumes there (js/memory.js unpackChunked). */
#define FM_ELEMENTS_ONLY 2u

/* ---- typed arrays -------------------------------------------------------------
 * The element types, stated once for C: X(name, C type, bytes of the largest
 * msgpack form of one element). The kernels' declarations below, the harness,
 * the fuzz targets and the Makefile's fuzz targets are made from these lists;
 * js/kinds.js (KINDS and BOOL) is their JS twin, and test/c-interface.test.js
 * reads them and checks that both agree. */
#define FM_FLOAT_TYPES(X) X(f32, float, 5) X(f64, double, 9)
#define FM_INT_TYPES(X)                                                             \
  X(i8, int8_t, 2) X(u8, uint8_t, 2) X(i16, int16_t, 3) X(u16, uint16_t, 3)          \
  X(i32, int32_t, 5) X(u32, uint32_t, 5) X(i64, int64_t, 9) X(u64, uint64_t, 9)
#define FM_BOOL_TYPES(X) X(bool, uint8_t, 1)
#define FM_ELEMENT_TYPES(X) FM_FLOAT_TYPES(X) FM_INT_TYPES(X) FM_BOOL_TYPES(X)

/* FM_TYPE_<name>: a type's place in FM_ELEMENT_TYPES. */
#define FM_TYPE_ENUMERATOR(name, T, wire) FM_TYPE_##name,
typedef enum fm_type { FM_ELEMENT_TYPES(FM_TYPE_ENUMERATOR) FM_TYPE_COUNT } fm_type;
#undef FM_TYPE_ENUMERATOR

/* FM_WIRE_<name>: bytes of the largest msgpack form of one element. */
#define FM_WIRE_ENUMERATOR(name, T, wire) FM_WIRE_##name = (wire),
enum { FM_ELEMENT_TYPES(FM_WIRE_ENUMERATOR) };
#undef FM_WIRE_ENUMERATOR

#define FM_PACK_F32_BOUND(n) FM_PACK_BOUND(n, FM_WIRE_f32)
#define FM_PACK_F64_BOUND(n) FM_PACK_BOUND(n, FM_WIRE_f64)

/* fm_pack_<name>: packs the n elements at `in` as a msgpack array into `out`
 * (room: FM_PACK_BOUND(n, FM_WIRE_<name>)); returns the bytes written, or 0
 * when n exceeds FM_MAX_ELEMENTS.
 *   f32, f64: every element as a float of its own width (0xca / 0xcb), never
 *     as an int;
 *   integers: each in the smallest form that holds its value;
 *   bool: bytes, 0 -> false (0xc2), anything else -> true (0xc3).
 *
 * fm_unpack_<name>: unpacks the msgpack array at `in` into `out`, which holds
 * `capacity` elements. Trailing bytes after the array are not an error here:
 * `end` tells where the array stopped.
 *   f32, f64: any int or float form, converted to the nearest value;
 *   integers: any int form whose value fits (else FM_ERR_RANGE with
 *     r->value); floats are FM_ERR_TYPE unless flags has FM_INTEGRAL_FLOATS;
 *   bool: 0xc2 / 0xc3 only, into bytes 0 / 1. */
#define FM_DECLARE_TYPED(name, T, wire)                                                      \
  size_t fm_pack_##name(const T *in, size_t n, uint8_t *out);                               \
  fm_code fm_unpack_##name(const uint8_t *in, size_t len, T *out, size_t capacity,          \
                           uint32_t flags, fm_result *r);
FM_ELEMENT_TYPES(FM_DECLARE_TYPED)
#undef FM_DECLARE_TYPED

/* 1 when this build runs the SIMD128 paths, 0 for the scalar build. */
int fm_simd_enabled(void);

/* ---- ASN.1 character strings (c/fm_string.c) ----------------------------
 * BMPString content is big-endian UCS-2: plane 0 only, no surrogates.
 * The one-byte kinds hold one byte per char: IA5String 0x00-0x7F,
 * VisibleString 0x20-0x7E, PrintableString A-Z a-z 0-9 space ' ( ) + , - . /
 * : = ? and NumericString 0-9 and space (X.680 41.4); a char outside its set
 * is FM_ERR_RANGE_CHAR.
 * Code units are native (little-endian) uint16_t. Every function but
 * fm_bmp_narrow returns an fm_code and fills r: on success `count` is the
 * chars and `end` the bytes written (encode) or consumed (decode); on failure
 * `index` is the char index, `offset` its byte offset in the output (encode)
 * or input (decode), `value` the bad unit (or byte). Encoders and the BMP
 * decoder may work in place (out == in); the widening decoders may not. */
fm_code fm_bmp_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
/* Odd `len` is FM_ERR_ODD_LENGTH (offset len - 1) before any unit is read. */
fm_code fm_bmp_decode(const uint8_t *in, size_t len, uint16_t *out, fm_result *r);
/* BMPString content in[0, 2n) as one byte per char, out[0, n), while every
 * char is at most `max`: 0x7F (ASCII) or 0xFF (Latin-1), or any other
 * 2^k - 1 up to 0xFF (other values of max are not supported). Unlike the
 * functions around it, it fills no fm_result: it returns the number of chars
 * done, n when all are, else the index of the first char above max; out[i]
 * is the low byte of char i, in[2i + 1], for every i before it, and nothing
 * is stored for that char or after it. A char at most 0xFF is never a
 * surrogate, so no char it narrows is invalid; a short return says nothing
 * about validity (fm_bmp_decode tells). Engines build a string of such chars
 * from bytes (one per char) much faster than from 16-bit units. out must not
 * overlap in. */
size_t fm_bmp_narrow(const uint8_t *in, size_t n, uint8_t *out, uint32_t max);
fm_code fm_ia5_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_ia5_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r);
fm_code fm_visible_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_visible_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r);
fm_code fm_printable_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_printable_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r);
fm_code fm_numeric_encode(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_numeric_decode(const uint8_t *in, size_t n, uint16_t *out, fm_result *r);
/* Validation only: the bytes are already the chars (e.g. UTF-8 of ASCII). */
fm_code fm_ia5_check(const uint8_t *in, size_t n, fm_result *r);
fm_code fm_visible_check(const uint8_t *in, size_t n, fm_result *r);
fm_code fm_printable_check(const uint8_t *in, size_t n, fm_result *r);
fm_code fm_numeric_check(const uint8_t *in, size_t n, fm_result *r);

/* DER primitive encodings: tag, definite length in its shortest form, content. */
#define FM_DER_BMP_STRING 0x1eu
#define FM_DER_IA5_STRING 0x16u
#define FM_DER_VISIBLE_STRING 0x1au
#define FM_DER_PRINTABLE_STRING 0x13u
#define FM_DER_NUMERIC_STRING 0x12u
#define FM_DER_HEADER_MAX 6u /* tag, 0x84, 4 length octets */
#define FM_DER_MAX_LENGTH 0xffffffffu

/* Writes tag and length (<= FM_DER_MAX_LENGTH); returns the header size. */
size_t fm_der_write_header(uint8_t *out, uint8_t tag, uint32_t length);
/* Reads the header of a primitive `tag` at in[0]: *content is the offset of
 * the content, r->end the offset just past it. Errors name the byte offset
 * of the tag or of the length octets; index is FM_NO_INDEX. */
fm_code fm_der_read_header(const uint8_t *in, size_t len, uint8_t tag, size_t *content,
                           fm_result *r);
/* Whole DER strings at in[0] (out holds the content's chars, r->count of
 * them; r->end is the end of the string) and from chars (out holds
 * FM_DER_HEADER_MAX + 2n or + n bytes; r->end is the size written). Offsets
 * count from in[0] / out[0], tag and length included. */
fm_code fm_der_read_bmp(const uint8_t *in, size_t len, uint16_t *out, fm_result *r);
fm_code fm_der_read_ia5(const uint8_t *in, size_t len, uint16_t *out, fm_result *r);
fm_code fm_der_read_visible(const uint8_t *in, size_t len, uint16_t *out, fm_result *r);
fm_code fm_der_read_printable(const uint8_t *in, size_t len, uint16_t *out, fm_result *r);
fm_code fm_der_read_numeric(const uint8_t *in, size_t len, uint16_t *out, fm_result *r);
fm_code fm_der_write_bmp(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_der_write_ia5(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_der_write_visible(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_der_write_printable(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);
fm_code fm_der_write_numeric(const uint16_t *in, size_t n, uint8_t *out, fm_result *r);

/* ---- the wasm modules' memory --------------------------------------------- */
/* An instance's three wasm modules (pack, unpack, strings) share one memory,
 * which the JS side creates, grows and allocates from (js/wasm/heap.js): the
 * modules import it and hold no allocator. Each module's static data and
 * stack lie in a slot of its own below FM_HEAP_BASE (its -sGLOBAL_BASE is the
 * slot's start: the Makefile reads these), and the JS heap begins at
 * FM_HEAP_BASE. test/c-interface.test.js checks that each module ends
 * inside its slot and that js/abi.js says the same. */
#define FM_SLOT_SIZE 0x40000u
#define FM_SLOT_PACK 0x40000u
#define FM_SLOT_UNPACK 0x80000u
#define FM_SLOT_STRINGS 0xc0000u
#define FM_HEAP_BASE 0x100000u

#endif
