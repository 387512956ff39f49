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
import { KEPT_TUNABLES, TARGETS } from '../bench/messages.js';
import { ROOT } from './helpers.js';

const out = mkdtempSync(join(tmpdir(), 'fastmp-bench-messages-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('bench/messages.js --quick: both regimes, every row timed, every target evaluated', () => {
  execFileSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'messages.js'), '--quick', '--out', out], { stdio: 'pipe' });
  const { meta, regimes, targets } = JSON.parse(readFileSync(join(out, 'results-messages.json'), 'utf8'));
  expect(meta.mode).toBe('quick');
  expect(Object.keys(regimes)).toEqual(['plain', 'kept']);
  for (const [regime, run] of Object.entries(regimes)) {
    expect(run.tables.map((t) => t.name)).toEqual(['W1 encode', 'W1 decode', 'W2 encode', 'W2 decode', 'W3 encode', 'W3 decode', 'W4 encode', 'W4 decode']);
    for (const table of run.tables) {
      const name = `${regime} ${table.name}`;
      expect(table.rows.length, name).toBeGreaterThanOrEqual(9); // fastmp: 2 + 4 paths; peers: 3 or more
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
  expect(md.match(/\*\*(PASS|MISS)\*\*/g)).toHaveLength(2 * TARGETS.length);
  expect(md).not.toMatch(/not measured|NaN|undefined/);
}, 60_000);
