// audit-bundlers.test.js - the bundlers audit: bench/size.js's apps built by the
// bundlers other than Vite that a browser app is likely to use, each page served
// and loaded in Debian's Chromium by bench/pages.js, as bench/size.js does Vite's:
//   esbuild (bundle, platform browser, format esm, minify),
//   Rollup 4 with @rollup/plugin-node-resolve (browser: true) and @rollup/plugin-terser,
//   webpack 5 (mode production, its defaults), also for a CommonJS consumer (require()).
// esbuild and Rollup do not follow `new URL('…wasm', import.meta.url)` (documented: README
// "When the .wasm cannot be fetched"); their default-entry pages are served with the package's
// dist/*.wasm copied where the URL points (next to the bundle, in dist/), as their users must.
// Each page: its result is Node's, it fetches exactly the .wasm of the calls it makes (none
// for the inline entry), its JS takes js/runtime.browser.js and holds no Node-only path, and
// it weighs no more than 10 % over the Vite page's CI ceiling (bench/size.js CEILINGS).
//
// The bundlers are not the package's dependencies: the first run installs the versions below
// from the npm registry into the engines' cache (test/engines/launch.js fromNpm(), as the
// engines are), or FASTMP_BUNDLERS names a node_modules that holds them.
//
// Findings (each a test that fails on afccc0a):
//   1. webpack bundles every module's inlined builds into any fastmp-wasm/inline page (the
//      encode page: 34.4 KB gzipped, Vite's 22.1 KB): js/inline.js uses its
//      `import * as X_BUILDS` namespaces as values, which webpack defines with
//      __webpack_require__.d() calls that no minifier drops.
//   2. webpack warns "Critical dependency: the request of a dependency is an expression" in
//      every build of the default entry (js/siblings.js's `import(fsName)`), which fails the
//      builds that treat warnings as errors (CI=true in create-react-app and the like).
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, loadPage, serve } from '../bench/pages.js';
import { APPS, CEILINGS, FETCHES, MARKER, gzip, inProject } from '../bench/size.js';
import { fromNpm } from './engines/launch.js';
import { ROOT } from './helpers.js';

const BUNDLERS = ['esbuild@0.28.2', 'rollup@4.69.3', '@rollup/plugin-node-resolve@16.0.3', '@rollup/plugin-terser@1.0.2', 'webpack@5.113.0'];

/** The node_modules that holds the bundlers: FASTMP_BUNDLERS, else the cache's, installed on the first run. */
function bundlerModules() {
  if (process.env.FASTMP_BUNDLERS) return process.env.FASTMP_BUNDLERS;
  const got = fromNpm('bundlers', BUNDLERS, 'webpack/package.json', { who: 'audit-bundlers' });
  if (got.missing) throw new Error(got.missing);
  return dirname(dirname(got.path));
}
const TOOLS = bundlerModules();

/** A file of a package of TOOLS, imported by its path (the repository does not depend on it). */
const tool = (file) => import(join(TOOLS, file));

const DIST = join(ROOT, 'dist');
const WASM = readdirSync(DIST).filter((f) => f.endsWith('.wasm')).map((f) => [f, readFileSync(join(DIST, f))]);
/** A fetched .wasm by its source in dist/ (a bundler renames it). */
const sourceOf = (body) => WASM.find(([, bytes]) => bytes.equals(body))?.[0] ?? `an unknown module (${body.length} B)`;

/** The inline builds as hex: a slice from the middle of each SIMD build, to find it in a bundle. */
const INLINE_MARK = Object.fromEntries(['pack', 'unpack', 'strings'].map((m) => {
  const text = readFileSync(join(DIST, `fastmp-inline-${m}.js`), 'utf8');
  const simd = /SIMD = '([0-9a-f]+)'/.exec(text)[1];
  return [m, simd.slice(simd.length >> 1, (simd.length >> 1) + 96)];
}));

/** The page of one app; CSP pages forbid compiling wasm (no 'wasm-unsafe-eval'), as docs/browsers.md's. */
const pageHtml = (name, { classic = false, csp = false } = {}) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">${csp ? `\n    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; img-src data:">` : ''}
    <link rel="icon" href="data:,">
    <title>${name}</title>
  </head>
  <body>
    <script ${classic ? '' : 'type="module" '}src="./main.js"></script>
  </body>
</html>
`;

const HEX = `const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');`;

/** bench/size.js's five apps, and three more: a call before init(), a CSP page, a CommonJS consumer (webpack only). */
const MORE = [
  {
    name: 'before-init',
    code: `import { pack } from 'fastmp-wasm';
const bytes = pack(new Float32Array(4096).fill(1.5));
console.log(String(bytes.length));
// The pack module, fetched in the background by that call, is weighed once the network is idle.
console.log('${MARKER} done');`,
    fetches: ['fastmp-pack-simd.wasm'],
  },
  {
    name: 'csp',
    csp: true,
    code: `import { encode, init } from 'fastmp-wasm';
${HEX}
const build = await init();
console.log(build + ' ' + hex(encode({ v: new Float32Array([1, 2]) })));
console.log('${MARKER} done');`,
    fetches: [],
  },
  {
    name: 'cjs',
    cjs: true,
    only: 'webpack',
    code: `const { encode, init } = require('fastmp-wasm');
${HEX}
init().then(() => {
  console.log(hex(encode({ v: new Float32Array([1, 2]) })));
  console.log('${MARKER} done');
});`,
    fetches: ['fastmp-pack-simd.wasm'],
    ceiling: CEILINGS.encode,
  },
];

