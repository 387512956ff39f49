// kernels.js - the wasm kernels alone, without the JS/wasm boundary: input
// already in wasm memory, output left there. Shows how much of a call is the
// kernel and how much the copies and the output allocation, and the SIMD /
// scalar ratio of the kernels themselves.
//   node --expose-gc bench/kernels.js [--n=4096] [--types=f32,i32] [--contents=fixed,random] [--inputs=1,16] [--batch=4]
// e.g. the issue 13 targets (ints in mixed forms, booleans):
//   node --expose-gc bench/kernels.js --n=4096 --types=i16,i32,i64,bool --contents=uniform,0..1000,±100000
//
// --inputs=K (default 1): each timed call takes the next of K distinct inputs
// of the same content, in turn, in both builds alike. With one input repeated
// (what this script and bench/suite.js time by default, and what most
// harnesses do) the CPU's branch predictor learns the branches of a branchy
// kernel for that one input: the scalar int pack, whose branches follow each
// value's form, runs much faster than on data it has not seen. K = 16
// inputs of 4096 elements are too many to learn. A list (--inputs=1,16) times
// each K in the same run and shows one row per K: the difference.
//
// --batch=B (default 1): calls per timed sample (bench/lib.js timeRounds),
// every task alike. Each sample carries the timer's own cost, which a short
// call carries whole at B = 1 (bench/suite.js times 4096-element calls in
// batches of 4).
import { TYPE_NAMES, kindOfC } from '../test/helpers.js';
import { bareKernels } from '../test/bare-kernels.js';
import { rng } from '../test/rng.js';
import { INT_DISTRIBUTIONS, values } from './contents.js';
import { formatNs, medians, packOutput, printTable } from './lib.js';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SIZES = arg('n') ? arg('n').split(',').map(Number) : [4096, 1 << 20];
const only = arg('types')?.split(',') ?? TYPE_NAMES; // the kernels' type names: f32, ..., bool
const INPUTS = arg('inputs') ? arg('inputs').split(',').map(Number) : [1];
for (const k of INPUTS) if (!(Number.isInteger(k) && k >= 1)) throw new Error(`--inputs: ${k} is not a count of inputs`);
const BATCH = Number(arg('batch') ?? 1);
if (!(Number.isInteger(BATCH) && BATCH >= 1)) throw new Error(`--batch: ${arg('batch')} is not a count of calls`);

// The input contents are bench/contents.js's (seeded, the same values in every
// run and in bench/suite.js): 'fixed', 'random' (floats, booleans) and the int
// distributions. 'random' of an int type is its 'uniform' (random bits), the
// typical content of every kind; booleans and floats take their random
// content whatever the int distribution named.
const CONTENTS = ['fixed', 'random', ...INT_DISTRIBUTIONS];
const contents = arg('contents')?.split(',') ?? ['fixed', 'random'];
for (const c of contents) if (!CONTENTS.includes(c)) throw new Error(`--contents: no ${c}; one of ${CONTENTS}`);
const contentOf = (kind, content) => (content === 'random' && !kind.float && kind.c !== 'bool' ? 'uniform' : content);

const builds = { simd: bareKernels('simd'), scalar: bareKernels('scalar') };

/** The two tasks (pack, unpack) of one build over `inputs` (typed arrays), called in turn. */
function tasksOf(build, k, kind, inputs) {
  const { Type, wire } = kind;
  const n = inputs[0].length;
  const packed = [], sizes = [];
  const { out: output } = packOutput(k, n, wire); // the packs' output, overwritten by each, placed as the API places it
  const decoded = k.malloc(n * Type.BYTES_PER_ELEMENT);
  const result = k.malloc(32);
  const at = inputs.map((data) => {
    const input = k.malloc(n * Type.BYTES_PER_ELEMENT);
    new Type(k.memory.buffer, input, n).set(data);
    const p = k.malloc(n * wire + 32);
    sizes.push(k[kind.pack](input, n, p));
    packed.push(p);
    return input;
  });
  const pack = k[kind.pack], unpack = k[kind.unpack];
  if (inputs.length === 1) { // the default: the calls exactly as before --inputs
    const [input] = at, [p] = packed, [size] = sizes;
    return {
      bytes: size,
      tasks: [
        { name: `pack ${build}`, fn: () => pack(input, n, output) },
        { name: `unpack ${build}`, fn: () => unpack(p, size, decoded, n, 0, result) },
      ],
    };
  }
  let i = 0, j = 0;
  const K = inputs.length;
  return {
    bytes: sizes.reduce((a, b) => a + b) / K,
    tasks: [
      { name: `pack ${build}`, fn: () => pack(at[i = (i + 1) % K], n, output) },
      { name: `unpack ${build}`, fn: () => (j = (j + 1) % K, unpack(packed[j], sizes[j], decoded, n, 0, result)) },
    ],
  };
}

const rows = [];
for (const n of SIZES) {
  for (const type of only) {
    const kind = kindOfC(type);
    for (const content of contents) {
      for (const K of INPUTS) {
        // K distinct inputs from one seeded generator: the first is what bench/suite.js times
        const next = rng(0x5eed);
        const inputs = Array.from({ length: K }, () => values(kind, n, contentOf(kind, content), next));
        const tasks = [];
        let packedSize = 0;
        for (const [build, k] of Object.entries(builds)) {
          const made = tasksOf(build, k, kind, inputs);
          packedSize = made.bytes;
          tasks.push(...made.tasks);
        }
        const m = await medians(tasks, { ...(n > 65536 ? { time: 600, iterations: 5, warmupIterations: 2 } : { time: 200 }), batch: BATCH });
        for (const op of ['pack', 'unpack']) {
          const simd = m.get(`${op} simd`);
          const scalar = m.get(`${op} scalar`);
          rows.push({
            type, op, n, content, inputs: K, simd: formatNs(simd), scalar: formatNs(scalar),
            'simd/scalar': `${(scalar / simd).toFixed(2)}x`, 'simd GB/s': (packedSize / simd).toFixed(1),
          });
        }
      }
    }
  }
}
printTable(rows);
