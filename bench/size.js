// size.js - what a page that uses fastmp downloads (issues 26 and 42). Each app
// in APPS is a one-file browser entry; for each, Vite builds a real page
// (index.html whose module script is the app, production, minified, written
// to a temp dir) in a project that installs the package by a link, a static
// server on 127.0.0.1 serves the built page, and headless Chromium loads it
// (bench/pages.js). The page checks its own result and logs a completion
// marker; once it has, and the network has been idle for 500 ms, every
// response the browser got is weighed: an app's total is the gzip -9 of every
// response body but the HTML document's (KB = 1024 bytes). Nothing is
// predicted: the .wasm counted are those the page fetched.
// GOALS holds issue 42's goal per app; CEILINGS what CI holds each page to
// (test/size.test.js): the goal where the page meets it, else the page's
// measured total when the ceiling was set, so that no change makes it heavier.
//
//   npm run size                          the working tree
//   node bench/size.js --out FILE.md      also writes the table as markdown
//   node bench/size.js --ref COMMIT       the package as of COMMIT (its js/ and package.json; its
//                                         dist/ copied when c/ and the Makefile are the working
//                                         tree's, else built by `make wasm`, which needs emcc)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, version as viteVersion } from 'vite';
import { launchChromium, loadPage, serve } from './pages.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const KB = 1024;
export const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

/** What every app logs last: MARKER then ' done' when its result checked out, ' FAILED' when not. */
export const MARKER = 'fastmp-size:';
const finish = (ok) => `console.log(${ok} ? '${MARKER} done' : '${MARKER} FAILED');`;

/** The hex of a Uint8Array, as a page writes it (no Buffer on a page). */
const HEX = `const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');`;
/** encode({ v: new Float32Array([1, 2]) }): a map of one key, 'v', to an array of two float32. */
const ENCODED = '81a17692ca3f800000ca40000000';

/**
 * The .wasm files each app's page must fetch, by the name of their source in
 * dist/: the SIMD build of the modules of the calls it makes, no other (issue
 * 42). test/size.test.js holds Vite's pages to it, test/audit-bundlers.test.js
 * the other bundlers'.
 */
export const FETCHES = Object.freeze({
  pack: ['fastmp-pack-simd.wasm'],
  encode: ['fastmp-pack-simd.wasm'],
  shaped: ['fastmp-pack-simd.wasm', 'fastmp-unpack-simd.wasm'],
  asn1: ['fastmp-strings-simd.wasm'],
  inline: [],
});

/**
 * The apps, as a browser app writes them: import from the package, `await
 * init()` (the README's rule for pages), call what the app uses and log the
 * result (so that the minifier keeps the calls), check it, and log MARKER's
 * line. `prints`: the lines the app logs before the marker.
 */
export const APPS = [
  {
    name: 'pack',
    label: '`pack()` only',
    prints: [String(3 + 5 * 4096)],
    code: `import { init, pack } from 'fastmp-wasm';
await init();
const bytes = pack(new Float32Array(4096).fill(1.5));
console.log(bytes.length);
// An array of 4096 elements (0xdc, then the count in 2 bytes), each a float32 (0xca) 1.5.
const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
let ok = bytes.length === 3 + 5 * 4096 && bytes[0] === 0xdc && view.getUint16(1) === 4096;
for (let i = 3; ok && i < bytes.length; i += 5) ok = bytes[i] === 0xca && view.getFloat32(i + 1) === 1.5;
${finish('ok')}`,
  },
  {
    name: 'encode',
    label: '`encode` only',
    prints: [ENCODED],
    code: `import { encode, init } from 'fastmp-wasm';
${HEX}
await init();
const encoded = hex(encode({ v: new Float32Array([1, 2]) }));
console.log(encoded);
${finish(`encoded === '${ENCODED}'`)}`,
  },
  {
    name: 'shaped',
    label: '`encode` + shaped `decode`',
    prints: ['Float32Array 1,2'],
    code: `import { decode, encode, init } from 'fastmp-wasm';
await init();
const { v } = decode(encode({ v: new Float32Array([1, 2]) }), { shape: { v: Float32Array } });
console.log(v.constructor.name, v.join());
${finish('v instanceof Float32Array && v.length === 2 && v[0] === 1 && v[1] === 2')}`,
  },
  {
    name: 'asn1',
    label: 'ASN.1 strings only (`encodeBMP`, `decodeBMP`)',
    prints: ['fastmp'],
    code: `import { decodeBMP, encodeBMP, init } from 'fastmp-wasm';
await init();
const text = decodeBMP(encodeBMP('fastmp'));
console.log(text);
${finish(`text === 'fastmp'`)}`,
  },
  {
    name: 'inline',
    label: '`fastmp-wasm/inline`, `encode` only',
    prints: [ENCODED],
    code: `import { encode, init } from 'fastmp-wasm/inline';
${HEX}
await init();
const encoded = hex(encode({ v: new Float32Array([1, 2]) }));
console.log(encoded);
${finish(`encoded === '${ENCODED}'`)}`,
  },
];

