// crossover.js - where does a wasm call start to beat the pure-JS loop?
// Measures each operation at small sizes, pure JS vs wasm (SIMD and scalar),
// in one run; the thresholds in js/index.js (JS_BELOW) come from this.
//   node bench/crossover.js
import { formatNs, loadPaths, medians, printTable } from './lib.js';

const paths = await loadPaths();
const SIZES = [1, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256];
const rows = [];
for (const op of ['pack f32', 'pack f64', 'unpack f32', 'unpack f64']) {
  for (const n of SIZES) {
    const wide = op.endsWith('f64');
    const x = wide ? new Float64Array(n) : new Float32Array(n);
    for (let i = 0; i < n; i++) x[i] = Math.random() * 1000 - 500;
    const Type = wide ? Float64Array : Float32Array;
    const bytes = paths['pure-js'].pack(x);
    const tasks = ['pure-js', 'wasm-simd', 'wasm-scalar'].map((name) => ({
      name,
      fn: op.startsWith('pack') ? () => paths[name].pack(x) : () => paths[name].unpack(bytes, Type),
    }));
    const m = await medians(tasks, { time: 150, warmupTime: 50 });
    rows.push({
      op, n,
      'pure-js': formatNs(m.get('pure-js')),
      'wasm-simd': formatNs(m.get('wasm-simd')),
      'wasm-scalar': formatNs(m.get('wasm-scalar')),
      'simd/js': (m.get('wasm-simd') / m.get('pure-js')).toFixed(2),
      'scalar/js': (m.get('wasm-scalar') / m.get('pure-js')).toFixed(2),
    });
  }
}
printTable(rows);
