// engines-bench.js - `npm run bench -- --engines`: wasm SIMD vs wasm scalar vs
// pure JS, in one run per engine, on every engine test/engines/ reaches (Node
// 20, 22, 24 and Bun from the npm registry, Chromium and Firefox ESR from
// Debian; test/engines/launch.js gets and starts them). Writes
// bench/RESULTS-engines.md and bench/results-engines.json (or into --out DIR).
//
//   npm run bench -- --engines[=node20,bun,firefox] [--quick] [--out DIR]
//                    [--crossovers-only] [--probes=REGEX]
// --engines=ids runs those engines only (node20 node22 node24 bun chromium
// firefox). --crossovers-only skips the timed cases and runs the crossover
// probes alone; --probes=REGEX runs
// only the probes whose name matches (a probe's name: "pack Float32Array",
// "unpack boolean", "decodeBMP ASCII text"; it implies --crossovers-only). A
// crossovers-only run into a DIR that holds results-engines.json merges into
// it: each engine it ran gets the probes it ran replaced (its other probes and
// its cases kept), the other engines stay as they were, and meta.crossoverRuns
// lists the run; the report is made again from the merged file.
//
// Two halves in one file:
// - run(fastmp, options): plain ESM (its imports: the tests' PRNG, js/kinds.js
//   and js/crossovers.js, which the engine's instances use), the same in Node,
//   Bun and a page. `fastmp` is the package's module namespace
//   (createFastmp()). It makes three instances (wasm-simd, wasm-scalar: wasm at
//   every size; pure-js: pureJs 'always') and times pack and unpack of
//   Float32Array and Int32Array at N = 16, 256, 4096, 65536 (seeded random
//   content), then a crossover probe per entry of js/crossovers.js: pack and
//   unpack of every element type of js/kinds.js (KINDS once per kernel type,
//   and BOOL through packBool / unpackBool) and the ASN.1 string ops; each
//   finds the smallest N of a grid from which wasm stays at least as fast as
//   pure JS. Timing needs only
//   performance.now(): calls in batches long enough for the engine's timer
//   (a page's clock is coarse), contenders interleaved in rotated rounds; a
//   time is the median over rounds of each round's median, with the min..max
//   of the round medians (a crossover point keeps the median alone: all that
//   the probe and the report read).
// - runEngines(options): Node only (its imports are dynamic): runs run() on
//   each engine and writes the two outputs (results-engines.json a case and a
//   probe per line, bench/results-json.js; the report made from it).
//
// Run as a script (`node --expose-gc bench/engines-bench.js [--quick]
// [--crossovers-only] [--probes=REGEX]`, `bun bench/engines-bench.js`), it
// benches that runtime and prints the result as one line of JSON after
// test/engines' marker (on stdout; progress on stderr).

import { rng } from '../test/rng.js'; // the tests' PRNG: the same content on every engine
import { jsBelowFor, jsEngine } from '../js/crossovers.js';
import { BOOL, KERNEL_KINDS } from '../js/kinds.js';
import { text } from './texts.js';

const CONTENDERS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
];
const NAMES = CONTENDERS.map(([name]) => name);
export const SIZES = [16, 256, 4096, 65536];
export const CROSSOVER_SIZES = [1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 256, 512];
const TYPES = ['Float32Array', 'Int32Array'];
/**
 * The crossover probe's element kinds: js/kinds.js KINDS once per kernel type
 * (`.c`, as js/crossovers.js is keyed: Uint8ClampedArray shares Uint8Array's
 * u8), then BOOL (packBool / unpackBool of a Uint8Array of 0 / 1).
 */
const PROBE_KINDS = KERNEL_KINDS;
/** Their names ('Float32Array', ..., 'boolean'): a typed probe's `type`. */
export const CROSSOVER_TYPES = PROBE_KINDS.map((k) => k.name);
const KIND_OF_PROBE = new Map(PROBE_KINDS.map((k) => [k.name, k]));
/** A probed type's kernel name (js/kinds.js c: 'f32' ... 'bool'), as js/crossovers.js is keyed. */
const SHORT = (type) => KIND_OF_PROBE.get(type).c;
/**
 * The string ops' probes (js/crossovers.js `strings`, which js/strings.js
 * reads): BMP text of several scripts, or printable ASCII through the
 * VisibleString functions (the one-byte kinds share the ASCII cuts).
 * decodeBMP on both contents: its cut is the larger of the two.
 */
export const STRING_PROBES = [
  ['encodeBMP', 'BMP text'], ['decodeBMP', 'BMP text'], ['decodeBMP', 'ASCII text'],
  ['encodeASCII', 'ASCII text'], ['decodeASCII', 'ASCII text'],
].map(([op, type]) => ({ op, type }));
const STRING_OPS = new Set(STRING_PROBES.map((p) => p.op));
/** Every probe, in the order they run: { op, type }; its name is `${op} ${type}`. */
export const PROBES = [...CROSSOVER_TYPES.flatMap((type) => ['pack', 'unpack'].map((op) => ({ op, type }))), ...STRING_PROBES];
const probeName = (p) => `${p.op} ${p.type ?? 'Float32Array'}`;
/** The js/crossovers.js entry of a probe in `table` (jsBelowFor()'s shape) for backend. */
export function tableEntry(table, backend, { op, type = 'Float32Array' }) {
  return STRING_OPS.has(op) ? table[backend].strings?.[op] : table[backend][op]?.[SHORT(type)];
}
/**
 * Near a crossover both paths are within noise of each other: wasm counts as
 * not behind where its median is within this factor of pure JS's.
 */
