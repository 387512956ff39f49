// README.md and docs/*.md are checked, not trusted: their examples run as
// written and print what their comments say (the TypeScript one also
// type-checks); the Python snippets read the files the examples wrote and
// print what their comments say (the "From Python" example reads what its
// Python snippet wrote); the sizes and benchmark figures they quote are those
// of the build, of bench/results.json and of bench/results-messages.json, and
// docs/chart.svg is bench/report.js svg() of bench/results.json; every link
// resolves on the npm page (the README's links to other files are unpkg
// addresses of files the package ships, at package.json's version) and in the
// tarball (docs/'s links are relative, to headings and files that ship); the
// zero-copy warning is reproduced.
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { finished } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { readmeMarkers, readmeTables, svg } from '../bench/report.js';
import { alloc, free, packView, unpackFrom } from '../js/node.js';
import { ROOT } from './helpers.js';

const read = (file) => readFileSync(join(ROOT, file), 'utf8');
const README = read('README.md');
const PKG = JSON.parse(read('package.json'));
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
const PAGES = ['README.md', ...DOCS];
const PYTHON = '/usr/bin/python3'; // Debian's, with python3-msgpack (build.sh installs it)
const hasNumpy = spawnSync(PYTHON, ['-c', 'import numpy']).status === 0; // python3-numpy comes with emscripten
const work = mkdtempSync(join(tmpdir(), 'fastmp-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// ---- reading markdown -----------------------------------------------------------------------

/** The lines of a markdown text with the headings marked: { line, heading, level } (fenced code is no heading). */
function lines(text) {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && line.match(/^(#{1,6}) (.*)$/);
    return m ? { line, heading: m[2], level: m[1].length } : { line };
  });
}

/** The text under a heading of a page, up to the next heading of the same or a higher level. */
function section(heading, file = 'README.md') {
  const all = lines(read(file));
  const start = all.findIndex((l) => l.heading === heading);
  if (start < 0) throw new Error(`${file}: no heading "${heading}"`);
  const next = all.findIndex((l, i) => i > start && l.level !== undefined && l.level <= all[start].level);
  return all.slice(start + 1, next < 0 ? undefined : next).map((l) => l.line).join('\n');
}

/** The fenced blocks of `lang` in a text, in order, unindented (a block inside a list item is indented). */
function blocks(text, lang) {
  return [...text.matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^ *\`\`\``, 'gm'))]
    .map(([, indent, code]) => code.split('\n').map((l) => l.slice(indent.length)).join('\n'));
}

/**
 * The output the comments of a code block promise: for each line that prints
 * (`call`), the comment at its end, or else the comment line after it; and the
 * comment lines that directly follow (more output of the same line, e.g. in a loop).
 */
function promised(code, call, mark) {
  const rows = code.split('\n');
  const commentLine = new RegExp(`^\\s*${mark} (.*)$`);
  const out = [];
  rows.forEach((row, i) => {
    if (!row.includes(call)) return;
    let next = i + 1;
    const inline = row.match(new RegExp(`\\);?\\s+${mark} (.*)$`));
    if (inline) {
      out.push(inline[1]);
    } else {
      const below = rows[next]?.match(commentLine);
      if (!below) throw new Error(`no promised output for: ${row}`);
      out.push(below[1]);
      next++;
    }
    for (let m; (m = rows[next]?.match(commentLine)); next++) out.push(m[1]);
  });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading) => heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');

/** The anchors of a page's headings. */
const anchors = (file) => new Set(lines(read(file)).filter((l) => l.heading).map((l) => slug(l.heading)));

/** The rows of the first table in a text, as arrays of cells (the separator row left out). */
function table(text) {
  const all = text.split('\n');
  const start = all.findIndex((l) => l.startsWith('|'));
  const end = all.findIndex((l, i) => i > start && !l.startsWith('|'));
  const rows = start < 0 ? [] : all.slice(start, end < 0 ? undefined : end);
  return rows.filter((_, i) => i !== 1).map((l) => l.slice(1, -1).split('|').map((c) => c.trim()));
}

// ---- the examples --------------------------------------------------------------------------

