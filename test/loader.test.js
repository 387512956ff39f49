// The loader: SIMD detection, the sibling files, caller-supplied modules,
// bytes and Responses, forcing the scalar build, and clear failures.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import * as fastmp from '../js/index.js';
import { ROOT } from './helpers.js';

// The pack module of each build (one module given tells the build; the others load from the sibling files).
const simdBytes = readFileSync(`${ROOT}/dist/fastmp-pack-simd.wasm`);
const scalarBytes = readFileSync(`${ROOT}/dist/fastmp-pack-scalar.wasm`);
const sample = new Float32Array([1.5, -2, 3.25, 1e30]);

/** The module answers with the right bytes: it is really loaded, not just named. */
function works() {
  expect(Buffer.from(fastmp.pack(sample)).toString('hex')).toBe('94ca3fc00000cac0000000ca40500000ca7149f2ca');
  return fastmp.backend();
}

let server;
let base;
beforeAll(async () => {
  server = createServer((req, res) => {
    const typed = req.url.startsWith('/typed/');
    res.writeHead(200, typed ? { 'content-type': 'application/wasm' } : { 'content-type': 'application/octet-stream' });
    res.end(req.url.endsWith('scalar.wasm') ? scalarBytes : simdBytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
afterAll(() => server.close());

// Calls work before init() (issue 43): the kernels load on first need (in
// Node, synchronously); backend() names the build they are (or will be).
test('every call works before init(), and writes what it writes after', () => {
  expect(fastmp.backend()).toBe('simd');
  expect(Buffer.from(fastmp.pack(sample)).toString('hex')).toBe('94ca3fc00000cac0000000ca40500000ca7149f2ca');
  expect(fastmp.unpack(new Uint8Array([0x90]), Float32Array)).toEqual(new Float32Array(0));
  expect(fastmp.decode(fastmp.encode({ v: new Float32Array(500).fill(2) }), { shape: { v: Float32Array } }).v[499]).toBe(2);
});

test('Node 20 has wasm SIMD, so auto picks the SIMD build', async () => {
  expect(fastmp.simdSupported()).toBe(true);
  expect(await fastmp.init()).toBe('simd');
  expect(works()).toBe('simd');
});

test('the scalar build can be forced', async () => {
  expect(await fastmp.init({ backend: 'scalar' })).toBe('scalar');
  expect(works()).toBe('scalar');
  expect(await fastmp.init({ backend: 'simd' })).toBe('simd');
  expect(works()).toBe('simd');
});

test('a module, bytes or an ArrayBuffer given by the caller; the backend comes from the module itself', async () => {
  expect(await fastmp.init({ wasm: scalarBytes })).toBe('scalar');
  expect(works()).toBe('scalar');
  expect(await fastmp.init({ wasm: new WebAssembly.Module(simdBytes) })).toBe('simd');
  expect(works()).toBe('simd');
  const copy = scalarBytes.buffer.slice(scalarBytes.byteOffset, scalarBytes.byteOffset + scalarBytes.length);
  expect(await fastmp.init({ wasm: copy })).toBe('scalar');
  expect(works()).toBe('scalar');
});

test('a fetch Response or its promise, streamed when served as application/wasm', async () => {
  expect(await fastmp.init({ wasm: fetch(`${base}/typed/fastmp-scalar.wasm`) })).toBe('scalar');
  expect(works()).toBe('scalar');
  expect(await fastmp.init({ wasm: await fetch(`${base}/plain/fastmp-simd.wasm`) })).toBe('simd');
  expect(works()).toBe('simd');
});

test('wrong options fail clearly and leave the previous instance in use', async () => {
  await fastmp.init({ backend: 'scalar' });
  await expect(fastmp.init({ backend: 'fast' })).rejects.toThrow(TypeError);
  await expect(fastmp.init({ pureJs: 'sometimes' })).rejects.toThrow(TypeError);
  await expect(fastmp.init({ wasm: 42 })).rejects.toThrow(/options.wasm must be/);
  await expect(fastmp.init({ wasm: simdBytes, backend: 'scalar' })).rejects.toThrow(/asked for the scalar backend but the pack module given is the simd build/);
  await expect(fastmp.init({ wasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 5]) })).rejects.toThrow(WebAssembly.CompileError);
  expect(works()).toBe('scalar');
});

test('the Node entry is ready on import; FASTMP_BACKEND picks the build', () => {
  const script = "import('fastmp-wasm').then((m) => console.log(m.backend(), Buffer.from(m.pack(new Float64Array([0.5]))).toString('hex')))";
  const run = (env) => execFileSync(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, ...env } }).toString().trim();
  expect(run({})).toBe('simd 91cb3fe0000000000000');
  expect(run({ FASTMP_BACKEND: 'scalar' })).toBe('scalar 91cb3fe0000000000000');
});
