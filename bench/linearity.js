// linearity.js - work that must cost O(n), timed at n and at 4n (issue 41):
// decodeFrom() loops and decodeMulti() over one input of many small values,
// the input in each kind of memory the decoder reads from a copy (a
// SharedArrayBuffer, an alloc() array, a typed array a reuseTypedArrays
// Decoder returned) and in plain memory; alloc() / free() cycles; and
// decodeMulti() of a million tiny values against @msgpack/msgpack's. A
// linear case's 4n row takes about 4x its n row; a quadratic one about 16x.
// Both sizes of a case run in the same rounds, order rotated (bench/lib.js
// timeRounds()); the spread is the range of the ratio over the rounds.
//   node --expose-gc bench/linearity.js [--quick] [--out FILE.md]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { decodeMulti as msgpackDecodeMulti } from '@msgpack/msgpack';
import { Decoder, alloc, decodeMulti, encode, free, refresh } from '../js/node.js';
import { timeRounds } from './lib.js';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean' }, out: { type: 'string' } } });
const ROUNDS = args.quick ? { time: 20, warmupTime: 5, rounds: 2, iterations: 2, warmupIterations: 1 } : { time: 400, warmupTime: 50, rounds: 5, iterations: 4, warmupIterations: 2 };

const ONE = encode({ a: 1, b: 'xyzxyzxyzxyz' }); // 19 bytes
const ONE_SHAPED = encode({ v: new Uint8Array(14) }); // 19 bytes, of the reusing Decoder's shape
const N = args.quick ? 2000 : 16000; // values: 300 KB, and 1.2 MB at 4n

/** An input of n copies of ONE (ONE_SHAPED for the reusing Decoder), in the given memory. */
function inputOf(memory, n) {
  const one = memory === 'reused' ? ONE_SHAPED : ONE;
  const size = one.length * n;
  let bytes;
  if (memory === 'plain') bytes = new Uint8Array(size);
  else if (memory === 'SharedArrayBuffer') bytes = new Uint8Array(new SharedArrayBuffer(size));
  else if (memory === 'alloc()') bytes = alloc(Uint8Array, size);
  else bytes = reusedArray(size);
  for (let i = 0; i < n; i++) bytes.set(one, i * one.length);
  return bytes;
}

/** The bytes of a typed array a reuseTypedArrays Decoder returned (and will reuse: its input is then read from a copy). */
const REUSING = new Decoder({ shape: { v: Uint8Array }, reuseTypedArrays: true });
function reusedArray(size) {
  return REUSING.decode(encode({ v: new Uint8Array(size) }, { typedArrays: 'array' })).v;
}

const MEMORIES = ['plain', 'SharedArrayBuffer', 'alloc()', 'reused'];

function decodeFromLoop(memory) {
  const decoder = memory === 'reused' ? REUSING : new Decoder();
  return (bytes) => {
    let offset = 0;
    while (offset < bytes.length) offset = decoder.decodeFrom(bytes, offset).end;
  };
}

function decodeMultiLoop(memory) {
  const decoder = memory === 'reused' ? REUSING : new Decoder();
  return (bytes) => {
    for (const value of decoder.decodeMulti(bytes)) if (value === undefined) throw new Error('unreachable');
  };
}

/** n alloc()s, their free()s, n alloc()s again, and their free()s. */
function allocCycle(n) {
  let arrays = Array.from({ length: n }, () => alloc(Float32Array, 4));
  for (const x of arrays) free(x);
  arrays = Array.from({ length: n }, () => alloc(Float32Array, 4));
  for (const x of arrays) free(x);
}

/**
 * n alloc()s held, then n alloc()/free() pairs beside them, and the n freed:
 * a pair's bookkeeping must not grow with the blocks the allocator keeps
 * (live ones, and free ones of the pair's size class).
 */
function allocBeside(n) {
  const held = Array.from({ length: n }, () => alloc(Float32Array, 4));
  for (let i = 0; i < n; i++) free(alloc(Float32Array, 64));
  for (const x of held) free(x);
}

