// The TypeScript declarations: consumers in test/types/ type-check under
// --strict with lib ES2022 + DOM (an ES module, a CommonJS .cts and a checked
// CommonJS .cjs), resolved through package.json "exports" as users resolve
// them; the README's TypeScript example type-checks with skipLibCheck false on
// the oldest TypeScript the README names (5.0, devDependency typescript-5.0)
// and on the repo's; and the declarations name every function the module
// exports, once.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import * as api from '../js/index.js';
import { KINDS } from '../js/kinds.js';
import { ROOT } from './helpers.js';

const TSC = `${ROOT}/node_modules/typescript/bin/tsc`;

/** tsc's report on a tsconfig ('' when it compiles); a bare name is one in test/types. */
async function typeCheck(config, tsc = TSC) {
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', config.includes('/') ? config : `${ROOT}/test/types/${config}`], { encoding: 'utf8' });
    return '';
  } catch (e) {
    return `${e.stdout}${e.stderr}` || String(e);
  }
}

describe('consumers type-check with tsc --strict', () => {
  test.concurrent.each([
    ['tsconfig.json', 'module nodenext: ESM, .cts and checked .cjs'],
    ['tsconfig.node16.json', 'module node16 (no require() of ES modules): the .d.cts'],
    ['tsconfig.bundler.json', 'moduleResolution bundler: ESM'],
    ['tsconfig.float16.json', 'lib esnext: Float16Array, ESM and .cts'],
  ])('%s (%s)', async (config) => {
    expect(await typeCheck(config)).toBe('');
  });
});

// ---- the oldest TypeScript ------------------------------------------------------------
// The declarations never write `Uint8Array<ArrayBuffer>` (TypeScript 5.7's
// generic typed arrays; "Type 'Uint8Array' is not generic" before) and the
// .d.cts files no import attribute (TypeScript 5.3's syntax): the README's
// example, as projects compile it (tsc --strict, skipLibCheck false: the
// declarations are checked too), compiles on TypeScript 5.0 as on the repo's.

const README = readFileSync(`${ROOT}/README.md`, 'utf8');
const OLDEST_TS = 'typescript-5.0'; // package.json devDependency: npm:typescript@5.0.x
const versionOf = (pkg) => JSON.parse(readFileSync(`${ROOT}/node_modules/${pkg}/package.json`, 'utf8')).version;

/** The ```ts block of the README's "TypeScript" section. */
function readmeExample() {
  const at = README.indexOf('\n## TypeScript\n');
  const section = README.slice(at, README.indexOf('\n## ', at + 1));
  const block = at < 0 ? null : section.match(/^```ts\n([\s\S]*?)^```/m);
  if (!block) throw new Error('README.md: no ```ts block under "## TypeScript"');
  return block[1];
}

/**
 * Compiled beside the example: fails where the declarations arrive as `any`
 * (each @ts-expect-error must find its error), and where results are not over
 * an ArrayBuffer (a BlobPart / BufferSource, on TypeScript >= 5.7); and the
 * msgpackr entry's declarations.
 */
const PROBE = `import { decode, encode, pack, unpack } from 'fastmp-wasm';
import { useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';

const bytes = encode({ v: new Float32Array([0.5]) });
export const blob = new Blob([bytes, pack(new Int16Array(2)), new Uint8Array(unpack(bytes, Float32Array).buffer)]);
export const digest: Promise<ArrayBuffer> = crypto.subtle.digest('SHA-256', pack(decode(bytes, { shape: { v: Float32Array } }).v));
// @ts-expect-error: a shaped field is a Float32Array, not a string
export const wrong: string = decode(bytes, { shape: { v: Float32Array } }).v;
// @ts-expect-error: pack() takes typed arrays
pack([1, 2]);
export const registered: boolean = useFastmpForTypedArrays({ addExtension() {} });
// @ts-expect-error: msgpackr's module, not its name
useFastmpForTypedArrays('msgpackr');
`;

