// audit-loading.test.js - the loading audit's findings (instances, loading and
// start-up), each a test that failed on 4eacc59: a module that cannot be read
// in Node thrown from every call; a module found by an entry but of another
// kind, or of the other build, attached all the same; calls made while the
// first init() is under way given a second default instance; an init() that
// finished first, undone by a later one that failed; an explicit wasm backend
// where there is no WebAssembly at all. The instances here use a finder of
// their own (js/loader.js: find(), findSync()), as an entry does, to serve a
// page's failures from Node.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createFastmp, init, backend } from '../js/index.js';
import { CORE, createInstance, createInstanceSync } from '../js/instances.js';
import { ROOT } from './helpers.js';

const bytesOf = (module, build) => readFileSync(`${ROOT}/dist/fastmp-${module}-${build}.wasm`);
const hex = (bytes) => Buffer.from(bytes).toString('hex');
// Above every pack crossover: the kernel's path, where it is loaded.
const BIG = Float32Array.from({ length: 5000 }, (_, i) => i * 0.37 - 100);

/** A finder as a page has: nothing synchronous; `serve(module, build)` gives what the fetch would. */
const pageFinder = (serve) => ({ findSync: () => null, find: async (module, build) => serve(module, build) });
/** A finder as Node has: read synchronously. */
const nodeFinder = (serve) => ({ findSync: serve, find: async (module, build) => serve(module, build) });
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

/** `script` (an ES module's body) run by Node in `cwd`; its stdout. */
const runNode = (script, { cwd = ROOT, args = [], env = {} } = {}) => execFileSync(process.execPath, [...args, '--input-type=module', '-e', script], {
  cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
}).trim();

describe('1: in Node, a .wasm that cannot be read leaves its calls in pure JS, as on a page (not its read error thrown by every call)', () => {
  // What a Node bundle of the package (e.g. of fastmp-wasm/inline, which in Node is the Node
  // entry: docs/browsers.md) meets: the sibling .wasm is not where js/siblings.js looks.
  test('the pack module missing: pack() and encode() give the pure-JS bytes; init() rejects with the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fastmp-audit-missing-'));
    try {
      cpSync(join(ROOT, 'js'), join(dir, 'js'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      mkdirSync(join(dir, 'dist'));
      for (const file of readdirSync(join(ROOT, 'dist')).filter((f) => f !== 'fastmp-pack-simd.wasm')) cpSync(join(ROOT, 'dist', file), join(dir, 'dist', file));
      const script = `
        const fm = await import('./dist/fastmp-node.js');
        const js = fm.createFastmpSync({ backend: 'js' });
        const big = Float32Array.from({ length: 5000 }, (_, i) => i * 0.37 - 100);
        const hex = (b) => Buffer.from(b).toString('hex');
        const out = [];
        for (const [name, f] of [['pack', () => hex(fm.pack(big)) === hex(js.pack(big))], ['again', () => hex(fm.pack(big)) === hex(js.pack(big))],
          ['encode', () => hex(fm.encode({ big })) === hex(js.encode({ big }))]]) {
          try { out.push(name + ':' + f()); } catch (e) { out.push(name + ':' + e.code); }
        }
        try { await fm.init(); out.push('init:resolved'); } catch (e) { out.push('init:' + e.code); }
        console.log(out.join(' '));`;
      expect(runNode(script, { cwd: dir })).toBe('pack:true again:true encode:true init:ENOENT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a finder that throws (a sync read that fails): the call runs in pure JS and the failure is kept', () => {
    const fm = createInstanceSync({ findSync: () => { throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }); }, find: async () => { throw new Error('no'); } });
    const js = createInstanceSync(null, { backend: 'js' });
    expect(hex(fm.pack(BIG))).toBe(hex(js.pack(BIG)));
    expect(fm[CORE].failed.pack?.code).toBe('ENOENT');
  });
});

describe('2: a module an entry finds is checked to be the module asked for, as a module given in the options is', () => {
  // A deployment that serves the wrong file (or a CDN's stale copy with other exports): the
  // module attached as `pack` has no pack kernels.
  const wrong = (module, build) => bytesOf(module === 'pack' ? 'unpack' : module, build);

  test('createFastmp() refuses it by name, not with an internal TypeError from the first pack', async () => {
    const made = createInstance(pageFinder(wrong)).then((fm) => fm.pack(BIG));
    await expect(made).rejects.toThrow(/not fastmp's pack module/);
  });

  test('a call that loads it synchronously: not an internal TypeError', () => {
    const fm = createInstanceSync(nodeFinder(wrong));
    let err;
    try {
      fm.pack(BIG);
    } catch (e) {
      err = e;
    }
    expect(err?.message ?? '').not.toMatch(/is not a function/);
  });
});

describe('3: a module of the other build, refused, is not attached all the same', () => {
  // The SIMD file replaced by the scalar one: refused (the instance's build is simd), yet its
  // kernels stayed attached and ran from the next call on, while backend() said simd.
  const stale = (module, build) => bytesOf(module, module === 'pack' && build === 'simd' ? 'scalar' : build);

  test('loaded in the background and refused: packView() is NOT_READY with the reason, not a view from the refused kernels', async () => {
    const fm = createInstanceSync(pageFinder(stale));
    fm.pack(BIG); // starts the loads
    await settle();
    expect(fm[CORE].failed.pack?.message).toMatch(/scalar build/);
    expect(() => fm.packView(BIG)).toThrow(expect.objectContaining({ code: 'NOT_READY' }));
  });

  test('createFastmp() rejects, and the refusal names no module "given" when none was', async () => {
    await expect(createInstance(pageFinder(stale))).rejects.toThrow(/scalar build/);
    await expect(createInstance(pageFinder(stale))).rejects.not.toThrow(/given before it/);
  });
});

test('4: calls made while the first init() is under way use the instance it installs: an alloc() array from then is free()d after', () => {
  const script = `
    const fm = await import('./js/index.js');
    const ready = fm.init(); // the first call of all, not awaited
    const a = fm.alloc(Float32Array, 8); // (Node: the kernels load at once)
    const built = await ready;
    let freed;
    try { fm.free(a); freed = 'freed'; } catch (e) { freed = e.constructor.name; }
    console.log(built, freed);`;
  expect(runNode(script)).toBe('simd freed');
});

test('5: an init() that finishes first installs its instance; a later overlapping one that fails does not undo it', async () => {
  const first = init({ backend: 'scalar' });
  const second = init({ wasm: new Promise((_, reject) => setTimeout(() => reject(new Error('late failure')), 200)) });
  const built = await first; // finishes before the second fails
  await expect(second).rejects.toThrow('late failure');
  expect([built, backend()]).toEqual(['scalar', 'scalar']);
  expect((await createFastmp()).backend()).toBe('simd'); // (instances are unaffected)
});

test('6: an explicit wasm backend where there is no WebAssembly (node --jitless) is a clear error, not a ReferenceError from the first call', () => {
  const script = `
    const fm = await import('./js/index.js');
    const out = [typeof WebAssembly, fm.backend()];
    for (const backend of ['scalar', 'simd']) {
      try { const i = fm.createFastmpSync({ backend }); i.pack(new Float32Array(5000)); out.push(backend + ':ran'); } catch (e) { out.push(backend + ':' + e.name + ':' + /backend: 'js'/.test(e.message)); }
    }
    console.log(out.join(' '));`;
  expect(runNode(script, { args: ['--jitless', '--no-warnings'] })).toBe("undefined js scalar:Error:true simd:Error:true");
});
