// csp.test.js - pages whose Content Security Policy forbids compiling wasm
// (script-src 'self', without 'wasm-unsafe-eval'): init() falls back to pure
// JS and says so, every call still works, an explicit wasm backend fails
// clearly; the same page without the policy runs the SIMD build. In Chromium
// (playwright-core) and Firefox ESR (puppeteer-core), both Debian's.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './helpers.js';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const FIREFOX = '/usr/bin/firefox-esr';
const STRICT = "default-src 'self'; script-src 'self'";

let server;
let origin;

beforeAll(async () => {
  // /strict/... is served with the policy, /open/... without; both map to the repository.
  server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const strict = url.pathname.startsWith('/strict/');
    const path = normalize(decodeURIComponent(url.pathname.replace(/^\/(strict|open)\//, '/')));
    try {
      const body = await readFile(join(ROOT, path));
      const headers = { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' };
      if (strict || req.headers.referer?.includes('/strict/')) headers['content-security-policy'] = STRICT;
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

afterAll(() => server?.close());

/** What the page reports, strict or open. */
async function pageResult(openPage, mode) {
  return openPage(`${origin}/${mode}/test/browser/csp.html`);
}

function expectStrict(r) {
  expect(r.failed).toBeUndefined();
  expect([r.init, r.backend, r.explicitJs, r.inline]).toEqual(['js', 'js', 'js', 'js']);
  expect(r.forcedSimd).toMatch(/^error: /); // asked for wasm where it cannot compile: an error, not a silent fallback
  expectSameResults(r);
}

function expectSameResults(r) {
  expect(r.packed).toBe('94ca3fc00000cac0000000ca40500000ca7fc00000');
  expect(r.roundTrip).toEqual(['1.5', '-2', '3.25', 'NaN']);
  expect(r.message).toBe('82a17692ca3f000000ca3f800000a16ea178');
  expect(r.decoded).toEqual([0.5, 1]);
  expect(r.bmp).toBe('Grüße');
}

const BROWSERS = [
  ['Chromium', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
    return { browser, open: async (url) => {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => globalThis.cspResult !== undefined);
      return page.evaluate(() => globalThis.cspResult);
    } };
  }],
  ['Firefox ESR', async () => {
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    return { browser, open: async (url) => {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => globalThis.cspResult !== undefined);
      return page.evaluate(() => globalThis.cspResult);
    } };
  }],
];

describe.each(BROWSERS)('%s', (name, launch) => {
  let session;
  beforeAll(async () => {
    if (name === 'Firefox ESR' && !existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: ./build.sh installs firefox-esr`);
    session = await launch();
  });
  afterAll(async () => session?.browser.close());

  test('script-src \'self\' without \'wasm-unsafe-eval\': pure JS, backend() says js, every call works', async () => {
    expectStrict(await pageResult(session.open, 'strict'));
  });

  test('the same page without the policy runs the SIMD build', async () => {
    const r = await pageResult(session.open, 'open');
    expect(r.failed).toBeUndefined();
    expect([r.init, r.backend, r.forcedSimd, r.explicitJs, r.inline]).toEqual(['simd', 'simd', 'simd', 'js', 'simd']);
    expectSameResults(r);
  });
});
