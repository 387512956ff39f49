// size.js - what a browser app pays for fastmp (issue 26). Each app in APPS is
// a one-file entry built by Vite's production build (its defaults: browser
// conditions, minified); an app costs the gzip -9 of its JS chunks plus the
// gzip -9 of the .wasm files a SIMD browser fetches (KB = 1024 bytes).
// BUDGETS holds, per app, issue 26's goal (what the restructuring aims for:
// reported, met or missed) and a ceiling (a no-regression tripwire, a few per
// cent above the size measured when it was set: test/size.test.js asserts it).
//
//   npm run size                          the working tree
//   node bench/size.js --out FILE.md      also writes the table as markdown
//   node bench/size.js --ref COMMIT       the package as of COMMIT (its js/ and package.json)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, version as viteVersion } from 'vite';
import { FILE_STEM, PACK, STRINGS, TYPED, modulesToLoad } from '../js/modules.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const KB = 1024;
export const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

/**
 * The apps, as a browser app writes them: import from the package, `await
 * init()` (the README's rule for pages), then call what the app uses. The
 * output is logged so that the minifier keeps the calls. `fetched` picks, of
 * the .wasm files the build emits, those a SIMD browser downloads: init()
 * fetches the SIMD build of each wasm module that the bundle's JS marks as
 * used (js/modules.js), read from the modules the bundle holds.
 */
export const APPS = [
  {
    name: 'encode',
    label: '`encode` only',
    code: `import { encode, init } from 'fastmp-wasm';
await init();
console.log(encode({ v: new Float32Array([1, 2]) }));`,
    fetched: simdBuildsOfUsedModules,
  },
  {
    name: 'shaped',
    label: '`encode` + shaped `decode`',
    code: `import { decode, encode, init } from 'fastmp-wasm';
await init();
const bytes = encode({ v: new Float32Array([1, 2]) });
console.log(decode(bytes, { shape: { v: Float32Array } }));`,
    fetched: simdBuildsOfUsedModules,
  },
  {
    name: 'inline',
    label: '`fastmp-wasm/inline`, `encode` only',
    code: `import { encode, init } from 'fastmp-wasm/inline';
await init();
console.log(encode({ v: new Float32Array([1, 2]) }));`,
    // Its init() compiles the builds inlined as hex in its JS: it fetches no .wasm.
    fetched: () => [],
  },
  {
    name: 'asn1',
    label: 'ASN.1 strings only (`encodeBMP`, `decodeBMP`)',
    code: `import { decodeBMP, encodeBMP, init } from 'fastmp-wasm';
await init();
console.log(decodeBMP(encodeBMP('fastmp')));`,
    fetched: simdBuildsOfUsedModules,
  },
];

/**
 * Strings of the codec's error messages, which minifiers keep: an app whose
 * JS holds one ships that half of the codec. measure() checks that the apps
 * that call each half hold its marker, so a reworded message fails loudly
 * instead of passing the ASN.1 app's goal.
 */
export const CODEC_MARKERS = {
  encoder: { text: '(unrecognized object:', shownBy: 'encode' },
  decoder: { text: 'which msgpack never uses', shownBy: 'shaped' },
};

/**
 * Per app: issue 26's goal, and the ceiling on its total (bytes) that no
 * change may cross. Set a ceiling about 3% above the total measured when it
 * is set, and lower it when a change makes the app smaller.
 */
export const BUDGETS = {
  encode: { goal: totalAtMost(16 * KB), ceiling: 22_600 },
  shaped: { goal: totalAtMost(22 * KB), ceiling: 38_500 },
  inline: {
    goal: {
      text: 'JS ≤ 1.35 × the `encode`-only total',
      met: (r, all) => r.js <= 1.35 * all.encode.total,
      shows: (r, all) => `${(r.js / all.encode.total).toFixed(2)} ×`,
    },
    ceiling: 25_500,
  },
  asn1: {
    goal: {
      text: 'ships no codec',
      met: (r) => !r.codec.encoder && !r.codec.decoder,
      shows: (r) => `ships ${Object.keys(r.codec).filter((half) => r.codec[half]).join(' and ') || 'neither half'}`,
    },
    ceiling: 13_200,
  },
};

/** The goal of a total of at most `bytes`. */
function totalAtMost(bytes) {
  return { text: `total ≤ ${bytes / KB} KB`, met: (r) => r.total <= bytes, shows: (r) => kb(r.total) };
}

/**
 * The files whose top level marks a wasm module as used (js/modules.js
 * useModule(); test/size.test.js checks this list against the calls). A
 * bundle that holds such a file runs its mark, and init() then fetches the
 * modules that js/modules.js modulesToLoad() picks of those marked.
 */
export const MODULE_MARKS = [
  { file: 'js/port.js', module: PACK },
  { file: 'js/wasm/typed.js', module: TYPED },
  { file: 'js/strings.js', module: STRINGS },
];

