// The entries besides js/index.js and js/node.js, from the source tree:
// initSync(), the CommonJS entry (js/node.cjs) and fastmp-wasm/inline
// (js/inline.js with dist/fastmp-inline*.js). test/package.test.js runs them
// again from the installed tarball.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import * as fastmp from '../js/index.js';
import * as inline from '../js/inline.js';
import { INLINE_FILES } from '../bench/size.js';
import { FILE_STEM } from '../js/modules.js';
import { ROOT } from './helpers.js';

const simdBytes = readFileSync(`${ROOT}/dist/fastmp-simd.wasm`);
const scalarBytes = readFileSync(`${ROOT}/dist/fastmp-scalar.wasm`);
const stringsSimdBytes = readFileSync(`${ROOT}/dist/fastmp-strings-simd.wasm`);
const stringsScalarBytes = readFileSync(`${ROOT}/dist/fastmp-strings-scalar.wasm`);

// Long enough that the string kernels run, not the pure-JS path.
const TEXT = 'Zoë €'.repeat(100);

/** Both modules answer with the right bytes: they are really loaded, not just named. */
function works(api) {
  expect(Buffer.from(api.pack(new Float32Array([1.5, -2, 3.25, 1e30]))).toString('hex')).toBe('94ca3fc00000cac0000000ca40500000ca7149f2ca');
  expect(api.decodeBMP(api.encodeBMP(TEXT))).toBe(TEXT);
  expect(() => api.encodeIA5(TEXT)).toThrow(expect.objectContaining({ code: 'RANGE', index: 2 }));
  return api.backend();
}

