// crossovers.js - where `pureJs: 'auto'` hands a typed array to wasm: the
// element counts below which the pure-JS path is faster than a wasm call (the
// call and the copy in cost more than the loop saves), per backend, operation
// and element type, and per JS engine where an engine differs materially.

/**
 * The base table, measured on V8. Each is the median of three runs of
 * `node --expose-gc bench/crossover.js` (Node 20, x86-64, random content, freed
 * memory kept: GLIBC_TUNABLES as bench/messages.js KEPT_TUNABLES) of the first
 * size from which wasm stayed ahead; remeasured 2026-12-02 with calls timed in
 * batches of 32 (the earlier table timed one call a sample, whose timer cost
 * hid a small call: its i32 pack from 4 was noise, pure JS is faster up to 8
 * in all three runs). The three runs disagreed by up to one or two sizes of
 * the bench's list (1, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256), for some
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
 * at some size: with V8's value `auto` took a path over 2x slower than the
 * other one (bench/engines-bench.js thresholdCost(), over N = 1..512, in
 * `npm run bench -- --engines`; near a crossover both paths are within noise
 * of each other, so smaller differences get no entry). Each value is the
 * engine's own crossover from that run. Types the engines bench does not
 * probe (it probes f32, f64, i32, i64) keep V8's value.
 *
 * Chosen from the first of two runs on 2026-12-02: only Firefox ESR 153 had
 * such entries. There a wasm call of 16-128 elements costs 2.5-5x pure JS for
 * pack Float32Array / Float64Array and unpack Float64Array (V8's values cost
 * it 2.9x, 2.5x, 2.6x); Bun's worst was 1.9x (unpack Int32Array), so JSC
 * keeps V8's. The second run (bench/RESULTS-engines.md, with these values)
 * found Firefox's worst at 2.07x, unpack BigInt64Array below 32 elements,
 * where the first run had 8 as its crossover: at the threshold and not
 * reproduced, so no entry.
 * On V8 itself the first run's worst was 2.4x, pack BigInt64Array at N <= 2: its
 * values fit 32 bits, which pure JS packs fast; with full-range values (the
 * base table's run) wasm is 2x faster there. Content decides; V8's stays.
 * A third run, after V8's table was remeasured (bench/RESULTS-engines.md,
 * 2026-12-02, commit c345c14), found no entry above 2x on any engine: the
 * worst were Firefox's pack BigInt64Array (1.93x SIMD, 1.78x scalar) and
 * pack Float64Array (scalar 1.82x), Chromium's pack Float32Array (1.54x).
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
