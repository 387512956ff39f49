// one-type.js - the per-call cost at N = 1, 4, 16 as an application sees it:
// one instance, one element type, one operation per process (monomorphic call
// sites), fastmp (`auto`) against the harness's JS loop (bench/peers.js
// jsLoop()), interleaved in 9 rounds; medians. The full harness (npm run bench)
// runs one operation on one type per process but every fastmp path in it (auto,
// wasm, pure JS, zero-copy), so fastmp's call sites see several paths there:
// both figures are reported, this one is not the target's.
//   node bench/one-type.js Float32Array pack
import { createFastmp } from '../js/index.js';
import { jsLoop } from './peers.js';
const [typeName = 'Float32Array', op = 'pack'] = process.argv.slice(2);
const Type = globalThis[typeName];
const fm = await createFastmp({});
const loop = jsLoop(Type);
const mk = (n) => { const x = new Type(n); for (let i = 0; i < n; i++) x[i] = Type === Float32Array || Type === Float64Array ? Math.random() * 1000 - 500 : (Math.random() * 2 ** 31) | 0; return x; };
let sink = 0;
const time = (fn, reps) => { const t = process.hrtime.bigint(); for (let i = 0; i < reps; i++) sink += fn().length; return Number(process.hrtime.bigint() - t) / reps; };
const out = [];
for (const n of [1, 4, 16]) {
  const x = mk(n); const bytes = fm.pack(x);
  const a = op === 'pack' ? () => fm.pack(x) : () => fm.unpack(bytes, Type);
  const b = op === 'pack' ? () => loop.pack(x) : () => loop.unpack(bytes, Type);
  for (let i = 0; i < 3; i++) { time(a, 2e5); time(b, 2e5); }
  const ra = [], rb = [];
  for (let r = 0; r < 9; r++) { if (r % 2) { ra.push(time(a, 2e5)); rb.push(time(b, 2e5)); } else { rb.push(time(b, 2e5)); ra.push(time(a, 2e5)); } }
  const med = (v) => v.sort((p, q) => p - q)[4];
  out.push(`n=${n} fastmp ${med(ra).toFixed(0)} ns, JS loop ${med(rb).toFixed(0)} ns, ratio ${(med(rb) / med(ra)).toFixed(2)}`);
}
console.log(typeName, op, out.join(' | '), sink > 0 ? '' : '!');
