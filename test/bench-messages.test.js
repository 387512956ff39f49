// The whole-message benchmark's quick mode (bench/messages.js): both memory
// regimes run (a child process each), every workload's encode and decode
// table has every contender timed, every target gets a ratio and a verdict,
// and RESULTS-messages.md says which regime is which. Speed is not asserted here:
// that is the benchmark's job. The suite's own check (every contender gives
// the same numbers) runs before timing and would fail the run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { KEPT_TUNABLES, LINEAR, STREAM_CHUNKS, STREAM_SIZES, TARGETS, evaluate, evaluateLinear } from '../bench/messages.js';
import { ROOT } from './helpers.js';

const out = mkdtempSync(join(tmpdir(), 'fastmp-bench-messages-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('bench/messages.js --quick: both regimes, every row timed, every target evaluated', () => {
  execFileSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'messages.js'), '--quick', '--out', out], { stdio: 'pipe' });
  const { meta, regimes, ...rest } = JSON.parse(readFileSync(join(out, 'results-messages.json'), 'utf8'));
  expect(meta.mode).toBe('quick');
  // The file holds the rows; the targets are evaluated from them.
  expect(Object.keys(rest)).toEqual([]);
  const targets = evaluate(regimes);
  const linear = evaluateLinear(regimes);
  expect(Object.keys(regimes)).toEqual(['plain', 'kept']);
  for (const [regime, run] of Object.entries(regimes)) {
    const streams = STREAM_CHUNKS.flatMap((chunk) => STREAM_SIZES.map((size) => `S ${size >= 1e6 ? `${size / 1e6} MB` : `${size / 1e3} KB`}, ${chunk} B chunks`));
    expect(run.tables.map((t) => t.name)).toEqual(['W1 encode', 'W1 decode', 'W2 encode', 'W2 decode', 'W3 encode', 'W3 decode', 'W4 encode', 'W4 decode', ...streams]);
    // Each table in a fresh process of its own (no table's peers made polymorphic by another's).
    expect(new Set(run.tables.map((t) => t.pid)).size, regime).toBe(run.tables.length);
    for (const table of run.tables) {
      const name = `${regime} ${table.name}`;
      // fastmp: 2 + 4 paths, peers: 3 or more; a stream table: fastmp and @msgpack/msgpack
      expect(table.rows.length, name).toBeGreaterThanOrEqual(table.workload === 'S' ? 2 : 9);
      for (const r of table.rows) {
        const where = `${name}: ${r.name}`;
        expect(r.ns.length, where).toBeGreaterThan(0);
        for (const x of [...r.ns, r.median, r.min, r.max]) expect(Number.isFinite(x) && x > 0, where).toBe(true);
        if (table.op === 'encode') expect(r.bytes, where).toBeGreaterThan(0);
      }
      for (const ref of table.refs) expect(table.rows.some((r) => r.key === ref), `${name}: ratio column ${ref}`).toBe(true);
    }
  }
  expect(targets.filter((t) => t.goal !== undefined)).toHaveLength(TARGETS.length);
  expect(linear).toHaveLength(LINEAR.length);
  for (const l of linear) {
    for (const regime of ['plain', 'kept']) {
      expect(Number.isFinite(l.cells[regime].ratio?.value), `${l.what} (${regime})`).toBe(true);
      if (l.most !== undefined) expect(typeof l.cells[regime].met, l.what).toBe('boolean');
    }
  }
  for (const t of targets) {
    for (const regime of ['plain', 'kept']) {
      const { ratio, met } = t.cells[regime];
      expect(Number.isFinite(ratio?.value) && ratio.value > 0, `${t.what} (${regime})`).toBe(true);
      if (t.goal !== undefined) expect(typeof met, t.what).toBe('boolean');
    }
  }
  const md = readFileSync(join(out, 'RESULTS-messages.md'), 'utf8');
  expect(md).toMatch(/## Targets/);
  expect(md).toContain(`## kept: Kept memory (GLIBC_TUNABLES=${KEPT_TUNABLES})`);
  expect(md).toMatch(/## plain: Plain process/);
  expect(md.match(/\*\*(PASS|MISS)\*\*/g)).toHaveLength(2 * (TARGETS.length + LINEAR.filter((l) => l[4] !== undefined).length));
  expect(md).not.toMatch(/not measured|NaN|undefined/);
}, 60_000);
