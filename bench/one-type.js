// one-type.js - the per-call cost as an application sees it: one instance, one
// element type, one operation per process (monomorphic call sites), fastmp
// (`auto`) against the harness's JS loop (bench/peers.js jsLoop()), at the
// sizes given (default 1, 4, 16), interleaved in 9 rounds; medians and the
// range of the rounds. The full harness (npm run bench) runs one operation on
// one type per process but every fastmp path in it (auto, wasm, pure JS,
// zero-copy) and every size, so fastmp's call sites see several paths there.
// Both figures are reported; this one is not the target's.
//   node bench/one-type.js Float32Array pack [4096 | 1,4,16]
import { createFastmp } from '../js/index.js';
import { jsLoop } from './peers.js';
const [typeName = 'Float32Array', op = 'pack', sizes = '1,4,16'] = process.argv.slice(2);
const Type = globalThis[typeName];
const fm = await createFastmp({});
const loop = jsLoop(Type);
const mk = (n) => { const x = new Type(n); for (let i = 0; i < n; i++) x[i] = Type === Float32Array || Type === Float64Array ? Math.random() * 1000 - 500 : (Math.random() * 2 ** 31) | 0; return x; };
let sink = 0;
const time = (fn, reps) => { const t = process.hrtime.bigint(); for (let i = 0; i < reps; i++) sink += fn().length; return Number(process.hrtime.bigint() - t) / reps; };
const out = [];
for (const n of sizes.split(',').map(Number)) {
  const reps = Math.max(200, Math.round(2e5 / Math.max(1, n / 16)));
  const x = mk(n); const bytes = fm.pack(x);
  const a = op === 'pack' ? () => fm.pack(x) : () => fm.unpack(bytes, Type);
  const b = op === 'pack' ? () => loop.pack(x) : () => loop.unpack(bytes, Type);
  for (let i = 0; i < 3; i++) { time(a, reps); time(b, reps); }
  const ra = [], rb = [];
  for (let r = 0; r < 9; r++) { if (r % 2) { ra.push(time(a, reps)); rb.push(time(b, reps)); } else { rb.push(time(b, reps)); ra.push(time(a, reps)); } }
  const med = (v) => v.sort((p, q) => p - q)[4];
  const spread = (v) => `${v[0].toFixed(0)}–${v[8].toFixed(0)}`;
  out.push(`n=${n} fastmp ${med(ra).toFixed(0)} ns (${spread(ra)}), JS loop ${med(rb).toFixed(0)} ns (${spread(rb)}), ratio ${(med(rb) / med(ra)).toFixed(2)}`);
}
console.log(typeName, op, out.join(' | '), sink > 0 ? '' : '!');
