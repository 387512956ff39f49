// Audit: values from other realms (node:vm contexts, a Chromium iframe) and
// two copies of fastmp-wasm in one process. What other realms already had
// (typed arrays, buffers, Maps, Sets and Dates as values, Uint8Array inputs
// and targets) is held by test/boundary.test.js, test/messages.test.js and
// test/messages-hostile.test.js; here is what was missing. (Also found, documented rather
// than fixed, for their weight on every page: typed-array constructors of another realm as
// shape leaves or unpack() types, and the markers of another copy of fastmp-wasm: see
// docs/typed-arrays.md "Other realms work".)
/* global document, window */ // (in page.evaluate(): the page's)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import vm from 'node:vm';
import * as peer from '@msgpack/msgpack';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import * as fm from '../js/index.js';
import { ROOT } from './helpers.js';

const hex = (bytes) => Buffer.from(bytes).toString('hex');
/** A value made in a new vm context (another realm), with `globals` visible there. */
const foreign = (source, globals = {}) => vm.runInNewContext(`(${source})`, globals);

describe('1: options objects of another realm are plain objects (js/args.js checkOptions)', () => {
  // `{ sortKeys: true }` written in a vm context or an iframe was refused: "options must be a
  // plain object, not an object". @msgpack/msgpack reads it and writes the same bytes as for
  // a local one; so must fastmp, whose rule is "a plain object" (typed-arrays.md).
  test('encode(), Encoder, encodeInto() take them, and write the bytes @msgpack/msgpack writes', () => {
    const value = { b: 1, a: [2, 'x'] };
    const local = hex(fm.encode(value, { sortKeys: true }));
    expect(hex(peer.encode(value, foreign('{ sortKeys: true }')))).toBe(local);
    expect(hex(fm.encode(value, foreign('{ sortKeys: true }')))).toBe(local);
    expect(hex(new fm.Encoder(foreign('{ sortKeys: true }')).encode(value))).toBe(local);
    const target = new Uint8Array(32);
    const end = fm.encodeInto(value, target, 0, foreign('{ sortKeys: true }'));
    expect(hex(target.subarray(0, end))).toBe(local);
  });

  test('decode(), Decoder, decodeMulti(), pack(), unpack(), createFastmpSync() take them too', () => {
    const bytes = fm.encode([[1]]);
    expect(() => fm.decode(bytes, foreign('{ maxDepth: 1 }'))).toThrow(expect.objectContaining({ code: 'DEPTH' }));
    expect(new fm.Decoder(foreign('{ maxDepth: 5 }')).decode(bytes)).toEqual([[1]]);
    expect([...fm.decodeMulti(bytes, foreign('{ maxDepth: 5 }'))]).toEqual([[[1]]]);
    expect(hex(fm.pack(new Uint8Array([1, 2]), foreign('{ bin: false }')))).toBe('920102');
    expect(fm.unpack(fm.pack(new Float64Array([2])), Int8Array, foreign('{ integralFloats: true }'))).toEqual(new Int8Array([2]));
    expect(fm.createFastmpSync(foreign('{ backend: "js" }')).backend()).toBe('js');
  });

  test('still refused: an instance of a class of another realm, and a key inherited there', () => {
    expect(() => fm.encode(1, foreign('new (class Options {})()'))).toThrow(/Encoder\(\) options must be a plain object/);
    expect(() => fm.encode(1, foreign('new Map()'))).toThrow(/must be a plain object/);
    expect(() => fm.encode(1, foreign('Object.create({ sortKeys: true })'))).toThrow(/'sortKeys' is inherited/);
  });
});

describe('2: a shape that is a plain object of another realm (js/codec/shape.js compile)', () => {
  test('compiles as one of this realm does', () => {
    const bytes = fm.encode({ v: [1, 2], w: [[3]] });
    const shape = foreign('{ v: F, w: [F] }', { F: Float32Array });
    const out = fm.decode(bytes, { shape });
    expect(out.v).toEqual(new Float32Array([1, 2]));
    expect(out.w[0]).toEqual(new Float32Array([3]));
    expect(() => fm.decode(bytes, { shape: foreign('new (class Shape {})()') })).toThrow(/shape at \$: expected a typed-array constructor/);
  });
});

describe('3: a Date of another realm, when the codec has no timestamp encoder (js/codec/encoder.js writeOtherObject)', () => {
  // messages.md, difference 14: "A Date that no extension takes, the timestamp encoder
  // unregistered, is an empty map in both". A Date of a vm context was written as a
  // timestamp anyway: the same value, two different messages by the realm it came from.
  test('is an empty map, as a local one is and as @msgpack/msgpack writes both', () => {
    const codec = new fm.ExtensionCodec();
    codec.register({ type: -1, encode: null, decode: null });
    const date = foreign('new Date(1556636810389)');
    expect(hex(fm.encode(new Date(1556636810389), { extensionCodec: codec }))).toBe('80');
    expect(hex(fm.encode(date, { extensionCodec: codec }))).toBe('80');
    expect(hex(peer.encode(date))).toBe('80');
    // With the timestamp encoder (the default, ours or @msgpack/msgpack's codec) it stays a timestamp.
    expect(hex(fm.encode(date))).toBe(hex(fm.encode(new Date(1556636810389))));
    expect(hex(fm.encode(date, { extensionCodec: new peer.ExtensionCodec() }))).toBe('d7ff5cbead005cc8648a');
  });
});

describe('4: a Chromium iframe is another realm too', () => {
  test('its options objects, plain shapes and Dates', async () => {
    const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
    const server = createServer(async (req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
      try {
        const body = await readFile(join(ROOT, path === '/' ? 'test/browser/page.html' : path));
        res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      // (A module script, not import() in evaluate(), which Vitest would rewrite.)
      await page.addScriptTag({ type: 'module', content: 'import * as m from "/js/index.js"; window.fastmp = m;' });
      await page.waitForFunction(() => window.fastmp !== undefined);
      const result = await page.evaluate(() => {
        const m = window.fastmp;
        const frame = document.createElement('iframe');
        document.body.append(frame);
        const W = frame.contentWindow;
        const hexOf = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
        const attempt = (f) => {
          try {
            return f();
          } catch (e) {
            return `threw: ${e.message}`;
          }
        };
        W.F = Float32Array;
        return {
          options: attempt(() => hexOf(m.encode({ b: 1, a: 2 }, W.eval('({ sortKeys: true })')))),
          shape: attempt(() => m.decode(m.encode({ v: [1] }), { shape: W.eval('({ v: F })') }).v instanceof Float32Array),
          date: hexOf(m.encode(W.eval('new Date(5)'))),
        };
      });
      expect(result).toEqual({ options: '82a16102a16201', shape: true, date: 'd7ff01312d0000000000' });
    } finally {
      await browser.close();
      server.close();
    }
  }, 60000);
});
