// abi.js - the C/JS interface of the wasm builds, stated once on the JS side.
// c/fastmp.h states the same facts for C, with _Static_asserts on the layout;
// test/c-interface.test.js reads the header and checks that both agree.

/** fm_result on wasm32 (c/fastmp.h): byte offsets of its fields, and its size. */
export const RESULT = /* @__PURE__ */ Object.freeze({
  code: 0, count: 4, index: 8, offset: 12, end: 16, tag: 20, valueLo: 24, valueHi: 28, size: 32,
});

/** FM_NO_INDEX as a wasm32 size_t: the index of an error that belongs to no element. */
export const NO_INDEX_U32 = 0xffffffff;

/** FM_PACK_SLACK: bytes a SIMD packer may store past the end of its output. */
export const PACK_SLACK = 16;

/** The longest msgpack array header (array32). */
export const MAX_ARRAY_HEADER = 5;

/** FM_MAX_ELEMENTS: the largest msgpack array (a u32 length). */
export const MAX_ELEMENTS = 0xffffffff;

/** FM_PACK_BOUND(n, wire): bytes a packer may write for n elements of at most `wire` bytes each. */
export const packBound = (n, wire) => MAX_ARRAY_HEADER + n * wire + PACK_SLACK;

/** FM_INTEGRAL_FLOATS: decoder flag, integer targets accept exactly integral floats. */
export const INTEGRAL_FLOATS = 1;

/** FM_ELEMENTS_ONLY: decoder flag, the input is elements without a header, `capacity` of them. */
export const ELEMENTS_ONLY = 2;

/** The longest msgpack number (float64, uint64, int64: tag + 8 bytes): what a decoder may read per element. */
export const MAX_NUMBER_BYTES = 9;

/**
 * The wasm modules' shared memory (c/fastmp.h "the wasm modules' memory"):
 * each module's static data and stack lie in its slot below HEAP_BASE, where
 * the JS heap (js/wasm/heap.js) begins; every module imports the memory with
 * at least MEMORY_PAGES pages of 64 KB (the Makefile's INITIAL_MEMORY).
 */
export const SLOTS = /* @__PURE__ */ Object.freeze({ size: 0x40000, pack: 0x40000, unpack: 0x80000, strings: 0xc0000 });
export const HEAP_BASE = 0x100000;
export const MEMORY_PAGES = 32;
