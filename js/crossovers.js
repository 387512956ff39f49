// crossovers.js - where `pureJs: 'auto'` hands work to wasm: the sizes below
// which the pure-JS path is faster than a wasm call (the call and the copy in
// cost more than the loop saves), in one table keyed by JS engine; per
// backend, operation and element type (typed arrays, in elements), and for the
// ASN.1 string ops (in chars).

/**
 * { engine: { simd|scalar: { pack|unpack: { type: n }, strings: { op: n } } } }:
 * `auto` runs pure JS below n elements (chars), wasm from n on; 1: wasm from
 * one element. Types are js/kinds.js's kernel names (`c`: f32 ... u64, and
 * bool for packBool / unpackBool); string ops are js/strings.js's (encodeBMP,
 * decodeBMP, and encodeASCII / decodeASCII for the one-byte kinds).
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
 * Every engine has a whole table, so the table says what each engine runs.
 * Near a crossover both paths are within noise of each other, and runs
 * disagree by a size or two of the grid (unpacks and the booleans by more):
 * a difference from V8 that one run shows and the other does not is noise,
 * and a value a size off costs little. bench/RESULTS-engines.md ("Pure-JS
 * crossovers") gives the measured crossovers and what each value costs its
 * engine. A change to what a call copies in or out moves the crossovers:
 * measure again.
 */
const TABLE = {
  v8: {
    simd: {
      pack: { f32: 48, f64: 48, i8: 48, u8: 64, i16: 24, u16: 16, i32: 8, u32: 4, i64: 1, u64: 1, bool: 96 },
      unpack: { f32: 96, f64: 128, i8: 48, u8: 48, i16: 32, u16: 32, i32: 64, u32: 48, i64: 4, u64: 1, bool: 96 },
      strings: { encodeBMP: 96, decodeBMP: 64, encodeASCII: 48, decodeASCII: 64 },
    },
    scalar: {
      pack: { f32: 64, f64: 96, i8: 48, u8: 64, i16: 32, u16: 16, i32: 8, u32: 8, i64: 1, u64: 1, bool: 256 },
      unpack: { f32: 256, f64: 256, i8: 48, u8: 48, i16: 96, u16: 64, i32: 64, u32: 96, i64: 4, u64: 1, bool: 256 },
      strings: { encodeBMP: 128, decodeBMP: 64, encodeASCII: 48, decodeASCII: 64 },
    },
  },
  jsc: {
    simd: {
      pack: { f32: 48, f64: 48, i8: 16, u8: 16, i16: 24, u16: 16, i32: 8, u32: 4, i64: 1, u64: 1, bool: 96 },
      unpack: { f32: 96, f64: 1024, i8: 48, u8: 48, i16: 256, u16: 256, i32: 64, u32: 48, i64: 4, u64: 1, bool: 512 },
      strings: { encodeBMP: 96, decodeBMP: 64, encodeASCII: 48, decodeASCII: 64 },
    },
    scalar: {
      pack: { f32: 64, f64: 96, i8: 48, u8: 16, i16: 32, u16: 16, i32: 8, u32: 8, i64: 1, u64: 1, bool: 256 },
      unpack: { f32: 256, f64: 1024, i8: 48, u8: 48, i16: 96, u16: 64, i32: 64, u32: 96, i64: 4, u64: 1, bool: 256 },
      strings: { encodeBMP: 128, decodeBMP: 64, encodeASCII: 48, decodeASCII: 64 },
    },
  },
  spidermonkey: {
    simd: {
      pack: { f32: 512, f64: 1024, i8: 16, u8: 16, i16: 24, u16: 16, i32: 8, u32: 4, i64: 1, u64: 1, bool: 1024 },
      unpack: { f32: 1024, f64: 256, i8: 48, u8: 48, i16: 32, u16: 32, i32: 64, u32: 96, i64: 4, u64: 1, bool: 1024 },
      strings: { encodeBMP: 1024, decodeBMP: 256, encodeASCII: 1024, decodeASCII: 1024 },
    },
    scalar: {
      pack: { f32: 512, f64: 128, i8: 48, u8: 16, i16: 32, u16: 16, i32: 8, u32: 8, i64: 1, u64: 1, bool: 1024 },
      unpack: { f32: 512, f64: 256, i8: 48, u8: 48, i16: 96, u16: 64, i32: 64, u32: 96, i64: 4, u64: 1, bool: 1024 },
      strings: { encodeBMP: 1024, decodeBMP: 1024, encodeASCII: 1024, decodeASCII: 512 },
    },
  },
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

/**
 * The crossover table `auto` uses on `engine` (V8's for 'unknown' and any
 * engine the table lacks): { simd|scalar: { pack|unpack: { type: n }, strings:
 * { op: n } } }, a fresh object each call.
 */
export function jsBelowFor(engine = jsEngine()) {
  const table = TABLE[Object.hasOwn(TABLE, engine) ? engine : 'v8'];
  return Object.fromEntries(Object.entries(table).map(([backend, ops]) => [backend, Object.fromEntries(Object.entries(ops).map(([op, n]) => [op, { ...n }]))]));
}