/** The Vite page's CI ceiling of each app (bench/size.js CEILINGS; inline's from the encode page's ceiling). */
const VITE_CEILING = {
  ...CEILINGS,
  inline: CEILINGS.inline({ encode: { total: CEILINGS.encode } }),
  'before-init': CEILINGS.pack,
  csp: CEILINGS.encode,
};
/** The modules whose inlined builds each inline page's calls load. */
const INLINE_HOLDS = { inline: ['pack'] };

/** What Node prints for each app: the same calls on the package in Node. */
async function nodeResults() {
  const fm = await import('../js/index.js');
  const hex = (bytes) => Buffer.from(bytes).toString('hex');
  const encoded = hex(fm.encode({ v: new Float32Array([1, 2]) }));
  const { v } = fm.decode(fm.encode({ v: new Float32Array([1, 2]) }), { shape: { v: Float32Array } });
  const packed = String(fm.pack(new Float32Array(4096).fill(1.5)).length);
  return {
    pack: [packed],
    encode: [encoded],
    shaped: [`${v.constructor.name} ${v.join()}`],
    asn1: [fm.decodeBMP(fm.encodeBMP('fastmp'))],
    inline: [encoded],
    'before-init': [packed],
    csp: [`js ${encoded}`],
    cjs: [encoded],
  };
}

/** Each bundler: build(entry, outdir, projectDir) → { warnings }; `follows`: whether it emits the new URL(…wasm) assets. */
async function bundlers() {
  const esbuild = (await tool('esbuild/lib/main.js')).default;
  const { rollup } = await tool('rollup/dist/es/rollup.js');
  const { nodeResolve } = await tool('@rollup/plugin-node-resolve/dist/es/index.js');
  const terser = (await tool('@rollup/plugin-terser/dist/es/index.js')).default;
  const webpack = (await tool('webpack/lib/index.js')).default;
  return {
    esbuild: {
      follows: false,
      async build(entry, outdir, dir) {
        const r = await esbuild.build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', minify: true, outdir, absWorkingDir: dir, logLevel: 'silent' });
        return { warnings: r.warnings.map((w) => w.text) };
      },
    },
    rollup: {
      follows: false,
      async build(entry, outdir) {
        const warnings = [];
        const b = await rollup({ input: entry, plugins: [nodeResolve({ browser: true }), terser()], onwarn: (w) => warnings.push(w.message) });
        await b.write({ dir: outdir, format: 'es', entryFileNames: 'main.js' });
        await b.close();
        return { warnings };
      },
    },
    webpack: {
      follows: true,
      classic: true, // its default output: a classic script (publicPath 'auto' reads document.currentScript)
      async build(entry, outdir, dir) {
        const compiler = webpack({ mode: 'production', context: dir, entry, output: { path: outdir, filename: 'main.js' } });
        const stats = await new Promise((resolve, reject) => compiler.run((e, s) => (e ? reject(e) : resolve(s))));
        await new Promise((resolve) => compiler.close(resolve));
        const json = stats.toJson({ all: false, warnings: true, errors: true });
        if (json.errors.length) throw new Error(json.errors.map((e) => e.message).join('\n'));
        return { warnings: json.warnings.map((w) => `${w.moduleName ?? ''}: ${w.message.split('\n')[0]}`) };
      },
    },
  };
}

/** results[bundler][app]: { printed, finished, problems, wasm: [source], js, total, text, warnings }. */
const results = {};
let node;
let browser;

const BUILT = ['esbuild', 'rollup', 'webpack'];
const APP_LIST = [...APPS.map((a) => ({ ...a, fetches: FETCHES[a.name] })), ...MORE];

