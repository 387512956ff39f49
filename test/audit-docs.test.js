// audit-docs.test.js - an audit of what the documentation promises (README.md,
// docs/*.md, the comments of js/index.d.ts) against what the package does.
// test/readme.test.js runs the examples that print; test/audit-promises.test.js
// holds an earlier audit of the same kind. Each test below states a promise,
// where it is made, and fails on f58f07e, where the code (or the page) says
// otherwise; a test that reads the page accepts either the promise kept or the
// page corrected.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Decoder, Encoder, createFastmp, decode, decodeFrom, encode, encodeInto } from '../js/node.js';
import { ROOT } from './helpers.js';

const read = (file) => readFileSync(join(ROOT, file), 'utf8');

/** The error `fn` throws (undefined when none). */
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('1: docs/typed-arrays.md "Zero-copy": a view from offset 0 of wasm memory, below address 1024, "as a packInto() target is refused (STALE)"', () => {
  // js/lifetimes.js refuseTarget() takes belowOwned()'s shortcut (a view from offset 0 of at most
  // LOW_BYTES bytes is "no owner's", its buffer not asked): only the kernels' path
  // (js/wasm/heap.js copyTo() -> targetAddress()) refuses such a target. The pure-JS path, which
  // the default instance takes for small inputs (pureJs 'auto'), and the bin path write into it.
  // The page (and test/pack-into.test.js, on the pureJs 'never' paths only) says refused.
  const page = read('docs/typed-arrays.md').replace(/\s+/g, ' ');
  expect(page).toMatch(/As a `packInto\(\)` (or `encodeInto\(\)` )?target such a view is refused \(`STALE`\)/);

  const PATHS = [
    ['auto (the default: small inputs in pure JS)', {}],
    ['pureJs always', { pureJs: 'always' }],
    ['kernels', { pureJs: 'never' }],
    ['scalar kernels', { backend: 'scalar', pureJs: 'never' }],
  ];
  const INPUTS = [
    ['a Float32Array', () => Float32Array.of(1, 2), undefined],
    ['an Int16Array', () => Int16Array.of(7, -300), undefined],
    ['a Uint8Array (a bin)', () => Uint8Array.of(1, 2), undefined],
    ['a Uint8Array, { bin: false }', () => Uint8Array.of(1, 2), { bin: false }],
  ];
  test.each(PATHS)('%s: refused on every input, and the memory is left as it was', async (_, options) => {
    const fm = await createFastmp(options);
    const memory = fm.alloc(Uint8Array, 1).buffer;
    for (const [name, make, packOptions] of INPUTS) {
      const low = new Uint8Array(memory, 0, 64);
      const before = low.slice();
      const err = thrown(() => fm.packInto(make(), low, 0, packOptions));
      expect({ name, code: err?.code, unchanged: low.every((b, i) => b === before[i]) }).toEqual({ name, code: 'STALE', unchanged: true });
    }
    // encodeInto() into the same view: as packInto() (on f58f07e it wrote there on every path,
    // where a view of wasm memory from byte 4 is STALE).
    for (const [name, call] of [['encodeInto()', (low) => fm.encodeInto({ a: 1 }, low)], ['Encoder#encodeInto()', (low) => new fm.Encoder().encodeInto({ v: new Float32Array(3) }, low)]]) {
      const low = new Uint8Array(memory, 0, 64);
      const before = low.slice();
      expect(thrown(() => fm.encodeInto({ a: 1 }, new Uint8Array(memory, 4, 64)))?.code).toBe('STALE');
      const err = thrown(() => call(low));
      expect({ name, code: err?.code, unchanged: low.every((b, i) => b === before[i]) }).toEqual({ name, code: 'STALE', unchanged: true });
    }
    // Targets of the caller's own (a small on-heap array, an alloc() array) are written.
    const own = new Uint8Array(16);
    expect(own.subarray(0, fm.packInto(Float32Array.of(1), own))).toEqual(fm.pack(Float32Array.of(1)));
    const allocated = fm.alloc(Uint8Array, 16);
    expect(allocated.subarray(0, fm.encodeInto(7, allocated))).toEqual(Uint8Array.of(7));
  });
});

test('2: js/index.d.ts backend(): "The backend in use; throws before init()": the browser entry\'s backend() before any init()', () => {
  // js/core.js builtAs() returns the build the default instance has, or the one 'auto' chooses:
  // the default instance is made by the first call and runs every call from the start
  // (docs/typed-arrays.md "Instances"), so backend() has nothing to throw about.
  const dts = read('js/index.d.ts');
  const at = dts.indexOf('export function backend()');
  const comment = dts.slice(dts.lastIndexOf('/**', at), at);
  const claimsThrow = /throws before init/.test(comment);
  const script = "import('./js/index.js').then((m) => { try { console.log('returned', m.backend()); } catch (e) { console.log('threw', e.message); } })";
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FASTMP_BACKEND: '' } }).trim();
  expect(out.startsWith('threw'), `${out}; index.d.ts says: ${comment.split('\n')[0]}`).toBe(claimsThrow);
});

describe('3: docs/errors.md "Misuse is the engine\'s kind of error, naming the function": the codec\'s options', () => {
  // js/codec/options.js: a wrongly typed option is "fastmp: option sortKeys must be a boolean"
  // (no function), an unknown one "Encoder() has no option 'foo'" whichever function was called
  // (readGiven(options, 'Encoder' | 'Decoder')). The typed-array functions and createFastmp()
  // name themselves ("pack() option 'bin' must be true or false"). Either the messages name what
  // was called, or the page says what they name.
  const bullet = read('docs/errors.md').split('\n- ').find((b) => b.startsWith('**Misuse'));
  const promisesFunction = /naming the function[:,]/.test(bullet) && !/Encoder\(\)/.test(bullet);
  const CASES = [
    ['encode()', 'encode', () => encode(1, { sortKeys: 1 })],
    ['encodeInto()', 'encodeInto', () => encodeInto(1, new Uint8Array(9), 0, { maxDepth: -1 })],
    ['decode()', 'decode', () => decode([1], { maxDepth: 'x' })],
    ['decodeFrom()', 'decodeFrom', () => decodeFrom([1], { rawStrings: 1 })],
    ['new Decoder()', 'Decoder', () => new Decoder({ useBigInt64: 1 })],
    ['new Encoder()', 'Encoder', () => new Encoder({ typedArrays: 'x' })],
    ['encode(), an unknown option', 'encode', () => encode(1, { foo: 1 })],
  ];
  test.each(CASES)('%s', (_, name, call) => {
    const err = thrown(call);
    expect(err).toBeInstanceOf(TypeError);
    if (promisesFunction) expect(err.message).toContain(`${name}()`);
    else expect(err.message).toMatch(/Encoder\(\)|Decoder\(\)|option \w+ must/);
  });
});
