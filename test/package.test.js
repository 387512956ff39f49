// The package as users get it: `npm pack`, the tarball installed into a fresh
// project in a temporary directory (with vite from the registry), then used
// from Node ESM, Node CommonJS, tsc --strict, and a Vite build and a plain
// page in headless Chromium, on the page and in a Worker, with SIMD on and
// turned off in the engine. The consumer's files are test/package/*; every
// consumer runs test/package/check.js, whose results are compared here with
// bytes written out by hand.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './helpers.js';

const FIXTURES = join(ROOT, 'test/package');
const VITE = JSON.parse(readFileSync(join(ROOT, 'node_modules/vite/package.json'), 'utf8')).version;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// V8 runs wasm SIMD128 on x86-64 only with SSE4.1: without it the engine
// rejects SIMD modules, as an engine without SIMD does (validate() is false).
const NO_SIMD_FLAG = '--no-enable-sse4-1';
const x64 = process.arch === 'x64';

/**
 * What check.js returns on `backend` (`simd`: whether the engine has SIMD,
 * which a forced scalar build does not change): every value written out by hand.
 */
const expected = (backend, simd = backend === 'simd') => ({
  backend,
  simd,
  small: '94ca3fc00000cac0000000ca40500000ca7149f2ca', // [1.5, -2, 3.25, 1e30]
  floatsHead: 'dc1000cac42aaaabcac42a9555', // array16 of 4096; -2048/3, -2047/3
  floats: true,
  floatsBack: true,
  ints: '9700ff7fcc80d0dfce00010000d280000000', // 0, -1, 127, 128, -33, 65536, -2^31
  intsBack: '0,-1,127,128,-33,65536,-2147483648',
  bmp: '005a006f00eb002020ac', // 'Zoë €'
  bmpLong: true,
  bmpBack: true,
  der: '1e06005a006f00eb',
  surrogate: [true, 'SURROGATE', 2],
});

/** The environment of a child process, without what `npm test` or the caller set. */
function cleanEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^FASTMP_/i.test(k)));
  return { ...env, ...extra };
}

