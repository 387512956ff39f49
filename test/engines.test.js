// engines.test.js - the API's behaviour checks on every engine users run
// (test/engines/run.js: Node 22 and 24, Bun, Chromium, Firefox ESR), each
// engine's bytes for a fixed corpus against Node 20's. Check only: nothing
// is written (npm run test:engines writes the results and the README table).
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from './helpers.js';

test('every engine passes every behaviour check and writes the same bytes as Node 20', () => {
  let out;
  try {
    out = execFileSync(process.execPath, ['test/engines/run.js', '--no-write'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`test/engines/run.js failed:\n${e.stdout}\n${e.stderr}`, { cause: e });
  }
  expect(out).toMatch(/^engines: 6 passed, 0 failed$/m);
});