/**
 * Strings of the codec's error messages, which minifiers keep: a page whose
 * fetched JS holds one ships that half of the codec. markerProblems() checks
 * that the pages that call each half hold its marker, so that a reworded
 * message fails loudly instead of letting the ASN.1 page pass for codec-free.
 */
export const CODEC_MARKERS = {
  encoder: { text: '(unrecognized object:', shownBy: 'encode' },
  decoder: { text: 'which msgpack never uses', shownBy: 'shaped' },
};

/** The goal of a total of at most `bytes`. */
const totalAtMost = (bytes) => ({ text: `total ≤ ${bytes / KB} KB`, limit: () => bytes });

/** Per app, issue 42's goal: `limit(all)`, the most bytes its total may be, given every app's result. */
export const GOALS = {
  pack: totalAtMost(12 * KB),
  encode: totalAtMost(18 * KB),
  shaped: totalAtMost(32 * KB),
  asn1: totalAtMost(10 * KB),
  inline: { text: 'total ≤ 1.2 × the `encode` page\'s', limit: (all) => Math.floor(1.2 * all.encode?.total) },
};

/**
 * What CI holds each page to, in bytes: issue 42's goal where the page meets
 * it, else its total as measured when set (`node bench/size.js`), rounded up
 * to the next 128 B above it: a change that adds weight fails; one that removes it
 * lowers the ceiling to the new total (down to the goal) in the same commit.
 * The goals that are missed, and what bounds them: bench/RESULTS-size-costs.md
 * and bench/RESULTS-size-families.md.
 */
export const CEILINGS = {
  // (Raised in 128 B steps by the audits' fixes, each said in docs/history.md.)
  pack: 13_952,
  encode: 20_992,
  shaped: 38_272,
  asn1: 11_648,
  inline: (all) => GOALS.inline.limit(all),
};

export const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const sum = (list, key) => list.reduce((total, item) => total + item[key], 0);

/** The package files (js/..., dist/...) that a build's chunks render code of; `pkg`: the package directory. */
function bundledFiles(output, pkg) {
  const files = new Set();
  for (const chunk of output.filter((o) => o.type === 'chunk')) {
    for (const [id, m] of Object.entries(chunk.modules)) {
      if (id.startsWith(pkg + sep) && m.renderedLength > 0) files.add(id.slice(pkg.length + 1));
    }
  }
  return files;
}

/**
 * A package directory holding `ref`'s package.json and js/, and a dist/ built
 * from `ref`'s c/ and Makefile: the working tree's dist/ when those are the
 * same, else `make wasm` in the snapshot (emcc: REFERENCE.md §4).
 */
