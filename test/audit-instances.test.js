// audit-instances.test.js - the instances audit (createFastmp(), createFastmpSync(),
// init(), initSync(), backend(); docs/typed-arrays.md "Instances"). The numbered
// tests are findings that failed on 2bca531 (js/ as at 7b94542): initSync()
// loaded only the first module the program uses; FASTMP_BACKEND was dropped by
// every init() but the first (and any with options), and a mistyped one became
// backend(); createFastmpSync() given a module the engine would not compile
// synchronously looked for the others' build before that module told it; the
// declarations said an instance's Encoder is a class of its own. The last
// describe() holds what was confirmed between instances and no other test covers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Encoder, Decoder, createFastmp, createFastmpSync } from '../js/index.js';
import { initFrom, initSyncFrom } from '../js/core.js';
import { CORE, createInstanceSync } from '../js/instances.js';
import { ROOT, refusingLargeSyncCompiles, runNode } from './helpers.js';

const bytesOf = (module, build) => readFileSync(`${ROOT}/dist/fastmp-${module}-${build}.wasm`);
const MODULES = ['pack', 'unpack', 'strings'];
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
// Above every crossover: the kernels' paths, where they are loaded.
const BIG = Float32Array.from({ length: 5000 }, (_, i) => i * 0.37 - 100);


describe('1: initSync() loads every module the program uses, as init() does (js/core.js initSyncFrom)', () => {
  // docs/typed-arrays.md: init() "loads into the default instance the modules of the functions
  // the program imports ...; initSync(options?) does it synchronously"; docs/browsers.md:
  // "initSync() is ready on return". Its `wanted.some(loadSync)` stopped at the first module that
  // loaded: the unpack and string modules were left to the first call that needs each.
  test('each module is read and compiled by initSync() itself', () => {
    const asked = [];
    const finder = { findSync: (module, build) => (asked.push(module), bytesOf(module, build)), find: async (module, build) => bytesOf(module, build) };
    expect(initSyncFrom(finder, { backend: 'scalar' })).toBe('scalar');
    expect(asked.sort()).toEqual([...MODULES].sort()); // (this file imports every family)
  });

  test('a module that cannot be read fails initSync() as it fails init()', async () => {
    const missing = (module, build) => {
      if (module === 'strings') throw Object.assign(new Error(`ENOENT: fastmp-strings-${build}.wasm`), { code: 'ENOENT' });
      return bytesOf(module, build);
    };
    const finder = { findSync: missing, find: async (module, build) => missing(module, build) };
    await expect(initFrom(finder, { backend: 'simd' })).rejects.toThrow(/ENOENT/);
    expect(() => initSyncFrom(finder, { backend: 'simd' })).toThrow(/ENOENT/);
  });
});

describe('2: FASTMP_BACKEND picks the build of the default instance that init() installs too (js/core.js readInitOptions, coreFor)', () => {
  // docs/typed-arrays.md: "FASTMP_BACKEND=scalar, simd or js in Node's environment picks its
  // build"; coreFor() spreads the entry's options under init()'s, but readInitOptions() gave
  // `backend: undefined` for an option left out, which wrote over them: any init() with options
  // (init({ pureJs: 'never' }), as a test setup writes), and every init() after the first, made
  // a SIMD instance under FASTMP_BACKEND=scalar.
  test('init() with other options, a later init() and initSync() keep the environment\'s build', () => {
    const script = `
      const fm = await import('./js/node.js');
      const out = [fm.backend(), await fm.init({ pureJs: 'never' }), await fm.init(), fm.initSync({ pureJs: 'auto' })];
      const { readFileSync } = await import('node:fs');
      out.push(await fm.init({ wasm: readFileSync('./dist/fastmp-pack-simd.wasm') }));
      console.log(out.join(' '));`;
    // (A module given tells its own build, over the environment's.)
    expect(runNode(script, { FASTMP_BACKEND: 'scalar' })).toBe('scalar scalar scalar scalar simd');
  });

  test('a FASTMP_BACKEND that names no backend is refused by name, not reported by backend()', () => {
    // index.d.ts: backend(): 'simd' | 'scalar' | 'js'. 'SIMD' became the instance's build: backend()
    // said 'SIMD', and every module load looked for fastmp-*-SIMD.wasm, its calls in pure JS.
    const out = runNode(`const fm = await import('./js/node.js'); fm.pack(new Float32Array(5000)); console.log(fm.backend());`, { FASTMP_BACKEND: 'SIMD' });
    expect(['simd', 'scalar', 'js'].includes(out) || /FASTMP_BACKEND/.test(out), out).toBe(true);
  });
});

