// The engines benchmark's quick mode on one engine (Node 20, this Node when it
// is 20): `npm run bench -- --engines=node20 --quick` runs every contender,
// case, crossover probe and size and writes both outputs, well formed; a
// crossovers-only run of one probe then merges into them. Speed is not
// asserted here: that is the benchmark's job (npm run bench -- --engines).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import {
  BEYOND, CROSSOVER_SIZES, CROSSOVER_TYPES, PROBES, SIZES, STRING_PROBES, bestBelow, benchFlags, jsBelowOfTypes, tableEntry, thresholdCost,
} from '../bench/engines-bench.js';
import { jsBelowFor } from '../js/crossovers.js';
import { BOOL, KINDS } from '../js/kinds.js';
import { ROOT } from './helpers.js';

const out = mkdtempSync(join(tmpdir(), 'fastmp-bench-engines-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const name = (c) => `${c.op} ${c.type}`;
const bench = (...args) => execFileSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'run.js'), ...args, '--out', out], { stdio: 'pipe', timeout: 60_000 });

test('the probes: pack and unpack of every kernel type of js/kinds.js and the booleans, the string ops; each names an entry of every table', () => {
  expect(CROSSOVER_TYPES).toEqual([...new Set([...KINDS, BOOL].map((k) => k.c))].map((c) => [...KINDS, BOOL].find((k) => k.c === c).name));
  expect(PROBES.map(name)).toEqual([...CROSSOVER_TYPES.flatMap((type) => [`pack ${type}`, `unpack ${type}`]), ...STRING_PROBES.map(name)]);
  for (const engine of ['v8', 'jsc', 'spidermonkey']) {
    const table = jsBelowFor(engine);
    for (const backend of ['simd', 'scalar']) for (const probe of PROBES) expect(tableEntry(table, backend, probe), `${engine} ${backend} ${name(probe)}`).toBeGreaterThanOrEqual(1);
  }
  expect(benchFlags(['--quick'])).toEqual({ quick: true, crossoversOnly: false, probes: null });
  expect(benchFlags(['--probes=^pack'])).toEqual({ quick: false, crossoversOnly: true, probes: '^pack' });
});