/** Of the emitted .wasm files, the SIMD build of each module init() loads for the bundle's marks. */
function simdBuildsOfUsedModules(wasm, bundled) {
  const marked = new Set(MODULE_MARKS.filter((m) => bundled.has(m.file)).map((m) => m.module));
  const files = modulesToLoad(marked).map((m) => `${FILE_STEM[m]}simd.wasm`);
  return wasm.filter((w) => files.includes(w.source));
}

/** The package files (js/...) that a bundle's chunks render code of. */
function bundledFiles(output) {
  const files = new Set();
  for (const chunk of output.filter((o) => o.type === 'chunk')) {
    for (const [id, m] of Object.entries(chunk.modules)) {
      const file = id.startsWith(ROOT) ? id.slice(ROOT.length + 1) : null;
      if (file !== null && m.renderedLength > 0) files.add(file);
    }
  }
  return files;
}

export const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const sum = (list, key) => list.reduce((total, item) => total + item[key], 0);

/**
 * A package directory holding `ref`'s package.json and js/, with dist/ from
 * the working tree: refused when the wasm's sources differ from `ref`'s.
 */
function snapshot(ref, into) {
  const built = ['c', 'Makefile', 'build.sh'];
  try {
    execFileSync('git', ['diff', '--quiet', ref, '--', ...built], { cwd: ROOT });
  } catch {
    throw new Error(`size.js --ref ${ref}: dist/ is built from sources (${built.join(', ')}) that differ from ${ref}'s`);
  }
  const archive = execFileSync('git', ['archive', '--format=tar', ref, 'package.json', 'js'], { cwd: ROOT, maxBuffer: 1 << 28 });
  mkdirSync(into);
  execFileSync('tar', ['-x', '-C', into], { input: archive });
  cpSync(join(ROOT, 'dist'), join(into, 'dist'), { recursive: true });
  return into;
}

/**
 * A project that depends on the package as an install would: its
 * node_modules/fastmp-wasm links to the package directory, so Vite resolves
 * 'fastmp-wasm' and 'fastmp-wasm/inline' through the package's own `exports`
 * and `sideEffects` (an alias to js/ files would skip both, and they decide
 * what a bundler keeps). The link is `npm link`'s, without packing.
 */
function project(dir, pkg) {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(pkg, join(dir, 'node_modules', 'fastmp-wasm'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'size-app', private: true, type: 'module' }));
  return dir;
}

/**
 * Vite's production build of one entry, kept in memory: its output files.
 * `minify: false` keeps the code as the bundler joined it, and `sourcemap`
 * adds each chunk's map (bench/size-costs.js takes declarations out of it).
 */