/** { case, n, '4n', ratio } rows: the time at 4n over the time at n, median and range over rounds. */
async function scaling(name, at) {
  const tasks = [{ name: 'n', fn: at(1) }, { name: '4n', fn: at(4) }];
  const r = Object.fromEntries(await timeRounds(tasks, ROUNDS));
  const ratios = r.n.rounds.map((t, i) => r['4n'].rounds[i] / t);
  return {
    case: name,
    n: ms(r.n.median),
    '4n': ms(r['4n'].median),
    '4n ÷ n': `${(r['4n'].median / r.n.median).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  };
}

const ms = (ns) => `${(ns / 1e6).toFixed(1)} ms`;

const rows = [];
for (const memory of MEMORIES) {
  const made = { 4: inputOf(memory, 4 * N), 1: inputOf(memory, N) };
  // (An alloc() array that a later growth of wasm memory detached is found again.)
  const input = (k) => (memory === 'alloc()' ? refresh(made[k]) : made[k]);
  rows.push(await scaling(`Decoder.decodeFrom(bytes, offset) loop, ${memory}`, (k) => { const loop = decodeFromLoop(memory); return () => loop(input(k)); }));
  rows.push(await scaling(`decodeMulti(), ${memory}`, (k) => { const loop = decodeMultiLoop(memory); return () => loop(input(k)); }));
}
const ALLOCS = args.quick ? 1000 : 10000;
rows.push(await scaling(`alloc() ×n, free() ×n, twice (n = ${ALLOCS})`, (k) => () => allocCycle(k * ALLOCS)));
rows.push(await scaling(`alloc() / free() with n arrays held (n = ${ALLOCS})`, (k) => () => allocBeside(k * ALLOCS)));

// decodeMulti() of tiny values: a million empty arrays (0x90), against @msgpack/msgpack.
const TINY = new Uint8Array(args.quick ? 100_000 : 1_000_000).fill(0x90);
const tiny = Object.fromEntries(await timeRounds([
  { name: 'fastmp', fn: () => { for (const v of decodeMulti(TINY)) if (v.length !== 0) throw new Error('unreachable'); } },
  { name: '@msgpack/msgpack', fn: () => { for (const v of msgpackDecodeMulti(TINY)) if (v.length !== 0) throw new Error('unreachable'); } },
], ROUNDS));
const tinyRatios = tiny.fastmp.rounds.map((t, i) => t / tiny['@msgpack/msgpack'].rounds[i]);
const tinyRow = {
  case: `decodeMulti() of ${TINY.length} empty arrays`,
  fastmp: ms(tiny.fastmp.median),
  '@msgpack/msgpack': ms(tiny['@msgpack/msgpack'].median),
  'fastmp ÷ @msgpack/msgpack': `${(tiny.fastmp.median / tiny['@msgpack/msgpack'].median).toFixed(2)} (${Math.min(...tinyRatios).toFixed(2)}–${Math.max(...tinyRatios).toFixed(2)})`,
};

const table = (list) => {
  const keys = Object.keys(list[0]);
  return [`| ${keys.join(' | ')} |`, `| ${keys.map(() => '---').join(' | ')} |`, ...list.map((r) => `| ${keys.map((k) => r[k]).join(' | ')} |`)].join('\n');
};
const text = `# Linear work (issue 41)

\`node --expose-gc bench/linearity.js${args.quick ? ' --quick' : ''}\`, Node ${process.versions.node}. n = ${N} values of ${ONE.length} bytes
(${(N * ONE.length / 1024).toFixed(0)} KB) and 4n; medians over ${ROUNDS.rounds} rounds, both sizes in each round, the spread the range of the
ratio over the rounds. Linear work takes about 4× as long at 4n; quadratic work about 16×.

${table(rows)}

${table([tinyRow])}
`;
console.log(text);
if (args.out) writeFileSync(args.out, text);
