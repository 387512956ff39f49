// The engines benchmark's quick mode on one engine (Node 20, this Node when it
// is 20): `npm run bench -- --engines=node20 --quick` runs every contender,
// case and crossover size and writes both outputs, well formed. Speed is not
// asserted here: that is the benchmark's job (npm run bench -- --engines).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CROSSOVER_SIZES, CROSSOVER_TYPES, SIZES, jsBelowOfTypes, thresholdCost } from '../bench/engines-bench.js';
import { jsBelowFor } from '../js/crossovers.js';
import { ROOT } from './helpers.js';

const out = mkdtempSync(join(tmpdir(), 'fastmp-bench-engines-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('bench --engines=node20 --quick writes RESULTS-engines.md and results-engines.json', () => {
  execFileSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'run.js'), '--engines=node20', '--quick', '--out', out],
    { stdio: 'pipe', timeout: 60_000 });
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
  expect(node.crossover.map((c) => `${c.op} ${c.type}`)).toEqual(CROSSOVER_TYPES.flatMap((type) => [`pack ${type}`, `unpack ${type}`]));
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
