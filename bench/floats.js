// floats.js - pack and unpack Float32Array at N = 16, 4096 and 1 M: the wasm
// SIMD and scalar builds (forced at every size), the pure-JS path, what users
// get by default (auto), a handwritten DataView loop, and the peers, all in
// one run. Ratios are to the DataView loop of the same row.
//   node bench/floats.js [--quick]
import { decode, encode } from '@msgpack/msgpack';
import { Packr, Unpackr } from 'msgpackr';
import { formatNs, loadPaths, medians, printTable } from './lib.js';

const quick = process.argv.includes('--quick');
const SIZES = quick ? [16, 4096] : [16, 4096, 1 << 20];
const paths = await loadPaths();

/** The 12-line loop a JS developer would write: float32 array, big-endian. */
function dataViewPack(x) {
  const n = x.length;
  const head = n <= 15 ? 1 : n <= 0xffff ? 3 : 5;
  const out = new Uint8Array(head + 5 * n);
  const view = new DataView(out.buffer);
  if (head === 1) out[0] = 0x90 | n;
  else if (head === 3) { out[0] = 0xdc; view.setUint16(1, n); }
  else { out[0] = 0xdd; view.setUint32(1, n); }
  for (let i = 0, p = head; i < n; i++, p += 5) {
    out[p] = 0xca;
    view.setFloat32(p + 1, x[i]);
  }
  return out;
}

/** Its decoding twin, for arrays of float32 only. */
function dataViewUnpack(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = bytes[0];
  const n = tag === 0xdc ? view.getUint16(1) : tag === 0xdd ? view.getUint32(1) : tag & 0x0f;
  const out = new Float32Array(n);
  for (let i = 0, p = tag === 0xdc ? 3 : tag === 0xdd ? 5 : 1; i < n; i++, p += 5) {
    if (bytes[p] !== 0xca) throw new Error('not a float32');
    out[i] = view.getFloat32(p + 1);
  }
  return out;
}

const packr = new Packr({ useFloat32: 1 });
const unpackr = new Unpackr();
const rows = [];
for (const n of SIZES) {
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = (Math.random() - 0.5) * 1e6;
  const bytes = paths.auto.pack(x);
  const big = n >= 1 << 20;
  const time = big ? 1500 : 500;

  const packTasks = [
    ...['wasm-simd', 'wasm-scalar', 'pure-js', 'auto'].map((name) => ({ name, fn: () => paths[name].pack(x) })),
    { name: 'DataView loop', fn: () => dataViewPack(x) },
    { name: '@msgpack/msgpack', fn: () => encode(Array.from(x), { forceFloat32: true }) },
    { name: 'msgpackr', fn: () => packr.pack(Array.from(x)) },
  ];
  const unpackTasks = [
    ...['wasm-simd', 'wasm-scalar', 'pure-js', 'auto'].map((name) => ({ name, fn: () => paths[name].unpack(bytes, Float32Array) })),
    { name: 'DataView loop', fn: () => dataViewUnpack(bytes) },
    { name: '@msgpack/msgpack', fn: () => Float32Array.from(decode(bytes)) },
    { name: 'msgpackr', fn: () => Float32Array.from(unpackr.unpack(bytes)) },
  ];
  for (const [op, tasks] of [['pack', packTasks], ['unpack', unpackTasks]]) {
    const m = await medians(tasks, { time, warmupTime: big ? 300 : 100 });
    const base = m.get('DataView loop');
    for (const { name } of tasks) {
      rows.push({ op: `${op} Float32Array`, n, method: name, median: formatNs(m.get(name)), 'vs DataView': `${(base / m.get(name)).toFixed(2)}x` });
    }
    process.stderr.write(`${op} ${n} done\n`);
  }
}
printTable(rows);
