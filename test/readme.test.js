// README.md is checked, not trusted: its examples run as written and print
// what their comments say; the Python snippets read the files the examples
// wrote and print what their comments say; the sizes and benchmark figures it
// quotes are those of the build and of bench/results.json; its links (and
// docs/'s) lead to headings and files that exist; the zero-copy warning is
// reproduced.
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { finished } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { readmeMarkers, readmeTables } from '../bench/report.js';
import { alloc, free, packView, unpackFrom } from '../js/node.js';
import { ROOT } from './helpers.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PYTHON = '/usr/bin/python3'; // Debian's, with python3-msgpack (build.sh installs it)
const hasNumpy = spawnSync(PYTHON, ['-c', 'import numpy']).status === 0; // python3-numpy comes with emscripten
const work = mkdtempSync(join(tmpdir(), 'fastmp-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// ---- reading the README ------------------------------------------------------------------

/** The lines of a markdown text with the headings marked: { line, heading, level } (fenced code is no heading). */
function lines(text) {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && line.match(/^(#{1,6}) (.*)$/);
    return m ? { line, heading: m[2], level: m[1].length } : { line };
  });
}

/** The text under a heading, up to the next heading of the same or a higher level. */
function section(heading, text = README) {
  const all = lines(text);
  const start = all.findIndex((l) => l.heading === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const next = all.findIndex((l, i) => i > start && l.level !== undefined && l.level <= all[start].level);
  return all.slice(start + 1, next < 0 ? undefined : next).map((l) => l.line).join('\n');
}

/** The first fenced block of `lang` in a text, or undefined. */
const block = (text, lang) => text.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``))?.[1];

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

/** The rows of the first table in a text, as arrays of cells (the separator row left out). */
function table(text) {
  const rows = text.split('\n').filter((l) => l.startsWith('|'));
  return rows.filter((_, i) => i !== 1).map((l) => l.slice(1, -1).split('|').map((c) => c.trim()));
}

// ---- the examples --------------------------------------------------------------------------

// Heading, and how many lines of output its example at least promises. Each
// example runs in a directory of its own (they write files), from test/ so
// that 'fastmp-wasm' resolves to this package.
const EXAMPLES = [
  ['Example', 5],
  ['Encoder and Decoder', 3],
  ['Streams', 2],
  ['Shapes', 2],
  ['Errors with a path', 2],
  ['Standard arrays or raw bytes: when to use which', 2],
  ['Typed arrays: pack and unpack', 6],
  ['Instances', 3],
  ['Zero-copy', 1],
  ['BMPString, IA5String and VisibleString', 5],
];
// Headings whose Python snippet reads what the example wrote, and whether it needs numpy.
const PYTHON_SNIPPETS = [
  ['Example', 3, false],
  ['Standard arrays or raw bytes: when to use which', 2, true],
];
const dirOf = (heading) => join(work, slug(heading));

describe('the README examples run as written and print what they say', () => {
  test.each(EXAMPLES)('%s', (heading, atLeast) => {
    const code = block(section(heading), 'js');
    const expected = promised(code, 'console.log(', '//');
    expect(expected.length).toBeGreaterThanOrEqual(atLeast);
    const file = join(ROOT, 'test', '.readme-example.mjs'); // (eslint.config.js ignores it)
    writeFileSync(file, code);
    const cwd = dirOf(heading);
    rmSync(cwd, { recursive: true, force: true });
    mkdirSync(cwd, { recursive: true });
    try {
      // FASTMP_BACKEND unset: the default instance is the one users get.
      const out = execFileSync(process.execPath, [file], { cwd, encoding: 'utf8', env: { ...process.env, FASTMP_BACKEND: '' } });
      expect(out.trim().split('\n')).toEqual(expected);
    } finally {
      rmSync(file, { force: true });
    }
  });

  test.each(PYTHON_SNIPPETS)('%s: the Python snippet reads what the example wrote', (heading, atLeast, numpy) => {
    if (numpy && !hasNumpy) {
      console.warn(`README "${heading}": numpy is not installed for ${PYTHON}, its Python snippet is not run`);
      return;
    }
    const code = block(section(heading), 'python');
    const expected = promised(code, 'print(', '#');
    expect(expected.length).toBeGreaterThanOrEqual(atLeast);
    const out = execFileSync(PYTHON, ['-c', code], { cwd: dirOf(heading), encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(expected);
  });

  test('the first example of the README is the message one: encode, then decode by shape', () => {
    const first = block(README, 'js');
    expect(first).toBe(block(section('Example'), 'js'));
    expect(first).toMatch(/encode\(message\)/);
    expect(first).toMatch(/decode\(bytes, \{ shape: \{ embedding: Float32Array/);
    for (const field of ['Float32Array', 'Float64Array', 'Int32Array', 'new Date(']) expect(first).toContain(field);
  });
});

// ---- the claims the README makes ---------------------------------------------------------------

test('a Node stream keeps what write() is given: packView() outputs written without a copy come out wrong', async () => {
  // What "Zero-copy" warns of, and why its example writes out.slice().
  expect(section('Zero-copy')).toContain('Node sockets and streams keep a reference to what they are given');
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

test('the contributors\' test command is what CI runs', () => {
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').trim().split('\n').at(-1);
  expect(ci).toBe('./build.sh && npm test');
  expect(README).toContain(`\n${ci}  `);
  expect(README).toMatch(/\n\.\/build\.sh && npm run bench -- --only messages {2}/);
});

test('the sizes the README states are those of the build (KB = 1024 bytes, rounded; gzip at its default level)', () => {
  const stated = [...README.matchAll(/`(dist\/[\w.-]+)`\s+\((\d+) KB,\s+(\d+) KB\s+gzipped/g)];
  expect(stated.map((m) => m[1]).sort()).toEqual(['dist/fastmp-inline.js', 'dist/fastmp-scalar.wasm', 'dist/fastmp-simd.wasm']);
  for (const [, file, kb, gzipped] of stated) {
    const bytes = readFileSync(join(ROOT, file));
    const measured = { file, kb: Math.round(bytes.length / 1024), gzipped: Math.round(gzipSync(bytes).length / 1024) };
    expect(measured, `README: write "\`${file}\` (${measured.kb} KB, ${measured.gzipped} KB gzipped"`).toEqual({ file, kb: Number(kb), gzipped: Number(gzipped) });
  }
  // No other size by hand: the KB figures left are facts of Node and of the dated browser run.
  const allowed = ['8 KB pool', '20 KB out of wasm memory'];
  const others = [...README.matchAll(/\d+ KB(?!,\s+\d+ KB\s+gzipped|\s+gzipped)[^\n]{0,24}/g)].map((m) => m[0]);
  expect(others.map((o) => allowed.find((a) => o.startsWith(a)) ?? o)).toEqual(allowed);
});

describe('the benchmark figures the README quotes are those of bench/results.json', () => {
  const json = JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8'));
  const { meta } = json;
  // The README quotes the kept-memory run (bench/run.js); a results.json older
  // than the two regimes holds one run, a plain process.
  const results = json.regimes ? json.regimes.kept.results : json.results;

  // bench/run.js writes both tables between their markers (report.js readmeTables()):
  // the README must hold exactly what the committed results.json gives.
  for (const name of ['typed', 'strings']) {
    test(`the ${name} table between its bench markers is readmeTables() of bench/results.json`, () => {
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const [start, end] = readmeMarkers(name);
      const block = readme.slice(readme.indexOf(start) + start.length, readme.indexOf(end));
      expect(readme.indexOf(start)).toBeGreaterThan(0);
      expect(block.trim()).toBe(readmeTables(json)[name].trim());
    });
  }
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

test('links in the README and docs/ lead to headings and files that exist', () => {
  // Written by `npm run bench` (bench/messages.js), so named before a run has committed it.
  const generated = new Set(['bench/RESULTS-messages.md']);
  expect(readFileSync(join(ROOT, 'bench', 'messages.js'), 'utf8')).toContain('RESULTS-messages.md');
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const anchors = (file) => new Set(lines(readFileSync(join(ROOT, file), 'utf8')).filter((l) => l.heading).map((l) => slug(l.heading)));
  let checked = 0;
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^https?:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const resolved = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), path));
      if (generated.has(resolved)) continue;
      expect(existsSync(join(ROOT, resolved)), `${file}: ${target}`).toBe(true);
      if (anchor !== undefined) expect(anchors(resolved).has(anchor), `${file}: ${target}`).toBe(true);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(20);
});

test('the Runtimes table is what npm run test:engines wrote (test/engines/RUNTIMES.md), not edited by hand', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf('<!-- runtimes:start -->') + '<!-- runtimes:start -->'.length, readme.indexOf('<!-- runtimes:end -->'));
  const runtimes = readFileSync(join(ROOT, 'test/engines/RUNTIMES.md'), 'utf8');
  expect(block.trim()).toBe(runtimes.trim());
  expect(runtimes).toMatch(/\| Firefox ESR \| [\d.]+ \| SpiderMonkey \| SIMD \|/);
});
