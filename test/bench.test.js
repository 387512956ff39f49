// The benchmark's quick mode (CI smoke): `npm run bench -- --quick` runs every
// kind of path (wasm, pure JS, zero-copy, native, peers) in both memory
// regimes and writes the three outputs, well formed: the page-fault probe, each
// time's spread over the rounds, the targets of both regimes, the flags; and
// --report makes the committed reports again from the committed results.
// Speed is not asserted here: that is the benchmark's job.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { verdict } from '../bench/compare.js';
import { flags, targets } from '../bench/report.js';
import { ROOT } from './helpers.js';

const out = mkdtempSync(join(tmpdir(), 'fastmp-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('bench --quick writes RESULTS.md, results.json and chart.svg, both memory regimes, spreads and flags', () => {
  execFileSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'run.js'), '--quick', '--out', out], { stdio: 'pipe' });
  const { meta, regimes, ...rest } = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
  expect(meta.mode).toBe('quick');
  // The file holds the cases; the targets and flags are the report's, made from them.
  expect(Object.keys(rest)).toEqual([]);
  expect(Object.keys(regimes).sort()).toEqual(['kept', 'plain']);
  for (const { probe, results } of Object.values(regimes)) {
    for (const cost of ['firstWrite', 'rewrite', 'churn']) expect(probe[cost]).toBeGreaterThan(0);
    expect(new Set(results.map((r) => r.group))).toEqual(new Set([
      'pack Float32Array', 'unpack Float32Array', 'pack Int32Array', 'unpack Int32Array', 'pack boolean', 'unpack boolean',
      'encode BMPString', 'decode BMPString',
    ]));
    // Each group's cases ran in a fresh process of their own, and come back in the suite's order (each type's pack, then its unpack, by size).
    const pids = new Map(results.map((r) => [r.group, r.pid]));
    expect(new Set(pids.values()).size).toBe(pids.size);
    for (const r of results) expect(r.pid, r.group).toBe(pids.get(r.group));
    expect(results.slice(0, 4).map((r) => `${r.group} ${r.n}`)).toEqual([
      'pack Float32Array 16', 'unpack Float32Array 16', 'pack Float32Array 4096', 'unpack Float32Array 4096',
    ]);
    const f32 = results.find((r) => r.group === 'pack Float32Array' && r.n === 4096);
    for (const method of ['wasm-simd', 'wasm-scalar', 'pure-js', 'auto', 'zero-copy simd', 'zero-copy scalar', 'kernel simd', 'kernel scalar',
      'JS loop', 'DataView loop',
      '@msgpack/msgpack incl. copy loop', '@msgpack/msgpack, values pre-converted', 'msgpackr incl. copy loop',
      'msgpackr, values pre-converted', 'memcpy', 'native simd', 'native scalar', 'msgpack-c', 'native memcpy']) {
      expect(f32.ns[method], method).toBeGreaterThan(0);
    }
    expect(f32.baseline).toBe('JS loop');
    expect(f32.wireBytes).toBe(3 + 5 * 4096);
    // Every timed method: the range of its round medians around their median (the native rows have none), and how many rounds.
    const [min, max] = f32.spread.auto;
    expect(min).toBeLessThanOrEqual(f32.ns.auto);
    expect(max).toBeGreaterThanOrEqual(f32.ns.auto);
    expect(f32.rounds).toBe(2);
    expect(f32.spread['native simd']).toBeUndefined();
    // Booleans have a zero-copy path both ways (packBoolView, an alloc() input to unpackBool).
    for (const op of ['pack', 'unpack']) {
      const bools = results.find((r) => r.group === `${op} boolean` && r.n === 4096);
      for (const method of ['zero-copy simd', 'zero-copy scalar', 'kernel simd', 'kernel scalar']) expect(bools.ns[method], `${op} boolean ${method}`).toBeGreaterThan(0);
    }
  }
  expect(targets(regimes).find((t) => t.target.startsWith('pack Float32Array at 4096, copying API'))).toMatchObject({
    'kept memory': expect.stringMatching(/^\d+\.\d\dx$/), 'plain process': expect.stringMatching(/^\d+\.\d\dx$/),
  });
  expect(Array.isArray(flags(regimes))).toBe(true);
  const md = readFileSync(join(out, 'RESULTS.md'), 'utf8');
  expect(md).toMatch(/## Targets/);
  expect(md).toMatch(/\| pack Float32Array at 4096, copying API ≥ 3x the best JS alternative \| \d+\.\d\dx \| \d+\.\d\dx \| (yes|no) \|/);
  expect(md).toMatch(/## Flags: rows of one code path that disagree\n/);
  expect(md).toMatch(/\| page cost, kept memory \| first write to a fresh page /);
  expect(md).toMatch(/\| 4096 \| random \| kept memory \| 20483 \| [\d.]+ (ns|µs) −\d+\/\+\d+% \(/);
  expect(md).toMatch(/\| 4096 \| random \| plain process \| 20483 \|/);
  expect(md).toMatch(/## encode BMPString/);
  const svg = readFileSync(join(out, 'chart.svg'), 'utf8');
  expect(svg.startsWith('<svg')).toBe(true);
  expect(svg.match(/<polyline /g).length).toBeGreaterThan(20);
});

// The committed reports are made from the committed result files alone
// (`npm run bench -- --report`): the files keep every figure the reports print.
test('bench --report makes the committed RESULTS*.md and chart.svg again from the committed results*.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-bench-report-'));
  try {
    for (const file of ['results.json', 'results-messages.json', 'results-engines.json']) copyFileSync(join(ROOT, 'bench', file), join(dir, file));
    execFileSync(process.execPath, [join(ROOT, 'bench', 'run.js'), '--report', '--out', dir], { stdio: 'pipe' });
    for (const file of ['RESULTS.md', 'chart.svg', 'RESULTS-messages.md', 'RESULTS-engines.md']) {
      expect(readFileSync(join(dir, file), 'utf8') === readFileSync(join(ROOT, 'bench', file), 'utf8'), `bench/${file}: rerun npm run bench -- --report`).toBe(true);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bench/unpack-stages.js times every stage in both regimes, its compositions checked against unpack()', () => {
  // 64 K floats: 320 KB of msgpack, past UNPACK_CHUNK.from, so unpack() runs chunked.
  const text = execFileSync(process.execPath, [join(ROOT, 'bench', 'unpack-stages.js'), '--n=65536', '--rounds=1'], { encoding: 'utf8' });
  // The table's rows: not its header ('| | kept ...') nor its rule ('|---').
  const rows = text.split('\n').filter((l) => /^\| [^| ]/.test(l)).map((l) => l.split('|').map((c) => c.trim()).filter(Boolean));
  expect(rows.map((r) => r[0])).toEqual([
    'unpack() (SIMD build)', 'unpack(), whole', 'DataView loop', 'copy in', 'kernel', 'fresh output',
    'copy out, fresh output', 'copy out, reused output', 'in + kernel + out, reused output',
  ]);
  for (const [, kept, keptRatio, plain, plainRatio] of rows) {
    for (const time of [kept, plain]) expect(time).toMatch(/^[\d.]+ (ns|µs|ms) \([\d.]+ (ns|µs|ms)\.\.[\d.]+ (ns|µs|ms)\)$/);
    for (const ratio of [keptRatio, plainRatio]) expect(Number.parseFloat(ratio)).toBeGreaterThan(0);
  }
});

test('bench/compare.js times each case of two checkouts in processes of their own and reports every one', () => {
  const list = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bench', 'compare.js'), '--child', ROOT, '--list'], { encoding: 'utf8' }));
  for (const id of ['W1', 'W2', 'W3', 'W4']) expect(list).toEqual(expect.arrayContaining([`${id} encode`, `${id} decode`]));
  expect(list).toEqual(expect.arrayContaining(['pack f32 4096', 'unpack f32 4096', 'pack i32 4096', 'unpack i32 4096',
    'pack i32 16', 'packView alloc i32 16', 'packView alloc i32 4096']));
  // The checkout against itself: two cases, two rounds, short warm-ups.
  const json = join(out, 'compare.json');
  const text = execFileSync(process.execPath, [join(ROOT, 'bench', 'compare.js'), ROOT, ROOT, '--rounds', '2', '--time', '20',
    '--only', '^(W3 decode|unpack u8 4096)$', '--json', json], { encoding: 'utf8' });
  const { times } = JSON.parse(readFileSync(json, 'utf8'));
  expect(Object.keys(times)).toEqual(['W3 decode', 'unpack u8 4096']);
  for (const { old, new: now } of Object.values(times)) {
    for (const ns of [...old, ...now]) expect(ns).toBeGreaterThan(0);
    expect([old.length, now.length]).toEqual([2, 2]);
  }
  const rows = text.split('\n').filter((l) => /^\| (W3|unpack)/.test(l));
  expect(rows).toHaveLength(2);
  // Two rounds are too few for a verdict.
  for (const row of rows) expect(row).toMatch(/\| [\d.]+ \| no verdict below 5 rounds \|$/);
  // --together: both checkouts in one process a round (here the same directory twice, so one set of modules).
  const pairJson = join(out, 'compare-together.json');
  const together = execFileSync(process.execPath, [join(ROOT, 'bench', 'compare.js'), ROOT, ROOT, '--rounds', '2', '--time', '20',
    '--only', '^W3 decode$', '--together', '--json', pairJson], { encoding: 'utf8' });
  expect(together).toMatch(/both checkouts in one process a round/);
  const paired = JSON.parse(readFileSync(pairJson, 'utf8'));
  expect(paired.together).toBe(true);
  for (const ns of [...paired.times['W3 decode'].old, ...paired.times['W3 decode'].new]) expect(ns).toBeGreaterThan(0);
  expect([paired.times['W3 decode'].old.length, paired.times['W3 decode'].new.length]).toEqual([2, 2]);
  expect([[0.9, 0.8, 0.99, 0.95, 0.9], [1.1, 1.01, 1.2, 1.3, 1.05], [0.9, 1.1, 0.9, 0.9, 0.9], [0.5, 0.5, 0.5, 0.5]].map(verdict)).toEqual([
    'new faster every round', 'new slower every round', 'mixed', 'no verdict below 5 rounds',
  ]);
});

test('bench/startup.js times import + first encode of fastmp (what `import \'fastmp-wasm\'` loads in Node) and the peers, each in fresh processes', () => {
  const md = join(out, 'startup.md');
  const text = execFileSync(process.execPath, [join(ROOT, 'bench', 'startup.js'), '--rounds', '1', '--out', md], { encoding: 'utf8' });
  const rows = text.split('\n').filter((l) => /^\| (fastmp|@msgpack\/msgpack|msgpackr|node alone) \|/.test(l));
  expect(rows.map((r) => r.split(' | ')[0].slice(2))).toEqual(['fastmp', '@msgpack/msgpack', 'msgpackr', 'node alone']);
  // Every library wrote the same small message (msgpackr: its own map form) and was timed.
  for (const row of rows.slice(0, 2)) expect(row).toMatch(/^\| [^|]+ \| 18 \| [\d.]+ \([\d.]+–[\d.]+\) \| [\d.]+ /);
  expect(text).toMatch(/fastmp: [\d.]+ ms ÷ [\d.]+ ms = \*\*[\d.]+×\*\* @msgpack\/msgpack's import \+ first encode/);
  expect(readFileSync(md, 'utf8')).toContain('| fastmp | 18 |');
});
