// crossover.js - where does a wasm call start to beat the pure-JS loop?
// Measures every operation at small sizes, pure JS vs wasm (SIMD and
// scalar), in one run, and prints for each the first size from which wasm
// stays at least as fast: the thresholds in js/crossovers.js (JS_BELOW, its V8 table) come from it.
//   node --expose-gc bench/crossover.js [--types=f32,i32]
// Calls are timed in batches of 32 (as bench/suite.js times calls on up to 64
// elements): one call a sample carries the timer's own cost, which hides a
// whole small call (the crossovers it gave at the smallest sizes were noise).
import { TYPE_NAMES, kindOfC } from '../test/helpers.js';
import { formatNs, loadPaths, medians, printTable } from './lib.js';

const paths = await loadPaths();
const SIZES = [1, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256];
const BATCH = 32;
const only = process.argv.find((a) => a.startsWith('--types='))?.slice(8).split(',') ?? TYPE_NAMES; // f32, ..., bool

/** Typical content: random values of the type (floats: random reals). */
function sample(kind, n) {
  const x = new kind.Type(n);
  if (kind.c === 'bool') for (let i = 0; i < n; i++) x[i] = Math.random() < 0.5 ? 1 : 0;
  else if (kind.float) for (let i = 0; i < n; i++) x[i] = Math.random() * 1000 - 500;
  else new Uint8Array(x.buffer).forEach((_, i, b) => { b[i] = Math.random() * 256; });
  return x;
}

const rows = [];
const summary = [];
for (const type of only) {
  const kind = kindOfC(type);
  const { Type } = kind;
  for (const op of ['pack', 'unpack']) {
    const firstWin = { 'wasm-simd': null, 'wasm-scalar': null };
    for (const n of SIZES) {
      const x = sample(kind, n);
      const asArray = type === 'u8' ? { bin: false } : undefined; // a Uint8Array as an array; no options where they change nothing
      const packOne = (api) => (type === 'bool' ? api.packBool(x) : api.pack(x, asArray));
      const bytes = packOne(paths['pure-js']);
      const run = (api) => (op === 'pack' ? packOne(api) : type === 'bool' ? api.unpackBool(bytes) : api.unpack(bytes, Type));
      const m = await medians(['pure-js', 'wasm-simd', 'wasm-scalar'].map((name) => ({ name, fn: () => run(paths[name]) })), { time: 150, warmupTime: 30, rounds: 5, batch: BATCH });
      const js = m.get('pure-js');
      for (const build of ['wasm-simd', 'wasm-scalar']) {
        if (m.get(build) <= js) firstWin[build] ??= n;
        else firstWin[build] = null; // must stay ahead from there on
      }
      rows.push({ type, op, n, 'pure-js': formatNs(js), 'wasm-simd': formatNs(m.get('wasm-simd')), 'wasm-scalar': formatNs(m.get('wasm-scalar')) });
    }
    summary.push({ type, op, 'simd wins from': firstWin['wasm-simd'] ?? '>256', 'scalar wins from': firstWin['wasm-scalar'] ?? '>256' });
    process.stderr.write(`${type} ${op}\n`);
  }
}
printTable(rows);
console.log();
printTable(summary);
