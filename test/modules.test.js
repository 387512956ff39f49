// The wasm modules an instance loads (js/modules.js): those its program marks
// used, at creation; a module not marked loads on its family's first call.
// In Node every family is imported, so every module is marked: here
// usedModules() is made to report only the typed-array module, as in a
// bundle whose ASN.1 functions arrive later (a chunk imported after init()),
// or only its pack-only build, as in a bundle that only encodes.
import { expect, test, vi } from 'vitest';
import { createInstance, initFrom } from '../js/instance.js';
import { backend, decode, decodeBMP, decodeIA5, encode, encodeBMP, encodeIA5 } from '../js/module-api.js';
import { SIBLING_WASM } from '../js/siblings.js';

const marks = vi.hoisted(() => ({ used: ['typed'] }));
vi.mock('../js/modules.js', async (original) => ({ ...(await original()), usedModules: () => marks.used }));

/** SIBLING_WASM, recording each module asked for (and, of find(), the exports of what it found). */
function recording() {
  const asked = [];
  const exported = [];
  const finder = {
    find: async (module, build) => {
      asked.push(`${module}: find`);
      const bytes = await SIBLING_WASM.find(module, build);
      exported.push(WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name));
      return bytes;
    },
    findSync: (module, build) => (asked.push(`${module}: findSync`), SIBLING_WASM.findSync(module, build)),
  };
  return { asked, exported, finder };
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

// ---- the pack-only build of the typed module --------------------------------------------

test('modulesToLoad(): one module per family, the whole typed module over its pack-only build', async () => {
  const { modulesToLoad } = await vi.importActual('../js/modules.js');
  expect(modulesToLoad(new Set(['pack']))).toEqual(['pack']);
  expect(modulesToLoad(new Set(['pack', 'typed']))).toEqual(['typed']);
  expect(modulesToLoad(new Set(['typed', 'strings', 'pack']))).toEqual(['typed', 'strings']);
  expect(modulesToLoad(new Set(['strings']))).toEqual(['strings']);
});

const errorOf = (f) => {
  try {
    f();
  } catch (e) {
    return { name: e.name, code: e.code, index: e.index, offset: e.offset, path: e.path, message: e.message };
  }
  throw new Error('no error');
};

test('a program that marks only the pack-only build loads it; its instances pack in wasm and unpack in pure JS, whatever pureJs says: the values and errors of the whole module', async () => {
  marks.used = ['pack'];
  try {
    const { asked, exported, finder } = recording();
    const packOnly = await createInstance(finder, {});
    const packOnlyNever = await createInstance(finder, { pureJs: 'never' });
    expect(asked).toEqual(['pack: find', 'pack: find']);
    expect(exported[0]).toContain('fm_pack_f32');
    expect(exported[0].filter((name) => name.startsWith('fm_unpack_'))).toEqual([]);
    marks.used = ['typed'];
    const whole = await createInstance(recording().finder, {});
    const value = { v: Float32Array.from({ length: 5000 }, (_, i) => i / 7), n: Int32Array.from({ length: 3000 }, (_, i) => i * 1000 - 7), b: new Uint8Array(300).fill(1) };
    const shape = { v: Float32Array, n: Int32Array };
    const bytes = whole.encode(value);
    for (const fm of [packOnly, packOnlyNever]) {
      expect(fm.backend()).toBe('simd');
      expect(Buffer.from(fm.encode(value)).equals(Buffer.from(bytes))).toBe(true); // packed by its kernels
      expect(fm.decode(bytes, { shape })).toEqual(whole.decode(bytes, { shape }));
      expect(fm.unpack(fm.pack(value.n), Int32Array)).toEqual(value.n);
      expect(fm.unpackBool(fm.packBool(value.b))).toEqual(value.b);
      const cut = bytes.subarray(0, 9000);
      expect(errorOf(() => fm.decode(cut, { shape }))).toEqual(errorOf(() => whole.decode(cut, { shape })));
      const wide = whole.pack(Int32Array.of(...Array(500).fill(1), 70000));
      expect(errorOf(() => fm.unpack(wide, Int16Array))).toEqual(errorOf(() => whole.unpack(wide, Int16Array)));
    }
  } finally {
    marks.used = ['typed'];
  }
});
