// The wasm modules an instance loads (js/modules.js): those its program marks
// used, at creation; a module not marked loads on its family's first call.
// In Node every family is imported, so both are marked: here usedModules()
// is made to report only the typed-array module, as in a bundle whose
// ASN.1 functions arrive later (a chunk imported after init()).
import { expect, test, vi } from 'vitest';
import { initFrom } from '../js/instance.js';
import { backend, decode, decodeBMP, decodeIA5, encode, encodeBMP, encodeIA5 } from '../js/module-api.js';
import { SIBLING_WASM } from '../js/siblings.js';

vi.mock('../js/modules.js', async (original) => ({ ...(await original()), usedModules: () => ['typed'] }));

/** SIBLING_WASM, recording each module asked for. */
function recording() {
  const asked = [];
  const finder = {
    find: (module, build) => (asked.push(`${module}: find`), SIBLING_WASM.find(module, build)),
    findSync: (module, build) => (asked.push(`${module}: findSync`), SIBLING_WASM.findSync(module, build)),
  };
  return { asked, finder };
}

const TEXT = 'Zoë €'.repeat(100); // long enough for the kernels, not the pure-JS path

test('init() loads the modules marked used; another loads synchronously on its family\'s first call', async () => {
  const { asked, finder } = recording();
  expect(await initFrom(finder, {})).toBe('simd');
  expect(asked).toEqual(['typed: find']);
  expect(decode(encode({ v: new Float32Array([1.5]) }), { shape: { v: Float32Array } }).v).toEqual(new Float32Array([1.5]));
  expect(asked).toEqual(['typed: find']);
  expect(decodeBMP(encodeBMP(TEXT))).toBe(TEXT);
  expect(asked).toEqual(['typed: find', 'strings: findSync']);
  expect(decodeIA5(encodeIA5('once'))).toBe('once');
  expect(asked).toHaveLength(2);
});

test('where the module cannot be read synchronously, its family\'s first call says what to do', async () => {
  const { finder } = recording();
  await initFrom(finder, { backend: 'scalar' });
  const saved = process.getBuiltinModule; // how js/siblings.js reads a file synchronously
  process.getBuiltinModule = undefined;
  try {
    expect(() => encodeBMP(TEXT)).toThrow(/the strings module \(fastmp-strings-scalar.wasm\) is not loaded.*`await init\(\)` once the code that calls its functions is imported.*options.stringsWasm/);
  } finally {
    process.getBuiltinModule = saved;
  }
  expect(decodeBMP(encodeBMP(TEXT))).toBe(TEXT); // the next call loads it
  expect(backend()).toBe('scalar');
});