test('bench --engines=node20 --quick writes RESULTS-engines.md and results-engines.json', () => {
  bench('--engines=node20', '--quick');
  const { meta, engines } = JSON.parse(readFileSync(join(out, 'results-engines.json'), 'utf8'));
  expect(meta.mode).toBe('quick');
  // The table the engine's own instances used (js/crossovers.js on that engine).
  expect(meta.jsBelow.node20).toEqual(jsBelowOfTypes(jsBelowFor('v8')));
  expect(meta.jsBelow.node20.simd['pack Float32Array']).toBe(jsBelowFor('v8').simd.pack.f32);
  expect(engines.map((e) => e.id)).toEqual(['node20']);
  const [node] = engines;
  expect(node.version).toMatch(/^20\./);
  expect(node.env.backends).toEqual({ 'wasm-simd': 'simd', 'wasm-scalar': 'scalar', 'pure-js': 'simd' });
  expect(node.cases).toHaveLength(2 * 2 * SIZES.length);
  for (const c of node.cases) {
    for (const name of ['wasm-simd', 'wasm-scalar', 'pure-js']) {
      const t = c.ns[name];
      expect(t.min <= t.median && t.median <= t.max && t.min > 0, `${c.op} ${c.type} ${c.n} ${name}`).toBe(true);
    }
  }
  expect(node.cases.find((c) => c.type === 'Float32Array' && c.op === 'pack' && c.n === 4096).bytes).toBe(3 + 5 * 4096);
  expect(node.crossover.map(name)).toEqual(PROBES.map(name));
  for (const c of node.crossover) {
    expect(c.points.map((p) => p.n)).toEqual(CROSSOVER_SIZES);
    // A probe's point keeps its medians: what crossoverOf() and thresholdCost() read.
    for (const p of c.points) for (const name of ['wasm-simd', 'wasm-scalar', 'pure-js']) expect(p.ns[name].median, `${c.op} ${c.type} ${p.n} ${name}`).toBeGreaterThan(0);
  }
  const md = readFileSync(join(out, 'RESULTS-engines.md'), 'utf8');
  expect(md).toMatch(/not measurements/);
  expect(md).toMatch(/\| Node 20 20\.\d+\.\d+ \| \d+\.\d\dx \| \d+\.\d\dx \|/);
  expect(md).toMatch(/## Pure-JS crossovers\n/);
  expect(md).toMatch(/\| Node 20 \| unpack BigInt64Array \| /);
  expect(md).toMatch(/\| Node 20 \| decodeBMP ASCII text \| /);

  // A crossovers-only run of one probe merges into those files: that probe replaced, the rest kept.
  bench('--engines=node20', '--quick', '--probes=^unpack boolean$');
  const merged = JSON.parse(readFileSync(join(out, 'results-engines.json'), 'utf8'));
  expect(merged.meta.date).toBe(meta.date);
  expect(merged.meta.crossoverRuns.map((r) => [r.engines, r.probes])).toEqual([[['node20'], 1]]);
  const [again] = merged.engines;
  expect(again.cases).toEqual(node.cases);
  expect(again.crossover.map(name)).toEqual(PROBES.map(name));
  for (const [i, c] of again.crossover.entries()) {
    if (name(c) === 'unpack boolean') expect(c.points).not.toEqual(node.crossover[i].points);
    else expect(c).toEqual(node.crossover[i]);
  }
  expect(readFileSync(join(out, 'RESULTS-engines.md'), 'utf8')).toMatch(/Crossover probes of node20 replaced by `npm run bench -- --engines=node20 --quick --probes=\^unpack boolean\$/);
});

test('thresholdCost: the worst slowdown of the path a threshold picks against the faster one', () => {
  const point = (n, js, wasm) => ({ n, ns: { 'pure-js': { median: js }, 'wasm-simd': { median: wasm } } });
  // JS faster below 64, wasm from 64 on.
  const points = [point(16, 100, 300), point(32, 200, 300), point(64, 400, 300), point(128, 800, 400)];
  expect(thresholdCost(points, 'wasm-simd', 64)).toBe(1); // always the faster
  expect(thresholdCost(points, 'wasm-simd', 1)).toBe(3); // wasm at 16: 300 vs 100
  expect(thresholdCost(points, 'wasm-simd', 32)).toBe(1.5); // wasm at 32: 300 vs 200
  expect(thresholdCost(points, 'wasm-simd', 129)).toBe(2); // pure JS at 128: 800 vs 400
});

test('bestBelow: the size whose worst slowdown over every run is the smallest', () => {
  const point = (n, js, wasm) => ({ n, ns: { 'pure-js': { median: js }, 'wasm-simd': { median: wasm } } });
  const run = (...pairs) => CROSSOVER_SIZES.map((n, i) => point(n, ...pairs[i]));
  const js = (n) => [n, n * 2]; // wasm twice as slow
  const wasm = (n) => [n * 2, n]; // twice as fast
  const sizes = CROSSOVER_SIZES;
  // Wasm from 64 on in one run, from 96 on in the other: 64 costs the other run 2x at 64, 96 this one 2x at 64.
  const a = run(...sizes.map((n) => (n < 64 ? js(n) : wasm(n))));
  const b = run(...sizes.map((n) => (n < 96 ? js(n) : wasm(n))));
  expect(bestBelow([a], 'wasm-simd')).toBe(64);
  expect(bestBelow([b], 'wasm-simd')).toBe(96);
  expect(bestBelow([a, b], 'wasm-simd')).toBe(64); // a tie: the smaller
  // Near-equal at 64 in the second run: 96 costs run a 2x, 64 costs run b 1.05x.
  const c = run(...sizes.map((n) => (n < 64 ? js(n) : n === 64 ? [n, n * 1.05] : wasm(n))));
  expect(bestBelow([a, c], 'wasm-simd')).toBe(64);
  expect(bestBelow([run(...sizes.map(js))], 'wasm-simd')).toBe(BEYOND); // wasm never ahead
  expect(bestBelow([run(...sizes.map(wasm))], 'wasm-simd')).toBe(1);
});
