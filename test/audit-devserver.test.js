// audit-devserver.test.js - the dev-server audit: the package as an app developer
// meets it before a production build, installed from its packed tarball (`npm pack`,
// extracted into a scratch project's node_modules, as npm installs it):
//   - Vite's dev server (`vite` serve mode, its defaults: dependencies pre-bundled into
//     node_modules/.vite/deps/), Vite 8 (the repo's: Rolldown pre-bundles) and Vite 7.3
//     (esbuild pre-bundles; installed from the npm registry into the engines' cache,
//     test/engines/launch.js fromNpm(), on the first run), a page in Debian's Chromium
//     that awaits init(), calls the main API, the ASN.1 functions, createFastmp() and
//     fastmp-wasm/inline, and starts a module Worker that imports the package; and a
//     page that never calls init() (its first call fetches the kernels in the
//     background): the results, the .wasm fetched (the SIMD builds, from the package's
//     dist/, as application/wasm), and no error or warning in the browser's console or
//     the server's log;
//   - webpack 5 in development mode (eval source maps), the same page, where the
//     bundlers' cache (test/audit-bundlers.test.js) has webpack;
//   - TypeScript consumers of the installed declarations: `module: commonjs` (whose
//     moduleResolution is node10), on the repo's TypeScript and on 5.0.
// (test/package.test.js loads a page and its Worker from Vite 8's dev server and checks their
// results; here Vite 8 is also the control for Vite 7, and both are held to what that test does
// not check: where the .wasm come from, a clean console and server log, the page that never
// calls init(). tsc with node16, nodenext and bundler is test/types.test.js's.)
//
// Findings (each a test that fails on f58f07e):
//   1. Vite before 8 (esbuild pre-bundling; Vite 5.4 and 7.3 tried) breaks every page
//      that imports fastmp-wasm in its dev server: the pre-bundled copy in
//      node_modules/.vite/deps/ keeps js/siblings.js's `new URL('../dist/…wasm',
//      import.meta.url)`, which then points into node_modules/.vite/dist/, where no file
//      is, and Vite's HTML fallback answers it with index.html (200, text/html):
//      init() rejects with the engine's "CompileError: WebAssembly.compile(): expected
//      magic word 00 61 73 6d, found 3c 21 64 6f", naming no file, and a page that never
//      calls init() runs in pure JS for good, silently (vitejs/vite#8427, open; Vite 8's
//      Rolldown pre-bundling rewrites the URL). The README says "Bundlers: nothing to
//      configure. Vite (build and dev server, …)".
//   2. TypeScript with `module: commonjs` (moduleResolution node10, its default on
//      TypeScript 5) cannot find the declarations of fastmp-wasm/inline and
//      fastmp-wasm/msgpackr (TS2307): node10 does not read "exports", and the package has
//      no "typesVersions" for its subpaths; the README: "Declarations ship for ES modules
//      and CommonJS, and compile with TypeScript 5.0 or later".
// The fixes (the audit's fix.diff): js/siblings.js fetches node_modules/fastmp-wasm/dist/ where
// the URL points into node_modules/.vite/dist/ (one String.replace per module load, none per
// call; 39 B gzipped on the pack page, whose ceiling rises one 128 B step); package.json
// "typesVersions" maps "inline" and "msgpackr" to their declarations.
/* global window */ // (in the functions that run on the page)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CACHE, fromNpm } from './engines/launch.js';
import { ROOT } from './helpers.js';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const VITE7 = 'vite@7.3.8';
const WEBPACK = join(CACHE, 'bundlers/node_modules/webpack');

/** The app: a page that awaits init() and calls the API, the inline entry and a module Worker. */
const HEX = `const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');`;
const FILES = {
  'index.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title></head>
<body><script type="module" src="./main.js"></script></body></html>
`,
  'main.js': `import { createFastmp, decode, decodeBMP, encode, encodeBMP, init, pack } from 'fastmp-wasm';
${HEX}
const worker = () => new Promise((resolve) => {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e) => resolve(e.data);
  w.onerror = (e) => resolve({ error: String(e.message) });
});
async function run() {
  const build = await init();
  const { v } = decode(encode({ v: new Float32Array([1, 2]) }), { shape: { v: Float32Array } });
  const fm = await createFastmp();
  const inline = await import('fastmp-wasm/inline');
  return {
    init: build,
    pack: hex(pack(new Float32Array([1.5]))),
    encode: hex(encode({ v: new Float32Array([1, 2]) })),
    decode: v.constructor.name + ' ' + v.join(),
    bmp: hex(encodeBMP('Zo\\u00eb')) + ' ' + decodeBMP(encodeBMP('fastmp')),
    instance: fm.backend() + ' ' + hex(fm.pack(new Float32Array([1.5]))),
    inline: (await inline.init()) + ' ' + hex(inline.encode({ v: new Float32Array([1, 2]) })),
    worker: await worker(),
  };
}
window.result = run().catch((e) => ({ error: String(e?.stack ?? e) }));
`,
  'worker.js': `import { decode, encode, encodeBMP, init } from 'fastmp-wasm';
