// run.js - `npm run bench`: every operation fastmp has, at the sizes and
// contents of bench/suite.js, through every path (wasm SIMD, wasm scalar, pure
// JS, zero copy, what users get), against the peers, the same kernels compiled
// natively, msgpack-c and memcpy. It first prints what a fresh page costs on
// this machine (bench/lib.js pageFaultProbe), then runs the suite twice, each
// group of cases ("pack Float32Array": one operation on one type, every size
// and content) in a fresh child process of its own (runRegime): plain (glibc's
// defaults: freed memory goes back to the kernel, so a call that allocates a
// big output may fault its pages in again each time) and with freed memory kept
// (GLIBC_TUNABLES, bench/messages.js REGIMES). The targets are read from the
// kept-memory run, both figures shown; rows of one code path that disagree are
// flagged (bench/report.js flags). Writes bench/RESULTS.md, bench/results.json
// and bench/chart.svg (or into --out DIR); then the whole-message suite
// (bench/messages.js: a child process per table and memory regime), which
// writes RESULTS-messages.md and results-messages.json there.
//   node --expose-gc bench/run.js [--quick] [--out DIR] [--only REGEX] [--sizes N,N] [--regime plain|kept|both]
// --only / --sizes run a subset (matching operation names / element counts),
// for looking into one case; the outputs then hold only that subset. The
// messages suite runs when --only matches "messages" (`--only messages` runs
// it alone, all its tables) or when neither option is given. A part that runs
// no case leaves its outputs as they are. --child --list writes a regime's
// page-fault probe and its cases' groups, --child --group NAME times one
// group's cases in this process; each writes its JSON to the file the parent
// reads (FASTMP_BENCH_RESULT).
//   npm run bench -- --engines[=node20,bun,...] [--quick] [--crossovers-only] [--probes=REGEX] [--out DIR]
// runs only bench/engines-bench.js (wasm SIMD vs scalar vs pure JS on Node 20,
// 22, 24, Bun, Chromium and Firefox ESR): RESULTS-engines.md, results-engines.json.
// --crossovers-only / --probes=REGEX run only its crossover probes (all / those
// whose name matches), merged into the results file in DIR (bench/engines-bench.js).
//   npm run bench -- --report [--out DIR]
// times nothing: it makes the reports again (RESULTS*.md, chart.svg, and the
// README's tables from a full run's bench/results.json) from the result files
// in DIR, which hold what the reports print from (bench/results-json.js).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKernels, loadPaths, pageFaultProbe, timeRounds } from './lib.js';
import { REGIMES, runMessages, writeMessagesReport } from './messages.js';
import { runNativeBench } from './native.js';
import { flags, formatNs, markdown, probeLine, readmeTables, svg, withReadmeTables } from './report.js';
import { writeResults } from './results-json.js';
import { cases } from './suite.js';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const quick = process.argv.includes('--quick');
const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const outDir = arg('--out') ?? BENCH_DIR;
const only = arg('--only') === undefined ? null : new RegExp(arg('--only'));
const sizes = arg('--sizes')?.split(',').map(Number);
const started = Date.now();
const withMessages = only ? only.test('messages') : !sizes;
if (process.argv.includes('--report')) process.exit(await report(outDir));
const engines = process.argv.find((a) => a === '--engines' || a.startsWith('--engines='));
if (engines) {
  const { runEngines } = await import('./engines-bench.js');
  process.exit(await runEngines({
    quick, outDir, ids: engines.includes('=') ? engines.slice('--engines='.length).split(',') : undefined,
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
  }));
}

/**
 * Timing budget per case: 5 rounds (the spread is their range), short for
 * smoke runs. `time` is per task over all rounds. How long a full run of
 * both regimes took with these is in RESULTS.md (its first line, and each
 * regime's seconds).
 */
function budget(n) {
  if (quick) return { time: 10, warmupTime: 2, rounds: 2, iterations: 4, warmupIterations: 2 };
  if (n >= 1 << 20) return { time: 1500, warmupTime: 0, rounds: 5, iterations: 2, warmupIterations: 1 };
  if (n >= 4096) return { time: 150, warmupTime: 8, rounds: 5 };
  return { time: 80, warmupTime: 4, rounds: 5 };
}

/** One case's native rows, from the harness of each build it names. */
function timeNative(native, ns) {
  for (const build of new Set(native.map((r) => r.build))) {
    const requests = native.filter((r) => r.build === build);
    const timed = runNativeBench(build, requests);
    requests.forEach((r, i) => {
      ns[r.name] = timed[i].ns;
      if (r.memcpy) ns[r.memcpy] = timed[i].memcpyNs;
    });
  }
}

