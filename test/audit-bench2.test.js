// Bench audit, second pass: what the benchmarks compare, and how two
// checkouts are compared, checked without timing anything.
// - bench/compare.js --regime plain: "Plain process (glibc defaults)" must
//   be one: a GLIBC_TUNABLES of the caller's environment (the kept-memory
//   tunables exported in the shell, say) must not reach the children, as
//   bench/messages.js, bench/run.js and bench/unpack-stages.js ensure.
// - bench/compare.js reports "each checkout's median of its rounds'
//   medians": with an even number of rounds that is the mean of the two
//   middle ones, as bench/messages.js and bin/timing.js take it, not the
//   upper one (with --rounds 2, the slower round). Checked on fake checkouts
//   whose calls advance a fake clock (process.hrtime.bigint) by a set cost:
//   every figure is then exact.
// - Every row of the repository's suite (bench/suite.js) computes what
//   fastmp computes: the library rows (@msgpack/msgpack, msgpackr, with and
//   without the user's conversion), the DataView loop, the string peers
//   (Buffer, TextDecoder, the loops, asn1js, node-forge). Its own check()
//   runs fastmp's paths and the JS loop only.
// - RESULTS-messages.md says each decode table's input is "what
//   @msgpack/msgpack writes for it" (the standard arrays with forceFloat32;
//   the 'bin' input: its default): the bytes must be equal.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Encoder as MsgpackEncoder } from '@msgpack/msgpack';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadPaths } from '../bench/lib.js';
import { KEPT_TUNABLES, workloads } from '../bench/messages.js';
import { cases } from '../bench/suite.js';
import { encode } from '../js/index.js';
import { ROOT } from './helpers.js';

const COMPARE = join(ROOT, 'bench', 'compare.js');

let work;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-audit-bench2-'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * A fake checkout for compare.js: js/index.js logs the GLIBC_TUNABLES its
 * process got, and each call of any case advances a fake clock by
 * costs[k % costs.length] ns, k counting the processes that loaded it.
 */
function fakeCheckout(name, costs) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'js'), { recursive: true });
  mkdirSync(join(dir, 'bench'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'costs.json'), JSON.stringify(costs));
  writeFileSync(join(dir, 'bench', 'messages.js'), 'export const workloads = () => [];\n');
  writeFileSync(join(dir, 'js', 'index.js'), `
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
const here = (f) => new URL('../' + f, import.meta.url);
appendFileSync(here('tunables.log'), JSON.stringify(process.env.GLIBC_TUNABLES ?? null) + '\\n');
const k = existsSync(here('count')) ? Number(readFileSync(here('count'), 'utf8')) : 0;
writeFileSync(here('count'), String(k + 1));
const costs = JSON.parse(readFileSync(here('costs.json'), 'utf8'));
const cost = BigInt(costs[k % costs.length]);
let clock = 0n;
process.hrtime.bigint = () => clock;
const work = () => ((clock += cost), 1);
export const init = async () => {};
export class Encoder { encode() { return work(); } encodeSharedRef() { return work(); } }
export class Decoder { decode() { return work(); } }
export const encode = () => work();
export const pack = () => work();
export const unpack = () => work();
export const alloc = (Type, n) => new Type(n);
export const packView = () => work();
`);
  return dir;
}

