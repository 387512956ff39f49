// Guard pages: c/harness/fm_guard.c runs every kernel (packers, decoders with
// and without integral floats, BMP / IA5 / Visible / Printable / Numeric encode, decode, check, in
// place, DER read and write, BMP narrow to 0x7F and 0xFF) at every length
// 0..300 with each input and output against a PROT_NONE page, after it and
// before it, and checks that nothing is written outside what the API allows
// (output + FM_PACK_SLACK for packers; for BMP narrow, the chars it did).
// Built for the four native builds; aarch64 runs under qemu-aarch64.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { NATIVE_BUILDS, ROOT } from './helpers.js';

const run = promisify(execFile);

test.concurrent.each(NATIVE_BUILDS.map((b) => [b.name, b]))('%s: no kernel touches a guard page or writes out of bounds', async (name, build) => {
  const exe = join(ROOT, 'build', name, 'fm-guard');
  expect(existsSync(exe), `${exe} is missing: run ./build.sh`).toBe(true);
  const [cmd, ...args] = [...build.run, exe];
  let result;
  try {
    result = await run(cmd, args);
  } catch (e) {
    // A fault or a failed check: the harness names the call (and the address).
    throw new Error(`fm-guard (${name}) failed:\n${e.stdout}${e.stderr}`, { cause: e });
  }
  expect(result.stdout).toMatch(/^fm-guard: (SIMD|scalar) build, \d+ calls at every length 0\.\.300, no guard page touched/);
  expect(result.stdout).toContain(name.endsWith('simd') ? 'SIMD build' : 'scalar build');
  expect(Number(result.stdout.match(/(\d+) calls/)[1])).toBeGreaterThan(200_000);
});
