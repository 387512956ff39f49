// run.js - `npm run bench`: every operation fastmp has, at the seeds' sizes
// and contents, through every path (wasm SIMD, wasm scalar, pure JS, zero
// copy, what users get), against the peers, the same kernels compiled
// natively, msgpack-c and memcpy, all in one run. Writes bench/RESULTS.md,
// bench/results.json and bench/chart.svg (or into --out DIR); then the
// whole-message suite (bench/messages.js: a child process per memory regime),
// which writes RESULTS-messages.md and results-messages.json there.
//   node --expose-gc bench/run.js [--quick] [--out DIR] [--only REGEX] [--sizes N,N]
// --only / --sizes run a subset (matching operation names / element counts),
// for looking into one case; the outputs then hold only that subset. The
// messages suite runs when --only matches "messages" (`--only messages` runs
// it alone, all its tables) or when neither option is given. A part that runs
// no case leaves its outputs as they are.
//   npm run bench -- --engines[=node20,bun,...] [--quick] [--out DIR]
// runs only bench/engines-bench.js (wasm SIMD vs scalar vs pure JS on Node 20,
// 22, 24, Bun, Chromium and Firefox ESR): RESULTS-engines.md, results-engines.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPaths, medians } from './lib.js';
import { runMessages } from './messages.js';
import { runNativeBench } from './native.js';
import { formatNs, markdown, svg } from './report.js';
import { cases } from './suite.js';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const quick = process.argv.includes('--quick');
const outDir = arg('--out') ?? fileURLToPath(new URL('.', import.meta.url));
const only = arg('--only') === undefined ? null : new RegExp(arg('--only'));
const sizes = arg('--sizes')?.split(',').map(Number);
const started = Date.now();
const withMessages = only ? only.test('messages') : !sizes;
const engines = process.argv.find((a) => a === '--engines' || a.startsWith('--engines='));
if (engines) {
  const { runEngines } = await import('./engines-bench.js');
  process.exit(await runEngines({
    quick, outDir, ids: engines.includes('=') ? engines.slice('--engines='.length).split(',') : undefined,
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
  }));
}

/** Timing budget per case: short for smoke runs, longer for large inputs. */
function budget(n) {
  if (quick) return { time: 30, warmupTime: 10, rounds: 1, iterations: 4, warmupIterations: 2 };
  if (n >= 1 << 20) return { time: 900, warmupTime: 0, rounds: 3, iterations: 3, warmupIterations: 1 };
  if (n >= 4096) return { time: 240, warmupTime: 40 };
  return { time: 120, warmupTime: 20 };
}

const paths = await loadPaths();
const results = [];
const all = [...cases(paths, { quick })].filter((c) => (!only || only.test(c.group)) && (!sizes || sizes.includes(c.n)));
for (const [k, { make }] of all.entries()) {
  const c = make();
  c.check();
  const ns = Object.fromEntries(await medians(c.methods, budget(c.n)));
  for (const build of new Set(c.native.map((r) => r.build))) {
    const requests = c.native.filter((r) => r.build === build);
    const timed = runNativeBench(build, requests);
    requests.forEach((r, i) => {
      ns[r.name] = timed[i].ns;
      if (r.memcpy) ns.memcpy = timed[i].memcpyNs;
    });
  }
  const { group, op, type, n, size, content, wireBytes, baseline } = c;
  results.push({ group, op, type, n, size, content, wireBytes, baseline, ns });
  process.stderr.write(`[${k + 1}/${all.length}] ${group} ${size} ${content}: auto ${formatNs(ns.auto)}, ${baseline} ${formatNs(ns[baseline])}\n`);
}

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
if (all.length > 0) {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify({ meta, results }, null, 1)}\n`);
  writeFileSync(join(outDir, 'RESULTS.md'), `${markdown(results, meta)}\n`);
  writeFileSync(join(outDir, 'chart.svg'), `${svg(results)}\n`);
  process.stderr.write(`wrote ${join(outDir, 'RESULTS.md')}, results.json and chart.svg in ${meta.seconds.toFixed(0)} s\n`);
}
if (withMessages) await runMessages({ quick, outDir, command: meta.command });
