// size-families.js - what the typed-array pages of bench/size.js would
// download were the pack and unpack modules each split by element family:
// the floats' kernels, and the integers' with the booleans' (`make families`
// builds them, by the Makefile's flags for the product's modules). A design
// figure, not the product: issue 42 asks for behaviour unchanged, and such a
// split changes what init() loads (a module per family, the integers' on
// their first call) and which files a caller who passes the modules gives.
//
// The pages are bench/size.js's own (pack(), encode, encode + shaped decode:
// each packs or unpacks Float32Arrays only), built and loaded in Chromium
// twice in one run: against the package as built, and against a copy of it
// whose SIMD pack and unpack modules are the float families' alone. Each page
// checks its own result, so a page that needed another family's kernel fails
// and is reported so. The integer families are weighed as files: what an app
// that packs or unpacks integer arrays would fetch besides.
//
//   node bench/size-families.js [--out FILE.md]     (bench/RESULTS-size-families.md)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KB, codeState, gzip, judge, kb, measure } from './size.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const APPS = ['pack', 'encode', 'shaped'];
const FAMILY = (module, family) => join(ROOT, 'build', 'families', `fastmp-${module}-${family}-simd.wasm`);

/** The family modules, built by make (which needs emcc: ./build.sh installs it). */
function buildFamilies() {
  execFileSync('make', ['--no-print-directory', 'families'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A copy of the package (package.json, js/, dist/) whose SIMD pack and unpack modules are the float families'. */
function floatsOnlyPackage(dir) {
  for (const part of ['package.json', 'js', 'dist']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  for (const module of ['pack', 'unpack']) cpSync(FAMILY(module, 'float'), join(dir, 'dist', `fastmp-${module}-simd.wasm`));
}

const weigh = (file) => gzip(readFileSync(file));

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  buildFamilies();
  const info = {};
  const asBuilt = judge(await measure({ apps: APPS, info }));
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-families-'));
  let split;
  try {
    floatsOnlyPackage(dir);
    split = judge(await measure({ pkg: dir, apps: APPS }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const modules = ['pack', 'unpack'].map((m) => ({
    module: m,
    whole: weigh(join(ROOT, 'dist', `fastmp-${m}-simd.wasm`)),
    float: weigh(FAMILY(m, 'float')),
    int: weigh(FAMILY(m, 'int')),
  }));
  const text = report({ asBuilt, split, modules, browser: info.browser, command: `node bench/size-families.js${values.out ? ` --out ${values.out}` : ''}` });
  console.log(text);
  if (values.out) writeFileSync(values.out, `${text}\n`);
  if (![...asBuilt, ...split].every((r) => r.ran)) process.exitCode = 1;
}

const bytes = (n) => `${kb(n)} (${n} B)`;
const ran = (r) => (r.ran ? bytes(r.total) : `**did not run**: ${r.problems[0] ?? 'no done marker'}`);

function report({ asBuilt, split, modules, browser, command }) {
  const byName = Object.fromEntries(split.map((r) => [r.name, r]));
  const pageRows = asBuilt.map((r) => {
    const s = byName[r.name];
    const verdict = s.ran ? (s.total <= s.goalBytes ? 'met' : '**missed**') : '—';
    return `| ${r.label} | ${ran(r)} | ${ran(s)} | ${r.goal} (${r.goalBytes} B) | ${verdict} |`;
  });
  const moduleRows = modules.map((m) => `| ${m.module} | ${bytes(m.whole)} | ${bytes(m.float)} | ${bytes(m.int)} | ${bytes(m.float + m.int)} |`);
  return `# The typed-array pages with the kernels split by element family (issue 42)

\`${command}\`: ${codeState()}, Chromium ${browser}, Node ${process.versions.node}. Each page is
bench/size.js's (a Vite 8 production build, served and loaded in Chromium, every response gzip -9,
KB = ${KB} bytes), built once against the package as it is and once against a copy whose SIMD pack
and unpack modules hold only the floats' kernels (\`make families\`: c/fm_float.c alone, the
Makefile's flags). These pages pack and unpack Float32Arrays only, and check their own results.

| page | as built | with the float kernels only | goal | goal with the split |
| --- | --- | --- | --- | --- |
${pageRows.join('\n')}

What each SIMD module weighs, whole and by family (gzip -9); an app that packs or unpacks integer
or boolean arrays would fetch the integer family besides, on its first such call:

| module | whole | floats | integers and booleans | both families |
| --- | --- | --- | --- | --- |
${moduleRows.join('\n')}

Not the product: a split changes behaviour that issue 42 keeps (what \`init()\` loads, the files a
caller passes as \`options.wasm\`, what the inline entry holds). docs/history.md says what it would
take.`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