export const CROSSOVER_TOLERANCE = 1.1;
const SEED = 0x5eed;
const MARKER = 'FASTMP_ENGINE_RESULT ';

/**
 * Time budgets. caseMs: the measured time of one case, all contenders and
 * rounds; warmMs: each contender runs this long first (JIT tiers, inline
 * caches); gc: a full collection before each contender's turn in a round
 * (where the runtime offers one; quick mode skips it, most of its time else).
 */
const BUDGETS = {
  full: { rounds: 9, caseMs: 1800, crossoverCaseMs: 500, warmMs: 60, minSample: 0.2, gc: true },
  quick: { rounds: 3, caseMs: 45, crossoverCaseMs: 16, warmMs: 3, minSample: 0.05, gc: false },
};

// ---- the portable bench ------------------------------------------------------------


/**
 * Random reals (float kinds); ints of every magnitude up to the kind's width
 * (each element's bit count random), so that every msgpack int form the kind
 * holds occurs (BigInts for the 64-bit kinds); 0 / 1 at random (BOOL).
 */
function content(kind, n, next) {
  const x = new kind.Type(n);
  if (kind.float) {
    for (let i = 0; i < n; i++) x[i] = (next() / 2 ** 32 - 0.5) * 2e6;
    return x;
  }
  if (kind === BOOL) {
    for (let i = 0; i < n; i++) x[i] = next() & 1;
    return x;
  }
  const width = 8 * kind.bytes;
  const signed = kind.min < 0;
  for (let i = 0; i < n; i++) {
    const bits = 1 + (next() % width);
    if (kind.big) {
      const v = BigInt.asUintN(bits, (BigInt(next()) << 32n) | BigInt(next()));
      x[i] = signed ? v - 2n ** BigInt(bits - 1) : v;
    } else {
      const v = next() >>> (32 - bits);
      x[i] = signed ? v - 2 ** (bits - 1) : v;
    }
  }
  return x;
}


const now = () => performance.now();
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
/** A full collection between contenders where the runtime offers one (node --expose-gc, Bun). */
const canCollect = Boolean(globalThis.gc || globalThis.Bun);
const collect = globalThis.gc ?? (globalThis.Bun ? () => globalThis.Bun.gc(true) : () => {});

/** The clock's step in ms: the smallest nonzero difference of two readings. */
function timerResolution() {
  let best = Infinity;
  for (let k = 0; k < 30; k++) {
    const t0 = now();
    let t1 = now();
    while (t1 === t0) t1 = now();
    best = Math.min(best, t1 - t0);
  }
  return best;
}

let sink = 0;
function timeBatch(fn, batch) {
  const t0 = now();
  for (let i = 0; i < batch; i++) sink ^= fn().length;
  return now() - t0;
}

/** Runs fn for warmMs, then finds the batch size whose run takes at least `sample` ms. */
function prepareTask(fn, warmMs, sample) {
  const until = now() + warmMs;
  do fn(); while (now() < until);
  let batch = 1;
  while (batch < 1 << 24) {
    const t = Math.min(timeBatch(fn, batch), timeBatch(fn, batch));
    if (t >= sample) break;
    batch = t > 0 ? Math.max(batch * 2, Math.ceil((batch * sample * 1.2) / t)) : batch * 8;
  }
  return batch;
}

/**
 * { name: { median, min, max } } in ns per call of each task { name, fn }:
 * `rounds` rounds, each running every task in turn (rotated order) for its
 * slice of caseMs; a round's value is the median of its batches.
 */
async function measure(tasks, { rounds, caseMs, warmMs, sample, gc }) {
  const batches = tasks.map((t) => prepareTask(t.fn, warmMs, sample));
  const perRound = tasks.map(() => []);
  const slice = caseMs / (rounds * tasks.length);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < tasks.length; k++) {
      const i = (k + round) % tasks.length;
      const { fn } = tasks[i];
      const batch = batches[i];
      if (gc) collect();
      const samples = [];
      const until = now() + slice;
      do samples.push(timeBatch(fn, batch) / batch); while (now() < until || samples.length < 5);
      perRound[i].push(median(samples) * 1e6);
    }
  }
  await pause();
  return Object.fromEntries(tasks.map((t, i) => [t.name, { median: median(perRound[i]), min: Math.min(...perRound[i]), max: Math.max(...perRound[i]) }]));
}

/**
 * measure()'s result with the medians alone ({ name: { median } }): what a
 * crossover probe is judged by (crossoverOf, thresholdCost) and reports.
 */
const mediansOf = (timed) => Object.fromEntries(Object.entries(timed).map(([name, { median: m }]) => [name, { median: m }]));

const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const bytesOf = (t) => new Uint8Array(t.buffer, t.byteOffset, t.byteLength);

/** Each contender's task of fn(api), checked first to return what `same` accepts. */
function tasksChecked(paths, fn, same, what) {
  for (const name of NAMES) if (!same(fn(paths[name])())) throw new Error(`${name} ${what} differs from the input / pure JS`);
  return NAMES.map((name) => ({ name, fn: fn(paths[name]) }));
}

/**
 * One typed case's tasks: op on x (pack) or on its msgpack bytes (unpack),
 * every contender; checked to agree first. A Uint8Array packs as an array
 * (`bin: false`: a bin never takes the pure-JS path), BOOL's through packBool / unpackBool.
 */
