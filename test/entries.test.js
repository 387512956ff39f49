// The entries besides js/index.js and js/node.js, from the source tree:
// initSync(), the CommonJS entry (js/node.cjs) and fastmp-wasm/inline
// (js/inline.js with dist/fastmp-inline-*.js). test/package.test.js runs them
// again from the installed tarball.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import * as fastmp from '../js/index.js';
import * as inline from '../js/inline.js';
import { INLINE_FILES, MARKER, loadApp } from '../bench/size.js';
import { ROOT } from './helpers.js';

/** dist/fastmp-<module>-<build>.wasm's bytes. */
const bytesOf = (module, build) => readFileSync(`${ROOT}/dist/fastmp-${module}-${build}.wasm`);
// The typed-array kernels: the pack and the unpack module of each build.
const simdBytes = [bytesOf('pack', 'simd'), bytesOf('unpack', 'simd')];
const scalarBytes = [bytesOf('pack', 'scalar'), bytesOf('unpack', 'scalar')];
const stringsSimdBytes = bytesOf('strings', 'simd');
const stringsScalarBytes = bytesOf('strings', 'scalar');

// Long enough that the string kernels run, not the pure-JS path.
const TEXT = 'Zoë €'.repeat(100);

/** Every module answers with the right bytes: they are really loaded, not just named. */
function works(api) {
  expect(Buffer.from(api.pack(new Float32Array([1.5, -2, 3.25, 1e30]))).toString('hex')).toBe('94ca3fc00000cac0000000ca40500000ca7149f2ca');
  expect(api.unpack(api.pack(new Float64Array(2000).fill(0.5)), Float64Array)[1999]).toBe(0.5);
  expect(api.decodeBMP(api.encodeBMP(TEXT))).toBe(TEXT);
  expect(() => api.encodeIA5(TEXT)).toThrow(expect.objectContaining({ code: 'RANGE', index: 2 }));
  return api.backend();
}

