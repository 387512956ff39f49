// The benchmark's quick mode (CI smoke): `npm run bench -- --quick` runs every
// kind of path (wasm, pure JS, zero-copy, native, peers) and writes the three
// outputs, well formed. Speed is not asserted here: that is the benchmark's job.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from './helpers.js';

const out = mkdtempSync(join(tmpdir(), 'fastmp-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('bench --quick writes RESULTS.md, results.json and chart.svg', () => {
  execFileSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'run.js'), '--quick', '--out', out], { stdio: 'pipe' });
  const { meta, results } = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
  expect(meta.mode).toBe('quick');
  expect(new Set(results.map((r) => r.group))).toEqual(new Set([
    'pack Float32Array', 'unpack Float32Array', 'pack Int32Array', 'unpack Int32Array', 'pack boolean', 'unpack boolean',
    'encode BMPString', 'decode BMPString',
  ]));
  const f32 = results.find((r) => r.group === 'pack Float32Array' && r.n === 4096);
  for (const method of ['wasm-simd', 'wasm-scalar', 'pure-js', 'auto', 'zero-copy simd', 'zero-copy scalar', 'DataView loop',
    '@msgpack/msgpack', 'msgpackr', 'native simd', 'native scalar', 'msgpack-c', 'memcpy']) {
    expect(f32.ns[method], method).toBeGreaterThan(0);
  }
  expect(f32.wireBytes).toBe(3 + 5 * 4096);
  const md = readFileSync(join(out, 'RESULTS.md'), 'utf8');
  expect(md).toMatch(/## Targets/);
  expect(md).toMatch(/\| pack Float32Array, copying API ≥ 3x DataView loop at 4096 \| \d+\.\d\dx \| (yes|no) \|/);
  expect(md).toMatch(/## encode BMPString/);
  const svg = readFileSync(join(out, 'chart.svg'), 'utf8');
  expect(svg.startsWith('<svg')).toBe(true);
  expect(svg.match(/<polyline /g).length).toBeGreaterThan(20);
});