function tasksOf(paths, kind, op, x) {
  const asArray = kind.c === 'u8' ? { bin: false } : undefined;
  const packOf = kind === BOOL ? (api) => () => api.packBool(x) : (api) => () => api.pack(x, asArray);
  const bytes = packOf(paths['pure-js'])();
  const call = op === 'pack' ? packOf : kind === BOOL ? (api) => () => api.unpackBool(bytes) : (api) => () => api.unpack(bytes, kind.Type);
  const reference = op === 'pack' ? bytes : bytesOf(x);
  const same = (out) => sameBytes(op === 'pack' ? out : bytesOf(out), reference);
  return { bytes: bytes.length, tasks: tasksChecked(paths, call, same, `${op} ${kind.name}[${x.length}]`) };
}

/** A string probe's tasks at n chars: encode<Kind> of the text, or decode<Kind> of its content bytes (ASCII: VisibleString). */
function stringTasksOf(paths, { op, type }, n) {
  const s = text(n, type === 'ASCII text');
  const stem = op.endsWith('BMP') ? 'BMP' : 'Visible';
  const encode = (api) => () => api[`encode${stem}`](s);
  if (op.startsWith('encode')) {
    const reference = encode(paths['pure-js'])();
    return tasksChecked(paths, encode, (out) => sameBytes(out, reference), `${op}(${n} chars)`);
  }
  const bytes = encode(paths['pure-js'])();
  return tasksChecked(paths, (api) => () => api[`decode${stem}`](bytes), (out) => out === s, `${op}(${n} chars)`);
}

/** A probe's tasks at size n. */
const probeTasksOf = (paths, probe, n) => (STRING_OPS.has(probe.op)
  ? stringTasksOf(paths, probe, n)
  : tasksOf(paths, KIND_OF_PROBE.get(probe.type), probe.op, content(KIND_OF_PROBE.get(probe.type), n, rng(SEED + n))).tasks);

/**
 * The smallest size of `points` from which `build` is never behind pure JS
 * (its median at most CROSSOVER_TOLERANCE times pure JS's, at that size and
 * every larger one); null when it never is.
 */
export function crossoverOf(points, build) {
  let from = null;
  for (const { n, ns } of points) {
    if (ns[build].median <= CROSSOVER_TOLERANCE * ns['pure-js'].median) from ??= n;
    else from = null;
  }
  return from;
}

/**
 * Benches one engine. options: quick (short budgets: a smoke run, not a
 * measurement), crossoversOnly (no timed cases: the probes alone), probes (a
 * RegExp or its source: only the probes whose name matches; implies
 * crossoversOnly), log (progress lines). Resolves to { env, mode, budget,
 * cases, crossover, seconds }.
 */
export async function run(fastmp, { quick = false, crossoversOnly = false, probes = null, log = () => {} } = {}) {
  const started = now();
  const budget = BUDGETS[quick ? 'quick' : 'full'];
  const only = probes === null ? null : new RegExp(probes);
  const resolution = timerResolution();
  // Batches of at least 20 clock steps, so that the clock's step is within 5 % of a batch.
  const sample = Math.max(budget.minSample, 20 * resolution);
  const paths = {};
  for (const [name, options] of CONTENDERS) paths[name] = await fastmp.createFastmp(options);
  const proc = globalThis.process;
  const env = {
    userAgent: globalThis.navigator?.userAgent ?? null,
    versions: proc?.versions ? { node: proc.versions.node, v8: proc.versions.v8, bun: proc.versions.bun, webkit: proc.versions.webkit } : null,
    hardwareConcurrency: globalThis.navigator?.hardwareConcurrency ?? null,
    crossOriginIsolated: globalThis.crossOriginIsolated ?? null,
    timerResolutionNs: resolution * 1e6,
    sampleMs: sample,
    gc: canCollect && budget.gc,
    simd: fastmp.simdSupported(),
    backends: Object.fromEntries(NAMES.map((name) => [name, paths[name].backend()])),
    // The JS engine as js/crossovers.js sees it, and JS_BELOW as `auto` uses it here, for every probe.
    jsEngine: jsEngine(),
    jsBelow: jsBelowOfTypes(jsBelowFor()),
  };
  log(`timer step ${(resolution * 1e6).toFixed(0)} ns, batches of >= ${sample.toFixed(2)} ms${env.crossOriginIsolated ? ', cross-origin isolated' : ''}`);

  const cases = [];
  for (const type of crossoversOnly || only ? [] : TYPES) {
    const kind = KIND_OF_PROBE.get(type);
    for (const op of ['pack', 'unpack']) {
      for (const n of SIZES) {
        const { bytes, tasks } = tasksOf(paths, kind, op, content(kind, n, rng(SEED + n)));
        const ns = await measure(tasks, { ...budget, sample });
        cases.push({ type, op, n, bytes, ns });
        log(`${op} ${type} ${n}: ${NAMES.map((name) => `${name} ${formatNs(ns[name].median)}`).join(', ')}`);
      }
    }
  }
  const crossover = [];
  for (const probe of PROBES.filter((p) => !only || only.test(probeName(p)))) {
    const points = [];
    for (const n of CROSSOVER_SIZES) {
      const tasks = probeTasksOf(paths, probe, n);
      points.push({ n, ns: mediansOf(await measure(tasks, { ...budget, caseMs: budget.crossoverCaseMs, sample })) });
    }
    const simdFrom = crossoverOf(points, 'wasm-simd');
    const scalarFrom = crossoverOf(points, 'wasm-scalar');
    crossover.push({ ...probe, simdFrom, scalarFrom, points });
    log(`crossover ${probeName(probe)}: wasm-simd from ${simdFrom ?? `> ${CROSSOVER_SIZES.at(-1)}`}, wasm-scalar from ${scalarFrom ?? `> ${CROSSOVER_SIZES.at(-1)}`}`);
  }
  // sink: what the timed calls returned, reported so that no engine may drop them.
  return {
    env, mode: quick ? 'quick' : 'full', ...(crossoversOnly || only ? { crossoversOnly: true } : {}), budget: { ...budget, sampleMs: sample },
    cases, crossover, seconds: (now() - started) / 1000, sink,
  };
}

