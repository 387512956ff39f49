// kernels.js - the wasm kernels alone, without the JS/wasm boundary: input
// already in wasm memory, output left there. Shows how much of a call is the
// kernel and how much the copies and the output allocation, and the SIMD /
// scalar ratio of the kernels themselves.
//   node --expose-gc bench/kernels.js [--n=4096] [--types=f32,i32] [--contents=fixed,random]
// e.g. the issue 13 targets (ints in mixed forms, booleans):
//   node --expose-gc bench/kernels.js --n=4096 --types=i16,i32,i64,bool --contents=uniform,0..1000,±100000
import { readFile } from 'node:fs/promises';
import { TYPE_NAMES, kindOfC } from '../test/helpers.js';
import { formatNs, medians, printTable } from './lib.js';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SIZES = arg('n') ? arg('n').split(',').map(Number) : [4096, 1 << 20];
const only = arg('types')?.split(',') ?? TYPE_NAMES; // the kernels' type names: f32, ..., bool

/**
 * The input contents, by name: each a function giving one element's value.
 * 'random' and 'uniform' are random bytes (every value of an int type equally
 * likely; floats: random values within ±5e5); '0..1000' and '±100000' are
 * uniform integers in [0, 1000] and [-100000, 100000], stored as typed
 * arrays store them (wrapped to the type's width: ±100000 in an Int16Array is
 * every int16, in unsigned types the negatives are large values). Integers in
 * mixed msgpack forms, which the SIMD pack must not lose to the scalar one
 * on (issue 13). Booleans take the value's low bit (fixed: true).
 */
const CONTENTS = {
  fixed: () => 7,
  random: null, // random bytes
  uniform: null, // the same: random bytes
  '0..1000': () => Math.floor(Math.random() * 1001),
  '±100000': () => Math.floor(Math.random() * 200001) - 100000,
};
const contents = arg('contents')?.split(',') ?? ['fixed', 'random'];
for (const c of contents) if (!Object.hasOwn(CONTENTS, c)) throw new Error(`--contents: no ${c}; one of ${Object.keys(CONTENTS)}`);

async function instance(build) {
  const bytes = await readFile(new URL(`../dist/fastmp-${build}.wasm`, import.meta.url));
  const { instance: inst } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  inst.exports._initialize();
  return inst.exports;
}
const builds = { simd: await instance('simd'), scalar: await instance('scalar') };

/** Fills bytes with random bytes (getRandomValues takes at most 64 KiB a call). */
function randomBytes(bytes) {
  for (let at = 0; at < bytes.length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
}

/** n elements of `content` (CONTENTS), the same for both builds. */
function values(kind, n, content) {
  const { Type } = kind;
  const view = new Type(n);
  const value = CONTENTS[content];
  if (kind.c === 'bool') for (let i = 0; i < n; i++) view[i] = value ? value() & 1 : Math.random() < 0.5 ? 1 : 0;
  else if (kind.float && !value) for (let i = 0; i < n; i++) view[i] = (Math.random() - 0.5) * 1e6;
  else if (!value) randomBytes(new Uint8Array(view.buffer));
  else if (kind.big) for (let i = 0; i < n; i++) view[i] = BigInt.asIntN(64, BigInt(value()));
  else for (let i = 0; i < n; i++) view[i] = value();
  return view;
}

const rows = [];
for (const n of SIZES) {
  for (const type of only) {
    const kind = kindOfC(type);
    const { Type, wire } = kind;
    for (const content of contents) {
      const tasks = [];
      let packedSize = 0;
      const data = values(kind, n, content);
      for (const [build, k] of Object.entries(builds)) {
        const input = k.malloc(n * Type.BYTES_PER_ELEMENT);
        const packed = k.malloc(n * wire + 32);
        const decoded = k.malloc(n * Type.BYTES_PER_ELEMENT);
        const result = k.malloc(32);
        new Type(k.memory.buffer, input, n).set(data);
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