/** The cases that --only and --sizes keep, in the suite's order (their make() needs `paths` and `kernels`). */
const selectedCases = (paths, kernels) => [...cases(paths, { quick, kernels })].filter((c) => (!only || only.test(c.group)) && (!sizes || sizes.includes(c.n)));

/**
 * --child --list, first in a regime: what a fresh page costs in a process of
 * it, and the group ("pack Float32Array", ...) of each case kept, in order.
 */
function listChild() {
  return { probe: pageFaultProbe(), groups: selectedCases(null, null).map((c) => c.group) };
}

/** --child --group NAME: the kept cases of one group, in this process: { seconds, loadavg, results }. */
async function runChild(group) {
  const paths = await loadPaths();
  const kernels = await loadKernels();
  const results = [];
  const all = selectedCases(paths, kernels).filter((c) => c.group === group);
  if (all.length === 0) throw new Error(`--group: no case of a group named ${group}`);
  const regime = process.env.FASTMP_BENCH_REGIME ?? 'this process';
  for (const [k, { make }] of all.entries()) {
    const c = make();
    const timing = { ...budget(c.n), batch: quick ? 1 : c.batch };
    let timed;
    try {
      c.check();
      timed = await timeRounds(c.methods, timing);
    } finally {
      c.dispose?.();
    }
    const ns = {};
    const spread = {};
    for (const [name, t] of timed) {
      ns[name] = t.median;
      spread[name] = [t.min, t.max];
    }
    timeNative(c.native, ns);
    const { group, op, type, n, size, content, wireBytes, baseline } = c;
    // rounds: how many round medians each timed figure summarises (every method runs in every round).
    results.push({ group, op, type, n, size, content, wireBytes, baseline, ns, spread, rounds: timing.rounds, pid: process.pid });
    process.stderr.write(`[${regime} ${k + 1}/${all.length}] ${group} ${size} ${content}: auto ${formatNs(ns.auto)}, ${baseline} ${formatNs(ns[baseline])}\n`);
  }
  return { seconds: (Date.now() - started) / 1000, loadavg: os.loadavg(), results };
}

/**
 * This script with --child and `childArgs` in a node process of its own, in
 * `regime` (its GLIBC_TUNABLES). Its JSON comes back through a file
 * (FASTMP_BENCH_RESULT), not its stdout: a full run's stdout once arrived
 * corrupted in the middle of its JSON, losing the regime's measurements. On a
 * bad file the text is kept for a look.
 */
