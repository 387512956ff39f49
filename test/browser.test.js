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
  [{}, 'simd', '/dist/fastmp-simd.wasm'],
  [{ backend: 'scalar' }, 'scalar', '/dist/fastmp-scalar.wasm'],
])('Chromium loads the sibling wasm and runs it (%o)', async (options, expected, file) => {
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
  expect(fetched).toContain(file);
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