const run = (file, args, cwd, env) => execFileSync(file, args, { cwd, env: cleanEnv(env), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const npm = (args, cwd) => run('npm', args, cwd);
const node = (args, cwd, env) => run(process.execPath, args, cwd, env);

let work;
let project;
let packed;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-package-'));
  // --ignore-scripts: the prepack build already ran (build.sh), and its output would mix with the JSON.
  [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT));
  project = join(work, 'consumer');
  mkdirSync(project);
  for (const name of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, name), join(project, name));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fastmp-consumer', private: true, type: 'module' }));
  npm(['install', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename), `vite@${VITE}`], project);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the tarball holds the JS, the declarations, the wasm and the licence, nothing else, and no dependencies', () => {
  expect(packed.files.map((f) => f.path).sort()).toEqual([
    'LICENSE',
    'README.md',
    // `npx fastmp-wasm bench`, and the C it builds natively where a compiler is found.
    'bin/bench.js', 'bin/fastmp-wasm.js', 'bin/kernels.js', 'bin/loops.js', 'bin/native.js', 'bin/no-msgpack-c/msgpack.h', 'bin/report.js', 'bin/timing.js', 'bin/workloads.js',
    'c/fastmp.h', 'c/fm_blocks.h', 'c/fm_bool.c', 'c/fm_float.c', 'c/fm_int.c', 'c/fm_module.c', 'c/fm_msgpack.h', 'c/fm_platform.h', 'c/fm_result.h', 'c/fm_string.c',
    'c/harness/fm_bench.c', 'c/harness/fm_cli.c', 'c/harness/fm_ops.c', 'c/harness/fm_ops.h',
    'dist/fastmp-inline-pack.js', 'dist/fastmp-inline-strings.js', 'dist/fastmp-inline-unpack.js',
    // The Node entries, built into single files (scripts/build-node.js).
    'dist/fastmp-node-msgpackr.js', 'dist/fastmp-node-shared.js', 'dist/fastmp-node.js',
    'dist/fastmp-pack-scalar.wasm', 'dist/fastmp-pack-simd.wasm', 'dist/fastmp-strings-scalar.wasm', 'dist/fastmp-strings-simd.wasm',
    'dist/fastmp-unpack-scalar.wasm', 'dist/fastmp-unpack-simd.wasm',
    'docs/asn1.md', 'docs/browsers.md', 'docs/chart.svg', 'docs/contributing.md', 'docs/errors.md', 'docs/hardening.md', 'docs/history.md', 'docs/messages.md', 'docs/performance.md', 'docs/typed-arrays.md',
    'js/abi.js', 'js/api/decoding.js', 'js/api/encoding.js', 'js/api/streaming.js', 'js/api/strings.js', 'js/api/typed.js', 'js/args.js',
    'js/codec/bind.js', 'js/codec/decoder-extras.js', 'js/codec/decoder-inputs.js', 'js/codec/decoder.js', 'js/codec/decoding.js', 'js/codec/encoder-outputs.js', 'js/codec/encoder.js', 'js/codec/encoding.js', 'js/codec/ext.js', 'js/codec/index.js', 'js/codec/make.js', 'js/codec/options.js', 'js/codec/path.js', 'js/codec/port-contract.js', 'js/codec/port-js.js', 'js/codec/scan.js', 'js/codec/shape.js', 'js/codec/stores.js', 'js/codec/stream.js', 'js/codec/timestamp.js', 'js/codec/typed.js', 'js/codec/utf8.js',
    'js/core.js', 'js/crossovers.js', 'js/errors.js', 'js/index.d.cts', 'js/index.d.ts', 'js/index.js', 'js/inline.js', 'js/instances.js', 'js/intrinsics.js', 'js/io.js', 'js/kinds.js', 'js/lifetimes.js', 'js/loader.js',
    'js/module-api.js',
    'js/msgpackr-node.js', 'js/msgpackr.cjs', 'js/msgpackr.d.cts', 'js/msgpackr.d.ts', 'js/msgpackr.js', 'js/node.cjs', 'js/node.js',
    'js/runtime.browser.js', 'js/runtime.js',
    'js/siblings.js', 'js/strings.js', 'js/surface.js', 'js/tags.js', 'js/text.js', 'js/typed.js',
    'js/wasm/allocator.js', 'js/wasm/errors.js', 'js/wasm/heap.js', 'js/wasm/outputs.js', 'js/wasm/ranges.js', 'js/wasm/strings.js',
    'js/wire.js',
    'package.json',
  ]);
  // A tripwire for something large packed by mistake, not a budget: the JS, the declarations,
  // the wasm builds, the inline builds, the Node entries built into single files, the bench CLI
  // with its C and the docs/ pages pack to about 400 KB.
  expect(packed.size).toBeLessThan(450_000);
  const installed = JSON.parse(readFileSync(join(project, 'node_modules/fastmp-wasm/package.json'), 'utf8'));
  expect(installed.dependencies ?? {}).toEqual({});
  expect(installed.engines.node).toBeDefined();
});

test('Node ESM: ready on import; fastmp-wasm/inline is the same API and instance (in Node both are dist/fastmp-node.js)', () => {
  expect(JSON.parse(node(['esm.mjs'], project)))
    .toEqual({ main: expected('simd'), inlineBackend: 'scalar', inline: expected('scalar', true), shared: true });
  expect(JSON.parse(node(['esm.mjs'], project, { FASTMP_BACKEND: 'scalar' })).main).toEqual(expected('scalar', true));
});

test('Node CommonJS: require() returns the API ready to use, the same instance as import()', () => {
  expect(JSON.parse(node(['cjs.cjs'], project))).toEqual({ main: expected('simd'), oneInstance: true });
  expect(JSON.parse(node(['cjs.cjs'], project, { FASTMP_BACKEND: 'scalar' })).main).toEqual(expected('scalar', true));
});

test('a resolver that ignores "exports" (only "main") finds the default entry, which works in Node', () => {
  const installed = join(project, 'node_modules/fastmp-wasm');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  expect(manifest.main).toBe(manifest.exports['.'].default);
  const entry = join(installed, manifest.main);
  const script = `const m = await import(${JSON.stringify(entry)}); await m.init(); process.stdout.write(Buffer.from(m.encode({ a: new Float32Array([1.5]) })).toString('hex'));`;
  expect(node(['--input-type=module', '-e', script], project)).toBe('81a16191ca3fc00000');
});

