// wasm-native.js - the same kernels as wasm (SIMD, scalar) and native x86-64
// (SIMD through SIMDe, scalar), timed in one run on the same inputs (the
// suite's typical content, bench/contents.js), kernels only: input and output
// already in memory (wasm: in the bare module's memory, bench/lib.js
// kernelCalls, as the suite's kernel rows; native: bench/native.js's fm-bench). Prints times and
// native ÷ wasm ratios (1 = wasm as fast as native; 0.67 = wasm 1.5x slower).
//   node bench/wasm-native.js [--n=4096,4194304] [--types=f32,i32] [--rounds=3]
// Both sides are the best of 7 rounds of at least 2 ms (fm_bench.c's rule);
// the whole set runs --rounds times, native and wasm alternating, and each
// figure is its best round: other work on the 2 shared cores only slows.
import { harnessOp, kindOfC } from '../test/helpers.js';
import { typicalContent, values } from './contents.js';
import { formatNs, kernelCalls, loadKernels, printTable } from './lib.js';
import { runNativeBench } from './native.js';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SIZES = (arg('n') ?? `4096,${4 << 20}`).split(',').map(Number);
const TYPES = (arg('types') ?? 'f32,i32').split(',');
const ROUNDS = Number(arg('rounds') ?? 3);

/** ns per call of fn: fm_bench.c's best_ns (best of 7 rounds of at least 2 ms). */
function bestNs(fn) {
  let t = process.hrtime.bigint();
  fn();
  const once = Number(process.hrtime.bigint() - t);
  const reps = Math.max(1, Math.ceil(2e6 / Math.max(once, 1)));
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    t = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / reps);
  }
  return best;
}

const wasm = await loadKernels();

/** One case per type, size and op: the wasm calls and the native requests on the same bytes (the suite's typical content). */
const cases = [];
for (const n of SIZES) {
  for (const type of TYPES) {
    const kind = kindOfC(type);
    const x = values(kind, n, typicalContent(kind));
    const bytes = new Uint8Array(x.buffer);
    const calls = { pack: {}, unpack: {} };
    let packed;
    for (const [build, k] of Object.entries(wasm)) {
      const probe = kernelCalls(k, kind, bytes, new Uint8Array(0));
      probe.pack();
      const wire = probe.packed();
      probe.free();
      if (packed && Buffer.compare(packed, wire) !== 0) throw new Error(`${type} ${n}: the wasm builds pack differently`);
      packed = wire;
      const call = kernelCalls(k, kind, bytes, packed);
      if (call.unpack() !== 0) throw new Error(`${type} ${n}: wasm ${build} unpack failed`);
      calls.pack[build] = call.pack;
      calls.unpack[build] = call.unpack;
    }
    for (const op of ['pack', 'unpack']) {
      cases.push({
        type, n, op, wasm: calls[op], best: {},
        request: { op: harnessOp({ op, type }), data: op === 'pack' ? bytes : packed },
      });
    }
  }
}

const keep = (c, name, ns) => { c.best[name] = Math.min(c.best[name] ?? Infinity, ns); };
for (let round = 0; round < ROUNDS; round++) {
  for (const build of ['simd', 'scalar']) {
    runNativeBench(`x86_64-${build}`, cases.map((c) => c.request)).forEach((r, i) => keep(cases[i], `native ${build}`, r.ns));
  }
  for (const c of cases) for (const build of ['simd', 'scalar']) keep(c, `wasm ${build}`, bestNs(c.wasm[build]));
}

printTable(cases.map(({ type, n, op, best: b }) => ({
  case: `${op} ${type} ${n}`,
  'native simd': formatNs(b['native simd']), 'wasm simd': formatNs(b['wasm simd']),
  'native scalar': formatNs(b['native scalar']), 'wasm scalar': formatNs(b['wasm scalar']),
  'simd n÷w': (b['native simd'] / b['wasm simd']).toFixed(2),
  'scalar n÷w': (b['native scalar'] / b['wasm scalar']).toFixed(2),
  'native simd÷scalar': (b['native scalar'] / b['native simd']).toFixed(2),
  'wasm simd÷scalar': (b['wasm scalar'] / b['wasm simd']).toFixed(2),
})));
console.log(`\n${ROUNDS} rounds, best of each; n÷w = native time ÷ wasm time (target >= 0.67 for SIMD).`);
