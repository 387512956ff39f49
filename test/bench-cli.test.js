// bench-cli.test.js - `npx fastmp-wasm bench` (bin/): its quick mode prints
// the typed-array, kernel and message tables with a key line for every
// column, native rows and a passing parity check where a C compiler is found
// (as here), and a verdict, and writes positive figures as JSON; an unknown
// command fails with a message. And the tarball: it ships the command and
// the C sources that the command builds natively, its bin runs where it is
// installed, and its package.json names no script that the tarball cannot run,
// also after a pack that was interrupted. The pack runs on a copy of the
// package in a temporary folder: "prepack" rewrites package.json while npm
// packs, which must not race with the working copy.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/fastmp-wasm.js');
const hasCompiler = ['cc', 'gcc', 'clang'].some((cc) => spawnSync(cc, ['--version']).status === 0);

/** The environment of a child process, without what `npm test` or the caller set. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^FASTMP_/i.test(k)));
const run = (file, args, cwd) => spawnSync(file, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });

let work;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-bench-cli-'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A table of the report: its lines from its title to the blank line after its key. */
function tableOf(out, title) {
  const lines = out.split('\n');
  const start = lines.findIndex((l) => l.startsWith(title));
  expect(start, `no table "${title}"`).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf('', start);
  const table = lines.slice(start, end);
  const keyAt = table.indexOf('key:');
  const header = table.find((l) => /^(contender|kernel)\s/.test(l));
  return {
    columns: [...new Set(header.split(/\s{2,}/))],
    body: table.slice(table.indexOf(header) + 1, keyAt),
    key: table.slice(keyAt + 1),
  };
}

/** The rows of a section of a table: { label: number of time cells }. */
function sectionRows(table, section) {
  const at = table.body.indexOf(section);
  expect(at, `no section "${section}"`).toBeGreaterThanOrEqual(0);
  const rows = {};
  for (const line of table.body.slice(at + 1)) {
    if (!line.startsWith('  ')) break;
    const [label] = line.trim().split(/\s{2,}/);
    rows[label] = (line.match(/\d (ns|µs|ms|s) ±/g) ?? []).length;
  }
  return rows;
}

