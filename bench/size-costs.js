// size-costs.js - what each feature of the `encode`-only app (bench/size.js)
// adds to its download, and what is left without them: the figures a decision
// on the app's size goal needs (bench/size.js GOALS), since rearranging the code
// does not reach it. It prices code: the app is bundled in memory; the .wasm it
// fetches is what bench/size.js's page of the app fetched in Chromium.
//
// A feature is a list of the declarations that carry it (top-level functions,
// classes and variables, and class members), by their names in js/ (FEATURES);
// the chunk's source map tells which file each comes from. The app is built by Vite (production, not minified); a feature's cost is
// the gzip -9 of the app's JS, minified, less that of the same JS without the
// feature's declarations. The minifier mangles but does not compress, so that
// taking a declaration out removes its own text and nothing else; its total is
// therefore a little off bench/size.js's. Costs are marginal: features share
// text that gzip finds once, so they do not add up, and a row of features
// taken out together is given for that. Last, the apps are weighed with
// bench/bare-wasm-path.js (a size baseline) in the place of the package's
// wasm path, with more of the codec's features left out row by row.
//
//   npm run size:costs                        prints the table
//   node bench/size-costs.js --out FILE.md    also writes it as a page (bench/RESULTS-size-costs.md)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { minifySync, parseSync } from 'rolldown/experimental';
import { version as viteVersion } from 'vite';
import { APPS, GOALS, bundle, codeState, gzip, inProject, kb, measure } from './size.js';

/**
 * Each feature the encode-only app carries that a lighter product could leave
 * out or make an import of its own, as the declarations that carry it: a name
 * in js/, `Class.member`, `file.js:name` where two files use the name, or
 * `file.js:*` for all of a file's. `wasm` marks the wasm path's JS (the app
 * also fetches the pack kernels for it); the others are the codec's, each of a
 * `group`: BEHAVIOUR (what a message may hold), REFUSALS (what is checked
 * before it is refused), ERROR_TEXT (what an error says) or SMALL (pure JS for
 * small arrays).
 */
const BEHAVIOUR = 'behaviour';
const REFUSALS = 'refusals';
const ERROR_TEXT = 'error text';
const SMALL = 'small arrays';

export const FEATURES = [
  {
    name: 'Date as the timestamp extension', group: BEHAVIOUR,
    names: ['timeSpecOfDate', 'timeSpecOf', 'timestampSize', 'writeTimeSpec', 'encodeTimeSpecToTimestamp',
      'encodeTimestampExtension', 'decodeTimestampToTimeSpec', 'decodeTimestampExtension', 'timestampExtension',
      'TIMESTAMP32_MAX_SEC', 'TIMESTAMP64_MAX_SEC', 'Encoder.writeDate', 'dateGetTime', 'dateTime'],
  },
  {
    name: 'extension types (ExtensionCodec, ExtData)', group: BEHAVIOUR,
    names: ['ExtData', 'ExtensionCodec', 'Encoder.writeExt', 'Encoder.writeTypedExt', 'Encoder.extBytes', 'Encoder.writeExtHeader'],
  },
  {
    name: 'Map and Set', group: BEHAVIOUR,
    names: ['Encoder.writeMap', 'Encoder.writeSetValues', 'snapshot', 'mapSize', 'setSize', 'isMap', 'isSet', 'mapForEach', 'setForEach'],
  },
  { name: 'BigInt and BigInt64Array', group: BEHAVIOUR, names: ['Encoder.writeBigInt', 'packBigIntsInto', 'BIGINT_MAX', 'BIGINT_MIN'] },
  { name: 'sortKeys', group: BEHAVIOUR, names: ['sortedByKey'] },
  {
    name: 'Float16Array and bool arrays', group: BEHAVIOUR,
    names: ['isHalf', 'widenHalf', 'widenHalfBits', 'widenHalfWord', 'BoolArray', 'boolOriginal', 'Encoder.writeBools', 'packBoolsInto'],
  },
  {
    name: 'options checked (plain object, known keys, values)', group: REFUSALS,
    names: ['readOptions', 'readGiven', 'optionsOf', 'checkOptions', 'checkValue', 'notPlain', 'unknownOption', 'oneOf', 'ANY',
      'ENCODER_SPEC', 'EncoderConfig.sameAs', 'readEncoderOptions', 'flag', 'count',
      'bufferSize', 'codecOption', 'INIT_OPTIONS', 'readInitOptions'],
  },
  {
    name: 'paths in errors', group: ERROR_TEXT,
    names: ['SEGMENTS', 'IDENTIFIER', 'KeySegment', 'EntrySegment', 'addSegment', 'withPath', 'isStackOverflow', 'formatSegment', 'withExtra'],
  },
  { name: 'values described in errors', group: ERROR_TEXT, names: ['describe', 'withArticle'] },
  {
    name: 'aliasing and lifetime checks', group: REFUSALS,
    names: ['lifetimes.js:*', 'liveSource'],
  },
  { name: 'pure-JS typed-array packers (small arrays; no wasm)', group: SMALL, names: ['packF32Into', 'packF64Into', 'packIntsInto', 'byKind', 'PACKERS_INTO', 'packKindInto'] },
  { name: 'crossover table (JS below a length, per engine)', group: SMALL, names: ['crossovers.js:*', 'opLimits', 'packLimits', 'forEachKind'] },
  {
    name: 'the wasm path: loader, SIMD probe, heap, kernel calls (its JS)',
    wasm: true,
    names: ['loader.js:*', 'siblings.js:*', 'abi.js:*', 'wasm/heap.js:*', 'wasm/allocator.js:*',
      'wasm/outputs.js:*', 'WasmStore', 'packToStore', 'packInScratch'],
    // An app that decodes holds these too.
    decoding: ['wasm/errors.js:*', 'FieldReader', 'unpackChunked'],
  },
];

