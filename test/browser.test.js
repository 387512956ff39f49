// The browser path: a page imports js/index.js, which fetches its sibling
// .wasm with new URL(..., import.meta.url), in Debian's headless Chromium.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT } from './helpers.js';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let server;
let browser;
let origin;
const fetched = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    fetched.push(path);
    try {
      const body = await readFile(join(ROOT, path === '/' ? 'test/browser/page.html' : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  // launch() gives Chromium its own new empty profile directory.
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test.each([
  [{}, 'simd'],
  [{ backend: 'scalar' }, 'scalar'],
])('Chromium loads the sibling wasm and runs it (%o)', async (options, expected) => {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => typeof window.runCheck === 'function');
  const result = await page.evaluate((o) => window.runCheck(o), options);
  expect(result).toEqual({
    init: expected,
    backend: expected,
    hex: '94ca3fc00000cac0000000ca40500000ca7149f2ca',
    same: true,
    error: ['TYPE', 1, 2],
  });
  for (const module of ['pack', 'unpack']) expect(fetched).toContain(`/dist/fastmp-${module}-${expected}.wasm`);
  await page.close();
});

test.each([
  [{ pureJs: 'never' }],
  [{ backend: 'scalar', pureJs: 'never' }],
  [{}],
])('Chromium: BMPString, IA5String and VisibleString without Node\'s Buffer (%o)', async (options) => {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => typeof window.runStrings === 'function');
  expect(await page.evaluate((o) => window.runStrings(o), options)).toEqual({
    hasBuffer: false,
    head: 'feff0047007200fc',
    reference: true,
    roundTrip: true,
    der: true,
    ascii: true,
    errors: [['SURROGATE', 40, 80], ['SURROGATE', 70, 140], ['RANGE', 50, 50], ['RANGE', 70, 70], ['RANGE', 90, 90]],
  });
  await page.close();
});

// BMPString decode without Node's Buffer, on every path: content of one-byte
// chars may be made into a string through TextDecoder('windows-1252') only
// where every char is ASCII (windows-1252 maps 0x80-0x9F elsewhere), so
// Latin-1 content must come out exact too. The page runs this as source text
// (the test runner rewrites a dynamic import() in this file's functions).
const ONE_BYTE_ROUTES = `async (o) => {
  const { createFastmp, FastmpError } = await import('/js/index.js');
  const fm = await createFastmp(o);
  let seed = 1;
  const random = (k) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % k);
  const bytesOf = (units) => {
    const b = new Uint8Array(2 * units.length);
    units.forEach((u, i) => { b[2 * i] = u >> 8; b[2 * i + 1] = u & 0xff; });
    return b;
  };
  const stringOf = (units) => {
    let s = '';
    for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode.apply(null, units.subarray(i, i + 4096));
    return s;
  };
  const wrong = [];
  for (const n of [16, 47, 48, 100, 127, 128, 129, 144, 200, 1024, 65536]) {
    for (const max of [0x7f, 0xff]) {
      const units = Uint16Array.from({ length: n }, () => random(max + 1));
      if (max === 0xff) units[n >> 1] = 0x80 + random(0x20); // a char that windows-1252 maps elsewhere
      if (fm.decodeBMP(bytesOf(units)) !== stringOf(units)) wrong.push(['one-byte', n, max]);
    }
    if (n > 200) continue;
    for (let at = 0; at < n; at++) {
      const units = Uint16Array.from({ length: n }, () => random(0x80));
      units[at] = [0x80, 0x9f, 0xff, 0x100, 0x4e2d][at % 5];
      if (fm.decodeBMP(bytesOf(units)) !== stringOf(units)) wrong.push(['wider', n, at]);
      units[at] = 0xd800 + random(0x800);
      try {
        fm.decodeBMP(bytesOf(units));
        wrong.push(['no error', n, at]);
      } catch (e) {
        if (!(e instanceof FastmpError) || e.code !== 'SURROGATE' || e.index !== at || e.offset !== 2 * at) wrong.push(['error', n, at, String(e)]);
      }
    }
  }
  return { hasBuffer: typeof Buffer !== 'undefined', wrong };
}`;

test.each([
  [{ pureJs: 'always' }],
  [{ pureJs: 'never' }],
  [{ backend: 'scalar', pureJs: 'never' }],
  [{}],
])('Chromium: BMPString of ASCII and Latin-1 chars, a wider char or a surrogate at every position (%o)', async (options) => {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  const result = await page.evaluate(`(${ONE_BYTE_ROUTES})(${JSON.stringify(options)})`);
  expect(result).toEqual({ hasBuffer: false, wrong: [] });
  await page.close();
});