test('initSync() reads the sibling file in Node, or takes a module or its bytes', () => {
  expect(fastmp.initSync()).toBe('simd');
  expect(works(fastmp)).toBe('simd');
  expect(fastmp.initSync({ backend: 'scalar', pureJs: 'never' })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
  expect(fastmp.initSync({ wasm: simdBytes })).toBe('simd');
  expect(works(fastmp)).toBe('simd');
  expect(fastmp.initSync({ wasm: new WebAssembly.Module(scalarBytes) })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
  expect(fastmp.initSync({ wasm: scalarBytes, stringsWasm: new WebAssembly.Module(stringsScalarBytes) })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
  // The string module alone given: it tells the build, and the typed module's sibling of that build loads.
  expect(fastmp.initSync({ stringsWasm: stringsScalarBytes })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
});

test('a module given for the other family, or of the other build than the first, is refused by name', async () => {
  fastmp.initSync({ backend: 'simd' });
  expect(() => fastmp.initSync({ wasm: stringsSimdBytes })).toThrow(/options.wasm is not fastmp's typed module \(dist\/fastmp-<build>.wasm\)/);
  expect(() => fastmp.initSync({ stringsWasm: simdBytes })).toThrow(/options.stringsWasm is not fastmp's strings module/);
  expect(() => fastmp.initSync({ wasm: simdBytes, stringsWasm: stringsScalarBytes })).toThrow(/asked for the simd backend but the module given is the scalar build/);
  await expect(fastmp.createFastmp({ wasm: scalarBytes, stringsWasm: stringsSimdBytes })).rejects.toThrow(/asked for the scalar backend/);
  expect(() => fastmp.initSync({ backend: 'js', stringsWasm: stringsSimdBytes })).toThrow(/backend 'js' runs no wasm/);
  expect(works(fastmp)).toBe('simd');
});

test('the pack-only build given as options.wasm: packs by its kernels, unpacks in pure JS with the same values and errors, whatever pureJs says', () => {
  const packOnly = readFileSync(`${ROOT}/dist/fastmp-pack-scalar.wasm`);
  const whole = fastmp.createFastmpSync({ wasm: scalarBytes, pureJs: 'never' });
  for (const fm of [fastmp.createFastmpSync({ wasm: packOnly }), fastmp.createFastmpSync({ wasm: packOnly, pureJs: 'never' })]) {
    expect(fm.backend()).toBe('scalar'); // read from the module
    const x = Float64Array.from({ length: 3000 }, (_, i) => i / 7);
    expect(Buffer.from(fm.pack(x)).equals(Buffer.from(whole.pack(x)))).toBe(true);
    expect(fm.unpack(whole.pack(x), Float64Array)).toEqual(x);
    expect(fm.decode(whole.encode({ x }), { shape: { x: Float64Array } }).x).toEqual(x);
    const wide = whole.pack(Int32Array.of(...Array(300).fill(7), 1 << 20));
    const errorOf = (f) => { try { f(); } catch (e) { return [e.code, e.index, e.offset]; } return null; };
    expect(errorOf(() => fm.unpack(wide, Int16Array))).toEqual(errorOf(() => whole.unpack(wide, Int16Array)));
  }
  expect(() => fastmp.createFastmpSync({ wasm: packOnly, backend: 'simd' })).toThrow(/scalar build/);
});

test('each wasm module has its own memory, and memoryStats() sums them', () => {
  const one = fastmp.createFastmpSync({ pureJs: 'never' });
  const before = one.memoryStats();
  one.pack(new Float64Array(1 << 16)); // 512 KB through the typed module's scratch
  const afterTyped = one.memoryStats();
  expect(afterTyped.scratch).toBeGreaterThan(before.scratch);
  one.encodeBMP('x'.repeat(1 << 18)); // 512 KB of content through the string module's
  const afterStrings = one.memoryStats();
  expect(afterStrings.scratch).toBeGreaterThanOrEqual(afterTyped.scratch + (1 << 19));
  // An alloc() array of the typed module, freed, is refused by the string functions as before.
  const units = one.alloc(Uint16Array, 300);
  units.fill(0x41);
  expect(one.decodeIA5ToUint16(one.encodeIA5(units))).toEqual(units);
  one.free(units);
  expect(() => one.encodeIA5(units)).toThrow(expect.objectContaining({ code: 'FREED' }));
});

test('initSync() fails as init() does, and leaves the previous instance in use', () => {
  fastmp.initSync({ backend: 'simd' });
  expect(() => fastmp.initSync({ backend: 'fast' })).toThrow(TypeError);
  expect(() => fastmp.initSync({ pureJs: 'sometimes' })).toThrow(TypeError);
  expect(() => fastmp.initSync({ wasm: new Response(simdBytes) })).toThrow(/initSync\(\) options.wasm must be/);
  expect(() => fastmp.initSync({ wasm: scalarBytes, backend: 'simd' })).toThrow(/asked for the simd backend but the module given is the scalar build/);
  expect(works(fastmp)).toBe('simd');
});

test('the inline entry carries the very bytes of dist/*.wasm and loads them', async () => {
  const built = (stem) => ['simd', 'scalar'].map((build) => readFileSync(`${ROOT}/dist/${stem}${build}.wasm`));
  for (const [module, file] of Object.entries(INLINE_FILES)) {
    const { SIMD, SCALAR } = await import(`../${file}`);
    expect([SIMD, SCALAR].map((hex) => Buffer.from(hex, 'hex')), file).toEqual(built(FILE_STEM[module]));
  }
  expect(await inline.init()).toBe('simd');
  expect(works(inline)).toBe('simd');
  expect(inline.initSync({ backend: 'scalar' })).toBe('scalar');
  expect(works(inline)).toBe('scalar');
  // The same module state as index.js: one instance, whichever entry loaded it.
  expect(fastmp.backend()).toBe('scalar');
  await expect(inline.init({ backend: 'fast' })).rejects.toThrow(TypeError);
  expect(await inline.init({ wasm: simdBytes })).toBe('simd');
});

test('every export of index.js is exported by the inline entry, the very value but for the functions that load wasm', () => {
  expect(Object.keys(inline).sort()).toEqual(Object.keys(fastmp).sort());
  const own = ['init', 'initSync', 'createFastmp', 'createFastmpSync'];
  const differing = Object.keys(inline).filter((name) => inline[name] !== fastmp[name]);
  expect(differing.sort()).toEqual(own.sort());
});

test('require() of the package is the CommonJS entry, ready on return; FASTMP_BACKEND picks the build', () => {
  const script = "const m = require('fastmp-wasm'); console.log(m.backend(), Buffer.from(m.pack(new Float64Array([0.5]))).toString('hex'))";
  const run = (env) => execFileSync(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, ...env } }).toString().trim();
  expect(run({ FASTMP_BACKEND: '' })).toBe('simd 91cb3fe0000000000000');
  expect(run({ FASTMP_BACKEND: 'scalar' })).toBe('scalar 91cb3fe0000000000000');
});
