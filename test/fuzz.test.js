// Fuzzing, briefly: every libFuzzer target (c/fuzz/, ASan + UBSan, built by
// make fuzz) first replays its committed corpus (the seeds and every past
// finding), then fuzzes for FASTMP_FUZZ_SECONDS (default 1) seconds. A finding
// fails the test with the target's report; its input is left in
// build/fuzz/crashes/. The long local runs: `c/fuzz/run.sh SECONDS` (docs/hardening.md).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT, TYPE_NAMES } from './helpers.js';

const run = promisify(execFile);
const SECONDS = Number(process.env.FASTMP_FUZZ_SECONDS ?? 1);
const TARGETS = [
  ...TYPE_NAMES.map((t) => `unpack_${t}`), // one per element type of js/kinds.js
  ...['bmp', 'ia5', 'visible', 'printable', 'numeric'].flatMap((k) => [`decode_${k}`, `der_${k}`]),
  'roundtrip', 'diff',
];

/** Runs c/fuzz/run.sh; returns { target: execs }. */
async function fuzz(seconds) {
  let stdout;
  try {
    ({ stdout } = await run(join(ROOT, 'c/fuzz/run.sh'), [String(seconds)], { cwd: ROOT, maxBuffer: 1 << 24 }));
  } catch (e) {
    throw new Error(`c/fuzz/run.sh ${seconds} failed:\n${e.stdout}${e.stderr}`, { cause: e });
  }
  return Object.fromEntries(stdout.trim().split('\n').slice(1).map((line) => line.trim().split(/\s+/))
    .map(([target, execs]) => [target, Number(execs)]));
}

test('every fuzz target replays its corpus, then fuzzes briefly, without a finding', async () => {
  const replayed = await fuzz(0);
  const fuzzed = await fuzz(SECONDS);
  for (const target of TARGETS) {
    expect(replayed[target], `${target} replayed its corpus`).toBeGreaterThan(0);
    expect(fuzzed[target], `${target} ran`).toBeGreaterThan(replayed[target]);
  }
  expect(Object.keys(fuzzed).sort()).toEqual([...TARGETS, 'total'].sort());
  console.log(`fuzzed ${SECONDS} s per target: ${TARGETS.map((t) => `${t} ${fuzzed[t]}`).join(', ')}`);
}, 300_000);
