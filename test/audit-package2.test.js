// audit-package2.test.js - the second package audit: the tarball as npm packs it,
// installed into a fresh project, its declarations compiled as consumers compile them.
//
// Finding (a test that fails on 82c6c64):
//   1. js/index.d.ts names the global `ReadableStream` (DecodeStream), which only the
//      dom / webworker libs and @types/node declare: a project whose lib is plain ES
//      (lib es2022, types [], skipLibCheck false) fails with TS2304 "Cannot find name
//      'ReadableStream'" in the package's own declarations, on TypeScript 5.0 and the
//      newest. The same file reads WebAssembly and fetch's Response from the program's
//      lib "never named" so that such projects compile; ReadableStream was the one global
//      still named.
// Confirmed here and covered by no other test: web ReadableStreams still type-check as
// decoder inputs (and a stream of strings does not); a CommonJS TypeScript consumer's
// default import (esModuleInterop) is typed as what Node's require() of the ES module
// gives at run time (the namespace carries __esModule, so the default import is the
// msgpack-compatible default object, not the whole API).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './helpers.js';

const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^FASTMP_|^NODE_OPTIONS$/i.test(k)));
const run = (file, args, cwd) => spawnSync(file, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
const ok = (r) => {
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}${r.stdout}`.slice(0, 4000));
  return r.stdout;
};
const TSC = { newest: join(ROOT, 'node_modules/typescript/bin/tsc'), '5.0': join(ROOT, 'node_modules/typescript-5.0/bin/tsc') };

let work;
let app;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-audit-package2-'));
  // --ignore-scripts: the prepack build already ran (build.sh).
  const [packed] = JSON.parse(ok(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)));
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  ok(run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename)], app));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** tsc's report ('' when it compiles) on `files` (name → text) with `options` over strict, skipLibCheck false. */
function typeCheck(name, tsc, files, options) {
  const dir = join(app, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', types: [], ...options },
    files: Object.keys(files),
  }));
  const r = run(process.execPath, [TSC[tsc], '-p', dir], dir);
  return `${r.stdout}${r.stderr}`;
}

// Every subpath, and the stream decoders, whose input type is where ReadableStream is named.
const EVERY_SUBPATH = `import { decodeAsync, decodeMultiStream, encode, type DecodeStream } from 'fastmp-wasm';
import { pack } from 'fastmp-wasm/inline';
import { useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
async function* chunks() { yield encode([1]); }
const stream: DecodeStream = chunks();
export const decoded = [decodeAsync(stream), decodeMultiStream(chunks())];
export const used = [pack(new Float32Array(1)), useFastmpForTypedArrays];
`;

describe('1: a project whose lib is plain ES (no dom, webworker or @types/node) compiles the declarations, skipLibCheck false', () => {
  for (const tsc of ['5.0', 'newest']) {
    test(`TypeScript ${tsc}, moduleResolution bundler, lib es2022, types []`, () => {
      expect(typeCheck(`plain-es-${tsc}`, tsc, { 'app.ts': EVERY_SUBPATH }, { module: 'esnext', moduleResolution: 'bundler', lib: ['es2022'] })).toBe('');
    }, 120_000);
  }
});

test('with the dom lib a web ReadableStream of bytes (fetch\'s response.body too) is a decoder input; a stream of strings is not', () => {
  const files = {
    'streams.ts': `import { Decoder, decodeArrayStream, decodeAsync, decodeMultiStream, type DecodeStream } from 'fastmp-wasm';
declare const bytes: ReadableStream<Uint8Array>;
declare const buffers: ReadableStream<ArrayBuffer>;
declare const untyped: ReadableStream;
declare const strings: ReadableStream<string>;
export const s: DecodeStream = bytes;
export const all = [decodeAsync(bytes), decodeMultiStream(buffers), decodeArrayStream(untyped), new Decoder().decodeAsync(bytes)];
export const body = fetch('x').then((r) => (r.body ? decodeAsync(r.body) : null));
// @ts-expect-error: the chunks are not bytes
decodeAsync(strings);
`,
  };
  for (const tsc of ['5.0', 'newest']) {
    expect(typeCheck(`streams-${tsc}`, tsc, files, { module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'] }), tsc).toBe('');
  }
}, 120_000);

test('CommonJS TypeScript (module nodenext, esModuleInterop): the default import is typed as require() gives it at run time', () => {
  const runtime = JSON.parse(ok(run(process.execPath, ['-e', `const m = require('fastmp-wasm');
console.log(JSON.stringify([m.__esModule, typeof m.default.encode, typeof m.default.pack]))`], app)));
  expect(runtime).toEqual([true, 'function', 'undefined']); // so __importDefault() gives m.default
  const files = {
    'app.cts': `import fastmp from 'fastmp-wasm';
import * as whole from 'fastmp-wasm';
export const bytes = fastmp.encode({ a: 1 });
export const packed = whole.pack(new Float32Array(1));
// @ts-expect-error: the default object is the msgpack-compatible one, without pack()
fastmp.pack(new Float32Array(1));
`,
  };
  for (const tsc of ['5.0', 'newest']) {
    expect(typeCheck(`cjs-default-${tsc}`, tsc, files, { module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], esModuleInterop: true }), tsc).toBe('');
  }
}, 120_000);
