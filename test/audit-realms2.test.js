// Audit: values from other realms, a second look (node:vm contexts, a Chromium iframe, and
// in that iframe a second copy of fastmp-wasm, @msgpack/msgpack and msgpackr). What
// test/audit-realms.test.js, test/boundary.test.js, test/messages*.test.js and
// test/audit-instances2.test.js hold is not repeated. The numbered describe()s hold what
// docs/typed-arrays.md ("Other realms work") now states of what the audit found refused:
// 1. A WebAssembly.Module of another realm (a vm context's, one an iframe compiled) given as a
//    module (createFastmp / createFastmpSync / init({ wasm })) is refused, as not a Module.
// 2. A fetch Response of another realm (init({ wasm: iframe.fetch(url) })) is refused the same
//    way once it resolves; the bytes of another realm's typed array or ArrayBuffer are taken.
// 3. decode() of an iframe's Response or Blob is refused without the hint a Response or Blob
//    of this realm gets (js/codec/options.js notBytesHint() asks instanceof: no getter runs).
// Accepting them (by tag or brand) weighed 30 to 60 B on every page, for inputs a page makes
// in its own realm: the audit's fix was not taken.
// The last describe() holds what was confirmed and no other test covers: the stream
// functions given a vm context's async generator and chunks, and an iframe's
// ReadableStreams (byte streams, a Response body, cancelled when the loop leaves early); an
// ExtensionCodec of a second copy of the package (the iframe's) given to this copy's
// encode / decode, as @msgpack/msgpack takes one of its own second copy.
/* global document, window */ // (in page.evaluate(): the page's)
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import vm from 'node:vm';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as fm from '../js/index.js';
import { ROOT } from './helpers.js';

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const PACKED = hex(fm.pack(new Float32Array(100).fill(1.5), { bin: false }));

describe('1: a WebAssembly.Module of another realm is refused, as not a Module (docs/typed-arrays.md; js/loader.js compile(), compileSync())', () => {
  const bytes = () => new Uint8Array(readFileSync(join(ROOT, 'dist/fastmp-pack-simd.wasm')));
  const foreignModule = () => vm.runInNewContext('new WebAssembly.Module(bytes)', { bytes: bytes() });
  const refused = /^fastmp: createFastmp(?:Sync)?\(\) options\.wasm must be a WebAssembly\.Module, (?:a Response, )?an ArrayBuffer or a typed array$/;

  test('createFastmp() and createFastmpSync() refuse it with a TypeError; its bytes of another realm are taken', async () => {
    const module = foreignModule();
    expect(module instanceof WebAssembly.Module).toBe(false); // (another realm's)
    await expect(fm.createFastmp({ wasm: module })).rejects.toThrow(refused);
    expect(() => fm.createFastmpSync({ wasm: foreignModule() })).toThrow(TypeError);
    expect(() => fm.createFastmpSync({ wasm: foreignModule() })).toThrow(refused);
    const instance = fm.createFastmpSync({ wasm: vm.runInNewContext('new Uint8Array(bytes)', { bytes: bytes() }) });
    expect(instance.backend()).toBe('simd');
    expect(hex(instance.pack(new Float32Array(100).fill(1.5), { bin: false }))).toBe(PACKED);
  });
});