test('initSync() reads the sibling files in Node, or takes modules or their bytes', () => {
  expect(fastmp.initSync()).toBe('simd');
  expect(works(fastmp)).toBe('simd');
  expect(fastmp.initSync({ backend: 'scalar', pureJs: 'never' })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
  expect(fastmp.initSync({ wasm: simdBytes })).toBe('simd');
  expect(works(fastmp)).toBe('simd');
  expect(fastmp.initSync({ wasm: scalarBytes.map((b) => new WebAssembly.Module(b)) })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
  expect(fastmp.initSync({ wasm: scalarBytes, stringsWasm: new WebAssembly.Module(stringsScalarBytes) })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
  // One module alone given: it tells the build, and the other modules' siblings of that build load.
  expect(fastmp.initSync({ stringsWasm: stringsScalarBytes })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
  expect(fastmp.initSync({ wasm: bytesOf('pack', 'scalar') })).toBe('scalar');
  expect(works(fastmp)).toBe('scalar');
});

test('a module given for another kind, or of another build than the first, is refused by name', async () => {
  fastmp.initSync({ backend: 'simd' });
  expect(() => fastmp.initSync({ wasm: stringsSimdBytes })).toThrow(/initSync\(\) options.wasm is not fastmp's pack or unpack module \(dist\/fastmp-pack-<build>.wasm or dist\/fastmp-unpack-<build>.wasm\)/);
  expect(() => fastmp.initSync({ stringsWasm: simdBytes[0] })).toThrow(/options.stringsWasm is not fastmp's strings module/);
  expect(() => fastmp.initSync({ wasm: simdBytes, stringsWasm: stringsScalarBytes })).toThrow(/asked for the simd build of the module given before it but the strings module given is the scalar build/);
  expect(() => fastmp.initSync({ backend: 'simd', wasm: simdBytes, stringsWasm: stringsScalarBytes })).toThrow(/asked for the simd backend but the strings module given is the scalar build/);
  await expect(fastmp.createFastmp({ wasm: scalarBytes, stringsWasm: stringsSimdBytes })).rejects.toThrow(/asked for the scalar build/);
  expect(() => fastmp.initSync({ backend: 'js', stringsWasm: stringsSimdBytes })).toThrow(/backend 'js' runs no wasm/);
  expect(works(fastmp)).toBe('simd');
});

test('the pack module given alone: packs by its kernels, and the unpack module of its build loads on first need', () => {
  const whole = fastmp.createFastmpSync({ wasm: scalarBytes, pureJs: 'never' });
  for (const fm of [fastmp.createFastmpSync({ wasm: bytesOf('pack', 'scalar') }), fastmp.createFastmpSync({ wasm: bytesOf('pack', 'scalar'), pureJs: 'never' })]) {
    expect(fm.backend()).toBe('scalar'); // read from the module
    const x = Float64Array.from({ length: 3000 }, (_, i) => i / 7);
    expect(Buffer.from(fm.pack(x)).equals(Buffer.from(whole.pack(x)))).toBe(true);
    expect(fm.unpack(whole.pack(x), Float64Array)).toEqual(x);
    expect(fm.decode(whole.encode({ x }), { shape: { x: Float64Array } }).x).toEqual(x);
    const wide = whole.pack(Int32Array.of(...Array(300).fill(7), 1 << 20));
    const errorOf = (f) => { try { f(); } catch (e) { return [e.code, e.index, e.offset]; } return null; };
    expect(errorOf(() => fm.unpack(wide, Int16Array))).toEqual(errorOf(() => whole.unpack(wide, Int16Array)));
  }
  expect(() => fastmp.createFastmpSync({ wasm: bytesOf('pack', 'scalar'), backend: 'simd' })).toThrow(/scalar build/);
});

test('an instance\'s wasm modules share one memory: one scratch, and the string kernels read an alloc() array in place', () => {
  const one = fastmp.createFastmpSync({ pureJs: 'never' });
  const before = one.memoryStats();
  one.pack(new Float64Array(1 << 16)); // 512 KB through scratch
  const afterTyped = one.memoryStats();
  expect(afterTyped.scratch).toBeGreaterThan(before.scratch);
  one.encodeBMP('x'.repeat(1 << 20)); // 2 MB of content through the same scratch, which grows
  const afterStrings = one.memoryStats();
  expect(afterStrings.scratch).toBeGreaterThan(afterTyped.scratch);
  expect(afterStrings.wasmMemory).toBeGreaterThanOrEqual(afterStrings.scratch);
  // An alloc() array: read by the string kernels too; freed, refused by them as by the rest.
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
  expect(() => fastmp.initSync({ wasm: new Response(simdBytes[0]) })).toThrow(/initSync\(\) options.wasm must be a WebAssembly.Module, an ArrayBuffer or a typed array/);
  expect(() => fastmp.initSync({ wasm: scalarBytes, backend: 'simd' })).toThrow(/asked for the simd backend but the pack module given is the scalar build/);
  expect(works(fastmp)).toBe('simd');
});

test('the inline entry carries the very bytes of dist/*.wasm and loads them', async () => {
  for (const [module, file] of Object.entries(INLINE_FILES)) {
    const { SIMD, SCALAR } = await import(`../${file}`);
    expect([SIMD, SCALAR].map((hex) => Buffer.from(hex, 'hex')), file).toEqual([bytesOf(module, 'simd'), bytesOf(module, 'scalar')]);
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

test('a browser build takes js/runtime.browser.js for js/runtime.js (package.json "browser"): the same exports, and neither Node nor its Buffer', async () => {
  const { browser, files } = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8'));
  expect(browser).toEqual({ './js/runtime.js': './js/runtime.browser.js' });
  expect(files).toContain('js/*.js'); // (both files ship)
  const generic = await import('../js/runtime.js');
  const forBrowsers = await import('../js/runtime.browser.js');
  expect(Object.keys(forBrowsers).sort()).toEqual(Object.keys(generic).sort());
  expect(generic.isNode).toBe(true); // (this test runs in Node)
  expect(generic.NodeBuffer).toBe(Buffer);
  expect(forBrowsers.isNode).toBe(false);
  expect(forBrowsers.NodeBuffer).toBe(null);
});

test('an app that mixes the entries (docs/browsers.md), bundled by Vite and loaded in Chromium: each module from the entry that holds it', async () => {
  // decode() and init() from the inline entry, encode() from the main one: the bundle holds the
  // unpack module's builds inlined, and fetches the pack module's sibling file.
  const result = await loadApp({
    name: 'mixed',
    label: 'mixed entries',
    code: `import { encode } from 'fastmp-wasm';
import { backend, decode, init } from 'fastmp-wasm/inline';
const built = await init();
const back = decode(encode({ v: new Float32Array(100).fill(2) }), { shape: { v: Float32Array } });
console.log(built, backend(), back.v.constructor.name, back.v.length, back.v[99]);
console.log(back.v[99] === 2 ? '${MARKER} done' : '${MARKER} FAILED');`,
  });
  expect(result.problems).toEqual([]);
  expect(result.printed).toEqual(['simd simd Float32Array 100 2']);
  expect(result.ran).toBe(true);
  expect(result.wasm.map((w) => w.source)).toEqual(['fastmp-pack-simd.wasm']);
  expect(result.inlinedWasm).toEqual([]); // (Vite inlined no .wasm as a data: URL: the unpack builds are the inline entry's hex)
}, 120_000);

test('the inline entry evaluated after a call through the main one: its init() and initSync() take the inlined builds, not the files', () => {
  // A copy of the package without its .wasm files (a page where they cannot be fetched).
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-inline-late-'));
  try {
    cpSync(join(ROOT, 'js'), join(dir, 'js'), { recursive: true });
    mkdirSync(join(dir, 'dist'));
    for (const file of readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.js'))) cpSync(join(ROOT, 'dist', file), join(dir, 'dist', file));
    const script = `
      const index = await import('./js/index.js');
      index.encode({ x: 1 }); // the default instance, made by a call (no module needed yet)
      const inline = await import('./js/inline.js');
      const built = [await inline.init(), inline.initSync()];
      inline.free(inline.alloc(Float32Array, 4)); // (alloc() needs the pack module loaded)
      console.log(built.join(' '), Buffer.from(index.pack(new Float32Array(64).fill(1))).subarray(0, 4).toString('hex'));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }).trim();
    expect(out).toBe('simd simd dc0040ca');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