export async function bundle(dir, entry, { minify = true, sourcemap = false } = {}) {
  const result = await build({
    root: dir,
    configFile: false,
    envDir: false,
    publicDir: false,
    mode: 'production',
    logLevel: 'silent',
    build: { write: false, minify, sourcemap, rolldownOptions: { input: entry } },
  });
  return (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
}

/** One app: the gzip -9 size of each JS chunk and .wasm file, what a SIMD browser fetches, the total. */
async function measureApp(app, dir) {
  const entry = join(dir, `${app.name}.js`);
  writeFileSync(entry, `${app.code}\n`);
  const output = await bundle(dir, entry);
  const chunks = output.filter((o) => o.type === 'chunk').map((o) => ({ file: o.fileName, gzip: gzip(o.code) }));
  const text = output.filter((o) => o.type === 'chunk').map((o) => o.code).join('\n');
  const { wasm, fetched, files } = wasmOf(app, output);
  const js = sum(chunks, 'gzip');
  const codec = Object.fromEntries(Object.entries(CODEC_MARKERS).map(([half, m]) => [half, text.includes(m.text)]));
  return { name: app.name, label: app.label, chunks, js, wasm, fetched, total: js + sum(fetched, 'gzip'), codec, files: [...files].sort() };
}

/** A build's output: the .wasm files it emits, those a SIMD browser fetches for `app`, the package files it bundles. */
export function wasmOf(app, output) {
  const wasm = output.filter((o) => o.type === 'asset' && o.fileName.endsWith('.wasm'))
    .map((o) => ({ file: o.fileName, source: basename(o.originalFileNames?.[0] ?? o.fileName), gzip: gzip(o.source) }));
  const files = bundledFiles(output);
  return { wasm, fetched: app.fetched(wasm, files), files };
}

/** Each marker shows in the app that calls its half of the codec (see CODEC_MARKERS). */
function checkMarkers(byName) {
  for (const [half, marker] of Object.entries(CODEC_MARKERS)) {
    if (!byName[marker.shownBy].codec[half]) {
      throw new Error(`size.js: the ${marker.shownBy} app's JS lacks '${marker.text}': pick a string the ${half} still holds`);
    }
  }
}

/**
 * Builds and measures every app of APPS against the package at `pkg` (this
 * repository by default; `ref`: that commit's package instead). Resolves to
 * { [app name]: result }.
 */
export async function measure({ pkg = ROOT, ref } = {}) {
  return inProject({ pkg, ref }, async (app) => {
    const byName = {};
    for (const a of APPS) byName[a.name] = await measureApp(a, app);
    checkMarkers(byName);
    return byName;
  });
}

/** fn(dir) in a new app project depending on the package (at `pkg`, or as of `ref`), in production mode. */
export async function inProject({ pkg = ROOT, ref } = {}, fn) {
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-size-'));
  // Vite takes production-ness from NODE_ENV when it is set (Vitest sets 'test').
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const target = ref ? snapshot(ref, join(dir, 'package')) : pkg;
    return await fn(project(join(dir, 'app'), target));
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The generated files of inlined builds (js/inline.js imports them), by the module they hold. */
export const INLINE_FILES = {
  [TYPED]: 'dist/fastmp-inline.js',
  [PACK]: 'dist/fastmp-inline-pack.js',
  [STRINGS]: 'dist/fastmp-inline-strings.js',
};

/**
 * Per export `name` of fastmp-wasm/inline, an app that imports it alone
 * (and init()): { name, loads, holds }, the modules its init() loads (by the
 * bundle's marks) and those whose inlined builds its bundle holds.
 */
export async function inlineHoldings(names) {
  return inProject({}, async (dir) => {
    const rows = [];
    for (const name of names) {
      const entry = join(dir, `inline-${name}.js`);
      const binding = name === 'default' ? 'default as used' : name;
      writeFileSync(entry, `import { init, ${binding} } from 'fastmp-wasm/inline';\nawait init();\nconsole.log(${name === 'default' ? 'used' : name});\n`);
      const bundled = bundledFiles(await bundle(dir, entry));
      const marked = new Set(MODULE_MARKS.filter((m) => bundled.has(m.file)).map((m) => m.module));
      const holds = Object.keys(INLINE_FILES).filter((m) => bundled.has(INLINE_FILES[m]));
      rows.push({ name, loads: modulesToLoad(marked), holds });
    }
    return rows;
  });
}

/** Each app's goal (met or missed) and ceiling (ok or exceeded), from BUDGETS. */
export function judge(byName) {
  return Object.values(byName).map((r) => {
    const { goal, ceiling } = BUDGETS[r.name];
    return { ...r, goal: goal.text, goalMet: goal.met(r, byName), goalShows: goal.shows(r, byName), ceiling, underCeiling: r.total <= ceiling };
  });
}

const wasmCell = (list) => (list.length ? list.map((w) => `${w.source} ${kb(w.gzip)}`).join(', ') : 'none');

/** The markdown table of judge()'s rows. */
export function table(rows) {
  const head = ['app', 'JS', '.wasm emitted', '.wasm a SIMD browser fetches', 'total', 'goal (issue 26)', 'goal', 'ceiling (total)', 'ceiling'];
  const lines = rows.map((r) => [
    r.label, kb(r.js), wasmCell(r.wasm), wasmCell(r.fetched), `**${kb(r.total)}** (${r.total} B)`,
    r.goal, `${r.goalMet ? 'met' : 'missed'}: ${r.goalShows}`, `${r.ceiling} B`, r.underCeiling ? 'ok' : '**exceeded**',
  ]);
  return [head, head.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** What was measured: the commit, and whether js/ or package.json differ from it. */
export function codeState(ref) {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  if (ref) return `commit ${git('rev-parse', '--short', ref)}`;
  const dirty = git('status', '--porcelain', '--', 'js', 'package.json', 'dist') !== '';
  return `the working tree at ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes to js/ or package.json' : ''}`;
}

/** The markdown page: how it was made, then the table. */
function page(rows, { command, ref }) {
  const node = process.versions.node.split('.').slice(0, 2).join('.');
  return `# Bundle sizes (issue 26)

\`${command}\`: ${codeState(ref)}, Vite ${viteVersion}, Node ${node}. Each app is one entry file built by
Vite's production build with its defaults (browser conditions, minified). Sizes are gzip -9, KB = 1024 bytes:
JS is the sum over the emitted JS chunks; total is JS plus the .wasm files a SIMD browser fetches. The goal is
issue 26's budget; the ceiling is bench/size.js's tripwire (test/size.test.js asserts it).

${table(rows)}
`;
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, ref: { type: 'string' } } });
  const started = performance.now();
  const rows = judge(await measure({ ref: values.ref }));
  const command = ['node bench/size.js', ...process.argv.slice(2)].join(' ');
  process.stdout.write(`${table(rows)}\n\n${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  if (values.out) writeFileSync(values.out, page(rows, { command, ref: values.ref }));
  if (rows.some((r) => !r.underCeiling)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
