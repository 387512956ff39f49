// compare.js - does a change hold the benchmarks within their noise? Times two
// checkouts of fastmp on the same cases: the messages suite's four workloads
// (each checkout's own bench/messages.js workloads(), seeded, so both time the
// same values) encoded by a reused Encoder and decoded by a reused Decoder of
// the workload's shape, and pack / unpack of typed arrays at the sizes the
// typed-array suite's targets name. Each case of each checkout runs in a fresh
// node process of its own, so that neither checkout's code shares a process
// (or its JIT's feedback) with the other's; within a round the two alternate,
// and which goes first flips every round.
//
//   node bench/compare.js OLD_DIR NEW_DIR [--rounds 5] [--regime kept|plain] [--only REGEX] [--time MS] [--json FILE]
//
// A checkout is a directory with the package's files, its wasm built and
// node_modules reachable; an older commit, for example:
//   git worktree add /tmp/old COMMIT && ln -s "$PWD/node_modules" /tmp/old/ && make -C /tmp/old wasm
// (`git worktree remove /tmp/old` afterwards). The report gives per case each
// checkout's median of its rounds' medians, new ÷ old, the range of the
// per-round ratios, each checkout's spread (slowest ÷ fastest round) and new ÷
// old of the fastest rounds (a case whose processes fall into two speeds, as
// some large outputs do here, has medians that move with how many rounds
// drew the slow one; its fastest rounds compare the code); a row
// whose rounds all find new faster (or all slower) says so, whatever the size,
// and the others say "mixed": five rounds on one side is what chance gives one
// time in sixteen, so read the ratio and the spread beside it (and with fewer
// than five rounds there is no verdict).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const SELF = fileURLToPath(import.meta.url);

/**
 * The typed-array cases: [element type, constructor name, sizes, a value of
 * element i, pack()'s options]. Bytes are packed as a msgpack array of ints
 * (bin: false), so that their case times the kernel, not a bin's copy.
 */
const TYPED = [
  ['f32', 'Float32Array', [64, 4096, 65536], (i) => Math.sin(i) * 1.5, {}],
  ['i16', 'Int16Array', [4096], (i) => Math.round(Math.sin(i) * 12000), {}],
  ['i32', 'Int32Array', [4096], (i) => Math.round(Math.sin(i) * 2 ** (i % 31)), {}], // every int form
  ['u8', 'Uint8Array', [4096], (i) => (i * 97) & 255, { bin: false }],
];

/** Every case of the checkout at `dir`, by name: a function that does one call. */
async function casesOf(dir) {
  const fastmp = await import(pathToFileURL(`${dir}/js/index.js`).href);
  await fastmp.init();
  const { workloads } = await import(pathToFileURL(`${dir}/bench/messages.js`).href);
  const cases = new Map();
  for (const w of workloads()) {
    const encoder = new fastmp.Encoder();
    const decoder = new fastmp.Decoder(w.shape ? { shape: w.shape } : {});
    const bytes = fastmp.encode(w.value);
    cases.set(`${w.id} encode`, () => encoder.encode(w.value));
    cases.set(`${w.id} decode`, () => decoder.decode(bytes));
    // encodeSharedRef(): a view of a buffer the Encoder reuses (issue 42 weighs its designs on W1, W4 and a small message).
    if (w.id === 'W1' || w.id === 'W4') {
      const sharing = new fastmp.Encoder();
      cases.set(`${w.id} encodeSharedRef`, () => sharing.encodeSharedRef(w.value));
    }
  }
  const small = { id: 7, name: 'frame', v: new Float32Array(16).fill(0.5) };
  const smallEncoder = new fastmp.Encoder();
  const smallSharing = new fastmp.Encoder();
  cases.set('small encode', () => smallEncoder.encode(small));
  cases.set('small encodeSharedRef', () => smallSharing.encodeSharedRef(small));
  for (const [name, type, sizes, valueOf, options] of TYPED) {
    const Type = globalThis[type];
    for (const n of sizes) {
      const values = Type.from({ length: n }, (_, i) => valueOf(i));
      const packed = fastmp.pack(values, options);
      cases.set(`pack ${name} ${n}`, () => fastmp.pack(values, options));
      cases.set(`unpack ${name} ${n}`, () => fastmp.unpack(packed, Type));
    }
  }
  // Small calls, where the JS around the kernel is most of the time: pack() of
  // 16 elements, and packView() of a reused alloc() array, refilled each call.
  for (const n of [16, 4096]) {
    const plain = Int32Array.from({ length: n }, (_, i) => i * 1000);
    const allocated = fastmp.alloc(Int32Array, n);
    let i = 0;
    if (n === 16) cases.set('pack i32 16', () => fastmp.pack(plain));
    cases.set(`packView alloc i32 ${n}`, () => {
      allocated[i++ % n] = i;
      return fastmp.packView(allocated);
    });
  }
  return cases;
}

