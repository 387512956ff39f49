// kernels.js - the wasm kernels alone, without the JS/wasm boundary: input
// already in wasm memory, output left there. Shows how much of a call is the
// kernel and how much the copies and the output allocation.
//   node bench/kernels.js
import { readFile } from 'node:fs/promises';
import { formatNs, medians, printTable } from './lib.js';

async function instance(build) {
  const bytes = await readFile(new URL(`../dist/fastmp-${build}.wasm`, import.meta.url));
  const { instance: inst } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  inst.exports._initialize();
  return inst.exports;
}

const rows = [];
for (const n of [4096, 1 << 20]) {
  const tasks = [];
  let wireBytes = 0;
  for (const build of ['simd', 'scalar']) {
    const k = await instance(build);
    const input = k.malloc(4 * n);
    const packed = k.malloc(5 * n + 5);
    const decoded = k.malloc(4 * n);
    const result = k.malloc(32);
    const values = new Float32Array(k.memory.buffer, input, n);
    for (let i = 0; i < n; i++) values[i] = (Math.random() - 0.5) * 1e6;
    wireBytes = k.fm_pack_f32(input, n, packed);
    tasks.push({ name: `pack f32 ${build}`, fn: () => k.fm_pack_f32(input, n, packed) });
    tasks.push({ name: `unpack f32 ${build}`, fn: () => k.fm_unpack_f32(packed, wireBytes, decoded, n, 0, result) });
  }
  const m = await medians(tasks, { time: n > 4096 ? 1000 : 300 });
  for (const [name, ns] of m) {
    rows.push({ kernel: name, n, median: formatNs(ns), 'GB/s of msgpack': (wireBytes / ns).toFixed(1) });
  }
}
printTable(rows);
