// audit-types2.test.js - the TypeScript declarations (js/index.d.ts), a second
// look, against what the code does. Findings, each failing on 426ced1:
//   1. Encoder, Decoder and ExtensionCodec are declared with their public
//      methods only, so a subclass may declare a member of any other name; but
//      the classes keep their state and internal steps under ~150 names
//      (`shape`, `keys`, `run`, `encoders`, `bytes`, `config`, ...), and a
//      subclass member of such a name replaces the codec's own: an engine
//      TypeError ("Cannot read properties of undefined", "cache.canBeCached is
//      not a function", "this.encoders.every is not a function") or silently
//      wrong bytes (an Encoder whose `run()` is the subclass's writes nothing).
//      @msgpack/msgpack's declarations name their internals `private`, which
//      tsc then enforces.
//   2. interface Fastmp declares an instance's members writable; the instance
//      is frozen (test/surface.test.js), so `fm.encode = wrapped` type-checks
//      and throws a TypeError in strict code (ES modules).
//   3. InitSyncOptions' `wasm` / `stringsWasm` is a WebAssembly.Module or its
//      bytes; lib dom's WebAssembly.Module is an empty interface, so a promise
//      or a Response type-checks there, and initSync() / createFastmpSync()
//      refuse it with a TypeError.
// Confirmed, and covered by no other test: a subclass's members of other names
// and its overrides of the public methods still type-check; an instance's
// members destructure; init() takes promises and Responses.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Decoder, Encoder, ExtensionCodec, createFastmpSync, encode } from '../js/node.js';
import { ROOT, tscProject, tscReport } from './helpers.js';

// ---- the probes, compiled once by TypeScript 5.0 and by the repo's --------------------------------

const PROBES = {
  'subclass.ts': `import { Decoder, Encoder, ExtensionCodec, type Shape } from 'fastmp-wasm';
// @ts-expect-error: shape is the Decoder's own (the compiled shape)
export class Typed extends Decoder { constructor(readonly shape: Shape) { super({ shape }); } }
// @ts-expect-error: keys is the Decoder's map-key cache
export class Keyed extends Decoder { keys = new Set<string>(); }
// @ts-expect-error: run() is what writes every message
export class Job extends Encoder { runs = 0; run(job: string): string { this.runs++; return job; } }
// @ts-expect-error: encoders is the codec's table of extensions
export class Codec extends ExtensionCodec { encoders = new Map<number, unknown>(); }
// Members of other names, and overrides of the public methods, still compile.
export class Framed extends Encoder { frames = 0; encode(value: unknown) { this.frames++; return super.encode([value]); } }
export class Counted extends Decoder { count = 0; decode(bytes: Uint8Array): unknown { this.count++; return super.decode(bytes); } }
export class Logged extends ExtensionCodec { seen: number[] = []; decode(data: Uint8Array, type: number, context: undefined): unknown { this.seen.push(type); return super.decode(data, type, context); } }
`,
  'frozen.ts': `import { createFastmp, createFastmpSync, type Fastmp } from 'fastmp-wasm';
const fm: Fastmp = createFastmpSync();
// @ts-expect-error: an instance is frozen
fm.encode = (value: unknown) => fm.encode(value);
export async function later(): Promise<void> {
  const other = await createFastmp();
  // @ts-expect-error: so is one from createFastmp()
  other.backend = () => 'js';
}
export const { pack, decode, Encoder } = fm;
`,
  'sync.ts': `import { createFastmpSync, init, initSync } from 'fastmp-wasm';
declare const bytes: Uint8Array;
declare const module: WebAssembly.Module;
declare const response: Response;
// @ts-expect-error: initSync() takes no promise
initSync({ wasm: fetch('/fastmp-pack-simd.wasm') });
// @ts-expect-error: nor a Response
createFastmpSync({ wasm: response });
// @ts-expect-error: nor, in an array, a promise of bytes
createFastmpSync({ wasm: [bytes, Promise.resolve(bytes)] });
// @ts-expect-error: nor a promise of a module for the strings
initSync({ stringsWasm: Promise.resolve(module) });
export const sync = [initSync({ wasm: bytes }), initSync({ wasm: [module, bytes.buffer] }), createFastmpSync({ wasm: new DataView(bytes.buffer), stringsWasm: module })];
export const async = [init({ wasm: fetch('/p.wasm') }), init({ wasm: [response, module, bytes], stringsWasm: fetch('/s.wasm') })];
`,
};

const TSC = { '5.0': join(ROOT, 'node_modules/typescript-5.0/bin/tsc'), newest: join(ROOT, 'node_modules/typescript/bin/tsc') };

let work;
/** tsc's report on each probe ('' when it compiles as its @ts-expect-errors say), by TypeScript version. */
const report = {};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-audit-types2-'));
  tscProject(work, PROBES);
  for (const [version, tsc] of Object.entries(TSC)) report[version] = await tscReport(work, PROBES, tsc);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// ---- 1: a subclass's member of an internal name ------------------------------------------------