test.runIf(x64)(`Node with SIMD off in the engine (${NO_SIMD_FLAG}): import and require pick the scalar build`, () => {
  expect(JSON.parse(node([NO_SIMD_FLAG, 'esm.mjs'], project)).main).toEqual(expected('scalar'));
  expect(JSON.parse(node([NO_SIMD_FLAG, 'cjs.cjs'], project)).main).toEqual(expected('scalar'));
});

test('tsc --strict type-checks an ESM and a CommonJS consumer of the installed declarations', () => {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  let output = '';
  try {
    node([tsc, '-p', join(project, 'tsconfig.json')], project);
  } catch (e) {
    output = `${e.stdout}${e.stderr}` || String(e);
  }
  expect(output).toBe('');
});

const FIREFOX = '/usr/bin/firefox-esr';

describe('in headless Chromium and Firefox', () => {
  const servers = [];
  const browsers = {};

  /** A static server of `root` that logs the paths asked for, with their content types. */
  async function serve(root) {
    const server = { log: [] };
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
    server.http = createServer(async (req, res) => {
      let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
      if (path.endsWith('/')) path += 'index.html';
      try {
        const body = await readFile(join(root, path));
        const type = types[extname(path)] ?? 'application/octet-stream';
        server.log.push([path, type]);
        res.writeHead(200, { 'content-type': type }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise((resolve) => server.http.listen(0, '127.0.0.1', resolve));
    server.origin = `http://127.0.0.1:${server.http.address().port}`;
    servers.push(server);
    return server;
  }

  let built;
  let plain;

  beforeAll(async () => {
    node([join(project, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], project);
    built = await serve(join(project, 'dist'));
    plain = await serve(project);
    // launch() gives each browser a new empty profile directory.
    browsers.simd = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
    if (x64) browsers.noSimd = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...FLAGS, `--js-flags=${NO_SIMD_FLAG}`] });
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: ./build.sh installs firefox-esr`);
    browsers.firefox = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  });

  afterAll(async () => {
    for (const browser of Object.values(browsers)) await browser.close();
    for (const server of servers) server.http.close();
  });

  /** Opens `url`, waits for window.result (the page's and its Worker's checks). */
  async function open(browser, server, path) {
    server.log.length = 0;
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.origin}${path}`);
    await page.waitForFunction(() => window.result !== undefined);
    const result = await page.evaluate(() => window.result);
    await page.close();
    expect(errors).toEqual([]);
    const wasm = server.log.filter(([p]) => p.endsWith('.wasm'));
    return { result, wasm };
  }

  /** Which module and build a (hashed) asset path is: 'pack-simd', 'unpack-scalar', 'strings-simd', … */
  const build = (path) => path.match(/fastmp-((?:pack|unpack|strings)-(?:simd|scalar))-[\w-]+\.wasm$/)?.[1];
  /** What a page and its Worker fetch, each: the three modules of `b`, once. */
  const fetchedBy = (b) => ['pack', 'unpack', 'strings'].flatMap((m) => [`${m}-${b}`, `${m}-${b}`]).sort();
  const both = (b) => ({ init: b, page: expected(b), worker: { init: b, ...expected(b) } });

  test('Vite builds the page with no configuration: both builds of both wasm modules are emitted as assets', () => {
    const assets = readdirSync(join(project, 'dist/assets'));
    expect(assets.filter((f) => f.endsWith('.wasm')).map(build).sort())
      .toEqual(['pack-scalar', 'pack-simd', 'strings-scalar', 'strings-simd', 'unpack-scalar', 'unpack-simd']);
  });

  test('the Vite page and its Worker run the SIMD builds, fetched as application/wasm', async () => {
    const { result, wasm } = await open(browsers.simd, built, '/');
    expect(result).toEqual(both('simd'));
    expect(wasm.map(([path]) => build(path)).sort()).toEqual(fetchedBy('simd')); // the page's and the Worker's
    for (const [path, type] of wasm) {
      expect(path).toMatch(/^\/assets\/fastmp-(pack|unpack|strings)-simd-[\w-]+\.wasm$/);
      expect(type).toBe('application/wasm');
    }
  });

  test('fastmp-wasm/inline: the same results with no .wasm fetched (initSync in the Worker)', async () => {
    const { result, wasm } = await open(browsers.simd, built, '/?entry=inline');
    expect(result).toEqual(both('simd'));
    expect(wasm).toEqual([]);
  });

  test('a Worker that imports only encode() fetches only the typed-array module\'s pack-only build; one that imports only ASN.1 functions only the string module', async () => {
    const { result, wasm } = await open(browsers.simd, built, '/?entry=families');
    expect(result).toEqual({ encodeOnly: { backend: 'simd', value: 1 + 2 + 3 + 5 * 64 }, asn1Only: { backend: 'simd', value: true } });
    expect(wasm.map(([path]) => build(path))).toEqual(['pack-simd', 'strings-simd']);
  });

  /** What roundTrip() in main.js gives, wherever it runs: a small message's bytes written out by hand. */
  const roundTripped = (bytes) => ({
    small: '82a2696407a17692ca3fc00000cac0000000', // { id: 7, v: Float32Array [1.5, -2] }
    bytes, typed: true, values: true, floats: true, bmp: true,
  });

  for (const name of ['simd', 'firefox']) {
    test(`${name === 'simd' ? 'Chromium' : 'Firefox'}: a page that never calls init() encodes and decodes a message with Float32Arrays; one that calls before and after init() gets the same results`, async () => {
      const never = await open(browsers[name], built, '/?entry=noinit');
      expect(never.result).toEqual(roundTripped(never.result.bytes));
      // { id: 7, v: [1.5, -2], big: array16 of 4096 float 32s: 0, 1/3, … }
      expect(never.result.bytes.slice(0, 70)).toBe('83a2696407a17692ca3fc00000cac0000000a3626967dc1000ca00000000ca3eaaaaab');
      expect(never.result.bytes.length).toBe(2 * (25 + 5 * 4096));
      const { result, wasm } = await open(browsers[name], built, '/?entry=before-after');
      const same = roundTripped(never.result.bytes);
      expect(result).toEqual({ before: same, during: same, after: same, backend: name === 'simd' ? 'simd' : result.backend });
      expect(['simd', 'scalar']).toContain(result.backend);
      // init() loaded the modules this page's calls use (one each, of the build it reports).
      expect(wasm.map(([path]) => build(path)).sort()).toEqual(['pack', 'strings', 'unpack'].map((m) => `${m}-${result.backend}`));
    });
  }

  test('a plain <script type="module"> page (import map, no bundler) and its Worker', async () => {
    const { result, wasm } = await open(browsers.simd, plain, '/plain.html');
    expect(result).toEqual(both('simd'));
    const dist = '/node_modules/fastmp-wasm/dist/';
    expect(wasm.map(([path]) => path).sort()).toEqual(fetchedBy('simd').map((b) => `${dist}fastmp-${b}.wasm`));
  });

  test('the Vite dev server (dependency pre-bundling, no configuration): the page and its Worker, both entries', async () => {
    const vite = spawn(process.execPath, [join(project, 'node_modules/vite/bin/vite.js'), '--host', '127.0.0.1', '--port', '0'], { cwd: project, env: cleanEnv() });
    try {
      let output = '';
      const origin = await new Promise((resolve, reject) => {
        vite.stdout.on('data', (chunk) => {
          output += chunk;
          const url = stripVTControlCharacters(output).match(/http:\/\/127\.0\.0\.1:\d+/);
          if (url) resolve(url[0]);
        });
        vite.on('exit', (code) => reject(new Error(`vite exited (${code}): ${output}`)));
      });
      const server = { origin, log: [] };
      expect((await open(browsers.simd, server, '/')).result).toEqual(both('simd'));
      expect((await open(browsers.simd, server, '/?entry=inline')).result).toEqual(both('simd'));
    } finally {
      vite.kill();
    }
  });

  test.runIf(x64)(`with SIMD off in the engine (--js-flags=${NO_SIMD_FLAG}) every page reports 'scalar' and passes`, async () => {
    const vite = await open(browsers.noSimd, built, '/');
    expect(vite.result).toEqual(both('scalar'));
    expect(vite.wasm.map(([path]) => build(path)).sort()).toEqual(fetchedBy('scalar'));
    const inline = await open(browsers.noSimd, built, '/?entry=inline');
    expect(inline.result).toEqual(both('scalar'));
    expect(inline.wasm).toEqual([]);
    const page = await open(browsers.noSimd, plain, '/plain.html');
    expect(page.result).toEqual(both('scalar'));
  });
});