// ---- Chromium: one server and one browser for the file ----------------------------------

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
const BLANK = '<!doctype html><meta charset="utf-8"><body></body>';
let server;
let browser;
let origin;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try {
      const body = path === '/' ? BLANK : await readFile(join(ROOT, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/**
 * `fn` run in a page that imported js/index.js (window.fastmp), given an iframe (same origin,
 * another realm) that imported js/index.js, @msgpack/msgpack and msgpackr too (its own copies:
 * module maps are per realm). (Module scripts, not import() in evaluate(), which Vitest rewrites.)
 */
async function inPage(fn) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    await page.addScriptTag({
      type: 'module',
      content: `import * as m from "/js/index.js"; import * as p from "/node_modules/@msgpack/msgpack/dist.esm/index.mjs";
        window.peer = p; window.fastmp = m;`,
    });
    await page.waitForFunction(() => window.fastmp !== undefined);
    await page.evaluate(async () => {
      const frame = document.createElement('iframe');
      frame.src = '/';
      await new Promise((resolve) => {
        frame.onload = resolve;
        document.body.append(frame);
      });
      const script = frame.contentDocument.createElement('script');
      script.type = 'module';
      script.textContent = `import * as f from "/js/index.js"; import * as p from "/node_modules/@msgpack/msgpack/dist.esm/index.mjs";
        window.peer = p; window.fastmp = f;`;
      frame.contentDocument.body.append(script);
      window.W = frame.contentWindow;
    });
    await page.waitForFunction(() => window.W.fastmp !== undefined);
    return await page.evaluate(fn);
  } finally {
    await page.close();
  }
}

describe('2: a fetch Response of another realm is refused once it resolves (docs/typed-arrays.md; js/loader.js compile())', () => {
  test('an iframe\'s fetch() (its promise or its Response) and a module it compiled are refused; this realm\'s fetch() of the same file is taken', async () => {
    const result = await inPage(async () => {
      const { fastmp: m, W } = window;
      const attempt = async (f) => {
        try {
          return await f();
        } catch (e) {
          return `threw: ${e.message}`;
        }
      };
      const packed = async (instance) => {
        const bytes = instance.pack(new Float32Array(100).fill(1.5), { bin: false });
        return `${instance.backend()} ${Array.from(bytes.subarray(0, 8), (x) => x.toString(16).padStart(2, '0')).join('')}`;
      };
      const url = '/dist/fastmp-pack-simd.wasm';
      return {
        local: await attempt(async () => packed(await m.createFastmp({ wasm: fetch(url) }))),
        promise: await attempt(async () => packed(await m.createFastmp({ wasm: W.fetch(url) }))),
        response: await attempt(async () => packed(await m.createFastmp({ wasm: await W.fetch(url) }))),
        module: await attempt(async () => packed(await m.createFastmp({ wasm: await W.WebAssembly.compileStreaming(W.fetch(url)) }))),
        init: await attempt(() => m.init({ wasm: [W.fetch(url), W.fetch('/dist/fastmp-unpack-simd.wasm')] })),
        missing: await attempt(() => m.createFastmp({ wasm: W.fetch('/dist/missing.wasm') })),
      };
    });
    const simd = 'simd dc0064ca3fc00000';
    const refused = 'threw: fastmp: createFastmp() options.wasm must be a WebAssembly.Module, a Response, an ArrayBuffer or a typed array';
    expect(result).toEqual({
      local: simd,
      promise: refused,
      response: refused,
      module: refused,
      init: 'threw: fastmp: init() options.wasm[0] must be a WebAssembly.Module, a Response, an ArrayBuffer or a typed array',
      missing: refused,
    });
  }, 60_000);
});

describe('3: decode() of an iframe\'s Response or Blob is refused without the hint this realm\'s get (js/codec/options.js notBytesHint())', () => {
  test('the hint errors.md promises, for this realm\'s only', async () => {
    const result = await inPage(async () => {
      const { fastmp: m, W } = window;
      const message = (f) => {
        try {
          f();
          return 'no error';
        } catch (e) {
          return `${e.name === 'TypeError'}: ${e.message.replace(/^.*not an object/, '')}`;
        }
      };
      return {
        response: message(() => m.decode(new Response(new Uint8Array([1])))),
        iframeResponse: message(() => m.decode(new W.Response(new W.Uint8Array([1])))),
        blob: message(() => m.decode(new Blob([new Uint8Array([1])]))),
        iframeBlob: message(() => m.decode(new W.Blob([new W.Uint8Array([1])]))),
        iframeStream: message(() => m.decode(new W.ReadableStream())),
        impostor: message(() => m.decode(Object.create(W.Response.prototype))), // (no Response: no getter of it runs)
      };
    });
    const response = 'true: : a fetch Response: decode(new Uint8Array(await res.arrayBuffer())), or decodeAsync(res.body) to decode it as it arrives';
    const blob = 'true: : a Blob: decode(new Uint8Array(await blob.arrayBuffer()))';
    expect(result).toEqual({
      response,
      iframeResponse: 'true: ',
      blob,
      iframeBlob: 'true: ',
      iframeStream: 'true: : a stream: decodeAsync(stream) reads one value from it (decodeMultiStream(), decodeArrayStream() more)',
      impostor: 'true: ',
    });
  }, 60_000);
});

describe('confirmed: streams and extension codecs of other realms and of a second copy of the package', () => {
  test('the stream functions read a vm context\'s async generator of its chunks (bytes, buffers, arrays of numbers)', async () => {
    const source = () => vm.runInNewContext(`(async function* () {
      yield new Uint8Array([0x92, 1]); yield new Uint8Array([2, 0xa1]).buffer; yield [0x78, 0x93]; yield new Uint8Array([1, 2, 3]).subarray(0, 3);
    })()`);
    const all = [];
    for await (const v of fm.decodeMultiStream(source())) all.push(v);
    expect(all).toEqual([[1, 2], 'x', [1, 2, 3]]);
    expect(await fm.decodeAsync(vm.runInNewContext('(async function* () { yield new Uint8Array([0x93, 1]); yield new Uint8Array([2, 3]); })()'))).toEqual([1, 2, 3]);
    const shaped = vm.runInNewContext('(async function* () { yield new Uint8Array([0x91, 0x92]); yield new Uint8Array([1, 2]); })()');
    const elements = [];
    for await (const v of fm.decodeArrayStream(shaped, { shape: Int8Array })) elements.push(v);
    expect(elements).toEqual([new Int8Array([1, 2])]);
  });

  test('an iframe\'s ReadableStreams (a byte stream, a Response body, a Blob\'s), cancelled when the loop leaves early; its copy\'s ExtensionCodec', async () => {
    const result = await inPage(async () => {
      const { fastmp: m, peer, W } = window;
      const hexOf = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
      const chunks = (...parts) => ({ start(c) {
        for (const p of parts) c.enqueue(new W.Uint8Array(p));
        c.close();
      } });
      const out = {};
      out.stream = await m.decodeAsync(new W.ReadableStream(chunks([0x92, 1], [2])));
      out.bytes = await m.decodeAsync(new W.ReadableStream({ type: 'bytes', ...chunks([0x92, 1], [2]) }));
      out.body = await m.decodeAsync(new W.Response(new W.Uint8Array([0x92, 1, 2])).body);
      out.blob = await m.decodeAsync(new W.Blob([new W.Uint8Array([0x92, 1, 2])]).stream());
      out.array = [];
      for await (const v of m.decodeArrayStream(new W.ReadableStream(chunks([0x93, 1, 2], [3])))) out.array.push(v);
      let cancelled = false;
      const endless = new W.ReadableStream({ pull(c) { c.enqueue(new W.Uint8Array([7])); }, cancel() { cancelled = true; } });
      for await (const v of m.decodeMultiStream(endless)) if (v === 7) break;
      out.cancelled = cancelled;
      // A codec of the iframe's copy of fastmp, as @msgpack/msgpack takes one of its own iframe copy.
      const codec = new W.fastmp.ExtensionCodec();
      codec.register({ type: 3, encode: (v) => (v?.point ? new W.Uint8Array([v.point]) : null), decode: (d) => ({ back: d[0] }) });
      const peerCodec = new W.peer.ExtensionCodec();
      peerCodec.register({ type: 3, encode: (v) => (v?.point ? new W.Uint8Array([v.point]) : null), decode: (d) => ({ back: d[0] }) });
      const bytes = m.encode({ p: { point: 9 }, t: new W.Date(5) }, { extensionCodec: codec });
      out.codec = [hexOf(bytes), hexOf(peer.encode({ p: { point: 9 }, t: new W.Date(5) }, { extensionCodec: peerCodec }))];
      out.decoded = JSON.stringify(m.decode(bytes, { extensionCodec: codec }));
      out.typed = Object.prototype.toString.call(m.decode(m.encode(new Float32Array([1]), { typedArrays: 'ext' }), { extensionCodec: codec }));
      return out;
    });
    expect(result).toEqual({
      stream: [1, 2], bytes: [1, 2], body: [1, 2], blob: [1, 2], array: [1, 2, 3], cancelled: true,
      codec: ['82a170d40309a174d7ff01312d0000000000', '82a170d40309a174d7ff01312d0000000000'],
      decoded: '{"p":{"back":9},"t":"1970-01-01T00:00:00.005Z"}',
      typed: '[object Float32Array]', // (ext 0x74: the iframe copy's codec passes it through, as ours does)
    });
  }, 60_000);
});
