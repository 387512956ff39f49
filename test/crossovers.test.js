// crossovers.test.js - js/crossovers.js: which JS engine a runtime is, and the
// table `auto` uses on it; and that an instance really switches at that table.
import { describe, expect, test } from 'vitest';
import { jsBelowFor, jsEngine } from '../js/crossovers.js';
import { createFastmp } from '../js/index.js';
import { BOOL, KERNEL_KINDS, KINDS } from '../js/kinds.js';

const UA = {
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
  chromium: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  iosChrome: 'Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/156.0.0.0 Mobile/15E148 Safari/604.1',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 Edg/156.0.0.0',
  safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/605.1.15',
  iosFirefox: 'Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/150.0 Mobile/15E148 Safari/605.1.15',
};

test('the JS engine of each runtime: Node and Chromium V8, Bun and Safari JavaScriptCore, Firefox SpiderMonkey', () => {
  expect(jsEngine()).toBe('v8'); // this Node
  expect(jsEngine({ versions: { node: '24.0.0', v8: '13.6' } })).toBe('v8');
  expect(jsEngine({ versions: { node: '24.3.0', bun: '1.4.5', webkit: 'x' } })).toBe('jsc'); // Bun also reports a node version
  expect(jsEngine({ versions: null, userAgent: UA.firefox })).toBe('spidermonkey');
  expect(jsEngine({ versions: null, userAgent: UA.chromium })).toBe('v8');
  expect(jsEngine({ versions: null, userAgent: UA.edge })).toBe('v8');
  expect(jsEngine({ versions: null, userAgent: UA.headless })).toBe('v8'); // what the engines test's Chromium says
  expect(jsEngine({ versions: null, userAgent: UA.iosChrome })).toBe('jsc');
  expect(jsEngine({ versions: null, userAgent: UA.safari })).toBe('jsc');
  expect(jsEngine({ versions: null, userAgent: UA.iosFirefox })).toBe('jsc'); // WebKit underneath
  expect(jsEngine({ versions: null, userAgent: undefined })).toBe('unknown');
  expect(jsEngine({ versions: null, userAgent: 'curl/8' })).toBe('unknown');
});

// The table's keys: every kernel type of js/kinds.js (Uint8Array and Uint8ClampedArray share u8) and
// the booleans; the string ops js/strings.js reads.
const TYPES = [...new Set([...KINDS, BOOL].map((k) => k.c))].sort();
const STRING_OPS = ['decodeASCII', 'decodeBMP', 'encodeASCII', 'encodeBMP'];

test.each(['v8', 'jsc', 'spidermonkey'])('%s has a whole table: both backends, both ops, every element type and string op, counts of at least 1', (engine) => {
  const table = jsBelowFor(engine);
  expect(Object.keys(table).sort()).toEqual(['scalar', 'simd']);
  for (const backend of ['simd', 'scalar']) {
    expect(Object.keys(table[backend]).sort()).toEqual(['pack', 'strings', 'unpack']);
    for (const op of ['pack', 'unpack']) expect(Object.keys(table[backend][op]).sort(), `${engine} ${backend} ${op}`).toEqual(TYPES);
    expect(Object.keys(table[backend].strings).sort(), `${engine} ${backend} strings`).toEqual(STRING_OPS);
    for (const n of Object.values(table[backend]).flatMap(Object.values)) expect(Number.isInteger(n) && n >= 1, `${engine} ${backend}: ${n}`).toBe(true);
  }
});

test("an engine the table lacks gets V8's; each call a fresh object", () => {
  const v8 = jsBelowFor('v8');
  for (const engine of ['unknown', '__proto__', 'constructor', 'hasOwnProperty']) expect(jsBelowFor(engine), engine).toEqual(v8);
  const mine = jsBelowFor('v8');
  mine.simd.pack.f32 = 0;
  mine.scalar.strings.encodeBMP = 0;
  expect(jsBelowFor('v8')).toEqual(v8);
  expect(jsBelowFor('v8').simd.pack).not.toBe(jsBelowFor('v8').simd.pack);
});

// Which path `auto` took shows in wasm memory: the wasm path copies a JS-heap
// input into it (and writes its output there), the pure-JS path never touches
// it. Each probe's content is random, so finding its bytes in the memory
// (the buffer of a packView() output) means this call put them there.
const indexOf = (hay, needle) => Buffer.from(hay.buffer, hay.byteOffset, hay.length).indexOf(Buffer.from(needle));
// Taken before the probed call: a packView() after it would write over what it left in scratch.
const memoryOf = (fm) => new Uint8Array(fm.packView(new Float32Array(0)).buffer);
/** n random elements of a kind: floats of a fixed exponent range, ints of random bytes, booleans 0 / 1. */
function content(kind, n) {
  const x = new kind.Type(n);
  if (kind === BOOL) for (let i = 0; i < n; i++) x[i] = Math.random() < 0.5 ? 1 : 0;
  else if (kind.float) for (let i = 0; i < n; i++) x[i] = (Math.random() + 1) * 1e6;
  else crypto.getRandomValues(new Uint8Array(x.buffer));
  return x;
}
/** Every entry's kind: KINDS once per kernel type, and BOOL. */
const PROBED = KERNEL_KINDS;

describe.each(['simd', 'scalar'])("an 'auto' instance (%s) runs pure JS below this engine's crossover and wasm from it", (backend) => {
  const table = jsBelowFor();
  test.each(PROBED.map((k) => [k.name, k]))('%s', async (_, kind) => {
    const fm = await createFastmp({ backend, pureJs: 'auto' });
    const other = await createFastmp({ backend, pureJs: 'always' }); // makes the messages outside fm's memory
    expect(fm.backend()).toBe(backend);
    for (const op of ['pack', 'unpack']) {
      const from = table[backend][op][kind.c];
      // A Uint8Array as an array (a bin never takes the pure-JS path); booleans through packBool / unpackBool.
      const packOf = kind === BOOL ? (api, x) => api.packBool(x) : (api, x) => api.pack(x, kind.c === 'u8' ? { bin: false } : undefined);
      for (const n of [from - 1, from]) {
        if (n < 1) continue;
        const x = content(kind, n);
        const message = packOf(other, x);
        const memory = memoryOf(fm);
        if (op === 'pack') expect(packOf(fm, x)).toEqual(message);
        else expect(kind === BOOL ? fm.unpackBool(message) : fm.unpack(message, kind.Type)).toEqual(x);
        // The message's last 8 bytes: the last element's payload, random (a message of one
        // small element may be shorter than 8 bytes: then all of it). A boolean is one of two
        // bytes: its last 32 (n >= 32 where it is probed), which an earlier call left only by chance of 2^-32.
        const probe = message.subarray(Math.max(0, message.length - (kind === BOOL ? 32 : 8)));
        expect(memory.length, 'the memory did not grow (its buffer would be detached)').toBeGreaterThan(0);
        const seen = indexOf(memory, probe) >= 0;
        expect(seen, `${op} ${kind.name} n = ${n}, JS_BELOW ${from}: ${n < from ? 'pure JS' : 'wasm'} expected`).toBe(n >= from);
      }
    }
  });
});