// Page, heading, and how many lines of output its examples at least promise.
// Every ```js block under the heading runs, in a directory of its own (they
// write files), from test/ so that 'fastmp-wasm' resolves to this package.
const EXAMPLES = [
  ['README.md', 'Example', 5],
  ['README.md', 'In a Node service', 2],
  ['README.md', 'Migrating from @msgpack/msgpack', 2],
  ['README.md', 'Shapes', 4],
  ['README.md', 'Errors', 3],
  ['docs/messages.md', 'Encoder and Decoder', 3],
  ['docs/messages.md', 'Decoding without garbage', 1],
  ['docs/messages.md', 'Streams', 2],
  ['docs/messages.md', 'Standard arrays or raw bytes: when to use which', 2],
  ['docs/typed-arrays.md', 'Typed arrays: pack and unpack', 7],
  ['docs/typed-arrays.md', 'Instances', 3],
  ['docs/typed-arrays.md', 'Zero-copy', 1],
  ['docs/errors.md', 'Messages', 3],
  ['docs/asn1.md', 'Example', 5],
];
// Page, heading, whose Python snippet reads what the example wrote, and whether it needs numpy.
const PYTHON_SNIPPETS = [
  ['README.md', 'Example', 3, false],
  ['docs/messages.md', 'Standard arrays or raw bytes: when to use which', 2, true],
];
const dirOf = (file, heading) => join(work, `${slug(file)}-${slug(heading)}`);

/** Runs one example (ES module code) in `cwd` and returns its output lines. */
function run(code, cwd) {
  const file = join(ROOT, 'test', '.readme-example.mjs'); // (eslint.config.js ignores it)
  writeFileSync(file, code);
  try {
    // FASTMP_BACKEND unset: the default instance is the one users get.
    return execFileSync(process.execPath, [file], { cwd, encoding: 'utf8', env: { ...process.env, FASTMP_BACKEND: '' } }).trim().split('\n');
  } finally {
    rmSync(file, { force: true });
  }
}

/** A fresh directory for the examples of a section. */
function freshDir(file, heading) {
  const cwd = dirOf(file, heading);
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(cwd, { recursive: true });
  return cwd;
}

