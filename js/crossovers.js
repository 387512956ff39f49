// crossovers.js - where `pureJs: 'auto'` hands work to wasm: the sizes below
// which the pure-JS path is faster than a wasm call (the call and the copy in
// cost more than the loop saves), in one table keyed by JS engine; per
// backend, operation and element type (typed arrays, in elements), and for the
// ASN.1 string ops (in chars).

/**
 * Three tables, one per operation: `auto` runs pure JS below n elements
 * (chars), wasm from n on; 1: wasm from one element. A row is an engine's:
 * [simd, scalar], each its counts in the order of the table's columns (a
 * string of numbers: a page carries all three engines' rows). Typed-array
 * columns are js/kinds.js's kernel names (`c`: Uint8Array and
 * Uint8ClampedArray share u8), and bool for packBool / unpackBool; string
 * columns are js/strings.js's ops (encodeASCII / decodeASCII: the one-byte
 * kinds). A page bundles the table of each operation it calls, no other.
 *
 * Every value is checked on its engine (x86-64):
 * - v8: pack / unpack from `node --expose-gc bench/crossover.js` (random
 *   content, freed memory kept: GLIBC_TUNABLES as bench/messages.js
 *   KEPT_TUNABLES), each the median over several runs of the first size of the
 *   bench's list from which wasm stayed ahead; strings from `node --expose-gc
 *   bench/strings-crossover.js`, each the first length at which wasm ÷ JS
 *   stays below 1 (decodeBMP on ASCII-only content as on other text). Both
 *   time calls in batches: a sample of one call carries the timer's own cost,
 *   which hides a small call.
 * - jsc (Bun) and spidermonkey (Firefox ESR): from two runs of the engines
 *   bench's crossover probes (`npm run bench -- --engines=bun,firefox
 *   --crossovers-only`, bench/engines-bench.js). An entry keeps V8's value
 *   unless that value cost the engine more than MATERIAL_COST (2x: the path
 *   `auto` took against the faster one, thresholdCost()) in both runs; such an
 *   entry takes the engine's own value, the size of the probe's grid that
 *   serves both runs best (bestBelow()); decodeBMP the larger of its two
 *   contents' values; 1024 where wasm never stayed ahead up to 512, the
 *   grid's largest size.
 *
 * Every engine has a whole row, so the tables say what each engine runs.
 * Near a crossover both paths are within noise of each other, and runs
 * disagree by a size or two of the grid (unpacks and the booleans by more):
 * a difference from V8 that one run shows and the other does not is noise,
 * and a value a size off costs little. bench/RESULTS-engines.md ("Pure-JS
 * crossovers") gives the measured crossovers and what each value costs its
 * engine. A change to what a call copies in or out moves the crossovers:
 * measure again.
 */
const TYPES = ['f32', 'f64', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'bool'];
export const STRING_OPS = ['encodeBMP', 'decodeBMP', 'encodeASCII', 'decodeASCII'];

//                  f32  f64 i8 u8 i16 u16 i32 u32 i64 u64 bool
const PACK = {
  v8: [
    ' 48   48 48 64  24  16   8   4   1   1   96', // simd
    ' 64   96 48 64  32  16   8   8   1   1  256', // scalar
  ],
  jsc: [
    ' 48   48 16 16  24  16   8   4   1   1   96', // simd
    ' 64   96 48 16  32  16   8   8   1   1  256', // scalar
  ],
  spidermonkey: [
    '512 1024 16 16  24  16   8   4   1   1 1024', // simd
    '512  128 48 16  32  16   8   8   1   1 1024', // scalar
  ],
};

//                  f32  f64 i8 u8 i16 u16 i32 u32 i64 u64 bool
const UNPACK = {
  v8: [
    ' 96  128 48 48  32  32  64  48   4   1   96', // simd
    '256  256 48 48  96  64  64  96   4   1  256', // scalar
  ],
  jsc: [
    ' 96 1024 48 48 256 256  64  48   4   1  512', // simd
    '256 1024 48 48  96  64  64  96   4   1  256', // scalar
  ],
  spidermonkey: [
    '1024 256 48 48  32  32  64  96   4   1 1024', // simd
    '512  256 48 48  96  64  64  96   4   1 1024', // scalar
  ],
};

//                encodeBMP decodeBMP encodeASCII decodeASCII
const STRINGS = {
  v8: [
    '  96   64   48   64', // simd
    ' 128   64   48   64', // scalar
  ],
  jsc: [
    '  96   64   48   64', // simd
    ' 128   64   48   64', // scalar
  ],
  spidermonkey: [
    '1024  256 1024 1024', // simd
    '1024 1024 1024  512', // scalar
  ],
};

/**
 * The JS engine of a runtime, from what it says of itself (`versions`: Node's
 * and Bun's process.versions; `userAgent`: a browser's): 'v8', 'jsc',
 * 'spidermonkey' or 'unknown'. By default, the engine running this code.
 */
export function jsEngine({ versions = globalThis.process?.versions, userAgent = globalThis.navigator?.userAgent } = {}) {
  if (typeof versions?.bun === 'string') return 'jsc';
  if (typeof versions?.v8 === 'string') return 'v8'; // Node, Deno
  if (typeof userAgent !== 'string') return 'unknown';
  if (/\bFirefox\//.test(userAgent)) return 'spidermonkey';
  if (/(?:Chrome|Chromium|Edg)\//.test(userAgent)) return 'v8'; // HeadlessChrome too; not CriOS (iOS: WebKit)
  if (/\bAppleWebKit\//.test(userAgent)) return 'jsc'; // Safari, and every browser on iOS
  return 'unknown';
}

/** `backend`'s ('simd', 'scalar') row of `table` on `engine` (V8's for any engine the table lacks), as { column: n }. */
function rowOf(table, columns, backend, engine) {
  const row = table[Object.hasOwn(table, engine) ? engine : 'v8'][backend === 'simd' ? 0 : 1].trim().split(/ +/);
  return Object.fromEntries(columns.map((column, i) => [column, Number(row[i])]));
}

/** { type: n } of pack on `backend` and `engine` (by default this one's). */
export const packBelow = (backend, engine = jsEngine()) => rowOf(PACK, TYPES, backend, engine);
/** { type: n } of unpack. */
export const unpackBelow = (backend, engine = jsEngine()) => rowOf(UNPACK, TYPES, backend, engine);
/** { op: n } of the string ops. */
export const stringsBelow = (backend, engine = jsEngine()) => rowOf(STRINGS, STRING_OPS, backend, engine);

/**
 * The crossovers `auto` uses on `engine` (V8's for 'unknown' and any engine
 * the tables lack), all three tables: { simd|scalar: { pack|unpack: { type:
 * n }, strings: { op: n } } }, a fresh object each call.
 */
export function jsBelowFor(engine = jsEngine()) {
  const backend = (b) => ({ pack: packBelow(b, engine), unpack: unpackBelow(b, engine), strings: stringsBelow(b, engine) });
  return { simd: backend('simd'), scalar: backend('scalar') };
}
