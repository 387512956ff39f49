// audit-bundlers2.test.js - the second bundlers audit: what a page built by a bundler
// fetches, where no other test looks: Vite 8 production pages that load the package in a
// lazily imported chunk, in a Worker (Vite's default classic format and `worker.format: 'es'`),
// under a `base` subpath, with the .wasm served from another origin (CORS), through the
// msgpackr entry and createFastmp(); and bundles whose output has no import.meta (esbuild's
// default format for browsers, iife, and its cjs). Each page is served from 127.0.0.1 and
// loaded in Debian's Chromium (bench/pages.js); the .wasm it fetched are named by their
// source in dist/ (worker requests included).
//
// Findings (each a test that fails on a43e2e4):
//   1. createFastmpSync() on a page fetches all three modules at once, in the background,
//      whatever the app calls: docs/typed-arrays.md and js/instances.js say "the others
//      [load] on the first call that needs them". An app whose instance only packs fetches
//      the unpack and string kernels too (js/instances.js createInstanceSync: core.ready()
//      of every module starts each one's load).
//   2. A bundle whose format has no import.meta (esbuild's default for a browser bundle,
//      iife, and its cjs; Rolldown's iife): no .wasm is ever fetched, and init() rejects with
//      the engine's "TypeError: Failed to construct 'URL': Invalid URL", which names neither
//      file, cause nor cure (js/siblings.js pageUrl(): new URL(…, undefined)). docs/browsers.md
//      tells esbuild users to copy dist/*.wasm to where the URL points; with esbuild's default
//      format that recipe never works, in a page or in a classic Worker.
// Confirmed (the rest of the file): every page below runs, prints what Node computes, and
// fetches exactly the .wasm of the calls it makes, once each.
//
// The bundlers other than Vite come from the engines' cache (test/audit-bundlers.test.js
// installs them; FASTMP_BUNDLERS names another node_modules); without them their tests skip.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, loadPage } from '../bench/pages.js';
import { MARKER, inProject } from '../bench/size.js';
import { CACHE } from './engines/launch.js';
import { ROOT } from './helpers.js';

const TOOLS = process.env.FASTMP_BUNDLERS ?? join(CACHE, 'bundlers/node_modules');
const HAVE_ESBUILD = existsSync(join(TOOLS, 'esbuild/package.json'));

const DIST = join(ROOT, 'dist');
const WASM = readdirSync(DIST).filter((f) => f.endsWith('.wasm')).map((f) => [f, readFileSync(join(DIST, f))]);
/** A fetched .wasm by its source in dist/ (a bundler renames it). */
const sourceOf = (body) => WASM.find(([, bytes]) => bytes.equals(body))?.[0] ?? `an unknown file (${body.length} B)`;

const HEX = `const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');`;
const DONE = `console.log('${MARKER} done');`;
const HTML = (classic = false) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title></head>
<body><script ${classic ? '' : 'type="module" '}src="./main.js"></script></body></html>
`;
const ENCODED = '81a17692ca3f800000ca40000000'; // encode({ v: new Float32Array([1, 2]) })

/** Serves `dir` under `prefix` on 127.0.0.1; `cors`: every response allows any origin. Lists each path asked. */
async function serveAt(dir, { prefix = '/', cors = false } = {}) {
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm' };
  const asked = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    asked.push(path);
    const headers = { 'cache-control': 'no-store', ...(cors ? { 'access-control-allow-origin': '*' } : {}) };
    const file = normalize(join(dir, path.slice(prefix.length - 1).replace(/\/$/, '/index.html')));
    try {
      if (!path.startsWith(prefix) || !file.startsWith(dir + sep)) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, headers).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, asked, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Vite 8's production build of `root` (its defaults, and `config`) into `outDir`: its output files. */
async function viteBuild(root, outDir, config = {}) {
  const r = await build({ root, configFile: false, envDir: false, publicDir: false, mode: 'production', logLevel: 'silent', ...config, build: { outDir, emptyOutDir: true } });
  return (Array.isArray(r) ? r : [r]).flatMap((o) => o.output);
}

/** A loaded page: { printed, finished, problems, wasm: sources fetched (sorted, repeats kept), text: its JS }. */
function summary(loaded) {
  const wasm = [];
  let text = '';
  for (const r of loaded.responses) {
    if (extname(new URL(r.url).pathname) === '.wasm') wasm.push(sourceOf(r.body));
    else if (r.type !== 'document') text += r.body.toString('utf8');
  }
  return { printed: loaded.logs, finished: loaded.finished, problems: loaded.problems, wasm: wasm.sort(), text };
}

// ---- the Vite pages --------------------------------------------------------------------------

const WORKER = {
  'main.js': `const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onmessage = (e) => { console.log(e.data); ${DONE} };