const tunablesOf = (dir) => readFileSync(join(dir, 'tunables.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

function compare(oldDir, newDir, args, env = process.env) {
  return execFileSync(process.execPath, [COMPARE, oldDir, newDir, '--only', '^small encode$', '--time', '1', ...args], { env, encoding: 'utf8' });
}

test('bench/compare.js --regime plain: the children run with glibc\'s defaults, whatever GLIBC_TUNABLES the caller has', () => {
  const env = { ...process.env, GLIBC_TUNABLES: KEPT_TUNABLES };
  const plainOld = fakeCheckout('plain-old', [100]);
  const plainNew = fakeCheckout('plain-new', [100]);
  const text = compare(plainOld, plainNew, ['--regime', 'plain', '--rounds', '1'], env);
  expect(text).toMatch(/^Plain process \(glibc defaults/);
  for (const dir of [plainOld, plainNew]) {
    const seen = tunablesOf(dir);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen, `${dir}: the plain regime's children got GLIBC_TUNABLES`).toEqual(seen.map(() => null));
  }
  // And kept memory sets its own tunables, in place of the caller's.
  const keptOld = fakeCheckout('kept-old', [100]);
  const keptNew = fakeCheckout('kept-new', [100]);
  compare(keptOld, keptNew, ['--regime', 'kept', '--rounds', '1'], { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' });
  for (const dir of [keptOld, keptNew]) expect(new Set(tunablesOf(dir))).toEqual(new Set([KEPT_TUNABLES]));
});

test('bench/compare.js: a checkout\'s median of an even number of rounds is the mean of the two middle rounds, and new ÷ old divides those', () => {
  // old: the processes alternate between 100 and 300 ns a call; new: 100 ns every time.
  const oldDir = fakeCheckout('median-old', [100, 300]);
  const newDir = fakeCheckout('median-new', [100]);
  const json = join(work, 'median.json');
  const text = compare(oldDir, newDir, ['--rounds', '4', '--json', json]);
  const { times } = JSON.parse(readFileSync(json, 'utf8'));
  expect(times['small encode']).toEqual({ old: [100, 300, 100, 300], new: [100, 100, 100, 100] });
  const row = text.split('\n').find((l) => l.startsWith('| small encode |')).split(' | ');
  // | case | old | new | new ÷ old | rounds' new ÷ old | spread old, new | fastest new ÷ old | verdict |
  expect(row.slice(1, 4)).toEqual(['200 ns', '100 ns', '0.500']);
  expect(row[4]).toBe('0.33–1.00');
  expect(row[6]).toBe('1.000');
  expect(row[7]).toBe('no verdict below 5 rounds |');
});

// ---- the suite's rows compute what fastmp computes --------------------------------------

const TYPES = {
  Float32Array, Float64Array, Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
};
const bytesOf = (x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);

test('bench/suite.js: every row of every case (up to 4096 elements) gives fastmp\'s values: the libraries, the loops, the string peers', async () => {
  const paths = await loadPaths();
  const js = paths['pure-js'];
  let compared = 0;
  for (const c of cases(paths, {})) {
    if (c.n > 4096) continue;
    const k = c.make();
    try {
      const Type = TYPES[k.type];
      const bool = k.type === 'boolean';
      const numeric = Type !== undefined || bool;
      const unpackTo = (bytes) => (bool ? js.unpackBool(bytes) : js.unpack(bytes, Type));
      const mine = k.methods.find((m) => m.name === 'pure-js').fn();
      const der = k.methods.find((m) => m.name === 'fastmp DER')?.fn();
      for (const m of k.methods) {
        if (m.name.startsWith('kernel') || m.name === 'memcpy') continue; // checked by check() / no result of its own
        const what = `${k.group} ${k.size} (${k.content}): ${m.name}`;
        const out = m.fn();
        if (numeric && k.op === 'pack') {
          expect(bytesOf(unpackTo(out)).equals(bytesOf(unpackTo(mine))), what).toBe(true);
          // The same wire: floats as wide as fastmp's (a library writes an integral one as an int), other elements in fastmp's forms (BigInts aside: the libraries write 8 bytes).
          if (/^Float/.test(k.type)) expect(out.length, what).toBeLessThanOrEqual(mine.length);
          else if (!/^Big/.test(k.type)) expect(bytesOf(out).equals(bytesOf(mine)), what).toBe(true);
        } else if (numeric) {
          const big = Type === BigInt64Array || Type === BigUint64Array;
          const typed = Array.isArray(out) ? (bool ? Uint8Array.from(out, Number) : Type.from(out, big ? BigInt : undefined)) : out;
          expect(typed.constructor, what).toBe(mine.constructor);
          expect(bytesOf(typed).equals(bytesOf(mine)), what).toBe(true);
        } else if (k.op === 'encode') {
          const got = typeof out === 'string' ? Buffer.from(out, 'latin1') : bytesOf(out); // node-forge: a binary string
          expect(got.equals(bytesOf(m.name.endsWith('(DER)') || m.name === 'fastmp DER' ? der : mine)), what).toBe(true);
        } else {
          expect(m.name === 'fastmp DER' ? out.value : out, what).toBe(mine);
        }
        compared++;
      }
    } finally {
      k.dispose?.();
    }
  }
  expect(compared).toBeGreaterThan(1000);
}, 120_000);

test('bench/messages.js: each decode table\'s input is what @msgpack/msgpack writes for the workload (standard arrays with forceFloat32; bin: its default)', () => {
  for (const w of workloads()) {
    const typed = w.typed !== null;
    const standard = new MsgpackEncoder(typed ? { forceFloat32: true } : {}).encode(typed ? w.toPlain(w.value) : w.value);
    expect(bytesOf(encode(w.value)).equals(bytesOf(standard)), w.id).toBe(true);
    if (w.id === 'W1' || w.id === 'W2') {
      expect(bytesOf(encode(w.value, { typedArrays: 'bin' })).equals(bytesOf(new MsgpackEncoder().encode(w.value))), `${w.id} bin`).toBe(true);
    }
  }
});