export function formatNs(ns) {
  if (ns === undefined || !Number.isFinite(ns)) return '–';
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

// ---- as a script: this runtime -------------------------------------------------------------------

/**
 * run()'s options from command-line arguments: --quick, --crossovers-only,
 * --probes=REGEX (which implies --crossovers-only).
 */
export function benchFlags(argv) {
  const probes = argv.find((a) => a.startsWith('--probes='))?.slice('--probes='.length) ?? null;
  return { quick: argv.includes('--quick'), crossoversOnly: argv.includes('--crossovers-only') || probes !== null, probes };
}
const asArgs = ({ quick, crossoversOnly, probes }) => [...(quick ? ['--quick'] : []), ...(crossoversOnly ? ['--crossovers-only'] : []), ...(probes === null ? [] : [`--probes=${probes}`])];

const script = globalThis.process?.argv?.[1];
if (script && decodeURIComponent(new URL(import.meta.url).pathname) === script) {
  const fastmp = await import('fastmp-wasm');
  const result = await run(fastmp, { ...benchFlags(process.argv), log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`\n${MARKER}${JSON.stringify(result)}\n`);
}

// ---- the run over every engine (Node only) -----------------------------------------------------

/** The page a browser engine runs: the package as a page loads it, this file, the result in window.__result. */
const page = (flags) => `<!doctype html>
<meta charset="utf-8">
<title>fastmp engines bench</title>
<script type="module">
  try {
    const fastmp = await import('/js/index.js');
    const { run } = await import('/bench/engines-bench.js');
    window.__result = await run(fastmp, { ...${JSON.stringify(flags)}, log: (line) => console.log(line) });
  } catch (e) {
    window.__result = { error: String(e?.stack ?? e) };
  }
</script>
`;

const ENGINE_TIMEOUT = 900_000;
/** Above this share of the machine busy while an engine ran, other work ran alongside it: the engine runs again. */
const BUSY_LIMIT = 0.7;
/** Waits for a quiet machine and second runs happen only this long into a full run (which bounds the run's length). */
const PATIENCE = 7 * 60_000;
/** Waits up to this long before an engine for 3 s in a row of under 15 % of the machine busy. */
const QUIET_WAIT = 60_000;

/** Resolves to the seconds waited for a quiet machine (up to QUIET_WAIT; none without /proc/stat). */
async function waitForQuiet(cpuTimes) {
  const start = Date.now();
  let quiet = 0;
  let last = cpuTimes();
  while (last && quiet < 3 && Date.now() - start < QUIET_WAIT) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuTimes();
    quiet = 1 - (now.idle - last.idle) / (now.total - last.total) < 0.15 ? quiet + 1 : 0;
    last = now;
  }
  return (Date.now() - start) / 1000;
}

/** The runtime's version and JS engine, from what it reported. */
function describe(engine, result, browserVersion) {
  const v = result.env.versions ?? {};
  if (engine.id === 'bun') return { version: v.bun, jsEngine: 'JavaScriptCore' };
  if (engine.id.startsWith('node')) return { version: v.node, jsEngine: `V8 ${v.v8.split('-')[0]}` };
  if (engine.id === 'chromium') return { version: browserVersion, jsEngine: `V8 (Chromium ${browserVersion.split('.')[0]})` };
  return { version: browserVersion, jsEngine: `SpiderMonkey (Firefox ${browserVersion.split('.')[0]})` };
}

/** JS_BELOW of js/crossovers.js (jsBelowFor()'s table) for every probe: { simd: { 'pack Float32Array': n, ... }, scalar }. */
export function jsBelowOfTypes(table) {
  return Object.fromEntries(['simd', 'scalar'].map((backend) => [backend, Object.fromEntries(
    PROBES.map((probe) => [probeName(probe), tableEntry(table, backend, probe)]))]));
}

/**
 * Runs run() on each engine (ids: a subset of node20 node22 node24 bun
 * chromium firefox) and writes RESULTS-engines.md and results-engines.json
 * into outDir (crossoversOnly / probes: see the file's header; they default to
 * this process's --crossovers-only / --probes=REGEX). Resolves to the exit
 * status: 1 when an engine failed or was missing.
 */
export async function runEngines({ quick = false, ids, outDir, command, ...rest }) {
  const { crossoversOnly, probes } = { ...benchFlags(globalThis.process.argv), ...rest };
  const flags = { quick, crossoversOnly: crossoversOnly || probes != null, probes: probes ?? null };
  const { spawnSync } = await import('node:child_process');
  const { existsSync, mkdirSync, readFileSync } = await import('node:fs');
  const os = await import('node:os');
  const { join } = await import('node:path');
  const { ENGINES, ROOT, launch, runDriver, runPage, serve } = await import('../test/engines/launch.js');
  const unknown = (ids ?? []).filter((id) => !ENGINES.some((e) => e.id === id));
  if (unknown.length) throw new Error(`bench --engines: no engine ${unknown.join(', ')} (engines: ${ENGINES.map((e) => e.id).join(' ')})`);
  const started = Date.now();
  const loadBefore = os.loadavg()[0];
  /** The machine's CPU counters (Linux /proc/stat), for how busy it was while an engine ran; null elsewhere. */
  const cpuTimes = () => {
    try {
      const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
      return { idle: f[3] + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const script = join(ROOT, 'bench', 'engines-bench.js');
  // Cross-origin isolated pages get the fine clock (5-20 µs steps instead of 100 µs - 1 ms).
  const { server, origin } = await serve({
    pages: { '/engines-bench': page(flags) },
    headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
  });
  /** One run of the bench on an engine: { result | error, browserVersion, seconds, busy }. */
  const attempt = async (engine, got) => {
    const t = Date.now();
    const cpu = cpuTimes();
    const out = {};
    try {
      if (engine.kind === 'server') {
        out.result = runDriver(got.path, [...(engine.id === 'bun' ? [] : ['--expose-gc']), script, ...asArgs(flags)], { timeout: ENGINE_TIMEOUT, stderr: 'inherit' });
      } else {
        const { browser, version } = await launch(got);
        out.browserVersion = version;
        try {
          out.result = await runPage(browser, `${origin}engines-bench`, { timeout: ENGINE_TIMEOUT, onLog: (line) => process.stderr.write(`${line}\n`) });
        } finally {
          await browser.close();
        }
      }
    } catch (e) {
      out.error = e.message;
      console.log(`${engine.engine}: ERROR ${e.message}`);
    }
    out.seconds = (Date.now() - t) / 1000;
    const after = cpuTimes();
    // The share of all cores' time that was not idle: the bench keeps about one core busy, more is other work alongside it.
    if (cpu && after) out.busy = 1 - (after.idle - cpu.idle) / (after.total - cpu.total);
    return out;
  };
  const rows = [];
  try {
    for (const engine of ENGINES.filter((e) => !ids || ids.includes(e.id))) {
      const row = { id: engine.id, engine: engine.engine };
      rows.push(row);
      const got = await engine.get({ who: 'bench --engines' });
      if (got.missing) {
        row.missing = got.missing;
        console.log(`${engine.engine}: MISSING: ${got.missing}`);
        continue;
      }
      // Full mode: each engine starts on a quiet machine where one comes within QUIET_WAIT, and an
      // engine that ran beside other work (machine busy > BUSY_LIMIT) runs once more; the quieter run is kept.
      const attempts = [];
      for (let k = 0; k < 2; k++) {
        const patient = !quick && Date.now() - started < PATIENCE;
        if (k > 0 && !(patient && attempts[0].busy > BUSY_LIMIT)) break;
        const waited = patient ? await waitForQuiet(cpuTimes) : 0;
        console.log(`${engine.engine}: ${k > 0 ? `running again (the machine was ${(attempts[0].busy * 100).toFixed(0)} % busy)` : 'running'}${waited > 4 ? ` after waiting ${waited.toFixed(0)} s for a quiet machine` : ''}`);
        const a = await attempt(engine, got);
        a.waited = waited;
        attempts.push(a);
        console.log(`${engine.engine}: ${a.result ? 'done' : 'no result'} in ${a.seconds.toFixed(1)} s, machine ${a.busy === undefined ? '?' : `${(a.busy * 100).toFixed(0)} %`} busy`);
      }
      const kept = attempts.filter((a) => a.result).sort((a, b) => (a.busy ?? 0) - (b.busy ?? 0))[0] ?? attempts.at(-1);
      if (kept.result) Object.assign(row, describe(engine, kept.result, kept.browserVersion), { result: kept.result });
      else row.error = kept.error;
      Object.assign(row, { seconds: kept.seconds, machineBusy: kept.busy, attempts: attempts.map((a) => ({ seconds: a.seconds, machineBusy: a.busy, waited: a.waited, ...(a.error ? { error: a.error } : {}) })) });
    }
  } finally {
    server.close();
  }

  const git = (...a) => spawnSync('git', a, { cwd: ROOT, encoding: 'utf8' }).stdout?.trimEnd() ?? '';
  const meta = {
    date: new Date().toISOString(),
    command,
    mode: quick ? 'quick' : 'full',
    ...(flags.crossoversOnly ? { crossoversOnly: true } : {}),
    seconds: (Date.now() - started) / 1000,
    commit: git('rev-parse', 'HEAD'),
    // Uncommitted changes to what the engines ran (the results are of the work tree).
    uncommitted: git('status', '--porcelain', '--', 'js', 'dist', 'c').split('\n').filter(Boolean).map((l) => l.slice(3)),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    // The 1-minute load average before and after: other work on the machine slows every contender.
    loadAverage: { before: loadBefore, after: os.loadavg()[0] },
    // JS_BELOW as each engine's instances used it (reported by the engine), for every probe: { id: { simd, scalar } }.
    jsBelow: Object.fromEntries(rows.filter((r) => r.result).map(({ id, result }) => [id, result.env.jsBelow])),
  };
  // seconds: the engine's whole run (start-up included); benchSeconds: run()'s own.
  const engines = rows.map(({ result: { sink, seconds, ...result } = {}, ...row }) => ({ ...row, ...result, ...(seconds ? { benchSeconds: seconds } : {}) }));
  mkdirSync(outDir, { recursive: true });
  const { writeResults } = await import('./results-json.js');
  const file = join(outDir, 'results-engines.json');
  const previous = flags.crossoversOnly && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  // A crossovers-only run merges into a results file of the same mode (a quick run's figures are no measurement).
  const output = previous?.meta.mode === meta.mode ? mergeCrossovers(previous, { meta, engines }) : { meta, engines };
  // A case and a crossover probe per line.
  const stored = writeResults(file, output, 4);
  await writeEnginesReport(outDir, stored);
  console.log(`\n${headline(engines)}\n\nwrote ${join(outDir, 'RESULTS-engines.md')} and results-engines.json in ${meta.seconds.toFixed(0)} s`);
  return rows.some((r) => !r.result) ? 1 : 0;
}

/**
 * A crossovers-only run ({ meta, engines }) merged into a results file's
 * contents (previous): each engine the run measured gets the probes it ran
 * replaced (each with `earlier`: the crossovers of the one it replaced, so that
 * the report shows whether they reproduced) and `crossoverRun` (when, and the
 * runtime's version then); its cases, its other probes and the other engines stay. meta stays the
 * previous run's, with the engines' jsBelow replaced and the run appended to
 * meta.crossoverRuns.
 */
export function mergeCrossovers(previous, { meta, engines }) {
  const ran = engines.filter((e) => e.crossover);
  const order = (c) => PROBES.findIndex((p) => probeName(p) === probeName(c));
  const merged = previous.engines.map((old) => {
    const now = ran.find((e) => e.id === old.id);
    if (!now) return old;
    const before = new Map((old.crossover ?? []).map((c) => [probeName(c), c]));
    const replaced = now.crossover.map((c) => {
      const was = before.get(probeName(c));
      before.delete(probeName(c));
      return was ? { ...c, earlier: { simdFrom: was.simdFrom, scalarFrom: was.scalarFrom } } : c;
    });
    const crossover = [...before.values(), ...replaced].sort((a, b) => order(a) - order(b));
    return { ...old, crossover, crossoverRun: { date: meta.date, version: now.version, machineBusy: now.machineBusy, seconds: now.seconds } };
  });
  for (const e of ran) if (!previous.engines.some((old) => old.id === e.id)) merged.push(e);
  const run = {
    date: meta.date, command: meta.command, seconds: meta.seconds, commit: meta.commit, uncommitted: meta.uncommitted, loadAverage: meta.loadAverage,
    engines: ran.map((e) => e.id), probes: [...new Set(ran.flatMap((e) => e.crossover.map(probeName)))].length,
  };
  return {
    meta: { ...previous.meta, jsBelow: { ...previous.meta.jsBelow, ...meta.jsBelow }, crossoverRuns: [...(previous.meta.crossoverRuns ?? []), run] },
    engines: merged,
  };
}

// ---- the report ------------------------------------------------------------------------------------

const percent = (v) => (v === undefined ? '?' : `${(v * 100).toFixed(0)} %`);
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '–');
/** Speed of a over b: b's time / a's time. */
const speedup = (c, a, b) => (c ? c.ns[b].median / c.ns[a].median : undefined);
const spread = (t) => `${formatNs(t.median)} (${formatNs(t.min)}..${formatNs(t.max)})`;
const beyond = `> ${CROSSOVER_SIZES.at(-1)}`;

function table(rows) {
  const keys = Object.keys(rows[0]);
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(keys), line(keys.map(() => '---')), ...rows.map((r) => line(keys.map((k) => String(r[k]))))].join('\n');
}

const findCase = (e, type, op, n) => e.cases?.find((c) => c.type === type && c.op === op && c.n === n);

/** The ratios at N = 4096, one row per engine. */
function headlineRows(engines) {
  return engines.filter((e) => e.cases?.length).map((e) => {
    const row = { engine: `${e.engine} ${e.version}` };
    for (const type of TYPES) {
      for (const op of ['pack', 'unpack']) {
        const c = findCase(e, type, op, 4096);
        const short = type === 'Float32Array' ? 'f32' : 'i32';
        row[`${op} ${short} SIMD÷scalar`] = x(speedup(c, 'wasm-simd', 'wasm-scalar'));
        row[`${op} ${short} SIMD÷JS`] = x(speedup(c, 'wasm-simd', 'pure-js'));
      }
    }
    return row;
  });
}

/**
 * What a threshold costs on an engine: over the probe's sizes, the worst
 * slowdown of the path `auto` picks with JS_BELOW = below (pure JS under it,
 * `build` from it) against the faster of the two at that size; 1 when it always
 * picks the faster.
 */
export function thresholdCost(points, build, below) {
  let worst = 1;
  for (const { n, ns } of points) {
    const js = ns['pure-js'].median;
    const wasm = ns[build].median;
    worst = Math.max(worst, n < below ? js / wasm : wasm / js);
  }
  return worst;
}

/** A cost (thresholdCost) the report flags: the table is due a new measurement for that entry. */
export const MATERIAL_COST = 2;

/** The table value a probe beyond the grid gets (wasm never stayed ahead up to the largest size): twice that size. */
export const BEYOND = 2 * CROSSOVER_SIZES.at(-1);

/**
 * The JS_BELOW that serves every run of a probe best: of the grid's sizes (and
 * BEYOND), the one whose worst slowdown (thresholdCost) over all the runs'
 * points is the smallest; between equals, the one whose slowdowns add up to
 * less; then the smaller. runs: each run's points of one probe on one engine.
 */
export function bestBelow(runs, build) {
  let best = null;
  for (const below of [...CROSSOVER_SIZES, BEYOND]) {
    const slowdowns = runs.flatMap((points) => points.map((p) => thresholdCost([p], build, below)));
    const worst = Math.max(...slowdowns);
    const total = slowdowns.reduce((sum, v) => sum + v - 1, 0);
    if (best === null || worst < best.worst || (worst === best.worst && total < best.total)) best = { below, worst, total };
  }
  return best.below;
}

/** One build's crossover cell, and the cell of the table's value with its cost on the engine (the run's value too, where it differs). */
function against(points, build, measured, below, used, earlier) {
  const from = (n) => (n === null ? beyond : String(n));
  const text = `${from(measured)}${earlier === undefined ? '' : ` (before: ${from(earlier)})`}${measured === null ? ' (wasm never stayed ahead)' : ''}`;
  if (below === undefined) return { text, below: '–', cost: '–' };
  const cost = thresholdCost(points, build, below);
  return { text, below: `${below}${used !== undefined && used !== below ? ` (run: ${used})` : ''}`, cost: `${cost.toFixed(2)}x${cost > MATERIAL_COST ? ' **(> 2x)**' : ''}` };
}

/** The crossover table's rows: each probe against js/crossovers.js as it is now, for the engine's JS engine. */
function crossoverRows(engines, meta) {
  const rows = [];
  for (const e of engines.filter((r) => r.crossover)) {
    const table = e.env?.jsEngine ? jsBelowFor(e.env.jsEngine) : undefined;
    const used = meta.jsBelow?.[e.id];
    for (const c of e.crossover) {
      const key = probeName(c);
      const simd = against(c.points, 'wasm-simd', c.simdFrom, table && tableEntry(table, 'simd', c), used?.simd[key], c.earlier?.simdFrom);
      const scalar = against(c.points, 'wasm-scalar', c.scalarFrom, table && tableEntry(table, 'scalar', c), used?.scalar[key], c.earlier?.scalarFrom);
      rows.push({
        engine: e.engine, probe: key,
        'wasm-simd wins from': simd.text, 'JS_BELOW.simd': simd.below, 'simd: worst slowdown': simd.cost,
        'wasm-scalar wins from': scalar.text, 'JS_BELOW.scalar': scalar.below, 'scalar: worst slowdown': scalar.cost,
      });
    }
  }
  return rows;
}

/** The plain-text summary printed at the end of a run. */
function headline(engines) {
  const rows = headlineRows(engines);
  if (rows.length === 0 && !engines.some((e) => e.crossover)) return 'no engine gave a result';
  const out = [];
  if (rows.length) {
    const keys = Object.keys(rows[0]);
    const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => r[k].length)));
    out.push('At N = 4096 (speed of wasm-simd over wasm-scalar, over pure JS):', keys.map((k, i) => k.padEnd(widths[i])).join('  '));
    for (const r of rows) out.push(keys.map((k, i) => r[k].padEnd(widths[i])).join('  '));
  }
  for (const e of engines.filter((r) => r.crossover)) {
    out.push(`${e.engine}: crossovers (wasm-simd not behind pure JS from N =) ${e.crossover.map((c) => `${probeName(c)} ${c.simdFrom ?? beyond}`).join(', ')}`);
  }
  return out.join('\n');
}