worker.onerror = (e) => console.log('worker error: ' + e.message);
worker.postMessage({ v: new Float32Array([1, 2]) });`,
  // The README's recipe: chain on init(), no top-level await (Vite's default worker format is classic).
  'worker.js': `import { encode, init } from 'fastmp-wasm';
${HEX}
const ready = init();
onmessage = async (e) => postMessage((await ready) + ' ' + hex(encode(e.data)));`,
};

const PLAIN = {
  'main.js': `import { decode, encode, encodeBMP, init } from 'fastmp-wasm';
${HEX}
console.log(await init());
console.log(hex(encode({ v: new Float32Array([1, 2]) })) + ' ' + decode(encode([1.5])).join() + ' ' + hex(encodeBMP('Zo\\u00eb')));
${DONE}`,
};

/** name → { files, config (Vite's, or a function of the CDN origin), prefix (where the page is served), cdn, prints, fetches }. */
const VITE_PAGES = {
  // The app's second chunk, imported on demand, decodes: init() ran before it was evaluated, so
  // its first large decode loads the unpack module in the background; the next one uses it.
  lazy: {
    files: {
      'main.js': `import { encode, init } from 'fastmp-wasm';
console.log(await init());
const bytes = encode({ v: new Float64Array(5000).fill(1.5) });
const { run } = await import('./lazy.js');
console.log(run(bytes));
setTimeout(() => { console.log(run(bytes)); ${DONE} }, 1000);`,
      'lazy.js': `import { decode, memoryStats } from 'fastmp-wasm';
export const run = (bytes) => decode(bytes, { shape: { v: Float64Array } }).v.length + ' ' + (memoryStats().wasmMemory > 0);`,
    },
    prints: ['simd', '5000 true', '5000 true'],
    fetches: ['fastmp-pack-simd.wasm', 'fastmp-unpack-simd.wasm'],
  },
  worker: { files: WORKER, prints: [`simd ${ENCODED}`], fetches: ['fastmp-pack-simd.wasm'] },
  'worker-es': { files: WORKER, config: { worker: { format: 'es' } }, prints: [`simd ${ENCODED}`], fetches: ['fastmp-pack-simd.wasm'] },
  'base-subpath': {
    files: PLAIN, config: { base: '/sub/app/' }, prefix: '/sub/app/',
    prints: ['simd', `${ENCODED} 1.5 005a006f00eb`], fetches: ['fastmp-pack-simd.wasm', 'fastmp-strings-simd.wasm', 'fastmp-unpack-simd.wasm'],
  },
  'worker-base-subpath': { files: WORKER, config: { base: '/sub/app/' }, prefix: '/sub/app/', prints: [`simd ${ENCODED}`], fetches: ['fastmp-pack-simd.wasm'] },
  // The .wasm (only) from another origin that allows CORS (Vite's renderBuiltUrl, as a CDN setup writes it).
  'wasm-from-cdn': {
    files: PLAIN, cdn: true,
    config: (cdn) => ({ experimental: { renderBuiltUrl: (file) => (file.endsWith('.wasm') ? `${cdn}/${file}` : { relative: true }) } }),
    prints: ['simd', `${ENCODED} 1.5 005a006f00eb`], fetches: ['fastmp-pack-simd.wasm', 'fastmp-strings-simd.wasm', 'fastmp-unpack-simd.wasm'],
  },
  'worker-wasm-from-cdn': {
    files: WORKER, cdn: true,
    config: (cdn) => ({ experimental: { renderBuiltUrl: (file) => (file.endsWith('.wasm') ? `${cdn}/${file}` : { relative: true }) } }),
    prints: [`simd ${ENCODED}`], fetches: ['fastmp-pack-simd.wasm'],
  },
  // The msgpackr plug-in, init() never called: the first large array loads the pack module.
  msgpackr: {
    files: {
      'main.js': `import * as msgpackr from 'msgpackr';
import { useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
${HEX}
useFastmpForTypedArrays(msgpackr);
console.log(hex(msgpackr.pack(new Float32Array([1, 2]))));
const big = new Float32Array(5000).fill(1.5);
console.log(msgpackr.pack(big).length);
setTimeout(() => { console.log(msgpackr.pack(big).length); ${DONE} }, 1000);`,
    },
    prints: ['92ca3f800000ca40000000', '25003', '25003'],
    fetches: ['fastmp-pack-simd.wasm'],
  },
  // createFastmp(): an instance has every module (docs/typed-arrays.md "Instances").
  createFastmp: {
    files: { 'main.js': `import { createFastmp } from 'fastmp-wasm';\n${HEX}\nconst fm = await createFastmp();\nconsole.log(fm.backend() + ' ' + hex(fm.pack(new Float32Array([1.5]))));\n${DONE}` },
    prints: ['simd 91ca3fc00000'],
    fetches: ['fastmp-pack-simd.wasm', 'fastmp-strings-simd.wasm', 'fastmp-unpack-simd.wasm'],
  },
  // Finding 1: createFastmpSync() loads "the others on the first call that needs them"; this
  // instance only packs (a large array, twice: the second once the kernels are in).
  createFastmpSync: {
    files: {
      'main.js': `import { createFastmpSync } from 'fastmp-wasm';
const fm = createFastmpSync();
const big = new Float32Array(5000).fill(1.5);
console.log(fm.pack(big).length);
setTimeout(() => { console.log(fm.pack(big).length + ' ' + (fm.memoryStats().wasmMemory > 0)); ${DONE} }, 1000);`,
    },
    prints: ['25003', '25003 true'],
    fetches: ['fastmp-pack-simd.wasm'],
  },
};

/** VITE_PAGES's results by name. */
const pages = {};
let browser;

beforeAll(async () => {
  browser = await launchChromium();
  await inProject({}, async (dir) => {
    symlinkSync(join(ROOT, 'node_modules/msgpackr'), join(dir, 'node_modules/msgpackr'), 'dir');
    for (const [name, page] of Object.entries(VITE_PAGES)) {
      const root = join(dir, 'src', name);
      const outDir = join(dir, 'out', name);
      mkdirSync(root, { recursive: true });
      for (const [file, text] of Object.entries({ 'index.html': HTML(), ...page.files })) writeFileSync(join(root, file), `${text}\n`);
      const cdnDir = join(dir, 'cdn', name);
      mkdirSync(cdnDir, { recursive: true });
      const cdn = page.cdn ? await serveAt(cdnDir, { cors: true }) : null;
      try {
        await viteBuild(root, outDir, typeof page.config === 'function' ? page.config(cdn.origin) : page.config);
        if (cdn) cpSync(outDir, cdnDir, { recursive: true });
        const server = await serveAt(outDir, { prefix: page.prefix });
        try {
          pages[name] = { ...summary(await loadPage(browser, `${server.origin}${page.prefix ?? '/'}`, { marker: MARKER })), asked: server.asked, cdnAsked: cdn?.asked ?? [] };
        } finally {
          await server.close();
        }
      } catch (error) {
        pages[name] = { buildError: error.message };
      } finally {
        await cdn?.close();
      }
    }
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('Vite 8 production pages', () => {
  for (const [name, page] of Object.entries(VITE_PAGES)) {
    test(`${name}: runs, prints what Node computes, fetches exactly ${page.fetches.join(', ')}, once each`, () => {
      const r = pages[name];
      expect(r.buildError).toBeUndefined();
      expect(r.problems).toEqual([]);
      expect(r.finished).toBe(`${MARKER} done`);
      expect(r.printed).toEqual(page.prints);
      expect(r.wasm).toEqual(page.fetches);
    });
  }

  test('the worker pages take js/runtime.browser.js too: no Node-only path in any chunk', () => {
    for (const name of ['worker', 'worker-es', 'lazy']) {
      for (const nodeOnly of ['process.versions', 'getBuiltinModule', 'node:fs', 'allocUnsafeSlow']) expect(pages[name].text, `${name}: ${nodeOnly}`).not.toContain(nodeOnly);
    }
  });

  test('under a base subpath every request stays under it; from a CDN the .wasm come from the CDN alone', () => {
    for (const name of ['base-subpath', 'worker-base-subpath']) expect(pages[name].asked.filter((p) => !p.startsWith('/sub/app/')), name).toEqual([]);
    for (const name of ['wasm-from-cdn', 'worker-wasm-from-cdn']) {
      expect(pages[name].asked.filter((p) => p.endsWith('.wasm')), name).toEqual([]);
      expect(pages[name].cdnAsked.length, name).toBe(VITE_PAGES[name].fetches.length);
    }
  });
});

// ---- bundles without import.meta ----------------------------------------------------------

describe.runIf(HAVE_ESBUILD)('esbuild bundles whose format has no import.meta (iife: its default for browsers; cjs)', () => {
  const results = {};
  const APP = `import { encode, init, pack } from 'fastmp-wasm';
${HEX}
init().then(
  (build) => console.log('init ' + build),
  (e) => console.log('init rejected: ' + e.name + ': ' + e.message),
).finally(() => {
  console.log(hex(encode({ v: new Float32Array([1, 2]) })) + ' ' + pack(new Float32Array(5000)).length);
  ${DONE}
});`;
  // A classic Worker, bundled on its own (iife): the README's recipe.
  const WORKER_MAIN = `const worker = new Worker('./worker.js');
worker.onmessage = (e) => { console.log(e.data); ${DONE} };
worker.postMessage({ v: new Float32Array([1, 2]) });`;
  const WORKER_APP = `import { encode, init } from 'fastmp-wasm';
${HEX}
const ready = init().catch((e) => 'init rejected: ' + e.name + ': ' + e.message);
onmessage = async (e) => postMessage((await ready) + ' ' + hex(encode(e.data)));`;
  const FORMATS = ['default', 'iife', 'cjs', 'worker'];

  beforeAll(async () => {
    const esbuild = (await import(join(TOOLS, 'esbuild/lib/main.js'))).default;
    await inProject({}, async (dir) => {
      for (const format of FORMATS) {
        const src = join(dir, 'src', format);
        const outdir = join(dir, 'out', format);
        mkdirSync(src, { recursive: true });
        const files = format === 'worker' ? { 'main.js': WORKER_MAIN, 'worker.js': WORKER_APP } : { 'main.js': APP };
        for (const [file, text] of Object.entries(files)) writeFileSync(join(src, file), `${text}\n`);
        // 'default' and 'worker': no format given, as `esbuild main.js --bundle --outdir=out` builds (iife).
        await esbuild.build({ entryPoints: Object.keys(files).map((f) => join(src, f)), bundle: true, platform: 'browser', minify: true, outdir, absWorkingDir: dir, logLevel: 'silent', ...(['default', 'worker'].includes(format) ? {} : { format }) });
        writeFileSync(join(outdir, 'index.html'), HTML(true));
        // As docs/browsers.md tells esbuild users: the package's dist/*.wasm where the URL points, beside the bundle.
        mkdirSync(join(outdir, 'dist'));
        for (const [file] of WASM) cpSync(join(DIST, file), join(outdir, 'dist', file));
        const server = await serveAt(outdir);
        try {
          results[format] = { ...summary(await loadPage(browser, `${server.origin}/`, { marker: MARKER })), asked: server.asked };
        } finally {
          await server.close();
        }
      }
    });
  });

  for (const format of ['default', 'iife', 'cjs']) {
    test(`${format}: init() loads the pack module from dist/ beside the bundle (not the engine's "Invalid URL"), and the calls use it`, () => {
      const r = results[format];
      expect(r.problems).toEqual([]);
      expect(r.finished).toBe(`${MARKER} done`);
      expect(r.printed).toEqual(['init simd', `${ENCODED} 25003`]);
      expect(r.wasm).toEqual(['fastmp-pack-simd.wasm']);
      expect(r.asked.filter((p) => p.endsWith('.wasm'))).toEqual(['/dist/fastmp-pack-simd.wasm']);
    });
  }

  test('a classic Worker bundled as an iife: the same, from the worker', () => {
    const r = results.worker;
    expect(r.problems).toEqual([]);
    expect(r.printed).toEqual([`simd ${ENCODED}`]);
    expect(r.wasm).toEqual(['fastmp-pack-simd.wasm']);
  });
});
