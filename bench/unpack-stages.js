// unpack-stages.js - where the time of a copying unpack() of many floats goes
// (issue 13 item 6: "the copy in, the copy out and the output allocation are
// the cost - find which"). Each stage of the call is timed on its own, on the
// SIMD build's bare exports (bench/lib.js loadKernels), interleaved in rounds
// with the whole call and the DataView loop, in a plain process and with freed
// memory kept (a child process per regime, as bench/run.js):
//   node bench/unpack-stages.js [--n=1048576] [--rounds=9]
// Stages: the copy of the msgpack input into wasm memory; the kernel; a fresh
// output array (uninitialised, as js/wasm/outputs.js freshBytes() makes it); the
// copy out of wasm memory into a fresh output, and into one reused output.
// 'in + kernel + out, reused output' is those steps on the whole input
// without the fresh output. unpack() runs them a chunk at a time
// (js/io.js unpackChunked); 'unpack(), whole' is the same call with
// chunking turned off (UNPACK_CHUNK.from), as it ran before.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createFastmp } from '../js/index.js';
import { freshBytes } from '../js/wasm/outputs.js';
import { UNPACK_CHUNK } from '../js/io.js';
import { KIND_OF_NAME } from '../js/kinds.js';
import { fill } from './contents.js';
import { dataViewUnpack } from './peers.js';
import { REGIMES } from './messages.js';
import { formatNs, loadKernels, timeRounds } from './lib.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const N = Number(arg('n', 1 << 20));
const ROUNDS = Number(arg('rounds', 9));

/** The tasks, each a stage or a whole decode of the same msgpack array of N float32s. */
async function tasks() {
  const x = fill(new Float32Array(N), KIND_OF_NAME.get('Float32Array'), 'random'); // the suite's seeded values
  const fm = await createFastmp({ backend: 'simd' });
  const bytes = fm.pack(x);
  const k = (await loadKernels()).simd;
  const inAt = k.malloc(bytes.length + 16) >>> 0;
  const outAt = (k.malloc(4 * N + 16) + 15) & ~15;
  const result = k.malloc(64) >>> 0;
  const u8 = new Uint8Array(k.memory.buffer); // (this script grows no memory after these mallocs)
  const f32 = new Float32Array(k.memory.buffer);
  const reused = new Float32Array(N);
  const kernel = () => {
    if (k.fm_unpack_f32(inAt, bytes.length, outAt, N, 0, result) !== 0) throw new Error('kernel refused the input');
  };
  const copyIn = () => u8.set(bytes, inAt);
  const outElements = () => f32.subarray(outAt >>> 2, (outAt >>> 2) + N);
  const fresh = () => new Float32Array(freshBytes(4 * N).buffer);
  const whole = () => {
    const from = UNPACK_CHUNK.from;
    UNPACK_CHUNK.from = Infinity;
    try {
      return fm.unpack(bytes, Float32Array);
    } finally {
      UNPACK_CHUNK.from = from;
    }
  };
  // Every composition decodes what unpack() does.
  const expected = new Uint32Array(fm.unpack(bytes, Float32Array).buffer);
  copyIn();
  kernel();
  const got = [['in + kernel + out', new Float32Array(outElements())], ['unpack(), whole', whole()]];
  for (const [name, out] of got) {
    if (!new Uint32Array(out.buffer).every((v, i) => v === expected[i])) throw new Error(`${name} decodes differently from unpack()`);
  }
  return [
    { name: 'unpack() (SIMD build)', fn: () => fm.unpack(bytes, Float32Array) },
    { name: 'unpack(), whole', fn: whole },
    { name: 'DataView loop', fn: () => dataViewUnpack(bytes, Float32Array) },
    { name: 'copy in', fn: copyIn },
    { name: 'kernel', fn: kernel },
    { name: 'fresh output', fn: fresh },
    { name: 'copy out, fresh output', fn: () => fresh().set(outElements()) },
    { name: 'copy out, reused output', fn: () => reused.set(outElements()) },
    { name: 'in + kernel + out, reused output', fn: () => (copyIn(), kernel(), reused.set(outElements())) },
  ];
}

/** One regime's medians and spreads, as { name: [median, min, max] }. */
async function child() {
  const timed = await timeRounds(await tasks(), { time: 400 * ROUNDS, rounds: ROUNDS, iterations: 8, warmupIterations: 4 });
  return Object.fromEntries([...timed].map(([name, t]) => [name, [t.median, t.min, t.max]]));
}

function runRegime(regime) {
  const env = { ...process.env };
  delete env.GLIBC_TUNABLES;
  if (REGIMES[regime].env) env.GLIBC_TUNABLES = REGIMES[regime].env;
  const args = ['--expose-gc', fileURLToPath(import.meta.url), '--child', ...process.argv.slice(2)];
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.setEncoding('utf8').on('data', (s) => (out += s));
    c.on('error', reject);
    c.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the ${regime} process exited with ${code}`))));
  });
}

if (process.argv.includes('--child')) {
  process.stdout.write(JSON.stringify(await child()));
} else {
  const regimes = { kept: await runRegime('kept'), plain: await runRegime('plain') };
  console.log(`copying unpack() of ${N} float32s: median of ${ROUNDS} round medians (min..max), each regime a process of its own`);
  console.log('ratio: the DataView loop\'s median ÷ the row\'s\n');
  console.log(`| | ${Object.keys(regimes).map((r) => `${r} | ratio`).join(' | ')} |`);
  console.log(`|---|${Object.keys(regimes).map(() => '---|---').join('|')}|`);
  for (const name of Object.keys(regimes.kept)) {
    const cells = Object.values(regimes).map((r) => {
      const [median, min, max] = r[name];
      return `${formatNs(median)} (${formatNs(min)}..${formatNs(max)}) | ${(r['DataView loop'][0] / median).toFixed(2)}x`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
}
