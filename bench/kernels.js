// kernels.js - the wasm kernels alone, without the JS/wasm boundary: input
// already in wasm memory, output left there. Shows how much of a call is the
// kernel and how much the copies and the output allocation, and the SIMD /
// scalar ratio of the kernels themselves.
//   node --expose-gc bench/kernels.js [--n=4096] [--types=f32,i32]
import { readFile } from 'node:fs/promises';
import { TYPE_NAMES, kindOfC } from '../test/helpers.js';
import { formatNs, medians, printTable } from './lib.js';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SIZES = arg('n') ? arg('n').split(',').map(Number) : [4096, 1 << 20];
const only = arg('types')?.split(',') ?? TYPE_NAMES; // the kernels' type names: f32, ..., bool

async function instance(build) {
  const bytes = await readFile(new URL(`../dist/fastmp-${build}.wasm`, import.meta.url));
  const { instance: inst } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  inst.exports._initialize();
  return inst.exports;
}
const builds = { simd: await instance('simd'), scalar: await instance('scalar') };

/** Fills the input: random bytes (floats: random values), or the small fixed value 7. */
function fill(k, kind, input, n, content) {
  const { Type } = kind;
  const view = new Type(k.memory.buffer, input, n);
  const bytes = new Uint8Array(k.memory.buffer, input, n * Type.BYTES_PER_ELEMENT);
  if (kind.c === 'bool') for (let i = 0; i < n; i++) view[i] = content === 'fixed' ? 1 : Math.random() < 0.5 ? 1 : 0;
  else if (kind.float) for (let i = 0; i < n; i++) view[i] = content === 'fixed' ? 7 : (Math.random() - 0.5) * 1e6;
  else if (content === 'fixed') view.fill(kind.big ? 7n : 7);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.random() * 256;
}

const rows = [];
for (const n of SIZES) {
  for (const type of only) {
    const kind = kindOfC(type);
    const { Type, wire } = kind;
    for (const content of ['fixed', 'random']) {
      const tasks = [];
      let packedSize = 0;
      for (const [build, k] of Object.entries(builds)) {
        const input = k.malloc(n * Type.BYTES_PER_ELEMENT);
        const packed = k.malloc(n * wire + 32);
        const decoded = k.malloc(n * Type.BYTES_PER_ELEMENT);
        const result = k.malloc(32);
        fill(k, kind, input, n, content);
        packedSize = k[kind.pack](input, n, packed);
        tasks.push({ name: `pack ${build}`, fn: () => k[kind.pack](input, n, packed) });
        tasks.push({ name: `unpack ${build}`, fn: () => k[kind.unpack](packed, packedSize, decoded, n, 0, result) });
      }
      const m = await medians(tasks, n > 65536 ? { time: 600, iterations: 5, warmupIterations: 2 } : { time: 200 });
      for (const op of ['pack', 'unpack']) {
        const simd = m.get(`${op} simd`);
        const scalar = m.get(`${op} scalar`);
        rows.push({
          type, op, n, content, simd: formatNs(simd), scalar: formatNs(scalar),
          'simd/scalar': `${(scalar / simd).toFixed(2)}x`, 'simd GB/s': (packedSize / simd).toFixed(1),
        });
      }
    }
  }
}
printTable(rows);
