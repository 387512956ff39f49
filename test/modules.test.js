// The wasm modules an instance loads (js/core.js): each on the first call that
// needs it, synchronously where its finder can read it so (Node), else in the
// background, the calls meanwhile in pure JS with the same bytes, values and
// errors; none for a call that needs no kernel. init() loads those of the
// functions a program holds (each marks its module: js/surface.js); which
// modules a real page fetches is test/size.test.js's (pages in Chromium).
import { expect, test } from 'vitest';
import { Core } from '../js/core.js';
import { decoderOf } from '../js/codec/decoding.js';
import { encoderOf } from '../js/codec/encoding.js';
import { createFastmpSync } from '../js/index.js';
import { SIBLING_WASM } from '../js/siblings.js';
import * as strings from '../js/strings.js';
import { SURFACE } from '../js/surface.js';
import * as typed from '../js/typed.js';
import * as api from '../js/module-api.js';
import { MODULE } from '../js/core.js';

/**
 * SIBLING_WASM, recording each module asked for; `sync`: whether it reads
 * synchronously (Node) or only fetches (a page), each fetch answered once
 * `gate` resolves.
 */
function recording(sync = true, gate = Promise.resolve()) {
  const asked = [];
  const finder = {
    find: async (module, build) => {
      asked.push(`${module}: find`);
      await gate;
      return SIBLING_WASM.find(module, build);
    },
    findSync: (module, build) => {
      asked.push(`${module}: findSync`);
      return sync ? SIBLING_WASM.findSync(module, build) : null;
    },
  };
  return { asked, finder };
}

const TEXT = 'Zoë €'.repeat(100); // long enough for the kernels, not the pure-JS path
const FLOATS = Float32Array.from({ length: 5000 }, (_, i) => i / 7);

test('a call loads the module it needs on its first need, synchronously where it can; a call that needs no kernel loads none', () => {
  const { asked, finder } = recording();
  const core = new Core({ finder });
  expect(encoderOf(core, undefined).encode({ a: 1, v: new Float32Array(4) })).toEqual(createFastmpSync().encode({ a: 1, v: new Float32Array(4) }));
  expect(asked).toEqual([]); // (small: packed in JS)
  const bytes = typed.pack(core, FLOATS);
  expect(asked).toEqual(['pack: findSync']);
  expect(core.attached('pack')).toBe(true);
  expect(decoderOf(core, { shape: { v: Float32Array } }).decode(encoderOf(core, undefined).encode({ v: FLOATS })).v).toEqual(FLOATS);
  expect(typed.unpack(core, bytes, Float32Array)).toEqual(FLOATS);
  expect(asked).toEqual(['pack: findSync', 'unpack: findSync']);
  expect(strings.decodeBMP(core, strings.encodeBMP(core, TEXT))).toBe(TEXT);
  expect(asked).toEqual(['pack: findSync', 'unpack: findSync', 'strings: findSync']);
  expect(strings.decodeIA5(core, strings.encodeIA5(core, 'once'.repeat(100)))).toBe('once'.repeat(100));
  expect(asked).toHaveLength(3);
});

test('where a module cannot be read synchronously, calls run in pure JS (same bytes, values and errors) while it loads, and by its kernels after', async () => {
  let open;
  const { asked, finder } = recording(false, new Promise((resolve) => { open = resolve; }));
  const core = new Core({ finder, backend: 'scalar' });
  const whole = createFastmpSync({ backend: 'scalar', pureJs: 'never' });
  const packed = typed.pack(core, FLOATS);
  expect(Buffer.from(packed).equals(Buffer.from(whole.pack(FLOATS)))).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 0)); // (the load goes on in the background)
  expect(asked).toEqual(['pack: findSync', 'pack: find']);
  expect(core.loading.pack).not.toBe(null); // (still loading)
  expect(typed.pack(core, FLOATS)).toEqual(packed); // pure JS again: the load under way is not asked twice
  expect(asked).toHaveLength(2);
  // What needs the kernels by nature says so.
  expect(() => typed.packView(core, FLOATS)).toThrow(expect.objectContaining({ name: 'FastmpError', code: 'NOT_READY' }));
  expect(() => typed.alloc(core, Float32Array, 4)).toThrow(expect.objectContaining({ code: 'NOT_READY', message: expect.stringMatching(/await init\(\)/) }));
  const wide = whole.pack(Int32Array.of(...Array(500).fill(1), 70000));
  const errorOf = (f) => { try { f(); } catch (e) { return [e.name, e.code, e.index, e.offset, e.message]; } return null; };
  expect(errorOf(() => typed.unpack(core, wide, Int16Array))).toEqual(errorOf(() => whole.unpack(wide, Int16Array)));
  open();
  await core.loadAll(['pack', 'unpack']);
  expect(core.attached('pack') && core.attached('unpack')).toBe(true);
  expect(typed.pack(core, FLOATS)).toEqual(packed); // by the kernels now
  expect(typed.packView(core, FLOATS)).toEqual(packed);
  expect(errorOf(() => typed.unpack(core, wide, Int16Array))).toEqual(errorOf(() => whole.unpack(wide, Int16Array)));
  expect(core.builtAs()).toBe('scalar');
});

test('a module that cannot be had leaves its calls in pure JS, and says why to what needs it', async () => {
  const finder = { find: async () => { throw new Error('HTTP 404'); }, findSync: () => null };
  const core = new Core({ finder });
  expect(typed.unpack(core, typed.pack(core, FLOATS), Float32Array)).toEqual(FLOATS);
  await expect(core.loadAll(['pack'])).rejects.toThrow('HTTP 404');
  expect(typed.pack(core, FLOATS)).toEqual(createFastmpSync().pack(FLOATS));
  expect(() => typed.packView(core, FLOATS)).toThrow(expect.objectContaining({ code: 'NOT_READY', message: expect.stringContaining('HTTP 404') }));
});

test('every module-level function of js/surface.js marks the module its calls may need (init() loads those a program holds)', () => {
  for (const [name, module] of Object.entries(SURFACE)) {
    expect(api[name]?.[MODULE] ?? null, name).toBe(module);
  }
});