function snapshot(ref, into) {
  const built = ['c', 'Makefile'];
  const archive = execFileSync('git', ['archive', '--format=tar', ref, 'package.json', 'js', ...built], { cwd: ROOT, maxBuffer: 1 << 28 });
  mkdirSync(into);
  execFileSync('tar', ['-x', '-C', into], { input: archive });
  let same = true;
  try {
    execFileSync('git', ['diff', '--quiet', ref, '--', ...built], { cwd: ROOT });
  } catch {
    same = false;
  }
  if (same) {
    cpSync(join(ROOT, 'dist'), join(into, 'dist'), { recursive: true });
    return into;
  }
  try {
    execFileSync('make', ['--no-print-directory', '-C', into, 'wasm'], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new Error(`size.js --ref ${ref}: c/ or the Makefile differ from ${ref}'s, and \`make wasm\` of ${ref}'s failed: ${String(error.stderr ?? error.message).trim().split('\n').at(-1)}`, { cause: error });
  }
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

/** Vite's production build, with its defaults but for `build`'s options given: its output files. */
async function viteBuild(root, options) {
  const result = await build({
    root,
    configFile: false,
    envDir: false,
    publicDir: false,
    mode: 'production',
    logLevel: 'silent',
    build: options,
  });
  return (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
}

/**
 * Vite's production build of one entry, kept in memory: its output files.
 * `minify: false` keeps the code as the bundler joined it, and `sourcemap`
 * adds each chunk's map (bench/size-costs.js takes declarations out of it).
 */
export function bundle(dir, entry, { minify = true, sourcemap = false } = {}) {
  return viteBuild(dir, { write: false, minify, sourcemap, rolldownOptions: { input: entry } });
}

/**
 * What the package leaves on an app's page as top-level statements (not
 * declarations) that the app never asked for: the code the bundler kept only
 * because it could not tell it had no effect (a call or a property read at
 * the top level of a module: annotate it pure, or build the value in a pure
 * function). An entry's setEntry() is its purpose and is not counted.
 * Returns [{ file, line }] of the app's unminified bundle.
 */
export async function leftoverStatements(appName) {
  const app = APPS.find((a) => a.name === appName);
  return inProject({}, async (dir) => {
    const entry = join(dir, 'main.js');
    writeFileSync(entry, `${app.code}\n`);
    const chunk = (await bundle(dir, entry, { minify: false })).find((o) => o.type === 'chunk');
    const found = [];
    let file = null; // the package module the lines are from (the bundler's "// path" line before each), else null
    for (const line of chunk.code.split('\n')) {
      const marker = /^\/\/ (?:.*\/)?(js\/\S+\.js)$/.exec(line);
      if (marker !== null || /^\/\/ \S+$/.test(line)) file = marker?.[1] ?? null;
      else if (file !== null && /^[^\s/*})\]]/.test(line) && !/^(?:var|let|const|function|async function|class) /.test(line) && !line.startsWith('setEntry(')) {
        found.push({ file, line: line.trim() });
      }
    }
    return found;
  });
}

/** A page whose one module script is the app. The icon is empty, so that the browser asks for none. */
const pageHtml = (app) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <link rel="icon" href="data:,">
    <title>${app.name}</title>
  </head>
  <body>
    <script type="module" src="./main.js"></script>
  </body>
</html>
`;

/**
 * The app's page, built by Vite (production, minified, with its defaults) into
 * `<project>/built/<name>`: { app, outDir, output, error }. A build that fails
 * gives its error (the page is then reported as not run), not a throw.
 */
async function buildPage(app, dir) {
  const root = join(dir, 'pages', app.name);
  const outDir = join(dir, 'built', app.name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'index.html'), pageHtml(app));
  writeFileSync(join(root, 'main.js'), `${app.code}\n`);
  try {
    return { app, outDir, output: await viteBuild(root, { outDir, emptyOutDir: true }), error: null };
  } catch (error) {
    return { app, outDir, output: [], error };
  }
}

/**
 * The .wasm that a page's JS holds as data: URLs (Vite inlines an asset
 * under its assetsInlineLimit, 4 KB by default), by the file of the
 * package's dist/ with those bytes: [{ source, bytes }].
 */
function wasmDataUrls(text, pkg) {
  const dist = join(pkg, 'dist');
  const files = existsSync(dist) ? readdirSync(dist).filter((f) => f.endsWith('.wasm')).map((f) => [f, readFileSync(join(dist, f))]) : [];
  return [...text.matchAll(/data:application\/wasm;base64,([A-Za-z0-9+/=]+)/g)].map(([, base64]) => {
    const bytes = Buffer.from(base64, 'base64');
    return { source: files.find(([, b]) => b.equals(bytes))?.[0] ?? 'an unknown module', bytes: bytes.length };
  });
}

/** A build's error in one line: the first error the bundler names, else the message's first line. */
const buildError = (error) => stripVTControlCharacters(error.errors?.[0]?.message ?? error.message).split('\n').map((l) => l.trim()).find(Boolean);

/**
 * A built page served and loaded in `browser`, weighed: each response but
 * the HTML document's by kind (a .wasm file by the name of its source in the
 * package, from the build's output), its codec markers, the package files
 * its chunks bundle.
 */
async function weighPage(browser, { app, outDir, output, error }, pkg) {
  const base = { name: app.name, label: app.label, files: [...bundledFiles(output, pkg)].sort() };
  if (error) {
    const empty = { gzip: 0, bytes: 0 };
    return { ...base, ran: false, finished: null, printed: [], problems: [`the build failed: ${buildError(error)}`],
      html: empty, js: 0, jsFiles: [], wasm: [], wasmTotal: 0, other: [], total: 0, responses: [],
      codec: { encoder: false, decoder: false }, inlinedWasm: [] };
  }
  const sources = new Map(output.filter((o) => o.type === 'asset' && o.originalFileNames?.length)
    .map((o) => [o.fileName, basename(o.originalFileNames[0])]));
  const server = await serve(outDir);
  let loaded;
  try {
    loaded = await loadPage(browser, `${server.origin}/`, { marker: MARKER });
  } finally {
    await server.close();
  }
  const html = { bytes: 0, gzip: 0 };
  const js = [];
  const wasm = [];
  const other = [];
  for (const r of loaded.responses) {
    const size = { bytes: r.body.length, gzip: gzip(r.body) };
    const file = decodeURIComponent(new URL(r.url).pathname).slice(1);
    if (r.type === 'document') Object.assign(html, size);
    else if (extname(file) === '.wasm') wasm.push({ file, source: sources.get(file) ?? basename(file), ...size });
    else if (extname(file) === '.js') js.push({ file, ...size, text: r.body.toString('utf8') });
    else other.push({ file, ...size });
  }
  const text = js.map((f) => f.text).join('\n');
  const codec = Object.fromEntries(Object.entries(CODEC_MARKERS).map(([half, m]) => [half, text.includes(m.text)]));
  const inlinedWasm = wasmDataUrls(text, pkg);
  const jsFiles = js.map(({ text: _, ...f }) => f);
  // What the server sent is what the browser reports: no response goes unweighed.
  const seen = new Set(loaded.responses.map((r) => decodeURIComponent(new URL(r.url).pathname)));
  const unseen = server.served.filter((s) => !seen.has(s.path) && !(s.path.endsWith('/index.html') && seen.has(s.path.slice(0, -10))));
  const problems = [...loaded.problems, ...unseen.map((s) => `served but not seen by the browser: ${s.path}`)];
  const ran = loaded.finished === `${MARKER} done` && problems.length === 0;
  if (loaded.finished === `${MARKER} FAILED`) problems.unshift('the page\'s check of its result failed');
  return {
    ...base,
    ran,
    finished: loaded.finished,
    printed: loaded.logs,
    problems,
    html,
    js: sum(jsFiles, 'gzip'),
    jsFiles,
    wasm,
    wasmTotal: sum(wasm, 'gzip'),
    other,
    total: sum(jsFiles, 'gzip') + sum(wasm, 'gzip') + sum(other, 'gzip'),
    responses: loaded.responses.map((r) => ({ url: r.url, status: r.status, bytes: r.body.length })),
    codec,
    inlinedWasm,
  };
}

/**
 * Builds every page of APPS (or of the apps named in `apps`) against the
 * package at `pkg` (this repository by default; `ref`: that commit's package
 * instead), loads each in one headless Chromium, and resolves to
 * { [app name]: result }; `info.browser` is set to Chromium's version.
 */
export async function measure({ pkg = ROOT, ref, apps = APPS.map((a) => a.name), info = {} } = {}) {
  return inProject({ pkg, ref }, async (dir, target) => {
    const built = [];
    for (const app of APPS.filter((a) => apps.includes(a.name))) built.push(await buildPage(app, dir));
    const browser = await launchChromium();
    info.browser = browser.version();
    try {
      const byName = {};
      for (const page of built) byName[page.app.name] = await weighPage(browser, page, target);
      return byName;
    } finally {
      await browser.close();
    }
  });
}

/** One app (as APPS's: { name, label, code }) built, served and loaded as measure() does its pages: its result. */
export async function loadApp(app, { pkg = ROOT } = {}) {
  return inProject({ pkg }, async (dir, target) => {
    const page = await buildPage(app, dir);
    const browser = await launchChromium();
    try {
      return await weighPage(browser, page, target);
    } finally {
      await browser.close();
    }
  });
}

/**
 * Each marker that does not show where it should (see CODEC_MARKERS): a line
 * per marker that the page calling its half lacks, or [] (pages not measured
 * or not run are skipped).
 */
export function markerProblems(byName) {
  return Object.entries(CODEC_MARKERS).filter(([half, m]) => byName[m.shownBy]?.ran && !byName[m.shownBy].codec[half])
    .map(([half, m]) => `the ${m.shownBy} page's JS lacks '${m.text}': pick a string the ${half} still holds (bench/size.js CODEC_MARKERS)`);
}

/**
 * fn(dir, pkg) in a new app project (dir) depending on the package (at
 * `pkg`, or as of `ref`; `pkg` is then its real path), in production mode.
 */
export async function inProject({ pkg = ROOT, ref } = {}, fn) {
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-size-'));
  // Vite takes production-ness from NODE_ENV when it is set (Vitest sets 'test').
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const target = realpathSync(ref ? snapshot(ref, join(dir, 'package')) : pkg);
    return await fn(project(join(dir, 'app'), target), target);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The generated files of inlined builds (js/inline.js imports them), by the
 * module they hold (js/surface.js's modules).
 */
export const INLINE_FILES = {
  pack: 'dist/fastmp-inline-pack.js',
  unpack: 'dist/fastmp-inline-unpack.js',
  strings: 'dist/fastmp-inline-strings.js',
};

/**
 * Per export `name` of fastmp-wasm/inline, an app that imports it alone
 * (and init()), bundled: { name, holds }, the modules whose inlined builds
 * it holds.
 */
export async function inlineHoldings(names) {
  return inProject({}, async (dir, pkg) => {
    const rows = [];
    for (const name of names) {
      const entry = join(dir, `inline-${name}.js`);
      const binding = name === 'default' ? 'default as used' : name;
      writeFileSync(entry, `import { init, ${binding} } from 'fastmp-wasm/inline';\nawait init();\nconsole.log(${name === 'default' ? 'used' : name});\n`);
      const bundled = bundledFiles(await bundle(dir, entry), pkg);
      rows.push({ name, holds: Object.keys(INLINE_FILES).filter((m) => bundled.has(INLINE_FILES[m])) });
    }
    return rows;
  });
}

/**
 * Each page's goal: its limit in bytes (goalBytes) and whether its total
 * meets it (goalMet), from GOALS; and CI's ceiling (ceilingBytes, ceilingMet).
 */
export function judge(byName) {
  return Object.values(byName).map((r) => {
    const goal = GOALS[r.name];
    const goalBytes = goal.limit(byName);
    const ceiling = CEILINGS[r.name];
    const ceilingBytes = typeof ceiling === 'function' ? ceiling(byName) : ceiling;
    return { ...r, goal: goal.text, goalBytes, goalMet: r.ran && r.total <= goalBytes, ceilingBytes, ceilingMet: r.ran && r.total <= ceilingBytes };
  });
}

/** One line: a page's total against its goal. */
export const goalLine = (r) => `${r.name}: total ${kb(r.total)} (${r.total} B) ${r.total <= r.goalBytes ? '≤' : '>'} its goal, ${r.goal} (${r.goalBytes} B)`;

const wasmCell = (list) => (list.length ? list.map((w) => `${w.source} ${kb(w.gzip)}`).join(', ') : 'none');

/** The markdown table of judge()'s rows. */
export function table(rows) {
  const head = ['page', 'ran', 'HTML', 'JS', '.wasm fetched', 'total (all but the HTML)', 'goal (issue 42)', 'goal', 'CI ceiling'];
  const lines = rows.map((r) => [
    r.label,
    r.ran ? 'ok' : `**no**: ${r.problems[0] ?? `no '${MARKER} done'`}`.replaceAll('|', '\\|'),
    `${kb(r.html.gzip)} (${r.html.bytes} B raw)`,
    `${kb(r.js)} (${r.jsFiles.length} file${r.jsFiles.length === 1 ? '' : 's'})${r.other.length ? ` + other ${kb(sum(r.other, 'gzip'))}` : ''}${
      r.inlinedWasm.length ? `; holds ${r.inlinedWasm.map((w) => `${w.source} (${w.bytes} B)`).join(', ')} as a data: URL` : ''}`,
    wasmCell(r.wasm),
    `**${kb(r.total)}** (${r.total} B)`,
    `${r.goal} (${r.goalBytes} B)`,
    `${r.goalMet ? 'met' : '**missed**'}: ${kb(r.total)}`,
    `${r.ceilingBytes} B: ${r.ceilingMet ? 'held' : '**exceeded**'}`,
  ]);
  return [head, head.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** What was measured: the commit, and whether js/, package.json or dist/ differ from it. */
export function codeState(ref) {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  if (ref) return `commit ${git('rev-parse', '--short', ref)}`;
  const dirty = git('status', '--porcelain', '--', 'js', 'package.json', 'c', 'Makefile') !== '';
  return `the working tree at ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes to js/, c/, the Makefile or package.json' : ''}`;
}

/** The markdown page: how it was made, then the table. */
function page(rows, { command, ref, browserVersion }) {
  const node = process.versions.node.split('.').slice(0, 2).join('.');
  return `# What a page downloads (issues 26 and 42)

\`${command}\`: ${codeState(ref)}, Vite ${viteVersion}, Chromium ${browserVersion}, Node ${node}. Each app is
one entry file, the module script of an index.html that Vite's production build turns into a page (its
defaults: minified, browser conditions) in a project that installs the package by a link. The page is
served from 127.0.0.1 and loaded in headless Chromium (a new context: an empty cache); it checks its
own result and logs that it is done, and once the network has been idle for 500 ms every response is
weighed. Sizes are gzip -9 of the response bodies, KB = 1024 bytes; the total is every response but
the HTML document, whose size is given apart. The .wasm files are those the page fetched, named by
their source in the package; a .wasm that Vite inlined into the JS as a data: URL (an asset under its
4 KB assetsInlineLimit) is counted in the JS, and named there. The goals are issue 42's; test/size.test.js
holds each page to bench/size.js CEILINGS (the goal where it is met, else the total when the ceiling was set).

${table(rows)}
`;
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, ref: { type: 'string' } } });
  const started = performance.now();
  const info = {};
  const byName = await measure({ ref: values.ref, info });
  const rows = judge(byName);
  const command = ['node bench/size.js', ...process.argv.slice(2)].join(' ');
  const notes = [...rows.filter((r) => !r.ran).map((r) => `${r.name}: the page did not run: ${r.problems.join('; ')}`), ...markerProblems(byName)];
  process.stdout.write(`${table(rows)}\n\n${notes.map((n) => `${n}\n`).join('')}${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  if (values.out) writeFileSync(values.out, page(rows, { command, ref: values.ref, browserVersion: info.browser }));
  if (notes.length || rows.some((r) => !r.ceilingMet)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