// Inside the package (test/), so that 'fastmp-wasm' resolves to it through package.json "exports"
// (.gitignore: test/.readme-example-*).
const work = mkdtempSync(join(ROOT, 'test', '.readme-example-tsc-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the README\'s TypeScript example type-checks with tsc --strict and skipLibCheck false on the oldest TypeScript and the newest', () => {
  test('the oldest is TypeScript 5.0, the version the README names, older than 5.7 (no generic typed arrays) and 5.3 (no import attributes)', () => {
    expect(versionOf(OLDEST_TS)).toMatch(/^5\.0\.\d+$/);
    const named = README.match(/TypeScript\s+(?:>=|≥)\s*(\d+\.\d+)|TypeScript\s+(\d+\.\d+)\s+or\s+(?:later|newer)/);
    expect(named, 'README.md names no minimum TypeScript ("TypeScript 5.0 or later")').not.toBeNull();
    expect(named[1] ?? named[2]).toBe('5.0');
  });

  // An ES module (.ts) and CommonJS (.cts: the same imports become require(), typed by js/index.d.cts),
  // under each module resolution a project uses; 'bundler' takes ES modules only (module esnext).
  const SETTINGS = [
    ['node16', 'node16', ['ts', 'cts']],
    ['nodenext', 'nodenext', ['ts', 'cts']],
    ['esnext', 'bundler', ['ts']],
  ];
  test.concurrent.each(['typescript', OLDEST_TS].flatMap((pkg) => SETTINGS.map((setting) => [pkg, ...setting])))(
    '%s: module %s, resolution %s', async (pkg, module, resolution, kinds) => {
      const root = join(work, `${pkg}-${resolution}`); // (work is fresh: mkdtemp)
      mkdirSync(root);
      const files = kinds.flatMap((ext) => [`readme.${ext}`, `probe.${ext}`]);
      for (const file of files) writeFileSync(join(root, file), file.startsWith('readme') ? readmeExample() : PROBE);
      writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          strict: true, noEmit: true, module, moduleResolution: resolution, target: 'es2022', lib: ['es2022', 'dom'],
          types: [], skipLibCheck: false,
        },
        files,
      }));
      expect(await typeCheck(join(root, 'tsconfig.json'), `${ROOT}/node_modules/${pkg}/bin/tsc`)).toBe('');
    },
  );
});

const dts = readFileSync(`${ROOT}/js/index.d.ts`, 'utf8');
const dcts = readFileSync(`${ROOT}/js/index.d.cts`, 'utf8');
/** The names that `pattern` captures, once each (an overloaded function is declared more than once), sorted. */
const declared = (pattern, text = dts) => [...new Set([...text.matchAll(pattern)].map((m) => m[1]))].sort();

const FUNCTIONS = /^export function (\w+)/gm;
const VALUES = /^export (?:function|class|const) (\w+)/gm;

/** The members of `interface Fastmp` that are `typeof` the export of the same name. */
function fastmpMembers() {
  const body = dts.slice(dts.indexOf('export interface Fastmp {'));
  return declared(/^ {2}(?:readonly )?(\w+): typeof \1;$/gm, body.slice(0, body.indexOf('\n}')));
}

/**
 * Exports of the module that an instance from createFastmp() does not have:
 * loading, and what does not depend on an instance (errors, extension and
 * shape helpers, timestamps). Every other export is also an instance member.
 */
const MODULE_ONLY = [
  'init', 'initSync', 'simdSupported', 'createFastmp', 'createFastmpSync',
  'FastmpError', 'DecodeError', 'BoolArray', 'ExtData', 'ExtensionCodec', 'MapOf', 'Optional', 'asBools', 'mapOf', 'optional',
  'EXT_TIMESTAMP', 'encodeDateToTimeSpec', 'encodeTimeSpecToTimestamp', 'encodeTimestampExtension',
  'decodeTimestampToTimeSpec', 'decodeTimestampExtension',
].sort();

test('every export is declared, and every declared function, class and constant is exported; the default export too', () => {
  expect(Object.keys(api).filter((name) => name !== 'default').sort()).toEqual(declared(VALUES));
  // The default export: the codec with @msgpack/msgpack's names, each the named export itself.
  const defaults = declared(/^ {2}(\w+): typeof \1;$/gm, dts.slice(dts.indexOf('declare const msgpackApi: {')));
  expect(Object.keys(api.default).sort()).toEqual(defaults);
  for (const name of defaults) expect(api.default[name], name).toBe(api[name]);
});

test('interface Fastmp has every export but the MODULE_ONLY ones (functions, and the Encoder / Decoder classes)', () => {
  const members = fastmpMembers();
  expect(members).toEqual(declared(VALUES).filter((name) => !MODULE_ONLY.includes(name)));
  expect(declared(FUNCTIONS).filter((name) => !members.includes(name) && !MODULE_ONLY.includes(name))).toEqual([]);
});

test('interface ElementTypes, the declarations\' one list of element types, is js/kinds.js KINDS: the same types, in order, each with its own constructor and group', () => {
  const body = dts.slice(dts.indexOf('interface ElementTypes {'));
  const entries = [...body.slice(0, body.indexOf('\n}')).matchAll(/^ {2}(\w+): \{ array: (\w+); type: (\w+); group: '(\w+)' \};$/gm)];
  expect(entries.map((m) => m[1])).toEqual(KINDS.map((k) => k.name));
  const groupOf = (k) => (k.float ? 'float' : k.big ? 'big' : k.c === 'u8' ? 'bytes' : 'int');
  for (const [, name, array, type, group] of entries) {
    expect([array, type, group], name).toEqual([name, `${name}Constructor`, groupOf(KINDS.find((k) => k.name === name))]);
  }
});