function spawnChild(regime, childArgs) {
  const resultFile = join(mkdtempSync(join(os.tmpdir(), 'fastmp-bench-')), `${regime}.json`);
  const env = { ...process.env, FASTMP_BENCH_REGIME: regime, FASTMP_BENCH_RESULT: resultFile };
  delete env.GLIBC_TUNABLES;
  if (REGIMES[regime].env) env.GLIBC_TUNABLES = REGIMES[regime].env;
  const args = ['--expose-gc', fileURLToPath(import.meta.url), '--child', ...process.argv.slice(2), ...childArgs];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the ${regime} process (${childArgs.join(' ')}) exited with ${code}`));
      const text = readFileSync(resultFile, 'utf8');
      try {
        resolve(JSON.parse(text));
        rmSync(dirname(resultFile), { recursive: true, force: true });
      } catch (e) {
        reject(new Error(`the ${regime} process (${childArgs.join(' ')}) wrote ${text.length} chars of bad JSON (${e.message}); kept in ${resultFile}`));
      }
      return undefined;
    });
  });
}

/**
 * One regime: { probe, seconds, loadavg, results }, each group's cases in a
 * fresh node process of its own, as a harness that times one operation on
 * one type would run them: in one process shared by all groups, the cases
 * before make a peer's code polymorphic (other types, other value ranges),
 * and its rows then depend on the suite's order. The results come back in
 * the suite's order.
 */
async function runRegime(regime) {
  const { probe, groups } = await spawnChild(regime, ['--list']);
  const byGroup = new Map();
  let seconds = 0;
  let loadavg = null;
  for (const group of new Set(groups)) {
    const one = await spawnChild(regime, ['--group', group]);
    seconds += one.seconds;
    loadavg = one.loadavg;
    byGroup.set(group, one.results);
  }
  return { probe, seconds, loadavg, results: groups.map((group) => byGroup.get(group).shift()) };
}

/**
 * RESULTS.md and chart.svg in dir, and the README's tables for a full run
 * written to bench/, from { meta, regimes }: a run's, or results.json's (--report).
 */
function writeSuiteReport(dir, { meta, regimes }) {
  writeFileSync(join(dir, 'RESULTS.md'), `${markdown(regimes, meta, flags(regimes))}\n`);
  writeFileSync(join(dir, 'chart.svg'), `${svg((regimes.kept ?? regimes.plain).results)}\n`);
  // A full run committed to bench/ is what the README quotes: its tables follow (bench/report.js readmeTables).
  if (meta.mode === 'full' && dir === BENCH_DIR) {
    const readme = fileURLToPath(new URL('../README.md', import.meta.url));
    const before = readFileSync(readme, 'utf8');
    const after = withReadmeTables(before, readmeTables({ meta, regimes }));
    if (after !== before) {
      writeFileSync(readme, after);
      process.stderr.write('wrote the README\'s benchmark tables\n');
    }
  }
}

/**
 * --report: the reports again from the result files in dir, nothing timed:
 * RESULTS.md, chart.svg and the README's tables (writeSuiteReport) from
 * results.json, RESULTS-messages.md from results-messages.json,
 * RESULTS-engines.md from results-engines.json, each where its file is.
 * Returns the exit status: 1 when dir holds none of them.
 */
async function report(dir) {
  const read = (name) => (existsSync(join(dir, name)) ? JSON.parse(readFileSync(join(dir, name), 'utf8')) : undefined);
  const [suite, messages, engines] = ['results.json', 'results-messages.json', 'results-engines.json'].map(read);
  if (suite) writeSuiteReport(dir, suite);
  if (messages) writeMessagesReport(dir, messages);
  if (engines) await (await import('./engines-bench.js')).writeEnginesReport(dir, engines);
  process.stderr.write(suite || messages || engines ? `wrote the reports of the result files in ${dir}\n` : `no result file in ${dir}\n`);
  return suite || messages || engines ? 0 : 1;
}

if (process.argv.includes('--child')) {
  const result = process.argv.includes('--list') ? listChild() : await runChild(arg('--group'));
  writeFileSync(process.env.FASTMP_BENCH_RESULT, `${JSON.stringify(result)}\n`);
  process.exit(0);
}

// ---- the parent: the probe, both regimes, the report --------------------------------

const firstLine = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } }).split('\n')[0].trim();
  } catch {
    return 'unknown';
  }
};
const cpuFlags = (() => {
  try {
    const flags = new Set(readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)[1].trim().split(/\s+/));
    return ['sse2', 'ssse3', 'sse4_1', 'sse4_2', 'avx', 'avx2', 'avx512f', 'avx512bw', 'avx512vbmi'].filter((f) => flags.has(f)).join(' ');
  } catch {
    return 'unknown';
  }
})();
process.stderr.write(`page-fault probe, this process (plain): ${probeLine(pageFaultProbe())}\n`);
// Kept memory first: its figures are the targets', and it is the regime less
// sensitive to what ran before.
const wanted = arg('--regime') ?? 'both';
if (wanted !== 'both' && !REGIMES[wanted]) throw new Error(`--regime: plain, kept or both, not ${wanted}`);
const regimes = {};
for (const regime of wanted === 'both' ? ['kept', 'plain'] : [wanted]) {
  regimes[regime] = await runRegime(regime);
  process.stderr.write(`${regime}: ${regimes[regime].results.length} cases in ${regimes[regime].seconds.toFixed(0)} s; page-fault probe: ${probeLine(regimes[regime].probe)}\n`);
}
const meta = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : only || sizes ? 'subset' : 'full',
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  seconds: (Date.now() - started) / 1000,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  flags: cpuFlags,
  node: process.version,
  v8: process.versions.v8,
  emcc: firstLine('emcc', ['--version']),
  gcc: firstLine('gcc', ['--version']),
  nativeFlags: '-O3 -march=x86-64-v2 (SIMD through SIMDe)',
};
const cased = Object.values(regimes).some((r) => r.results.length > 0);
if (cased) {
  const found = flags(regimes);
  for (const f of found) process.stderr.write(`FLAG [${f.regime}] ${f.rule}: ${f.what}\n`);
  mkdirSync(outDir, { recursive: true });
  // A case per line; the targets and flags are not stored: the report makes them from the cases.
  writeSuiteReport(outDir, writeResults(join(outDir, 'results.json'), { meta, regimes }, 4));
  process.stderr.write(`wrote ${join(outDir, 'RESULTS.md')}, results.json and chart.svg in ${meta.seconds.toFixed(0)} s\n`);
}
if (withMessages) await runMessages({ quick, outDir, command: meta.command });