/** The size baseline that takes the wasm path's place in the rows of a bare path (bench/bare-wasm-path.js). */
const BARE_PATH = readFileSync(fileURLToPath(new URL('./bare-wasm-path.js', import.meta.url)), 'utf8');

/** The app's JS as the cost is taken of it: minified, mangled, not compressed. */
const minifiedGzip = (code) => gzip(minifySync('app.js', code, { compress: false, mangle: true }).code);
/** A bundler's name for a declaration it renamed apart from another of the same name (`init$1`): the name in js/. */
const sourceName = (name) => name.replace(/\$\d+$/, '');

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map's `mappings` decoded: per line of the code, its segments [column, source index], in column order. */
function mappedLines(mappings) {
  const lines = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segment of line.split(',').filter(Boolean)) {
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        shift += 5;
        if (digit & 32) continue;
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
      column += fields[0];
      if (fields.length === 1) continue; // a segment that maps to no source
      source += fields[1];
      segments.push([column, source]);
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * The js/ file each position of the chunk comes from, by its source map: the
 * source of the last mapped segment at or before it on its line.
 */
function fileAt(code, map) {
  const lines = mappedLines(map.mappings);
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return (position) => {
    let line = lineStarts.length - 1;
    while (lineStarts[line] > position) line--;
    const column = position - lineStarts[line];
    const segment = lines[line]?.findLast(([c]) => c <= column) ?? lines[line]?.[0];
    const source = segment ? map.sources[segment[1]] : '';
    const at = source.lastIndexOf('/js/');
    return at === -1 ? source : source.slice(at + 4);
  };
}

/**
 * Where each declaration of `code` lies: name -> [[start, end]], by its name
 * in js/ (`Class.member` for a member), and by that name qualified with its
 * file (`loader.js:compile`), for a name that two files declare; `file:*`
 * holds every top-level declaration of a file.
 */
export function declarations(code, map) {
  const spans = new Map();
  const fileOf = fileAt(code, map);
  const add = (name, node, file, member = false) => {
    const keys = member ? [name, `${file}:${name}`] : [name, `${file}:${name}`, `${file}:*`];
    for (const key of keys) (spans.get(key) ?? spans.set(key, []).get(key)).push([node.start, node.end]);
  };
  const addMembers = (className, body, file) => {
    for (const member of body.body) if (member.key?.name) add(`${className}.${member.key.name}`, member, file, true);
  };
  for (const statement of parseSync('app.js', code).program.body) {
    const file = fileOf(statement.start);
    if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') {
      const name = sourceName(statement.id.name);
      add(name, statement, file);
      if (statement.type === 'ClassDeclaration') addMembers(name, statement.body, file);
    } else if (statement.type === 'VariableDeclaration' && statement.declarations.length === 1 && statement.declarations[0].id.name) {
      const [declarator] = statement.declarations;
      const name = sourceName(declarator.id.name);
      add(name, statement, file);
      if (declarator.init?.type === 'ClassExpression') addMembers(name, declarator.init.body, file);
    }
  }
  return spans;
}