${HEX}
init().then(
  (build) => postMessage({ init: build, encode: hex(encode({ v: new Float32Array([1, 2]) })), decode: decode(encode([1.5])).join(), bmp: hex(encodeBMP('Zo\\u00eb')) }),
  (e) => postMessage({ error: String(e?.stack ?? e) }),
);
`,
  // A page that never calls init(): its first pack() runs in pure JS and starts loading the
  // pack module; loaded() says when its kernels are in (the instance's wasm memory exists).
  'noinit.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>noinit</title></head>
<body><script type="module" src="./noinit.js"></script></body></html>
`,
  'noinit.js': `import { memoryStats, pack } from 'fastmp-wasm';
window.first = pack(new Float32Array(4096).fill(1.5)).length;
window.loaded = () => memoryStats().wasmMemory > 0;
`,
};

/** What the page's result is, every value written out by hand. */
const EXPECTED = {
  init: 'simd',
  pack: '91ca3fc00000', // [1.5]
  encode: '81a17692ca3f800000ca40000000', // { v: [1, 2] as float32 }
  decode: 'Float32Array 1,2',
  bmp: '005a006f00eb fastmp',
  instance: 'simd 91ca3fc00000',
  inline: 'simd 81a17692ca3f800000ca40000000',
  worker: { init: 'simd', encode: '81a17692ca3f800000ca40000000', decode: '1.5', bmp: '005a006f00eb' },
};
/** The .wasm the page, its instance and its Worker fetch: the SIMD builds, from the package's dist/. */
const SIMD_FROM_DIST = ['pack', 'strings', 'unpack'].map((m) => [`/node_modules/fastmp-wasm/dist/fastmp-${m}-simd.wasm`, 'application/wasm']);

let work;
let tarball;
let browser;

/** A scratch project with the packed package installed and the app's files. */
function project(name) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'node_modules/fastmp-wasm'), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', join(dir, 'node_modules/fastmp-wasm'), '--strip-components=1']);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  for (const [file, text] of Object.entries(FILES)) writeFileSync(join(dir, file), text);
  return dir;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-devserver-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  // --ignore-scripts: dist/ is built (build.sh); the prepack build's output would mix with the JSON.
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  tarball = join(work, packed.filename);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Opens `url` in a new context: { result (window.result once set), problems (console errors
 * and warnings, page errors, failed requests), wasm ([path, content-type] of each .wasm
 * response, once each), page, context }.
 */