/** RESULTS-engines.md in outDir from { meta, engines }: a run's, or results-engines.json's (`npm run bench -- --report`). */
export async function writeEnginesReport(outDir, { meta, engines }) {
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  writeFileSync(join(outDir, 'RESULTS-engines.md'), `${markdown(meta, engines)}\n`);
}

/** bench/RESULTS-engines.md. */
function markdown(meta, engines) {
  const out = [];
  out.push('# fastmp-wasm on every engine: wasm SIMD vs wasm scalar vs pure JS', '');
  out.push(`Produced by \`${meta.command}\` on ${meta.date} (${meta.mode} mode, ${meta.seconds.toFixed(0)} s for all engines, one after another)`
    + ` at commit ${meta.commit.slice(0, 12)}${meta.uncommitted.length ? ` with uncommitted changes to ${meta.uncommitted.join(', ')}` : ''}`
    + '. Rerun it to replace this file.', '');
  for (const r of meta.crossoverRuns ?? []) {
    out.push(`Crossover probes of ${r.engines.join(', ')} replaced by \`${r.command}\` on ${r.date} (${r.probes} probes, ${r.seconds.toFixed(0)} s)`
      + ` at commit ${r.commit.slice(0, 12)}${r.uncommitted.length ? ` with uncommitted changes to ${r.uncommitted.join(', ')}` : ''}`
      + `; 1-minute load average ${r.loadAverage.before.toFixed(2)} before, ${r.loadAverage.after.toFixed(2)} after.`, '');
  }
  if (meta.crossoversOnly) out.push('Crossover probes only (`--crossovers-only`): no timed cases.', '');
  if (meta.mode === 'quick') out.push('**Quick mode: short budgets for a smoke run; these numbers are not measurements.**', '');
  out.push(`Machine: ${meta.cpu}, ${meta.cores} cores (${meta.platform}); 1-minute load average ${meta.loadAverage.before.toFixed(2)} before the run, ${meta.loadAverage.after.toFixed(2)} after.`, '');
  out.push('How to read: each engine runs bench/engines-bench.js once, with three instances of the package side by side:',
    '`wasm-simd` and `wasm-scalar` (`createFastmp({ backend, pureJs: \'never\' })`: wasm at every size) and `pure-js`',
    '(`pureJs: \'always\'`). Times are per call, from `performance.now()` around batches of calls (at least 20 steps of',
    `the engine's clock), the contenders interleaved in ${BUDGETS[meta.mode].rounds} rounds of rotated order (a full GC before each where the runtime`,
    'offers one); a time is the median of the round medians, with their min..max. Ratios are speed-ups: the other',
    'contender\'s time / wasm-simd\'s time (above 1: wasm-simd is faster). Content: seeded random reals (float types),',
    'random ints of every magnitude up to the type\'s width (int types), random 0 / 1 (booleans), the same on every engine;',
    'the string probes\' text is BMP chars of several scripts or printable ASCII. Pages are served cross-origin isolated (COOP/COEP),',
    'so that the browsers\' clocks step in µs rather than 0.1-1 ms. "machine busy": the share of all cores\' time not idle while',
    `the engine ran; the bench itself keeps about one core busy (${(100 / meta.cores).toFixed(0)} % of ${meta.cores}), more means other work ran alongside it.`,
    `A full run waits up to ${QUIET_WAIT / 1000} s for a quiet machine before each engine, and runs an engine once more when the machine`,
    `was over ${BUSY_LIMIT * 100} % busy (within its first ${PATIENCE / 60_000} minutes), keeping the quieter run.`, '');
  out.push('## Engines', '');
  out.push(table(engines.map((e) => ({
    engine: e.engine,
    version: e.version ?? '–',
    'JS engine': e.jsEngine ?? '–',
    'clock step': e.env ? formatNs(e.env.timerResolutionNs) : '–',
    'cross-origin isolated': e.env?.crossOriginIsolated == null ? 'n/a' : e.env.crossOriginIsolated ? 'yes' : 'no',
    'GC between tasks': e.env ? (e.env.gc ? 'yes' : 'no') : '–',
    'machine busy': e.machineBusy === undefined ? '–' : `${percent(e.machineBusy)}${e.attempts?.length > 1 ? ` (ran twice: ${e.attempts.map((a) => percent(a.machineBusy)).join(', ')})` : ''}`,
    result: e.missing ? `missing: ${e.missing}` : e.error ? `error: ${e.error.split('\n')[0]}` : 'ok',
    time: e.seconds ? `${e.seconds.toFixed(0)} s` : '–',
  }))), '');
  const heads = headlineRows(engines);
  if (heads.length) {
    out.push('## At N = 4096', '', 'Speed of wasm-simd over wasm-scalar (SIMD÷scalar) and over pure JS (SIMD÷JS), same run per engine.', '');
    out.push(table(heads), '');
  }
  const cross = crossoverRows(engines, meta);
  if (cross.length) {
    out.push('## Pure-JS crossovers', '');
    out.push('A probe per entry of js/crossovers.js: pack and unpack of each element type (a Uint8Array as an array; booleans',
      'through packBool / unpackBool), and the ASN.1 string ops in chars (ASCII: the VisibleString functions).',
      `"wins from": the smallest N of {${CROSSOVER_SIZES.join(', ')}} from which wasm is never behind pure JS (its median within`,
      `${CROSSOVER_TOLERANCE}x of pure JS's, at that N and every larger one; "before:" the run this probe's run replaced, where`,
      'a crossovers-only run merged into the results). JS_BELOW: js/crossovers.js\'s value for the engine as',
      'the report was made ("run:" the value the engine\'s instances used in the run, where it differs); `auto` runs pure JS',
      'below it, the build from it. "worst slowdown": over those sizes, how much slower the path that JS_BELOW picks is than',
      `the faster of the two, at worst (1.00x: it always picks the faster; over ${MATERIAL_COST}x flagged).`, '');
    out.push(table(cross), '');
    out.push('Speed of wasm-simd over pure JS (pure-js time / wasm-simd time) at each N:', '');
    const withX = engines.filter((e) => e.crossover);
    const probed = [...new Set(withX.flatMap((e) => e.crossover.map(probeName)))];
    for (const key of probed) {
      out.push(`**${key}**`, '');
      out.push(table(CROSSOVER_SIZES.map((n) => {
        const row = { N: n };
        for (const e of withX) {
          const p = e.crossover.find((c) => probeName(c) === key)?.points.find((q) => q.n === n);
          row[e.engine] = p ? `${x(p.ns['pure-js'].median / p.ns['wasm-simd'].median)} (${formatNs(p.ns['wasm-simd'].median)} vs ${formatNs(p.ns['pure-js'].median)})` : '–';
        }
        return row;
      })), '');
    }
  }
  for (const e of engines.filter((r) => r.cases?.length)) {
    out.push(`## ${e.engine} ${e.version} (${e.jsEngine})`, '');
    out.push(table(e.cases.map((c) => ({
      case: `${c.op} ${c.type}`, N: c.n, 'msgpack bytes': c.bytes,
      'wasm-simd': spread(c.ns['wasm-simd']), 'wasm-scalar': spread(c.ns['wasm-scalar']), 'pure-js': spread(c.ns['pure-js']),
      'SIMD÷scalar': x(speedup(c, 'wasm-simd', 'wasm-scalar')), 'SIMD÷JS': x(speedup(c, 'wasm-simd', 'pure-js')),
    }))), '');
  }
  return out.join('\n');
}