/** Median ns per call of `fn`: a warm-up of `time` ms, a full collection, then 25 samples of about time/15 ms each. */
function timeCalls(fn, time) {
  let sink;
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < time) {
    sink = fn();
    calls++;
  }
  const perSample = Math.max(1, Math.round(calls / 15));
  globalThis.gc?.(); // (the parent runs each child with --expose-gc) no sample pays for the warm-up's garbage
  const samples = [];
  for (let s = 0; s < 25; s++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < perSample; i++) sink = fn();
    samples.push(Number(process.hrtime.bigint() - t0) / perSample);
  }
  if (sink === undefined) throw new Error('compare.js: a case returned nothing');
  return median(samples);
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** In a child: `--child DIR NAME [TIME]` prints one case's median; `--child DIR --list` the names. */
async function child([dir, name, time = '300']) {
  const cases = await casesOf(dir);
  if (name === '--list') return console.log(JSON.stringify([...cases.keys()]));
  const fn = cases.get(name);
  if (!fn) throw new Error(`compare.js: no case '${name}' in ${dir}`);
  console.log(JSON.stringify({ ns: timeCalls(fn, Number(time)) }));
}

/** Fewer rounds all on one side of 1 are too likely by chance (one time in eight at four) to tell anything. */
const VERDICT_ROUNDS = 5;

/** The report's verdict on a row: whether every round's new ÷ old is on one side of 1. */
export function verdict(ratios) {
  if (ratios.length < VERDICT_ROUNDS) return `no verdict below ${VERDICT_ROUNDS} rounds`;
  if (ratios.every((r) => r < 1)) return 'new faster every round';
  if (ratios.every((r) => r > 1)) return 'new slower every round';
  return 'mixed';
}

const spreadOf = (values) => Math.max(...values) / Math.min(...values);

async function parent() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '5' }, regime: { type: 'string', default: 'kept' }, only: { type: 'string' },
      time: { type: 'string', default: '300' }, json: { type: 'string' } },
  });
  if (positionals.length !== 2) throw new Error('usage: node bench/compare.js OLD_DIR NEW_DIR [--rounds N] [--regime kept|plain] [--only REGEX] [--time MS] [--json FILE]');
  const [oldDir, newDir] = positionals.map((p) => resolve(p));
  const { REGIMES } = await import('./messages.js');
  const regime = REGIMES[values.regime];
  if (!regime) throw new Error(`compare.js: --regime is one of ${Object.keys(REGIMES).join(', ')}`);
  const env = { ...process.env };
  if (regime.env) env.GLIBC_TUNABLES = regime.env;
  const run = (dir, ...rest) => {
    const out = execFileSync(process.execPath, ['--expose-gc', SELF, '--child', dir, ...rest], { env, encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').at(-1));
  };
  const only = values.only === undefined ? null : new RegExp(values.only);
  const names = run(newDir, '--list').filter((n) => !only || only.test(n));
  const times = new Map(names.map((n) => [n, { old: [], new: [] }]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const name of names) {
      for (const which of round % 2 ? ['new', 'old'] : ['old', 'new']) {
        times.get(name)[which].push(run(which === 'old' ? oldDir : newDir, name, values.time).ns);
      }
    }
  }
  console.log(`${regime.title}; ${values.rounds} rounds; old ${oldDir}, new ${newDir}\n`);
  console.log('| case | old | new | new ÷ old | rounds\' new ÷ old | spread old, new | fastest new ÷ old | verdict |\n| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, t] of times) {
    const ratios = t.old.map((o, i) => t.new[i] / o);
    console.log(`| ${name} | ${median(t.old).toFixed(0)} ns | ${median(t.new).toFixed(0)} ns | ${(median(t.new) / median(t.old)).toFixed(3)} | `
      + `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} | ${spreadOf(t.old).toFixed(2)}, ${spreadOf(t.new).toFixed(2)} | `
      + `${(Math.min(...t.new) / Math.min(...t.old)).toFixed(3)} | ${verdict(ratios)} |`);
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ regime: values.regime, oldDir, newDir, times: Object.fromEntries(times) })}\n`);
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === '--child') await child(process.argv.slice(3));
  else await parent();
}
