// crossovers.js - where `pureJs: 'auto'` hands a typed array to wasm: the
// element counts below which the pure-JS path is faster than a wasm call (the
// call and the copy in cost more than the loop saves), per backend, operation
// and element type, and per JS engine where an engine differs materially.

/**
 * The base table, measured on V8 by `node --expose-gc bench/crossover.js`
 * (x86-64, random content, freed memory kept: GLIBC_TUNABLES as
 * bench/messages.js KEPT_TUNABLES): each is the median over several runs of
 * the first size of the bench's list from which wasm stayed ahead. The bench
 * times calls in batches: a sample of one call carries the timer's own cost,
 * which hides a small call. Runs disagree by a size or two of the list, some
 * unpacks and the booleans by more: near a crossover both paths are within
 * noise of each other.
 * 1 means wasm wins from one element.
 */
const V8 = {
  simd: {
    pack: { f32: 48, f64: 48, i8: 48, u8: 64, i16: 24, u16: 16, i32: 8, u32: 4, i64: 1, u64: 1, bool: 96 },
    unpack: { f32: 96, f64: 128, i8: 48, u8: 48, i16: 32, u16: 32, i32: 64, u32: 48, i64: 4, u64: 1, bool: 96 },
  },
  scalar: {
    pack: { f32: 64, f64: 96, i8: 48, u8: 64, i16: 32, u16: 16, i32: 8, u32: 8, i64: 1, u64: 1, bool: 256 },
    unpack: { f32: 256, f64: 256, i8: 48, u8: 48, i16: 96, u16: 64, i32: 64, u32: 96, i64: 4, u64: 1, bool: 256 },
  },
};

/**
 * Per engine, only the entries where V8's value costs that engine more than 2x
 * (bench/engines-bench.js MATERIAL_COST) at some size: with V8's value `auto`
 * took a path over 2x slower than the other one (bench/engines-bench.js
 * thresholdCost(), over N = 1..512, in `npm run bench -- --engines`; near a
 * crossover both paths are within noise of each other, so smaller
 * differences get no entry). Each value is the engine's own crossover from
 * that run. Types the engines bench does not probe (it probes f32, f64, i32,
 * i64) keep V8's value.
 *
 * An entry needs a cost that a second run reproduces: one at the threshold in
 * one run only gets none. Nor does a cost that the content decides: on V8
 * itself pack BigInt64Array at N <= 2 favours pure JS for the engines bench's
 * values, which fit 32 bits, and wasm for the full-range values of the base
 * table's run, so V8's value stays. bench/RESULTS-engines.md ("Pure-JS
 * crossovers") gives each engine's crossovers and what these values cost it.
 */
const OVERRIDES = {
  jsc: {},
  spidermonkey: {
    simd: { pack: { f32: 256, f64: 128 }, unpack: { f64: 128 } },
    scalar: { pack: { f32: 256 } },
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
 * The crossover table `auto` uses on `engine` (V8's where the engine has no
 * override, and for 'unknown'): { simd|scalar: { pack|unpack: { type: n } } },
 * a fresh object each call.
 */
export function jsBelowFor(engine = jsEngine()) {
  const overrides = Object.hasOwn(OVERRIDES, engine) ? OVERRIDES[engine] : {};
  const merged = {};
  for (const [backend, ops] of Object.entries(V8)) {
    merged[backend] = {};
    for (const [op, types] of Object.entries(ops)) merged[backend][op] = { ...types, ...overrides[backend]?.[op] };
  }
  return merged;
}