/** The names of members declared in the body of `export class <name>` in js/index.d.ts (public or private). */
function declaredMembers(name) {
  const dts = readFileSync(join(ROOT, 'js/index.d.ts'), 'utf8');
  const at = dts.search(new RegExp(`^export class ${name}\\b`, 'm'));
  expect(at, name).toBeGreaterThan(0);
  const body = dts.slice(at, dts.indexOf('\n}', at));
  const members = new Set();
  for (const m of body.matchAll(/(?:^|;)\s*(?:private |static |readonly )*(\w+)\s*(?=[;(<:?])/gm)) members.add(m[1]);
  return members;
}

/** Every member name an object of class C has, own (after use) and inherited (but Object's, and `constructor`). */
function runtimeMembers(C, objects) {
  const names = new Set(objects.flatMap((o) => Object.getOwnPropertyNames(o)));
  for (let p = C.prototype; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) if (n !== 'constructor') names.add(n);
  }
  return [...names].sort();
}

describe('1: a subclass cannot declare a member that replaces one the class keeps inside (js/index.d.ts names them private)', () => {
  test('what such a member does at run time: an engine TypeError, or an Encoder that writes nothing', () => {
    const bytes = encode({ a: 1, v: [1, 2] });
    class Typed extends Decoder {
      constructor(shape) {
        super({ shape });
        this.shape = shape; // (what TypeScript's `constructor(readonly shape: Shape)` compiles to)
      }
    }
    expect(() => new Typed({ v: Float32Array }).decode(bytes)).toThrow(TypeError);
    class Keyed extends Decoder {
      keys = new Set();
    }
    expect(() => new Keyed().decode(bytes)).toThrow(/canBeCached is not a function/);
    class Job extends Encoder {
      runs = 0;
      run(job) {
        this.runs++;
        return job;
      }
    }
    expect(new Job().encode({ a: 1 })).toEqual(new Uint8Array(0)); // (not 81 a1 61 01)
    class Codec extends ExtensionCodec {
      encoders = new Map();
    }
    expect(() => new Codec().register({ type: 1, encode: () => null })).toThrow(/every is not a function/);
  });

  test.each(Object.keys(TSC))('TypeScript %s refuses them; other members and overrides of the public methods compile', (version) => {
    expect(report[version]['subclass.ts']).toBe('');
  });

  test('every member the classes have at run time is declared (public or private), so that tsc refuses a subclass of the same name', async () => {
    const encoder = new Encoder({ sortKeys: true });
    encoder.encode({ a: new Float32Array(100), d: new Date(0) });
    encoder.encodeSharedRef({ a: 1 });
    encoder.encodeInto({ a: 1 }, new Uint8Array(16));
    encoder.dispose();
    const decoder = new Decoder({ shape: { v: Float32Array }, reuseTypedArrays: true });
    const message = encode({ v: new Float32Array(300) });
    decoder.decode(message);
    decoder.decodeFrom(message);
    [...decoder.decodeMulti(message)];
    const shared = new Uint8Array(new SharedArrayBuffer(message.length));
    shared.set(message);
    decoder.decodeFrom(shared);
    async function* chunks() {
      yield message.subarray(0, 5);
      yield message.subarray(5);
    }
    for await (const value of decoder.decodeStream(chunks())) void value;
    const instance = createFastmpSync();
    const cases = [
      ['Encoder', Encoder, [encoder, new instance.Encoder()]],
      ['Decoder', Decoder, [decoder, new instance.Decoder()]],
      ['ExtensionCodec', ExtensionCodec, [new ExtensionCodec()]],
    ];
    for (const [name, C, objects] of cases) {
      const declared = declaredMembers(name);
      expect(runtimeMembers(C, objects).filter((member) => !declared.has(member)), name).toEqual([]);
    }
  });
});

// ---- 2: an instance is frozen ---------------------------------------------------------------------

test('2: an instance\'s members are read-only in the declarations, as the frozen instance is at run time', () => {
  const fm = createFastmpSync();
  expect(() => {
    fm.encode = (value) => fm.encode(value); // (an ES module is strict code)
  }).toThrow(TypeError);
  for (const version of Object.keys(TSC)) expect(report[version]['frozen.ts'], version).toBe('');
});

// ---- 3: initSync() and createFastmpSync() take no promise nor Response --------------------------------

test('3: initSync() / createFastmpSync() options refuse a promise or a Response (a TypeError at run time); init() takes them', () => {
  const pack = readFileSync(join(ROOT, 'dist/fastmp-pack-simd.wasm'));
  for (const wasm of [Promise.resolve(pack), [pack, Promise.resolve(pack)], new Response(pack)]) {
    expect(() => createFastmpSync({ wasm })).toThrow(TypeError);
  }
  expect(() => createFastmpSync({ stringsWasm: Promise.resolve(pack) })).toThrow(TypeError);
  for (const version of Object.keys(TSC)) expect(report[version]['sync.ts'], version).toBe('');
});