describe('pages built by esbuild, Rollup and webpack', () => {
  beforeAll(async () => {
    node = await nodeResults();
    const tools = await bundlers();
    browser = await launchChromium();
    await inProject({}, async (dir) => {
      for (const name of BUILT) {
        const bundler = tools[name];
        results[name] = {};
        for (const app of APP_LIST.filter((a) => !a.only || a.only === name)) {
          const src = join(dir, name, app.name);
          const outdir = join(dir, 'out', name, app.name);
          mkdirSync(src, { recursive: true });
          const entry = join(src, app.cjs ? 'main.cjs' : 'main.js');
          writeFileSync(entry, `${app.code}\n`);
          let built;
          try {
            built = await bundler.build(entry, outdir, dir);
          } catch (error) {
            results[name][app.name] = { buildError: error.message };
            continue;
          }
          writeFileSync(join(outdir, 'index.html'), pageHtml(app.name, { classic: bundler.classic, csp: app.csp }));
          if (!bundler.follows && app.name !== 'inline') {
            mkdirSync(join(outdir, 'dist'));
            for (const [file] of WASM) cpSync(join(DIST, file), join(outdir, 'dist', file));
          }
          const server = await serve(outdir);
          let loaded;
          try {
            loaded = await loadPage(browser, `${server.origin}/`, { marker: MARKER });
          } finally {
            await server.close();
          }
          const wasm = [];
          let js = 0;
          let text = '';
          for (const r of loaded.responses) {
            if (r.type === 'document') continue;
            if (extname(new URL(r.url).pathname) === '.wasm') wasm.push({ source: sourceOf(r.body), gzip: gzip(r.body) });
            else {
              js += gzip(r.body);
              text += r.body.toString('utf8');
            }
          }
          results[name][app.name] = {
            printed: loaded.logs, finished: loaded.finished, problems: loaded.problems, warnings: built.warnings,
            wasm: wasm.map((w) => w.source).sort(), js, total: js + wasm.reduce((sum, w) => sum + w.gzip, 0), text,
          };
        }
      }
    });
    const rows = BUILT.flatMap((b) => Object.entries(results[b]).map(([app, r]) => `| ${b} | ${app} | ${r.buildError ? 'build failed' : r.finished === `${MARKER} done` && r.problems.length === 0 ? 'ok' : 'no'} | ${r.wasm?.join(', ') || 'none'} | ${r.js ?? '-'} | ${r.total ?? '-'} | ${VITE_CEILING[app] ?? '-'} |`));
    console.log(['| bundler | app | ran | .wasm fetched | JS gzip | total gzip | Vite ceiling |', '|---|---|---|---|---|---|---|', ...rows].join('\n'));
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const name of BUILT) {
    describe(name, () => {
      for (const app of APP_LIST.filter((a) => !a.only || a.only === name)) {
        test(`${app.name}: the page runs and prints what Node computes`, () => {
          const r = results[name][app.name];
          expect(r.buildError).toBeUndefined();
          expect(r.problems).toEqual([]);
          expect(r.finished).toBe(`${MARKER} done`);
          expect(r.printed).toEqual(node[app.name]);
        });

        test(`${app.name}: fetches exactly ${app.fetches.length ? app.fetches.join(', ') : 'no .wasm'}`, () => {
          expect(results[name][app.name].wasm).toEqual(app.fetches.toSorted());
        });

        test(`${app.name}: its JS takes js/runtime.browser.js and holds no Node-only path`, () => {
          const { text } = results[name][app.name];
          // js/runtime.js's test, and what only a Node runtime asks for (the sync .wasm read, the string limit).
          for (const nodeOnly of ['process.versions', 'getBuiltinModule', 'MAX_STRING_LENGTH']) expect(text).not.toContain(nodeOnly);
          // esbuild's minifier keeps the dead branches of a constant from another module
          // (`null.allocUnsafeSlow(…)`, `import("node:fs/promises")`): harmless, never run.
          if (name !== 'esbuild') for (const nodeOnly of ['node:fs', 'allocUnsafeSlow', 'latin1Slice']) expect(text).not.toContain(nodeOnly);
        });

        test(`${app.name}: weighs at most 10 % over the Vite page's CI ceiling`, () => {
          const r = results[name][app.name];
          const ceiling = app.ceiling ?? VITE_CEILING[app.name];
          if (!(r.total <= Math.ceil(1.1 * ceiling))) {
            expect.fail(`${name} ${app.name} page: ${r.total} B gzipped (JS ${r.js} B), > 1.1 × Vite's ceiling ${ceiling} B`);
          }
        });
      }

      test('the inline page holds the inlined builds of the modules its calls load, no others', () => {
        for (const [app, holds] of Object.entries(INLINE_HOLDS)) {
          const { text } = results[name][app];
          const held = Object.keys(INLINE_MARK).filter((m) => text.includes(INLINE_MARK[m]));
          expect(held, `${name} ${app} page`).toEqual(holds);
        }
      });

      test('the pages hold the halves of the codec they call, no other', () => {
        const has = (app, marker) => results[name][app].text.includes(marker);
        const ENCODER = '(unrecognized object:';
        const DECODER = 'which msgpack never uses';
        expect([has('pack', ENCODER), has('pack', DECODER)], 'pack()').toEqual([false, false]);
        expect([has('asn1', ENCODER), has('asn1', DECODER)], 'ASN.1').toEqual([false, false]);
        expect([has('encode', ENCODER), has('encode', DECODER)], 'encode').toEqual([true, false]);
        expect([has('shaped', ENCODER), has('shaped', DECODER)], 'shaped').toEqual([true, true]);
      });
    });
  }

  test('webpack builds the default entry without a warning (a build with warnings as errors passes)', () => {
    for (const [app, r] of Object.entries(results.webpack)) expect(r.warnings ?? [], `webpack ${app}`).toEqual([]);
  });
});
