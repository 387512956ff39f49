// The engines benchmark's quick mode on one engine (Node 20, this Node when it
// is 20): `npm run bench -- --engines=node20 --quick` runs every contender,
// case and crossover size and writes both outputs, well formed. Speed is not
// asserted here: that is the benchmark's job (npm run bench -- --engines).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CROSSOVER_SIZES, CROSSOVER_TYPES, SIZES } from '../bench/engines-bench.js';
import { ROOT } from './helpers.js';

const out = mkdtempSync(join(tmpdir(), 'fastmp-bench-engines-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('bench --engines=node20 --quick writes RESULTS-engines.md and results-engines.json', () => {
  execFileSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'run.js'), '--engines=node20', '--quick', '--out', out],
    { stdio: 'pipe', timeout: 60_000 });
  const { meta, engines } = JSON.parse(readFileSync(join(out, 'results-engines.json'), 'utf8'));
  expect(meta.mode).toBe('quick');
  expect(meta.jsBelow.node20.simd['pack Float32Array']).toBeGreaterThan(0);
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
  for (const c of node.crossover) expect(c.points.map((p) => p.n)).toEqual(CROSSOVER_SIZES);
  const md = readFileSync(join(out, 'RESULTS-engines.md'), 'utf8');
  expect(md).toMatch(/not measurements/);
  expect(md).toMatch(/\| Node 20 20\.\d+\.\d+ \| \d+\.\d\dx \| \d+\.\d\dx \|/);
  expect(md).toMatch(/## Pure-JS crossovers\n/);
  expect(md).toMatch(/\| Node 20 \| unpack BigInt64Array \| /);
});