describe('fastmp-wasm bench --quick', () => {
  let result;
  let out;
  let report;
  beforeAll(() => {
    const json = join(work, 'figures.json');
    // From the package's folder: @msgpack/msgpack and msgpackr (devDependencies) are found there.
    result = run(process.execPath, [BIN, 'bench', '--quick', '--json', json], ROOT);
    out = result.stdout;
    if (result.status === 0) report = JSON.parse(readFileSync(json, 'utf8'));
  });

  test('exits 0', () => {
    expect(result.status, result.stderr).toBe(0);
  });

  test('typed arrays and messages: wasm SIMD, wasm scalar and pure JS rows with a time in every column', () => {
    const typed = tableOf(out, 'Typed arrays:');
    for (const section of ['pack Float32Array', 'unpack Float32Array', 'pack Int32Array', 'unpack Int32Array']) {
      expect(sectionRows(typed, section)).toMatchObject({ 'wasm SIMD': 3, 'wasm scalar': 3, 'pure JS': 3, 'default': 3, 'zero copy': 3, 'JS loop': 3 });
    }
    const messages = tableOf(out, 'Whole messages:');
    for (const section of ['encode', 'decode']) {
      expect(sectionRows(messages, section)).toMatchObject({ 'wasm SIMD': 4, 'wasm scalar': 4, 'pure JS': 4, 'default': 4 });
    }
  });

  test('the peers installed here have rows', () => {
    expect(sectionRows(tableOf(out, 'Typed arrays:'), 'pack Float32Array')).toMatchObject({ '@msgpack/msgpack': 2, 'msgpackr': 2 }); // --quick: not at 1 M
    expect(sectionRows(tableOf(out, 'Whole messages:'), 'decode')).toMatchObject({ '@msgpack/msgpack': 3, 'msgpackr': 3 });
  });

  test('every table has a key line for every column', () => {
    for (const title of ['Typed arrays:', 'Kernels alone:', 'Whole messages:']) {
      const table = tableOf(out, title);
      expect(table.columns.length).toBeGreaterThanOrEqual(5);
      for (const column of table.columns) {
        expect(table.key.some((line) => line.startsWith(`  ${column}  `)), `${title} ${column}`).toBe(true);
      }
    }
  });

  test.runIf(hasCompiler)('with a C compiler: native rows beside the wasm kernels, and parity: ok', () => {
    const kernels = tableOf(out, 'Kernels alone:');
    for (const section of ['pack Float32Array', 'unpack Int32Array']) {
      expect(sectionRows(kernels, section)).toMatchObject({ 'wasm SIMD kernel': 3, 'native SIMD': 3, 'wasm scalar kernel': 3, 'native scalar': 3 });
    }
    expect(out).toMatch(/^parity: ok \(/m);
  });

  test('the verdict, in words, from the figures', () => {
    expect(out).toMatch(/^Verdict: On this machine wasm SIMD packs 4096 floats [\d.]+× (faster|slower) than the JS loop|^Verdict: On this machine wasm SIMD packs 4096 floats about as fast as the JS loop/m);
    if (hasCompiler) expect(out).toMatch(/The wasm kernels alone run at [\d.]+× native speed for SIMD/);
  });

  test('the JSON holds every figure, each a positive number', () => {
    expect(report.figures.length).toBeGreaterThan(100);
    for (const f of report.figures) {
      for (const ns of [f.medianNs, f.minNs, f.maxNs, ...f.roundsNs]) expect(Number.isFinite(ns) && ns > 0, JSON.stringify(f)).toBe(true);
      if ('ratio' in f) expect(Number.isFinite(f.ratio) && f.ratio > 0).toBe(true);
    }
    const contenders = (table) => new Set(report.figures.filter((f) => f.table === table).map((f) => f.contender));
    for (const table of ['typed', 'messages']) expect([...contenders(table)]).toEqual(expect.arrayContaining(['wasm SIMD', 'wasm scalar', 'pure JS', 'default']));
    if (hasCompiler) {
      expect([...contenders('kernels')]).toEqual(expect.arrayContaining(['wasm SIMD kernel', 'native SIMD', 'wasm scalar kernel', 'native scalar']));
      expect(report.parity.ok).toBe(true);
    }
    expect(report.verdict.length).toBeGreaterThan(2);
  });
});

test('an unknown command exits non-zero with a message', () => {
  const r = run(process.execPath, [BIN, 'frobnicate'], ROOT);
  expect(r.status).not.toBe(0);
  expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
  expect(r.stderr).toMatch(/npx fastmp-wasm/);
});

describe('the tarball', () => {
  let copy;
  let packed;
  const pack = () => {
    const r = run('npm', ['pack', '--json', '--pack-destination', join(work, 'out')], copy);
    expect(r.status, r.stderr).toBe(0);
    // The prepack build may print before npm's JSON.
    return JSON.parse(r.stdout.slice(r.stdout.search(/^\[$/m)))[0];
  };
  const manifestOf = (p) => JSON.parse(run('tar', ['-xzOf', join(work, 'out', p.filename), 'package/package.json']).stdout);

  beforeAll(() => {
    copy = join(work, 'package');
    mkdirSync(join(work, 'out'));
    // Timestamps kept, so that the prepack build (make wasm) finds dist/ up to date.
    for (const f of ['package.json', 'README.md', 'LICENSE', 'Makefile', 'js', 'dist', 'docs', 'c', 'bin', 'scripts']) {
      cpSync(join(ROOT, f), join(copy, f), { recursive: true, preserveTimestamps: true });
    }
    // The prepack build's tools (scripts/build-node.js bundles with rolldown, a devDependency); npm never packs node_modules.
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    packed = pack();
  });

  test('ships the command and the C sources its native build needs, not the fuzz targets nor the pack script', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining([
      'bin/fastmp-wasm.js', 'bin/bench.js', 'bin/kernels.js', 'bin/native.js', 'bin/no-msgpack-c/msgpack.h',
      'c/fastmp.h', 'c/fm_platform.h', 'c/fm_float.c', 'c/fm_int.c', 'c/fm_bool.c', 'c/fm_string.c',
      'c/harness/fm_cli.c', 'c/harness/fm_bench.c', 'c/harness/fm_ops.c', 'c/harness/fm_ops.h',
    ]));
    expect(paths.filter((p) => p.startsWith('c/fuzz/') || p.startsWith('scripts/') || p.startsWith('test/') || p.startsWith('bench/'))).toEqual([]);
    // Every C source of the working copy that the native build reads (not the guard-page harness, a test's).
    const c = (dir) => readdirSync(join(ROOT, dir)).filter((f) => /\.[ch]$/.test(f) && f !== 'fm_guard.c').map((f) => `${dir}/${f}`);
    expect(paths).toEqual(expect.arrayContaining([...c('c'), ...c('c/harness')]));
  });

  test('its package.json has the bin and none of the scripts that cannot run from the tarball; the working one is put back', () => {
    const manifest = manifestOf(packed);
    expect(manifest.bin).toEqual({ 'fastmp-wasm': 'bin/fastmp-wasm.js' });
    for (const script of ['test', 'lint', 'bench', 'bench:browser', 'test:engines', 'size', 'size:costs', 'size:families', 'build']) {
      expect(manifest.scripts?.[script], script).toBeUndefined();
    }
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(existsSync(join(copy, 'package.json.orig'))).toBe(false);
  });

  test('a pack after an interrupted one (package.json left stripped) packs the same manifest and puts the working one back', () => {
    const strip = run(process.execPath, ['scripts/pack-manifest.js', 'strip'], copy); // what an interrupted pack leaves
    expect(strip.status, strip.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')).scripts.test).toBeUndefined();
    expect(manifestOf(pack())).toEqual(manifestOf(packed));
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(existsSync(join(copy, 'package.json.orig'))).toBe(false);
  });

  test('restore refuses to overwrite a package.json edited since the strip', () => {
    run(process.execPath, ['scripts/pack-manifest.js', 'strip'], copy);
    const edited = `${readFileSync(join(copy, 'package.json'), 'utf8')}\n`;
    writeFileSync(join(copy, 'package.json'), edited);
    const r = run(process.execPath, ['scripts/pack-manifest.js', 'restore'], copy);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/merge the two by hand/);
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(edited);
    writeFileSync(join(copy, 'package.json'), edited.slice(0, -1));
    expect(run(process.execPath, ['scripts/pack-manifest.js', 'restore'], copy).status).toBe(0);
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  });

  test('installed, its bin answers `npx fastmp-wasm --help`', () => {
    const project = join(work, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    const install = run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, 'out', packed.filename)], project);
    expect(install.status, install.stderr).toBe(0);
    const help = run('npx', ['--no-install', 'fastmp-wasm', '--help'], project);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/npx fastmp-wasm <command>/);
  });
});
