// ints.js - integer typed arrays and booleans, with seed 000's settings:
// lengths 0, 1, 3, 8, 16, 31, 64, 4096 and 4 M; content a small fixed value
// (every element a fixint) or random values over the type's whole range.
// Per row: wasm-simd, wasm-scalar and the pure-JS path measured in one run,
// with the ratios wasm-simd / wasm-scalar and wasm-simd / pure-JS.
//   node --expose-gc bench/ints.js [--quick] [--types=i32,bool]
import { formatNs, loadPaths, medians, printTable } from './lib.js';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--types='))?.slice(8).split(',');
const LENGTHS = quick ? [16, 4096] : [0, 1, 3, 8, 16, 31, 64, 4096, 4 << 20];
const TYPES = [
  ['i8', Int8Array, -128, 127], ['u8', Uint8Array, 0, 255], ['i16', Int16Array, -32768, 32767],
  ['u16', Uint16Array, 0, 65535], ['i32', Int32Array, -(2 ** 31), 2 ** 31 - 1], ['u32', Uint32Array, 0, 2 ** 32 - 1],
  ['i64', BigInt64Array], ['u64', BigUint64Array], ['bool', Uint8Array, 0, 1],
].filter(([name]) => !only || only.includes(name));
const PATHS = ['wasm-simd', 'wasm-scalar', 'pure-js'];

const paths = await loadPaths();

/** n values of a type: all the small fixed value 7, or random over the whole range. */
function values(name, Type, min, max, n, content) {
  const x = new Type(n);
  const bytes = new Uint8Array(x.buffer);
  if (content === 'fixed') x.fill(name.endsWith('64') ? 7n : 7);
  else if (name === 'bool') for (let i = 0; i < n; i++) x[i] = Math.random() < 0.5 ? 1 : 0;
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.random() * 256;
  void min;
  void max;
  return x;
}

const rows = [];
for (const [name, Type, min, max] of TYPES) {
  for (const n of LENGTHS) {
    for (const content of ['fixed', 'random']) {
      const x = values(name, Type, min, max, n, content);
      const packOne = (api) => (name === 'bool' ? api.packBool(x) : api.pack(x, { bin: false }));
      const unpackOne = (api, bytes) => (name === 'bool' ? api.unpackBool(bytes) : api.unpack(bytes, Type));
      const bytes = packOne(paths['pure-js']);
      const big = n >= 1 << 20;
      const options = big ? { time: 600, warmupTime: 0, iterations: 3, warmupIterations: 1 } : { time: quick ? 150 : 240, warmupTime: 50 };
      for (const op of ['pack', 'unpack']) {
        const tasks = PATHS.map((p) => ({ name: p, fn: op === 'pack' ? () => packOne(paths[p]) : () => unpackOne(paths[p], bytes) }));
        const m = await medians(tasks, options);
        rows.push({
          type: name, op, n, content,
          'wasm-simd': formatNs(m.get('wasm-simd')),
          'wasm-scalar': formatNs(m.get('wasm-scalar')),
          'pure-js': formatNs(m.get('pure-js')),
          'simd/scalar': `${(m.get('wasm-scalar') / m.get('wasm-simd')).toFixed(2)}x`,
          'simd/js': `${(m.get('pure-js') / m.get('wasm-simd')).toFixed(2)}x`,
        });
      }
      process.stderr.write(`${name} ${n} ${content}\n`);
    }
  }
}
printTable(rows);