describe('the examples of the README and docs/ run as written and print what they say', () => {
  test.each(EXAMPLES)('%s: %s', (file, heading, atLeast) => {
    const codes = blocks(section(heading, file), 'js').filter((code) => code.includes('console.log('));
    expect(codes.length).toBeGreaterThan(0);
    const cwd = freshDir(file, heading);
    let promises = 0;
    for (const code of codes) {
      const expected = promised(code, 'console.log(', '//');
      promises += expected.length;
      expect(run(code, cwd)).toEqual(expected);
    }
    expect(promises).toBeGreaterThanOrEqual(atLeast);
  });

  test.each(PYTHON_SNIPPETS)('%s: %s: the Python snippet reads what the example wrote', (file, heading, atLeast, numpy) => {
    if (numpy && !hasNumpy) {
      console.warn(`${file} "${heading}": numpy is not installed for ${PYTHON}, its Python snippet is not run`);
      return;
    }
    const [code] = blocks(section(heading, file), 'python');
    const expected = promised(code, 'print(', '#');
    expect(expected.length).toBeGreaterThanOrEqual(atLeast);
    const out = execFileSync(PYTHON, ['-c', code], { cwd: dirOf(file, heading), encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(expected);
  });

  test('every example that prints is one of those run', () => {
    const run = new Set(EXAMPLES.map(([file, heading]) => `${file}#${heading}`));
    const printing = [];
    for (const file of PAGES) {
      let heading;
      let lang; // of the fenced block we are in, else undefined
      let code = '';
      for (const { line, heading: h } of lines(read(file))) {
        if (h !== undefined) heading = h;
        const fence = line.match(/^\s*```(\w*)/);
        if (fence) {
          // JavaScript and TypeScript; the import-map page (html) runs in package.test.js.
          if (['js', 'ts'].includes(lang) && code.includes('console.log(')) printing.push(`${file}#${heading}`);
          lang = lang === undefined ? fence[1] : undefined;
          code = '';
        } else if (lang !== undefined) {
          code += `${line}\n`;
        }
      }
    }
    expect(printing.length).toBeGreaterThan(EXAMPLES.length);
    // The README's TypeScript and "From Python" examples run in tests of their own, below.
    expect(printing.filter((p) => !run.has(p) && !['README.md#TypeScript', 'README.md#From Python'].includes(p))).toEqual([]);
  });

  // The README's TypeScript example as users compile it: an ES module (.ts) and a CommonJS module
  // (.cts: the same imports become require(), resolved through the package's "require" types),
  // under each module resolution a project uses. 'bundler' takes ES modules only (module esnext).
  const TS_SETTINGS = [
    ['nodenext', 'nodenext', ['ts', 'cts']],
    ['node16', 'node16', ['ts', 'cts']],
    ['esnext', 'bundler', ['ts']],
  ];
  test.each(TS_SETTINGS)('the README\'s TypeScript example type-checks under tsc --strict, module %s, resolution %s', (module, resolution, kinds) => {
    const [code] = blocks(section('TypeScript'), 'ts');
    expect(code).toMatch(/optional\(/); // the inference it shows: named fields present, optional(S) absent or null
    // In test/, inside the package, so that 'fastmp-wasm' resolves to it through package.json "exports".
    const files = kinds.map((ext) => join(ROOT, 'test', `.readme-example-${resolution}.${ext}`));
    for (const file of files) writeFileSync(file, code);
    try {
      const tsc = spawnSync(process.execPath, [
        join(ROOT, 'node_modules/typescript/bin/tsc'), '--strict', '--noEmit', '--skipLibCheck', '--module', module,
        '--moduleResolution', resolution, '--target', 'es2022', '--lib', 'es2022,dom', '--types', 'node', ...files,
      ], { encoding: 'utf8' });
      expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
      expect(tsc.status).toBe(0);
    } finally {
      for (const file of files) rmSync(file, { force: true });
    }
  });

  test('the README\'s TypeScript example runs and prints what it says', () => {
    const [code] = blocks(section('TypeScript'), 'ts');
    const expected = promised(code, 'console.log(', '//');
    expect(expected.length).toBeGreaterThanOrEqual(1);
    const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    expect(run(js, freshDir('README.md', 'TypeScript'))).toEqual(expected);
  });

  test('README "From Python": the Python snippet writes a message, and the example reads it by shape and prints what it says', () => {
    const text = section('From Python');
    const [python] = blocks(text, 'python');
    const [code] = blocks(text, 'js');
    expect(python).toMatch(/tolist\(\)/);
    expect(python).toMatch(/tobytes\(\)/);
    if (!hasNumpy) {
      console.warn(`README.md "From Python": numpy is not installed for ${PYTHON}, its snippets are not run`);
      return;
    }
    const cwd = freshDir('README.md', 'From Python');
    execFileSync(PYTHON, ['-c', python], { cwd, encoding: 'utf8' });
    const expected = promised(code, 'console.log(', '//');
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(run(code, cwd)).toEqual(expected);
  });

  test('the first example of the README is the message one: encode, then decode by shape', () => {
    const [first] = blocks(README, 'js');
    expect(first).toBe(blocks(section('Example'), 'js')[0]);
    expect(first).toMatch(/encode\(message\)/);
    expect(first).toMatch(/decode\(bytes, \{ shape: \{ embedding: Float32Array/);
    for (const field of ['Float32Array', 'Float64Array', 'Int32Array', 'new Date(']) expect(first).toContain(field);
  });
});

// ---- the claims they make ----------------------------------------------------------------------

test('a Node stream keeps what write() is given: packView() outputs written without a copy come out wrong', async () => {
  // What docs/typed-arrays.md "Zero-copy" warns of, and why its example writes out.slice().
  expect(section('Zero-copy', 'docs/typed-arrays.md')).toContain('Node sockets and streams keep a reference to what they are given');
  const file = join(work, 'frames-without-copy.bin');
  const frame = alloc(Float32Array, 4096);
  const stream = createWriteStream(file);
  for (let i = 0; i < 3; i++) {
    frame.fill(i);
    stream.write(packView(frame));
  }
  stream.end();
  await finished(stream);
  free(frame);
  const bytes = readFileSync(file);
  const firsts = [];
  for (let at = 0; at < bytes.length;) {
    const { value, end } = unpackFrom(bytes, Float32Array, at);
    firsts.push(value[0]);
    at = end;
  }
  expect(firsts).toHaveLength(3);
  expect(firsts).not.toEqual([0, 1, 2]); // later frames overwrote what the stream still held
});

test('the migration notes put the wire change next to "switching is an import change"', () => {
  const notes = section('Migrating from @msgpack/msgpack');
  const claim = notes.indexOf('switching is an import change');
  const caveat = notes.indexOf('Typed arrays other than `Uint8Array` change on the wire');
  expect(claim).toBeGreaterThanOrEqual(0);
  expect(caveat).toBeGreaterThan(claim);
  expect(caveat - claim).toBeLessThan(400); // the next paragraph
  expect(notes).toContain("typedArrays: 'bin'");
  expect(README.split('switching is an import change')).toHaveLength(2); // made nowhere else
});

test('the contributors\' commands are what CI runs, in a Contributing section near the end, not in the introduction', () => {
  const ci = read('.ci/run').trim().split('\n').at(-1);
  expect(ci).toBe('./build.sh && npm test');
  const contributing = section('Contributing');
  expect(contributing).toContain(`\n${ci}  `);
  expect(contributing).toMatch(/\n\.\/build\.sh && npm run bench -- --only messages {2}/);
  const headings = lines(README).filter((l) => l.level === 2).map((l) => l.heading);
  expect(headings.indexOf('Contributing')).toBeGreaterThan(headings.indexOf('Performance'));
  expect(headings.indexOf('Contributing')).toBeGreaterThanOrEqual(headings.length - 2);
  expect(README.slice(0, README.indexOf('\n## Contributing')).includes('build.sh')).toBe(false);
});

test('the README stays a users\' page: under 30 KB', () => {
  expect(Buffer.byteLength(README)).toBeLessThan(30 * 1024);
});

test('the sizes of the package\'s files docs/browsers.md states are those of the build (KB = 1024 bytes, rounded; gzip at its default level)', () => {
  const stated = [...read('docs/browsers.md').matchAll(/`(dist\/[\w.-]+)`\s+\((\d+) KB,\s+(\d+) KB\s+gzipped/g)];
  expect(stated.map((m) => m[1]).sort()).toEqual(['dist/fastmp-inline-pack.js', 'dist/fastmp-inline-strings.js', 'dist/fastmp-inline-unpack.js', 'dist/fastmp-pack-scalar.wasm',
    'dist/fastmp-pack-simd.wasm', 'dist/fastmp-strings-scalar.wasm', 'dist/fastmp-strings-simd.wasm', 'dist/fastmp-unpack-scalar.wasm', 'dist/fastmp-unpack-simd.wasm']);
  for (const [, file, kb, gzipped] of stated) {
    const bytes = readFileSync(join(ROOT, file));
    const measured = { file, kb: Math.round(bytes.length / 1024), gzipped: Math.round(gzipSync(bytes).length / 1024) };
    expect(measured, `docs/browsers.md: write "\`${file}\` (${measured.kb} KB, ${measured.gzipped} KB gzipped"`).toEqual({ file, kb: Number(kb), gzipped: Number(gzipped) });
  }
  // No other size by hand: the KB figures left are facts of Node and of the dated browser run
  // (docs/performance.md), and the README's page weights (checked below). docs/history.md and
  // docs/hardening.md quote their own dated runs.
  const allowed = ['8 KB pool', '20 KB out of wasm memory'];
  const weights = section(WEIGHT);
  const others = PAGES.filter((f) => !['docs/history.md', 'docs/hardening.md'].includes(f))
    .flatMap((f) => [...(f === 'README.md' ? read(f).replace(weights, '') : read(f)).matchAll(/\d+ KB(?!,\s+\d+ KB\s+gzipped|\s+gzipped)[^\n]{0,24}/g)].map((m) => m[0]));
  expect(others.map((o) => allowed.find((a) => o.startsWith(a)) ?? o)).toEqual(allowed);
});

const WEIGHT = 'Weight and start-up';

// docs/chart.svg: the native verdict's chart (README "Performance"), bench/report.js svg() of
// these methods of the typed-array groups, under these names (svg() colours 14 methods apart).
// 1 M is left out where 4 M is there: their labels on the axis would overlap.
const CHART = [
  [['native simd'], 'native C (SIMD)'], [['kernel simd'], 'wasm kernel alone'], [['zero-copy simd'], 'zero copy'],
  [['auto'], 'pack() / unpack()'], [['JS loop'], 'JS loop'],
  [['@msgpack/msgpack incl. copy loop', '@msgpack/msgpack incl. Type.from'], '@msgpack/msgpack'],
  [['msgpackr incl. copy loop', 'msgpackr incl. Type.from'], 'msgpackr'],
];
// The groups and contents of bench/report.js's typed-array panels.
const CHART_GROUPS = ['pack Float32Array random', 'unpack Float32Array random', 'pack Int32Array uniform', 'unpack Int32Array uniform'];
function chartRows(results) {
  return results.filter((r) => CHART_GROUPS.includes(`${r.group} ${r.content}`) && r.n !== 1 << 20).map((r) => ({
    ...r,
    ns: Object.fromEntries(CHART.flatMap(([methods, label]) => methods.filter((m) => r.ns[m] !== undefined).map((m) => [label, r.ns[m]]))),
  }));
}

test('the README\'s page weights: bench/size.js named, each total the sum of its parts, each .wasm one the build has, the peers beside them', () => {
  const text = section(WEIGHT);
  expect(text).toContain('`node bench/size.js`');
  expect(text).toMatch(/gzip -9/);
  expect(text).toMatch(/@msgpack\/msgpack/);
  expect(text).toMatch(/msgpackr/);
  const [header, ...rows] = table(text);
  expect(header).toEqual(['page', 'JS', '.wasm fetched', 'total']);
  expect(rows.length).toBeGreaterThanOrEqual(5);
  const kb = (cell) => [...cell.matchAll(/(\d+\.\d) KB/g)].map((m) => Number(m[1]));
  for (const [page, js, wasm, total] of rows) {
    const parts = [...kb(js), ...kb(wasm)];
    expect(Math.abs(parts.reduce((a, b) => a + b, 0) - kb(total)[0]), `README "${WEIGHT}": ${page}`).toBeLessThanOrEqual(0.15);
    for (const [, file] of wasm.matchAll(/`(fastmp-[\w-]+\.wasm)`/g)) expect(existsSync(join(ROOT, 'dist', file)), `${page}: ${file}`).toBe(true);
    if (wasm === 'none') expect(page).toMatch(/fastmp-wasm\/inline/);
  }
  // Node's start-up: the command that measures it is named with its figures.
  expect(text).toMatch(/import[\s\S]*first encode\(\)[\s\S]*`node bench\/startup\.js`/);
});

describe('the benchmark figures the README quotes are those of bench/results.json', () => {
  const json = JSON.parse(read('bench/results.json'));
  const { meta } = json;
  // The README quotes the kept-memory run (bench/run.js); a results.json older
  // than the two regimes holds one run, a plain process.
  const results = json.regimes ? json.regimes.kept.results : json.results;

  // bench/run.js writes both tables between their markers (report.js readmeTables()):
  // the README must hold exactly what the committed results.json gives.
  for (const name of ['typed', 'strings']) {
    test(`the ${name} table between its bench markers is readmeTables() of bench/results.json`, () => {
      const readme = read('README.md');
      const [start, end] = readmeMarkers(name);
      const block = readme.slice(readme.indexOf(start) + start.length, readme.indexOf(end));
      expect(readme.indexOf(start)).toBeGreaterThan(0);
      expect(block.trim()).toBe(readmeTables(json)[name].trim());
    });
  }
  test('the native verdict quotes the run: pack() of 4096 floats, the kernel alone and zero copy; the chart\'s cases, kernel against native', () => {
    const perf = section('Performance').replace(/\s+/g, ' ');
    const [header, ...rows] = table(readmeTables(json).typed);
    const row = rows.find(([n, op]) => n === '4096' && op === 'pack');
    const cell = (column) => row[header.indexOf(column)].replace(/ \(.*\)$/, '');
    const said = `\`pack()\` ${cell('auto')}, the kernel alone ${cell('kernel simd')}, zero copy ${cell('zero-copy simd')}`;
    expect(perf, `README "Performance": the verdict says "${said}"`).toContain(said);
    const ratios = chartRows(results).filter((r) => r.n >= 4096 && r.ns['native C (SIMD)'] && r.ns['wasm kernel alone'])
      .map((r) => r.ns['native C (SIMD)'] / r.ns['wasm kernel alone']);
    const range = `${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)} times`;
    expect(ratios.length).toBeGreaterThanOrEqual(4);
    expect(perf, `README "Performance": the chart's run has the kernels at "${range}"`).toContain(range);
    const sorted = ratios.toSorted((a, b) => a - b);
    const median = (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
    const said2 = `${median.toFixed(2)} times its speed, the median of the chart's ${ratios.length} cases`;
    expect(perf, `README "Performance": the median of the chart's cases is "${said2}"`).toContain(said2);
  });

  test('docs/chart.svg, which the README shows, is bench/report.js svg() of the run\'s chart rows', () => {
    const expected = `${svg(chartRows(results))}\n`;
    const file = join(ROOT, 'docs/chart.svg');
    if (!existsSync(file) || readFileSync(file, 'utf8') !== expected) {
      const made = join(tmpdir(), 'fastmp-docs-chart.svg');
      writeFileSync(made, expected);
      expect.fail(`docs/chart.svg is not what bench/results.json gives: cp ${made} docs/chart.svg`);
    }
    for (const [, label] of CHART) expect(expected).toContain(`>${label}</text>`);
  });

  test('the typed table quotes the run: its duration, Node version and memory regime, pack and unpack at N = 1, 16, 4096, 1 M', () => {
    const { typed } = readmeTables(json);
    expect(typed).toContain(`\`npm run bench\`, ${Math.round(meta.seconds)} s, Node ${meta.node.slice(1).split('.').slice(0, 2).join('.')}, freed memory kept`);
    const [header, ...rows] = table(typed);
    expect(header.slice(0, 2)).toEqual(['N', 'operation']);
    expect(rows.map(([n, op]) => `${op} ${n}`)).toEqual(['1', '16', '4096', '1 M'].flatMap((n) => [`pack ${n}`, `unpack ${n}`]));
    expect(rows.flat().filter((c) => c === '–')).toEqual([]); // every contender measured
    expect(results.length).toBeGreaterThan(0);
  });
});

// The README's headline table: whole messages, fastmp against each peer as a
// user of it writes the same message (bench/messages.js rows, by key). Each
// cell is the peer's median ÷ fastmp's, of the kept-memory run.
const STANDARD = {
  encode: ['fastmp new Encoder(), reused', '@msgpack/msgpack Encoder forceFloat32 + copy loop (timed)', 'msgpackr Packr useFloat32:ALWAYS + copy loop (timed)'],
  decode: ['fastmp new Decoder({shape}), reused', '@msgpack/msgpack Decoder + TypedArray.from', 'msgpackr Unpackr + TypedArray.from'],
};
const HEADLINE = [
  ['an embedding: `Float32Array(1536)` and metadata', 'W1', STANDARD],
  ["the same, as raw bytes (`typedArrays: 'bin'`)", 'W1', {
    encode: ["fastmp new Encoder({typedArrays:'bin'}), reused", '@msgpack/msgpack Encoder default (bin)', 'msgpackr Packr default ({useRecords:false}; bin)'],
    decode: ['fastmp new Decoder({shape}), bin input', '@msgpack/msgpack Decoder, bin input + typed view', 'msgpackr Unpackr, bin input + typed view'],
  }],
  ['a sensor batch: 64 frames of two `Float32Array(3)` and an `Int16Array(256)`', 'W2', STANDARD],
  ['an API object without typed arrays (~700 B)', 'W3', {
    encode: ['fastmp new Encoder(), reused', '@msgpack/msgpack Encoder, reused', 'msgpackr Packr {useRecords:false}, reused'],
    decode: ['fastmp new Decoder(), reused', '@msgpack/msgpack Decoder, reused', 'msgpackr Unpackr {useRecords:false}, reused'],
  }],
  ['10 000 `Float32Array(3)` vectors in one array', 'W4', STANDARD],
];

test('the README\'s headline table is what bench/results-messages.json gives (kept memory)', () => {
  const { meta, regimes } = JSON.parse(read('bench/results-messages.json'));
  const { tables } = regimes.kept;
  const median = (name, key) => {
    const row = tables.find((t) => t.name === name)?.rows.find((r) => r.key === key);
    if (!row) throw new Error(`bench/results-messages.json: no row "${key}" in "${name}"`);
    return row.median;
  };
  const ratio = (name, [mine, ...peers]) => peers.map((peer) => `${(median(name, peer) / median(name, mine)).toFixed(1)}×`);
  const rows = HEADLINE.map(([label, w, rowsOf]) => {
    const [encodeMsgpack, encodeMsgpackr] = ratio(`${w} encode`, rowsOf.encode);
    const [decodeMsgpack, decodeMsgpackr] = ratio(`${w} decode`, rowsOf.decode);
    return [label, encodeMsgpack, decodeMsgpack, encodeMsgpackr, decodeMsgpackr];
  });
  const header = ['message', 'encode vs @msgpack/msgpack', 'decode vs @msgpack/msgpack', 'encode vs msgpackr', 'decode vs msgpackr'];
  const expected = [header, ['---', '---', '---', '---', '---'], ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  const perf = section('Performance');
  const caption = `from the committed run (\`${meta.command}\`, Node ${meta.node.slice(1).split('.').slice(0, 2).join('.')}, `
    + `@msgpack/msgpack ${meta.msgpack}, msgpackr ${meta.msgpackr}, freed memory kept)`;
  expect(perf, `README "Performance": the caption says "${caption}"`).toContain(caption);
  expect(table(perf), `README "Performance": the headline table is\n\n${expected}\n`).toEqual([header, ...rows]);
});

// ---- links ----------------------------------------------------------------------------------

/** Whether the package ships a file: npm's own (package.json, README, LICENSE) and package.json `files`. */
function ships(path) {
  if (['package.json', 'README.md', 'LICENSE'].includes(path)) return true;
  const glob = (g) => new RegExp(`^${g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`);
  return PKG.files.some((g) => glob(g).test(path)) && existsSync(join(ROOT, path));
}

/** The links of a page outside fenced code: [text](target) and ![alt](target). */
const links = (file) => [...read(file).replace(/^ *```[\s\S]*?^ *```/gm, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);

const UNPKG = /^https:\/\/unpkg\.com\/browse\/fastmp-wasm@([^/]+)\/(.+)$/;
const UNPKG_FILE = /^https:\/\/unpkg\.com\/fastmp-wasm@([^/]+)\/(.+\.svg)$/;

test('the docs/ pages ship in the package (package.json files)', () => {
  expect(DOCS.length).toBeGreaterThanOrEqual(9);
  for (const page of DOCS) expect(ships(page), page).toBe(true);
});

test('every link of the README resolves on the npm page: its own headings, or unpkg addresses of shipped files at package.json\'s version', () => {
  const linked = new Set();
  for (const target of links('README.md')) {
    if (target.startsWith('#')) {
      expect(anchors('README.md').has(target.slice(1)), `README.md: ${target}`).toBe(true);
      continue;
    }
    expect(target, 'README.md: a relative link leads nowhere on the npm page (no repository)').toMatch(/^https:\/\//);
    const image = target.match(UNPKG_FILE);
    if (image) {
      // An image (the chart): the file itself, not unpkg's page about it.
      expect(image[1], `README.md: ${target}`).toBe(PKG.version);
      expect(ships(image[2]), `README.md: ${target}: not a file the package ships`).toBe(true);
      continue;
    }
    const unpkg = target.match(UNPKG);
    if (!unpkg) {
      // Other sites only: never this package's files by another road.
      expect(target, `README.md: ${target}`).not.toMatch(/fastmp-wasm/);
      continue;
    }
    const [, version, path] = unpkg;
    expect(version, `README.md: ${target}`).toBe(PKG.version);
    expect(path, `README.md: ${target}: unpkg shows no headings, link the page`).not.toContain('#');
    expect(ships(path), `README.md: ${target}: not a file the package ships`).toBe(true);
    linked.add(path);
  }
  // Every page of docs/ can be reached from the README.
  expect([...linked].sort()).toEqual(DOCS);
});

test('every link of docs/ leads to a heading and a file that ship (relative: they resolve in the tarball and on unpkg)', () => {
  let checked = 0;
  for (const file of DOCS) {
    for (const target of links(file)) {
      const unpkg = target.match(UNPKG);
      if (unpkg) {
        expect(unpkg[1], `${file}: ${target}`).toBe(PKG.version);
        expect(ships(unpkg[2]), `${file}: ${target}`).toBe(true);
        continue;
      }
      if (/^https?:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      expect(ships(resolved), `${file}: ${target}: not a file the package ships`).toBe(true);
      if (anchor !== undefined) expect(anchors(resolved).has(anchor), `${file}: ${target}: no such heading`).toBe(true);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(20);
});

test('the Runtimes table is what npm run test:engines wrote (test/engines/RUNTIMES.md), not edited by hand', () => {
  const readme = read('README.md');
  const block = readme.slice(readme.indexOf('<!-- runtimes:start -->') + '<!-- runtimes:start -->'.length, readme.indexOf('<!-- runtimes:end -->'));
  const runtimes = read('test/engines/RUNTIMES.md');
  expect(block.trim()).toBe(runtimes.trim());
  expect(runtimes).toMatch(/\| Firefox ESR \| [\d.]+ \| SpiderMonkey \| SIMD \|/);
});
