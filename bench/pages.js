// pages.js - a built page as a browser fetches it: a static HTTP server for a
// directory on 127.0.0.1, Debian's headless Chromium driven by playwright-core,
// and loadPage(), which opens a page in a new browser context (its own empty
// cache), records every response with its body, waits for the page's
// completion marker and then for the network to be idle. bench/size.js weighs
// its apps' pages with it. Imports nothing of js/.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { chromium } from 'playwright-core';

/** The flags of REFERENCE.md §4; launch() adds a new empty --user-data-dir of its own. */
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const CHROMIUM = '/usr/bin/chromium';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * Serves the files of `dir` on 127.0.0.1 (a free port): '/' and any path
 * ending in '/' are its index.html. Resolves to { origin, served, close() },
 * `served` listing each request as { path, status, bytes }.
 */
export async function serve(dir) {
  const served = [];
  const server = createServer(async (req, res) => {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(dir, path));
    try {
      if (!file.startsWith(dir + sep)) throw new Error('outside');
      const body = await readFile(file);
      served.push({ path, status: 200, bytes: body.length });
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      served.push({ path, status: 404, bytes: 0 });
      res.writeHead(404, { 'content-type': 'text/plain' }).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, served, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Debian's Chromium, headless: never a browser that a tool downloads. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens `url` in a new context of `browser` and resolves, once the page has
 * logged a line starting with `marker` (or thrown, or `timeout` ms passed) and
 * then no request has been in flight for `idle` ms, to:
 * { finished: the marker's line or null, logs: the page's other console lines
 * (type log), problems: page errors, console errors, failed requests and the
 * timeout, responses: [{ url, status, type (the request's resource type),
 * body: Buffer }] }, of every http(s) response, in order.
 */
export async function loadPage(browser, url, { marker, idle = 500, timeout = 30_000 } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const logs = [];
  const problems = [];
  const pending = [];
  let inFlight = 0;
  let lastActivity = performance.now();
  let finished = null;
  let signal;
  const settled = new Promise((resolve) => { signal = resolve; });
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error') problems.push(`console error: ${text}`);
    else if (text.startsWith(marker)) {
      finished = text;
      lastActivity = performance.now();
      signal();
    } else if (message.type() === 'log') logs.push(text);
  });
  page.on('pageerror', (error) => {
    problems.push(`page error: ${error.message}`);
    lastActivity = performance.now();
    signal();
  });
  page.on('request', (request) => {
    if (!request.url().startsWith('http')) return;
    inFlight++;
    lastActivity = performance.now();
  });
  const ended = (request) => {
    if (!request.url().startsWith('http')) return;
    inFlight--;
    lastActivity = performance.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', (request) => {
    ended(request);
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (!response.url().startsWith('http')) return;
    const entry = { url: response.url(), status: response.status(), type: response.request().resourceType() };
    pending.push(response.body().then((body) => ({ ...entry, body }), (error) => {
      problems.push(`no body for ${entry.url}: ${error.message.split('\n')[0]}`);
      return { ...entry, body: Buffer.alloc(0) };
    }));
  });
  try {
    const started = performance.now();
    await page.goto(url);
    let timer;
    const timedOut = new Promise((resolve) => { timer = setTimeout(resolve, timeout, 'timeout'); });
    const outcome = await Promise.race([settled, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout' && finished === null) problems.push(`no line '${marker} …' within ${timeout} ms`);
    // Idle: nothing in flight for `idle` ms, and not since the marker either
    // (a module the page fetches late still counts).
    while (inFlight > 0 || performance.now() - lastActivity < idle) {
      if (performance.now() - started > 2 * timeout) {
        problems.push(`the network was not idle within ${2 * timeout} ms`);
        break;
      }
      await sleep(50);
    }
    const responses = await Promise.all(pending);
    for (const r of responses) if (r.status >= 400) problems.push(`HTTP ${r.status}: ${r.url}`);
    return { finished, logs, problems, responses };
  } finally {
    await context.close();
  }
}