describe('3: createFastmpSync() given a module the engine will not compile synchronously (js/core.js settleGiven)', () => {
  // A page's main thread may refuse to compile more than a few KB synchronously (Chrome before
  // 114: 4 KB); js/loader.js compileSync() then gives null and the module compiles in the
  // background. The other modules' loads did not wait for it to tell the build: they asked the
  // finder for build null (the page's finder: "URLS[module][build] is not a function"; the inline
  // entry's: the scalar build, attached first, after which the given SIMD module was refused).
  // Here the engine's refusal is simulated as V8 throws it (a RangeError) above 4 KB.

  test.each([
    ['a page\'s finder (fetches: nothing synchronous)', (module, build) => bytesOf(module, build)],
    ['the inline entry\'s finder (any build name but \'simd\' is the scalar one)', (module, build) => bytesOf(module, build === 'simd' ? 'simd' : 'scalar')],
  ])('%s: every module loads, of the given module\'s build', async (_, serve) => {
    const asked = [];
    const finder = { findSync: () => null, find: async (module, build) => (asked.push(`${module}-${build}`), serve(module, build)) };
    // (A call of each other kind while the given module cannot compile: each starts its module's load, on first need.)
    const fm = refusingLargeSyncCompiles(() => {
      const made = createInstanceSync(finder, { wasm: bytesOf('pack', 'simd') });
      made.unpack(Uint8Array.of(0xdc, 0x13, 0x88, ...new Array(5000).fill(1)), Float32Array);
      made.encodeBMP('a'.repeat(5000));
      return made;
    });
    await settle();
    const core = fm[CORE];
    expect(Object.values(core.failed).map((e) => e?.message ?? null)).toEqual([null, null, null]);
    expect(asked.sort()).toEqual(['strings-simd', 'unpack-simd']);
    expect(MODULES.map((m) => core.attached(m))).toEqual([true, true, true]);
    expect(fm.backend()).toBe('simd');
  });
});

test('4: index.d.ts says what `instanceof` gives for an instance\'s Encoder and Decoder', async () => {
  // js/codec/bind.js: every Encoder of every instance shares one prototype ("instanceof Bound
  // holds for them all"); the declaration said "a class of its own: ... is false".
  const dts = readFileSync(join(ROOT, 'js/index.d.ts'), 'utf8');
  const said = /`new fm\.Encoder\(\) instanceof Encoder`\s*\*?\s*\(the module's class\) is (true|false)/.exec(dts)?.[1];
  const fm = await createFastmp({ backend: 'scalar' });
  expect(said).toBe(String(new fm.Encoder() instanceof Encoder));
  expect(new fm.Decoder() instanceof Decoder).toBe(new fm.Encoder() instanceof Encoder); // ("as Encoder")
});

describe('between instances (confirmed)', () => {
  test('one instance\'s views are judged by its own rules in another\'s calls, and no call of one touches the other\'s', async () => {
    const a = await createFastmp({ pureJs: 'never' });
    const b = createFastmpSync({ backend: 'scalar', pureJs: 'never' });
    const out = a.packView(BIG);
    const expected = Buffer.from(out).toString('hex');
    b.packView(new Float64Array(4000)); // b's scratch, not a's
    b.alloc(Float64Array, 1 << 20); // b's memory grows, not a's
    expect(b.unpack(out, Float32Array)).toEqual(BIG); // a's live output read by b
    expect(Buffer.from(out).toString('hex')).toBe(expected); // still a's live output
    expect(() => b.packInto(BIG, out)).toThrow(TypeError); // never a target, whoever writes
    const arr = a.alloc(Float32Array, 100);
    expect(() => b.free(arr)).toThrow(/free\(\) takes an array from alloc\(\)/);
    expect(() => b.refresh(arr)).toThrow(/refresh\(\) takes an array from alloc\(\)/);
    const target = a.alloc(Uint8Array, 30000);
    expect(b.packInto(BIG, target)).toBe(out.length); // a's alloc() array as b's target
    a.alloc(Float64Array, 1 << 21); // a's memory grows: its views detach
    expect(() => b.pack(arr)).toThrow(expect.objectContaining({ code: 'STALE' }));
    expect(a.refresh(arr).length).toBe(100);
    a.free(arr);
  });

  test('backend \'js\': WebAssembly is never touched, by any method', async () => {
    const touched = [];
    const real = globalThis.WebAssembly;
    globalThis.WebAssembly = new Proxy(real, { get: (target, key) => (touched.push(String(key)), Reflect.get(target, key)) });
    try {
      const fm = await createFastmp({ backend: 'js' });
      const value = { a: BIG, b: [1, 'x', new Uint8Array(3000)] };
      fm.decode(fm.encode(value), { shape: { a: Float32Array } });
      fm.unpack(fm.packView(BIG), Float32Array);
      fm.decodeBMP(fm.encodeBMP('hé'.repeat(3000)));
      new fm.Decoder().decode(new fm.Encoder({ typedArrays: 'bin' }).encode(value));
      for await (const v of fm.decodeMultiStream((async function* () { yield fm.encode(value); })())) expect(v.b[1]).toBe('x');
      expect(() => fm.alloc(Float32Array, 3)).toThrow(expect.objectContaining({ code: 'NO_WASM' }));
      expect([fm.backend(), fm.memoryStats()]).toEqual(['js', { wasmMemory: 0, scratch: 0 }]);
    } finally {
      globalThis.WebAssembly = real;
    }
    expect(touched).toEqual([]);
  });
});