/** `code` without the declarations named (each must be there, and once: a feature list that drifts from js/ fails). */
function without(code, spans, names) {
  const cuts = names.flatMap((name) => {
    const found = spans.get(name);
    if (!found) throw new Error(`size-costs.js: no declaration '${name}' in the app's bundle (renamed or gone from js/?)`);
    if (found.length > 1 && !name.endsWith(':*')) {
      throw new Error(`size-costs.js: '${name}' names ${found.length} declarations in the app's bundle: qualify it with its file (file.js:${name})`);
    }
    return found;
  }).sort((a, b) => a[0] - b[0]);
  let kept = '';
  let at = 0;
  for (const [start, end] of cuts) {
    if (start < at) continue; // a member of a class already cut
    kept += code.slice(at, start);
    at = end;
  }
  return kept + code.slice(at);
}

/**
 * An app of bench/size.js's APPS, built: its JS (`total`, as this file
 * measures it), `cost(names)`, the bytes that the declarations named cost its
 * JS, and `bare(names)`, its JS without them and with the bare wasm path added.
 */
async function measured(appName, dir) {
  const app = APPS.find((a) => a.name === appName);
  const entry = join(dir, `${app.name}.js`);
  writeFileSync(entry, `${app.code}\n`);
  const output = await bundle(dir, entry, { minify: false, sourcemap: true });
  const chunks = output.filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`size-costs.js: the ${app.name} app built to ${chunks.length} JS chunks, not one`);
  const { code, map } = chunks[0];
  const spans = declarations(code, map);
  const total = minifiedGzip(code);
  return {
    total,
    cost: (names) => total - minifiedGzip(without(code, spans, names)),
    bare: (names) => minifiedGzip(`${without(code, spans, names)}\n${BARE_PATH}`),
  };
}

/**
 * The encode-only app: per feature the bytes it costs, then every codec
 * feature together, and those and the wasm path together; and its JS with the
 * bare wasm path in place of the package's: every codec feature kept, all but
 * the ERROR_TEXT and SMALL ones, only the BEHAVIOUR ones, none. The shaped
 * app (encode + shaped decode): what its wasm path costs, the decoding side's
 * files included, and its JS with no feature and the bare path (which only
 * packs: a floor). `wasm`: the gzip -9 of the .wasm each app's page fetched,
 * from `pages` (bench/size.js measure()'s result) or measured here.
 */
export async function featureCosts({ pages } = {}) {
  const fetched = pages ?? await measure({ apps: ['encode', 'shaped'] });
  for (const name of ['encode', 'shaped']) {
    if (!fetched[name]?.ran) throw new Error(`size-costs.js: the ${name} page did not run: ${fetched[name]?.problems.join('; ')}`);
  }
  return inProject({}, async (dir) => {
    const encode = await measured('encode', dir);
    const shaped = await measured('shaped', dir);
    const wasmPath = FEATURES.find((f) => f.wasm);
    const namesOf = (take) => FEATURES.filter(take).flatMap((f) => f.names);
    return {
      total: encode.total,
      wasm: fetched.encode.wasmTotal,
      rows: FEATURES.map((f) => ({ name: f.name, wasm: Boolean(f.wasm), bytes: encode.cost(f.names) })),
      codecTogether: encode.cost(FEATURES.filter((f) => !f.wasm).flatMap((f) => f.names)),
      allTogether: encode.cost(FEATURES.flatMap((f) => f.names)),
      shaped: {
        total: shaped.total, wasm: fetched.shaped.wasmTotal, wasmPath: shaped.cost([...wasmPath.names, ...wasmPath.decoding]),
        bareNone: shaped.bare([...namesOf(() => true), ...wasmPath.decoding]),
      },
      bare: {
        alone: minifiedGzip(BARE_PATH),
        kept: encode.bare(wasmPath.names),
        refusals: encode.bare(namesOf((f) => f.wasm || f.group === ERROR_TEXT || f.group === SMALL)),
        behaviour: encode.bare(namesOf((f) => f.group !== BEHAVIOUR)),
        none: encode.bare(namesOf(() => true)),
      },
    };
  });
}