test('index.d.cts names every type of index.d.ts', () => {
  const types = declared(/^export (?:type|interface|class) (\w+)/gm);
  expect(declared(/^ {2}export type (\w+)\b/gm, dcts)).toEqual(types);
});

test('an instance from createFastmpSync() has exactly the members interface Fastmp declares; they work destructured', () => {
  const members = fastmpMembers();
  const fm = api.createFastmpSync();
  expect(Object.keys(fm).sort()).toEqual(members);
  expect(members.filter((name) => typeof fm[name] !== 'function')).toEqual([]);
  const { pack, unpack, backend, encode, decode, Encoder, Decoder } = fm; // the declarations promise that this works
  expect(Array.from(unpack(pack(new Int16Array([1, -300])), Int16Array))).toEqual([1, -300]);
  expect(['simd', 'scalar']).toContain(backend());
  const bytes = new Encoder({ sortKeys: true }).encode({ v: new Float32Array([0.5, 2]), id: 7 });
  expect(encode({ id: 7, v: new Float32Array([0.5, 2]) }, { sortKeys: true })).toEqual(bytes);
  const { v, id } = new Decoder({ shape: { v: Float32Array } }).decode(bytes);
  expect(v).toBeInstanceOf(Float32Array);
  expect([...v, id]).toEqual([0.5, 2, 7]);
  expect(decode(bytes, { shape: { v: Float32Array } }).v).toEqual(v);
});

test('what the declarations say of the codec holds at run time', async () => {
  const { mapOf, asBools, BoolArray, MapOf, EXT_TIMESTAMP, FastmpError } = api; // independent of any instance
  const { encode, decode, decodeFrom, decodeAsync, Decoder } = api.createFastmpSync(); // ../js/index.js has no default one
  expect(EXT_TIMESTAMP).toBe(-1);
  expect(mapOf(Int8Array)).toBeInstanceOf(MapOf);
  expect(asBools(new Uint8Array(1))).toBeInstanceOf(BoolArray);
  // DecodeInput: any ArrayBuffer view, an ArrayBuffer, an array of byte values (not any ArrayLike).
  const bytes = encode([1, 2]);
  for (const input of [bytes, bytes.buffer, new DataView(bytes.buffer), [...bytes]]) expect(decode(input)).toEqual([1, 2]);
  expect(() => decode({ length: 1, 0: 0x90 })).toThrow(TypeError);
  // decodeFrom(bytes, options): the value at bytes[0] (no offset argument); a Decoder's takes one.
  expect(decodeFrom(new Uint8Array([1, 2]))).toEqual({ value: 1, end: 1 });
  expect(new Decoder().decodeFrom(new Uint8Array([1, 2]), 1)).toEqual({ value: 2, end: 2 });
  // A listed key the message lacks is MISSING, unless optional(S) (DecodedBy types it so); Boolean and BoolArray shapes.
  expect(() => decode(encode({ f: [true, false] }), { shape: { v: Float32Array, f: Boolean } })).toThrow(expect.objectContaining({ code: 'MISSING', path: '$.v' }));
  const shaped = decode(encode({ f: [true, false], n: null }), { shape: { v: api.optional(Float32Array), n: api.optional(Int8Array), f: Boolean } });
  expect(shaped).toEqual({ f: new Uint8Array([1, 0]), n: null });
  expect(decode(encode([asBools(new Uint8Array([0, 3]))]), { shape: [BoolArray] })).toEqual([new Uint8Array([0, 1])]);
  // Shaped results are over an ArrayBuffer (Uint8Array<ArrayBuffer> etc.).
  expect(decode(encode(new Float64Array([1])), { shape: Float64Array }).buffer).toBeInstanceOf(ArrayBuffer);
  // needed and path on a FastmpError; streams take async iterables of chunks.
  const message = encode({ a: [1, 300] });
  const err = (() => { try { decode(message.subarray(0, message.length - 1)); } catch (e) { return e; } })();
  expect(err).toBeInstanceOf(FastmpError);
  expect([err.code, err.path, err.needed]).toEqual(['TRUNCATED', '$.a[1]', message.length]);
  async function* chunks() {
    yield bytes.subarray(0, 1);
    yield bytes.buffer.slice(1, 2);
    yield [bytes[2]];
  }
  expect(await decodeAsync(chunks())).toEqual([1, 2]);
});