async function open(url, { wait = true } = {}) {
  const context = await browser.newContext();
  const problems = [];
  const wasm = new Map();
  context.on('response', (r) => {
    const { pathname } = new URL(r.url());
    const type = r.headers()['content-type'];
    if (pathname.endsWith('.wasm')) wasm.set(`${pathname} ${type}`, [pathname, type]);
  });
  context.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e}`));
  await page.goto(url);
  let result;
  if (wait) {
    await page.waitForFunction(() => window.result !== undefined);
    result = await page.evaluate(() => window.result);
  }
  return { result, problems, wasm: () => [...wasm.values()].sort(), page, context };
}

/** A Vite dev server (createServer of the Vite at `vite`, its defaults) of `root`: { origin, log, close }. */
async function viteDev(vite, root) {
  const { createServer: createVite } = await import(join(vite, 'dist/node/index.js'));
  const log = [];
  const logger = {
    hasWarned: false,
    info() {},
    warn: (m) => log.push(`warn: ${m}`),
    warnOnce: (m) => log.push(`warn: ${m}`),
    error: (m) => log.push(`error: ${m}`),
    clearScreen() {},
    hasErrorLogged: () => false,
  };
  const server = await createVite({ root, configFile: false, envDir: false, customLogger: logger, server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  const origin = server.resolvedUrls.local[0].replace(/\/$/, '');
  return { origin, log, close: () => server.close() };
}

const VITES = {
  8: () => join(ROOT, 'node_modules/vite'),
  7: () => {
    const got = fromNpm('vite7', VITE7, 'vite/package.json', { who: 'audit-devserver' });
    if (got.missing) throw new Error(got.missing);
    return dirname(got.path);
  },
};

describe.each([['8'], ['7']])('the Vite %s dev server, no configuration', (major) => {
  let server;
  let root;

  beforeAll(async () => {
    root = project(`vite${major}`);
    server = await viteDev(VITES[major](), root);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  test(`Vite ${major} dev: the page awaits init(), calls the API, createFastmp(), fastmp-wasm/inline and a module Worker: SIMD builds from the package's dist/, no error or warning`, async () => {
    const { result, problems, wasm, context } = await open(`${server.origin}/`);
    await context.close();
    expect(result).toEqual(EXPECTED);
    expect(wasm()).toEqual(SIMD_FROM_DIST);
    expect(problems).toEqual([]);
    expect(server.log).toEqual([]);
  });

  test(`Vite ${major} dev: a page that never calls init() gets the pack kernels from its first call, in the background`, async () => {
    const { page, problems, wasm, context } = await open(`${server.origin}/noinit.html`, { wait: false });
    await page.waitForFunction(() => window.first !== undefined);
    expect(await page.evaluate(() => window.first)).toBe(3 + 5 * 4096);
    // Bounded: where the module never loads, this throws once its timeout is up.
    await page.waitForFunction(() => window.loaded(), undefined, { timeout: 10_000 }).catch(() => {});
    const loaded = await page.evaluate(() => window.loaded());
    await context.close();
    expect({ loaded, wasm: wasm(), problems }).toEqual({ loaded: true, wasm: [SIMD_FROM_DIST[0]], problems: [] });
  });
});

test.runIf(existsSync(join(WEBPACK, 'package.json')))('webpack 5 in development mode (eval source maps): the same page, SIMD builds emitted and fetched, no warning', async () => {
  const webpack = (await import(join(WEBPACK, 'lib/index.js'))).default;
  const dir = project('webpack');
  const out = join(dir, 'out');
  const compiler = webpack({ mode: 'development', context: dir, entry: './main.js', output: { path: out, filename: 'main.js' } });
  const stats = await new Promise((resolve, reject) => compiler.run((e, s) => (e ? reject(e) : resolve(s))));
  await new Promise((resolve) => compiler.close(resolve));
  const json = stats.toJson({ all: false, warnings: true, errors: true });
  expect([...json.errors, ...json.warnings].map((w) => w.message.split('\n')[0])).toEqual([]);
  writeFileSync(join(out, 'index.html'), '<!doctype html><link rel="icon" href="data:,"><script src="./main.js"></script>');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const http = createServer(async (req, res) => {
    let path = new URL(req.url, 'http://x').pathname;
    if (path === '/') path = '/index.html';
    try {
      const body = await readFile(join(out, path));
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    const { result, problems, wasm, context } = await open(`http://127.0.0.1:${http.address().port}/`);
    await context.close();
    expect(result).toEqual(EXPECTED);
    // webpack names the emitted builds by content hash: three distinct modules, as application/wasm.
    expect(wasm().map(([, type]) => type)).toEqual(['application/wasm', 'application/wasm', 'application/wasm']);
    expect(problems).toEqual([]);
  } finally {
    http.close();
  }
}, 60_000);

describe('TypeScript, module commonjs (moduleResolution node10, its default)', () => {
  const CONSUMER = `import { decode, encode, init } from 'fastmp-wasm';
import { encode as encodeInline, initSync } from 'fastmp-wasm/inline';
import { useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
export const v: Float32Array = decode(encode({ v: new Float32Array(1) }), { shape: { v: Float32Array } }).v;
export const ready: Promise<string> = init();
export const bytes: Uint8Array = encodeInline(1);
export const build: string = initSync();
export const registered: boolean = useFastmpForTypedArrays({ addExtension() {} });
// @ts-expect-error: initSync() returns the build, not a number (the entry's declarations are not any)
export const wrong: number = initSync();
`;
  let dir;
  beforeAll(() => {
    dir = project('typescript');
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
  });

  test.each([['typescript'], ['typescript-5.0']])('%s: the main entry, fastmp-wasm/inline and fastmp-wasm/msgpackr type-check', (ts) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', ts, 'bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', 'false',
      '--module', 'commonjs', '--target', 'es2022', '--lib', 'es2022,dom', 'consumer.ts'],
    { cwd: dir, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
  });
});