/** featureCosts() as markdown: the table, then what is left of each app against its budget. */
export function costTable(c) {
  const lines = [
    '| what the `encode`-only app carries | its JS, gzip -9 |',
    '| --- | --- |',
    `| the whole app (minified without compressing) | ${kb(c.total)} (${c.total} B) |`,
    ...c.rows.map((r) => `| ${r.name} | ${r.bytes} B |`),
    `| every feature above but the wasm path, together | ${c.codecTogether} B |`,
    `| every feature above, together | ${c.allTogether} B |`,
  ];
  const left = c.total - c.codecTogether;
  const s = c.shaped;
  const b = c.bare;
  const bareRow = (what, js) => `| ${what} | ${kb(js)} | ${kb(js + c.wasm)} |`;
  return `${lines.join('\n')}

Without every feature above but the wasm path, the \`encode\`-only app's JS would be ${kb(left)}; with
the .wasm its page fetches (${kb(c.wasm)}), ${kb(left + c.wasm)}, against the goal of
${GOALS.encode.text}. The \`encode\` + shaped \`decode\` app (${kb(s.total)} of JS) spends ${kb(s.wasmPath)}
of it on the wasm path and its page fetches ${kb(s.wasm)} of kernels: ${kb(s.wasmPath + s.wasm)} before any code
of the codec, against the goal of ${GOALS.shaped.text}.

With the bare wasm path (bench/bare-wasm-path.js: a SIMD probe, one instantiate, and per typed
array a copy in, a kernel call and a copy out; ${b.alone} B by itself) in place of the package's:

| the \`encode\`-only app, the bare wasm path in place of the package's | its JS | with the .wasm its page fetches (${kb(c.wasm)}) |
| --- | --- | --- |
${bareRow('every codec feature kept', b.kept)}
${bareRow(`the ${BEHAVIOUR} and ${REFUSALS} features kept; no ${ERROR_TEXT}, no ${SMALL} in pure JS`, b.refusals)}
${bareRow(`the ${BEHAVIOUR} features kept; no ${REFUSALS}, no ${ERROR_TEXT}, no ${SMALL} in pure JS`, b.behaviour)}
${bareRow('no feature of the table above', b.none)}

The goal is ${GOALS.encode.text}. The \`encode\` + shaped \`decode\` app with no feature and the bare
path (which packs but does not unpack) would hold ${kb(s.bareNone)} of JS and fetch ${kb(s.wasm)} of
kernels: at least ${kb(s.bareNone + s.wasm)}, against ${GOALS.shaped.text}.
`;
}

/** The markdown page: how it was made, then the table. */
function page(c, command) {
  const node = process.versions.node.split('.').slice(0, 2).join('.');
  return `# What each feature costs the \`encode\`-only app (issues 26 and 42)

\`${command}\`: ${codeState()}, Vite ${viteVersion}, Node ${node}. The app is bench/size.js's, built
by Vite's production build without minifying; a feature's cost is the gzip -9 of the app's JS,
minified (mangled, not compressed), less that of the same JS without the feature's declarations
(bench/size-costs.js FEATURES names them). Their call sites stay, so an app without a feature would
be a little smaller still. Costs are marginal: they do not add up, and the rows "together" take
the features out at once.

${costTable(c)}`;
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const costs = await featureCosts();
  process.stdout.write(costTable(costs));
  const command = ['node bench/size-costs.js', ...process.argv.slice(2)].join(' ');
  if (values.out) writeFileSync(values.out, page(costs, command));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
