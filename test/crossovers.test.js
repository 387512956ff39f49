// crossovers.test.js - js/crossovers.js: which JS engine a runtime is, and the
// table `auto` uses on it; and that an instance really switches at that table.
import { describe, expect, test } from 'vitest';
import { jsBelowFor, jsEngine } from '../js/crossovers.js';
import { createFastmp } from '../js/index.js';
import { KIND_OF_NAME } from '../js/kinds.js';

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

test('every engine has a whole table: both backends, both ops, every element type, counts of at least 1', () => {
  const v8 = jsBelowFor('v8');
  const types = Object.keys(v8.simd.pack).sort();
  expect(types).toEqual(['bool', 'f32', 'f64', 'i16', 'i32', 'i64', 'i8', 'u16', 'u32', 'u64', 'u8']);
  for (const engine of ['v8', 'jsc', 'spidermonkey', 'unknown', '__proto__', 'constructor']) {
    const table = jsBelowFor(engine);
    for (const backend of ['simd', 'scalar']) {
      for (const op of ['pack', 'unpack']) {
        expect(Object.keys(table[backend][op]).sort(), `${engine} ${backend} ${op}`).toEqual(types);
        for (const n of Object.values(table[backend][op])) expect(Number.isInteger(n) && n >= 1).toBe(true);
      }
    }
  }
  expect(jsBelowFor('unknown')).toEqual(v8); // no override: V8's
  expect(jsBelowFor('__proto__')).toEqual(v8);
  jsBelowFor('v8').simd.pack.f32 = 0; // a fresh object each call
  expect(jsBelowFor('v8').simd.pack.f32).toBe(v8.simd.pack.f32);
});

// Which path `auto` took shows in wasm memory: the wasm path copies a JS-heap
// input into it (and writes its output there), the pure-JS path never touches
// it. Each probe's content is random, so finding its bytes in the memory
// (the buffer of a packView() output) means this call put them there.
const indexOf = (hay, needle) => Buffer.from(hay.buffer, hay.byteOffset, hay.length).indexOf(Buffer.from(needle));
// Taken before the probed call: a packView() after it would write over what it left in scratch.
const memoryOf = (fm) => new Uint8Array(fm.packView(new Float32Array(0)).buffer);
const CONTENT = {
  Float32Array: (n) => Float32Array.from({ length: n }, () => (Math.random() + 1) * 1e6),
  Float64Array: (n) => Float64Array.from({ length: n }, () => (Math.random() + 1) * 1e12),
  Int32Array: (n) => Int32Array.from({ length: n }, () => (Math.random() * 2 ** 31) | 0x4000_0000),
  BigInt64Array: (n) => BigInt64Array.from({ length: n }, () => BigInt(Math.floor((Math.random() + 1) * 2 ** 52)) << 8n),
};

describe.each(['simd', 'scalar'])("an 'auto' instance (%s) runs pure JS below this engine's crossover and wasm from it", (backend) => {
  const table = jsBelowFor();
  test.each(Object.keys(CONTENT))('%s', async (type) => {
    const fm = await createFastmp({ backend, pureJs: 'auto' });
    const other = await createFastmp({ backend, pureJs: 'always' }); // makes the messages outside fm's memory
    expect(fm.backend()).toBe(backend);
    for (const op of ['pack', 'unpack']) {
      const from = table[backend][op][KIND_OF_NAME.get(type).c];
      for (const n of [from - 1, from]) {
        if (n < 1) continue;
        const x = CONTENT[type](n);
        const message = other.pack(x);
        const memory = memoryOf(fm);
        if (op === 'pack') expect(fm.pack(x)).toEqual(message);
        else expect(fm.unpack(message, globalThis[type])).toEqual(x);
        // The message's last 8 bytes: the last element's payload, random (a message of one
        // small element may be shorter than 8 bytes: then all of it).
        const probe = message.subarray(Math.max(0, message.length - 8));
        expect(memory.length, 'the memory did not grow (its buffer would be detached)').toBeGreaterThan(0);
        const seen = indexOf(memory, probe) >= 0;
        expect(seen, `${op} ${type} n = ${n}, JS_BELOW ${from}: ${n < from ? 'pure JS' : 'wasm'} expected`).toBe(n >= from);
      }
    }
  });
});
