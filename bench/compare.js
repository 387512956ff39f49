// compare.js - does a change hold the benchmarks within their noise? Times two
// checkouts of fastmp on the same cases: the messages suite's four workloads
// (each checkout's own bench/messages.js workloads(), seeded, so both time the
// same values) encoded by a reused Encoder and decoded by a reused Decoder of
// the workload's shape, and pack / unpack of typed arrays at the sizes the
// typed-array suite's targets name. Each case of each checkout runs in a fresh
// node process of its own, so that neither checkout's code shares a process
// (or its JIT's feedback) with the other's; within a round the two alternate,
// and which goes first flips every round. With --together, each round of a
// case is one process that loads both checkouts (each its own modules, so its
// own JIT feedback) and takes their samples in turn: what a process draws
// (processes of the same code can differ by more than a change does) is then
// the same for both, and each round's ratio compares the code.
//
//   node bench/compare.js OLD_DIR NEW_DIR [--rounds 5] [--regime kept|plain] [--together] [--only REGEX] [--time MS] [--json FILE]
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

/**
 * Median ns per call of each of `fns`: a warm-up of `time` ms each, a full
 * collection, then 25 samples of about time/15 ms each, the functions' samples
 * taken in turn (which goes first flips every sample).
 */
function timeCalls(fns, time) {
  const perSample = fns.map((fn) => Math.max(1, Math.round(warmUp(fn, time) / 15)));
  globalThis.gc?.(); // (the parent runs each child with --expose-gc) no sample pays for the warm-up's garbage
  const samples = fns.map(() => []);
  for (let s = 0; s < 25; s++) {
    for (let k = 0; k < fns.length; k++) {
      const j = s % 2 ? fns.length - 1 - k : k;
      samples[j].push(sample(fns[j], perSample[j]));
    }
  }
  return samples.map(median);
}

/** Calls fn for `time` ms; returns how many calls that was. */
function warmUp(fn, time) {
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < time) {
    if (fn() === undefined) throw new Error('compare.js: a case returned nothing');
    calls++;
  }
  return calls;
}

/** ns per call of `calls` calls of fn. */
function sample(fn, calls) {
  let sink;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink = fn();
  const ns = Number(process.hrtime.bigint() - t0) / calls;
  if (sink === undefined) throw new Error('compare.js: a case returned nothing');
  return ns;
}

/** The median: the middle value, or the mean of the two middle ones (an even number of rounds). */
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

/**
 * In a child: `--child DIR NAME [TIME]` prints one case's median; `--child
 * DIR --list` the names; `--child-pair DIR DIR NAME TIME` the case's median in
 * each of two checkouts, timed in turn in this process.
 */
async function child([dir, name, time = '300']) {
  const cases = await casesOf(dir);
  if (name === '--list') return console.log(JSON.stringify([...cases.keys()]));
  console.log(JSON.stringify({ ns: timeCalls([caseOf(cases, dir, name)], Number(time))[0] }));
}

async function childPair([first, second, name, time]) {
  const fns = [];
  for (const dir of [first, second]) fns.push(caseOf(await casesOf(dir), dir, name));
  console.log(JSON.stringify({ ns: timeCalls(fns, Number(time)) }));
}

function caseOf(cases, dir, name) {
  const fn = cases.get(name);
  if (!fn) throw new Error(`compare.js: no case '${name}' in ${dir}`);
  return fn;
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
      time: { type: 'string', default: '300' }, json: { type: 'string' }, together: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 2) throw new Error('usage: node bench/compare.js OLD_DIR NEW_DIR [--rounds N] [--regime kept|plain] [--together] [--only REGEX] [--time MS] [--json FILE]');
  const [oldDir, newDir] = positionals.map((p) => resolve(p));
  const { REGIMES } = await import('./messages.js');
  const regime = REGIMES[values.regime];
  if (!regime) throw new Error(`compare.js: --regime is one of ${Object.keys(REGIMES).join(', ')}`);
  // The caller's GLIBC_TUNABLES never: a plain process runs with glibc's defaults (as bench/messages.js spawnChild).
  const env = { ...process.env };
  delete env.GLIBC_TUNABLES;
  if (regime.env) env.GLIBC_TUNABLES = regime.env;
  const run = (mode, ...rest) => {
    const out = execFileSync(process.execPath, ['--expose-gc', SELF, mode, ...rest], { env, encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').at(-1));
  };
  const only = values.only === undefined ? null : new RegExp(values.only);
  const names = run('--child', newDir, '--list').filter((n) => !only || only.test(n));
  const times = new Map(names.map((n) => [n, { old: [], new: [] }]));
  const dirOf = { old: oldDir, new: newDir };
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 ? ['new', 'old'] : ['old', 'new'];
    for (const name of names) {
      const t = times.get(name);
      if (values.together) {
        const ns = run('--child-pair', dirOf[order[0]], dirOf[order[1]], name, values.time).ns;
        order.forEach((which, i) => t[which].push(ns[i]));
      } else {
        for (const which of order) t[which].push(run('--child', dirOf[which], name, values.time).ns);
      }
    }
  }
  const how = values.together ? 'both checkouts in one process a round, sampled in turn' : 'a process a checkout a round';
  console.log(`${regime.title}; ${values.rounds} rounds, ${how}; old ${oldDir}, new ${newDir}\n`);
  console.log('| case | old | new | new ÷ old | rounds\' new ÷ old | spread old, new | fastest new ÷ old | verdict |\n| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, t] of times) {
    const ratios = t.old.map((o, i) => t.new[i] / o);
    console.log(`| ${name} | ${median(t.old).toFixed(0)} ns | ${median(t.new).toFixed(0)} ns | ${(median(t.new) / median(t.old)).toFixed(3)} | `
      + `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} | ${spreadOf(t.old).toFixed(2)}, ${spreadOf(t.new).toFixed(2)} | `
      + `${(Math.min(...t.new) / Math.min(...t.old)).toFixed(3)} | ${verdict(ratios)} |`);
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ regime: values.regime, together: values.together, oldDir, newDir, times: Object.fromEntries(times) })}\n`);
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === '--child') await child(process.argv.slice(3));
  else if (process.argv[2] === '--child-pair') await childPair(process.argv.slice(3));
  else await parent();
}
