// The C/JS interface is stated on both sides; this test reads the C side as
// text and checks that the two agree: c/fastmp.h's error codes, fm_result
// layout, constants and element types against js/errors.js, js/abi.js and
// js/kinds.js; the wasm modules' exports against what the C marks for export
// (and what js/ calls); the native harness's ops (c/harness/fm_ops.h, as
// fm-cli prints them) against what test/helpers.js reads and sends.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import * as ABI from '../js/abi.js';
import { CODE_NAMES } from '../js/errors.js';
import { BOOL, KINDS } from '../js/kinds.js';
import { ROOT, TYPE_NAMES, harnessOp, harnessOpName, harnessOps } from './helpers.js';

// ---- reading C ---------------------------------------------------------------------

/** A C source without comments, its continued lines joined. */
function source(path) {
  return readFileSync(join(ROOT, path), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, '')
    .replace(/\\\n/g, ' ');
}

const HEADER = source('c/fastmp.h');

/** The #define lines of a source: { name, params (null for an object-like macro), body }. */
function defines(text) {
  return [...text.matchAll(/^[ \t]*#[ \t]*define[ \t]+(\w+)(\(([^)]*)\))?(.*)$/gm)].map((m) => ({
    name: m[1],
    params: m[2] === undefined ? null : m[3].split(',').map((p) => p.trim()),
    body: m[4].trim(),
  }));
}

const HEADER_DEFINES = new Map(defines(HEADER).map((d) => [d.name, d]));

/** A C integer literal (decimal or hex, with or without a u suffix). */
function cNumber(literal) {
  const m = /^(0x[0-9a-f]+|\d+)u?$/i.exec(literal.trim());
  if (!m) throw new Error(`not a C integer literal: ${literal}`);
  return Number(m[1]);
}

/** The value of an object-like #define of the header that is a plain number. */
function headerNumber(name) {
  const d = HEADER_DEFINES.get(name);
  if (!d) throw new Error(`c/fastmp.h defines no ${name}`);
  return cNumber(d.body);
}

/** The arguments of the call whose '(' is at text[open], split at top-level commas. */
function callArguments(text, open) {
  const args = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return [...args, text.slice(start, i).trim()];
    else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  throw new Error('unbalanced parentheses');
}

// ---- the element type lists ------------------------------------------------------------------

/** The rows X(name, C type, wire) of a type-list macro of the header, its lists expanded. */
function typeRows(list) {
  const d = HEADER_DEFINES.get(list);
  if (!d || d.params?.join() !== 'X') throw new Error(`c/fastmp.h has no list ${list}(X)`);
  const expanded = d.body.replace(/\b(FM_\w+_TYPES)\(X\)/g, (call, inner) => typeRows(inner).map(([n, T, w]) => `X(${n}, ${T}, ${w})`).join(' '));
  if (expanded.replace(/X\(\w+, \w+, \d+\)/g, '').trim() !== '') throw new Error(`${list}: not a list of X(name, C type, wire)`);
  return [...expanded.matchAll(/X\((\w+), (\w+), (\d+)\)/g)].map(([, name, T, wire]) => [name, T, Number(wire)]);
}

/** sizeof of the C types the lists use. */
function sizeOf(T) {
  if (T === 'float') return 4;
  if (T === 'double') return 8;
  const m = /^u?int(8|16|32|64)_t$/.exec(T);
  if (!m) throw new Error(`unknown C type ${T}`);
  return Number(m[1]) / 8;
}

const C_TYPES = typeRows('FM_ELEMENT_TYPES');
const C_NAMES = C_TYPES.map(([name]) => name);

// ---- error codes ----------------------------------------------------------------------

test('fm_code (c/fastmp.h) and CODE_NAMES (js/errors.js) name the same codes, number by number', () => {
  const body = /typedef enum fm_code \{([^}]*)\} fm_code;/.exec(HEADER)[1];
  const c = [];
  let next = 0;
  for (const entry of body.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [, name, value] = /^(\w+)(?:\s*=\s*(\w+))?$/.exec(entry);
    const n = value === undefined ? next : cNumber(value);
    c.push([name, n]);
    next = n + 1;
  }
  expect(c.length).toBeGreaterThan(10);
  expect(new Set(c.map(([, n]) => n)).size).toBe(c.length); // no number twice
  // The JS names are the C names without FM_ERR_ (FM_OK: OK), except where JS
  // gives two C codes one name. One such today: a char outside IA5String's or
  // VisibleString's range is, to a JS caller, a value out of range.
  const JS_NAME_OF = { FM_ERR_RANGE_CHAR: 'RANGE' };
  const expected = Object.fromEntries(c.map(([name, n]) => [String(n), JS_NAME_OF[name] ?? name.replace(/^FM_(ERR_)?/, '')]));
  expect(Object.fromEntries(Object.entries(CODE_NAMES).map(([n, name]) => [String(n), name]))).toEqual(expected);
});

// ---- js/abi.js ----------------------------------------------------------------------------

describe('js/abi.js states what c/fastmp.h states', () => {
  const checked = new Set();
  const abi = (name) => {
    checked.add(name);
    return ABI[name];
  };

  test('RESULT: the fm_result offsets and size that the header asserts for wasm32', () => {
    const fields = /typedef struct fm_result \{([^}]*)\} fm_result;/.exec(HEADER)[1]
      .split(';').map((f) => f.trim()).filter(Boolean).map((f) => /(\w+)$/.exec(f)[1]);
    expect(fields).toEqual(['code', 'count', 'index', 'offset', 'end', 'tag', 'value']);
    const wasm32 = /#if defined\(__wasm32__\)([\s\S]*?)#endif/.exec(HEADER)[1];
    const offsets = Object.fromEntries([...wasm32.matchAll(/_Static_assert\(offsetof\(fm_result, (\w+)\) == (\w+)/g)]
      .map(([, field, n]) => [field, cNumber(n)]));
    // Every field's offset is asserted, in declaration order.
    expect(Object.keys(offsets)).toEqual(fields);
    const size = cNumber(/_Static_assert\(sizeof\(fm_result\) == (\w+)/.exec(wasm32)[1]);
    const { value, ...rest } = offsets;
    expect(abi('RESULT')).toEqual({ ...rest, valueLo: value, valueHi: value + 4, size });
    // FM_NO_INDEX, a wasm32 size_t.
    expect(abi('NO_INDEX_U32')).toBe(cNumber(/_Static_assert\(FM_NO_INDEX == (\w+)/.exec(wasm32)[1]));
  });

  test('the constants, and the packers\' bound', () => {
    expect(abi('PACK_SLACK')).toBe(headerNumber('FM_PACK_SLACK'));
    expect(abi('MAX_ELEMENTS')).toBe(headerNumber('FM_MAX_ELEMENTS'));
    expect(abi('INTEGRAL_FLOATS')).toBe(headerNumber('FM_INTEGRAL_FLOATS'));
    expect(abi('ELEMENTS_ONLY')).toBe(headerNumber('FM_ELEMENTS_ONLY'));
    expect(abi('MAX_ARRAY_HEADER')).toBe(headerNumber('FM_MAX_ARRAY_HEADER'));
    // The longest number: the largest wire form of any element type.
    expect(abi('MAX_NUMBER_BYTES')).toBe(Math.max(...C_TYPES.map(([, , wire]) => wire)));
    // FM_PACK_BOUND(n, max_element), evaluated as C would for these small numbers.
    const bound = HEADER_DEFINES.get('FM_PACK_BOUND');
    expect(bound.params).toEqual(['n', 'max_element']);
    const expr = bound.body
      .replace(/\(size_t\)/g, '')
      .replace(/\b(FM_\w+)\b/g, (name) => String(headerNumber(name)))
      .replace(/\b(\d+)u\b/g, '$1');
    expect(expr).toMatch(/^[\d\s()+*a-z_]+$/);
    const cBound = new Function('n', 'max_element', `return ${expr};`);
    for (const [n, wire] of [[0, 1], [1, 5], [15, 9], [65536, 3], [1e6, 2]]) expect(abi('packBound')(n, wire)).toBe(cBound(n, wire));
  });

  test('the modules\' memory layout: their slots and the heap\'s start, and the pages they import', () => {
    expect(abi('SLOTS')).toEqual({ size: headerNumber('FM_SLOT_SIZE'), pack: headerNumber('FM_SLOT_PACK'), unpack: headerNumber('FM_SLOT_UNPACK'), strings: headerNumber('FM_SLOT_STRINGS') });
    expect(abi('HEAP_BASE')).toBe(headerNumber('FM_HEAP_BASE'));
    // Every module imports at least the memory the heap makes (the Makefile's INITIAL_MEMORY).
    const makefile = readFileSync(join(ROOT, 'Makefile'), 'utf8');
    expect(Number(/-sINITIAL_MEMORY=(\d+)MB/.exec(makefile)[1]) * 16).toBe(abi('MEMORY_PAGES'));
  });

  test('every export of js/abi.js is checked here', () => {
    expect([...checked].sort()).toEqual(Object.keys(ABI).sort());
  });
});

// ---- element types ----------------------------------------------------------------------------

test('FM_ELEMENT_TYPES (c/fastmp.h) and KINDS + BOOL (js/kinds.js): the same types, sizes and largest wire forms', () => {
  const c = new Map(C_TYPES.map(([name, T, wire]) => [name, { bytes: sizeOf(T), wire }]));
  expect(c.size).toBe(C_TYPES.length); // no name twice
  for (const k of [...KINDS, BOOL]) expect({ name: k.name, c: k.c, ...c.get(k.c) }).toEqual({ name: k.name, c: k.c, bytes: k.bytes, wire: k.wire });
  expect(new Set([...KINDS, BOOL].map((k) => k.c))).toEqual(new Set(C_NAMES));
  // The sublists: floats, then integers, then booleans.
  expect([...typeRows('FM_FLOAT_TYPES'), ...typeRows('FM_INT_TYPES'), ...typeRows('FM_BOOL_TYPES')]).toEqual(C_TYPES);
  expect(typeRows('FM_FLOAT_TYPES').map(([name]) => name)).toEqual(KINDS.filter((k) => k.float).map((k) => k.c));
  expect(typeRows('FM_BOOL_TYPES').map(([name]) => name)).toEqual([BOOL.c]);
});

// ---- wasm exports ------------------------------------------------------------------------------

/**
 * The functions the kernels of `files` (c/*.c) mark for export in a module
 * built with `flags` (c/fm_platform.h: FM_EXPORT always; FM_PACK_EXPORT
 * unless -DFM_UNPACK_ONLY, FM_UNPACK_EXPORT unless -DFM_PACK_ONLY):
 * directly, or through a macro (of any C file) that defines them.
 */
function markedForExport(files, flags = '') {
  const texts = readdirSync(join(ROOT, 'c')).filter((f) => /\.[ch]$/.test(f)).map((f) => source(`c/${f}`));
  const code = files.map((f) => source(f).replace(/^[ \t]*#.*$/gm, '')).join('\n'); // without the preprocessor lines
  const marks = ['FM_EXPORT', ...(flags.includes('-DFM_UNPACK_ONLY') ? [] : ['FM_PACK_EXPORT']), ...(flags.includes('-DFM_PACK_ONLY') ? [] : ['FM_UNPACK_EXPORT'])];
  const marked = new RegExp(`\\b(?:${marks.join('|')})\\s+[\\w\\s*]*?\\b(\\w+)\\s*\\(`, 'g');
  const names = [...code.matchAll(marked)].map(([, name]) => name);
  // A macro whose body defines its parameter k with such a mark exports argument k of every call.
  for (const { name: macro, params, body } of texts.flatMap(defines)) {
    for (const [, name] of body.matchAll(marked)) {
      const k = params?.indexOf(name) ?? -1;
      if (k < 0) throw new Error(`${macro} exports ${name}, which is not one of its parameters`);
      for (const call of code.matchAll(new RegExp(`\\b${macro}\\s*\\(`, 'g'))) names.push(callArguments(code, call.index + call[0].length - 1)[k]);
    }
  }
  return names;
}

const MAKEFILE = readFileSync(join(ROOT, 'Makefile'), 'utf8');
/** A variable the Makefile sets with :=, as its words. */
const makeList = (name) => new RegExp(`^${name}\\s*:=(.*)$`, 'm').exec(MAKEFILE)[1].trim().split(/\s+/).filter(Boolean);
// The modules (the Makefile's MODULES): their files' list, their flags, what js/ calls of them.
const MODULES = [
  { module: 'pack', calls: [...KINDS, BOOL].map((k) => k.pack) },
  { module: 'unpack', calls: [...KINDS, BOOL].map((k) => k.unpack) },
  { module: 'strings', calls: ['fm_bmp_encode', 'fm_bmp_decode', 'fm_bmp_narrow'].concat(
    ...['ia5', 'visible', 'printable', 'numeric'].map((k) => [`fm_${k}_encode`, `fm_${k}_decode`, `fm_${k}_check`])) },
].map((m) => ({ ...m, files: makeList(`${m.module}_SRC`).map((v) => makeList(/^\$\((\w+)\)$/.exec(v)[1])).flat(), flags: makeList(`${m.module}_FLAGS`).join(' ') }));

// Exports the toolchain adds to every module: the reactor's entry, which runs
// the C constructors (js/wasm/heap.js calls it), Emscripten's stack helpers,
// and the function table.
const TOOLCHAIN_EXPORTS = ['_initialize', 'stackSave', 'stackRestore', 'stackAlloc'];
// What js/ calls of every module.
const USED_BY_JS = ['fm_simd_enabled', '_initialize'];

test('the Makefile builds the modules js/ loads, and each C file is in one (c/fm_module.c in all)', () => {
  expect(makeList('MODULES')).toEqual(MODULES.map((m) => m.module));
  const all = readdirSync(join(ROOT, 'c')).filter((f) => /^fm_\w+\.c$/.test(f)).map((f) => `c/${f}`).sort();
  for (const { files } of MODULES) expect(files).toContain('c/fm_module.c');
  // The typed kernels' files build two modules (pack, unpack); every other file is in one.
  const others = [...new Set(MODULES.flatMap((m) => m.files))].filter((f) => f !== 'c/fm_module.c');
  expect([...others, 'c/fm_module.c'].sort()).toEqual(all);
  const marked = markedForExport(all);
  expect(marked.length).toBeGreaterThan(2 * C_TYPES.length);
  for (const name of marked) expect(name).toMatch(/^fm_\w+$/);
  expect(new Set(marked).size).toBe(marked.length);
  // Every kernel of the typed files is in exactly one of their two modules.
  const [pack, unpack] = ['-DFM_PACK_ONLY', '-DFM_UNPACK_ONLY'].map((flags) => new Set(markedForExport(MODULES[0].files, flags).filter((n) => n !== 'fm_simd_enabled')));
  expect([...pack].filter((n) => unpack.has(n))).toEqual([]);
  expect([...pack, ...unpack, 'fm_simd_enabled'].sort()).toEqual(markedForExport(MODULES[0].files).sort());
});

/** A module's data segments' offsets and its stack pointer's first value (wasm-dis prints them). */
function layoutOf(path) {
  const text = execFileSync('wasm-dis', [path], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const data = [...text.matchAll(/\(data (?:\$\S+ )?\(i32\.const (\d+)\) "((?:[^"\\]|\\.)*)"\)/g)].map(([, at, body]) => ({ at: Number(at), size: body.replace(/\\[0-9a-f]{2}/g, 'x').replace(/\\./g, 'x').length }));
  const stack = Number(/\(global \$\S+ \(mut i32\) \(i32\.const (\d+)\)\)/.exec(text)[1]);
  return { data, stack };
}

describe.each(MODULES.flatMap((m) => ['simd', 'scalar'].map((build) => [`fastmp-${m.module}-${build}`, m])))('dist/%s.wasm', (file, { module, files, flags, calls }) => {
  const path = join(ROOT, 'dist', `${file}.wasm`);
  const compiled = () => {
    expect(existsSync(path), `${path} is missing: run make wasm`).toBe(true);
    return new WebAssembly.Module(readFileSync(path));
  };

  test(`exports exactly the functions its files mark for export in its build (${flags || 'no flags'}), and the toolchain's own; imports its memory, and nothing else`, () => {
    const marked = markedForExport(files, flags);
    expect(marked).toContain('fm_simd_enabled');
    expect(/-sEXPORTED_FUNCTIONS/.test(MAKEFILE), 'one mechanism for the kernels: FM_EXPORT').toBe(false);
    const all = WebAssembly.Module.exports(compiled());
    const of = (kind) => all.filter((e) => e.kind === kind).map((e) => e.name).sort();
    expect(of('function')).toEqual([...marked, ...TOOLCHAIN_EXPORTS].sort());
    expect(of('memory')).toEqual([]);
    expect(all.length).toBe(of('function').length + of('table').length);
    expect(WebAssembly.Module.imports(compiled())).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
  });

  test('exports everything js/ calls of it', () => {
    const names = new Set(WebAssembly.Module.exports(compiled()).map((e) => e.name));
    expect(calls.concat(USED_BY_JS).filter((name) => !names.has(name))).toEqual([]);
  });

  test('its static data and stack lie in its own slot below the heap (c/fastmp.h FM_SLOT_*, js/abi.js SLOTS)', () => {
    const { data, stack } = layoutOf(path);
    const start = ABI.SLOTS[module];
    for (const d of data) expect(d.at).toBeGreaterThanOrEqual(start);
    const end = Math.max(stack, ...data.map((d) => d.at + d.size));
    expect(end).toBeLessThanOrEqual(start + ABI.SLOTS.size);
    expect(start + ABI.SLOTS.size).toBeLessThanOrEqual(ABI.HEAP_BASE);
  });
});

// ---- the native harness's ops -----------------------------------------------------------------

test('fm-cli --ops: the ops of c/harness/fm_ops.h, which test/helpers.js reads and names', () => {
  const exe = join(ROOT, 'build', 'x86_64-simd', 'fm-cli');
  expect(existsSync(exe), `${exe} is missing: run make native`).toBe(true);
  const printed = execFileSync(exe, ['--ops'], { encoding: 'utf8' }).trim().split('\n').map((line) => {
    const [, n, name] = /^(\d+) (\w+)$/.exec(line);
    return [name, Number(n)];
  });
  // fm_ops.h's enum, evaluated from the header's lists: PACK_ and UNPACK_ of
  // every element type, UNPACK_INTEGRAL_ of every integer type, then the
  // string ops (FM_STRING_OPS) from FM_OP_STRING_FIRST.
  const OPS_H = source('c/harness/fm_ops.h');
  const strings = defines(OPS_H).find((d) => d.name === 'FM_STRING_OPS');
  expect(strings.params).toEqual(['X']);
  const stringNames = [...strings.body.matchAll(/X\((\w+), (units|bytes)\)/g)].map(([, name]) => name);
  expect(strings.body.replace(/X\((\w+), (units|bytes)\)/g, '').trim()).toBe('');
  const [, floor] = /FM_OP_STRING_FIRST = FM_OP_TYPED_END > (\d+) \? FM_OP_TYPED_END : \1,/.exec(OPS_H);
  const ints = typeRows('FM_INT_TYPES').map(([name]) => name);
  const typed = [...C_NAMES.flatMap((t) => [`PACK_${t}`, `UNPACK_${t}`]), ...ints.map((t) => `UNPACK_INTEGRAL_${t}`)];
  const first = Math.max(typed.length + 1, Number(floor));
  const expected = [...typed.map((name, i) => [name, 1 + i]), ...stringNames.map((name, i) => [name, first + i])];
  expect(printed).toEqual(expected);
  // Each number fits the request's op byte (helpers.js writes it as one u8).
  expect(Math.max(...printed.map(([, n]) => n))).toBeLessThan(256);

  // helpers.js reads them, and its requests name each op once: its types
  // are the header's, and a string op's camelCase name is the C name word by
  // word, the last word capitalized or in capitals (derReadVisible, derReadBMP).
  expect([...harnessOps()]).toEqual(printed);
  expect(TYPE_NAMES).toEqual(C_NAMES);
  const title = (w) => w[0].toUpperCase() + w.slice(1);
  const camel = (name, last) => name.toLowerCase().split('_').map((w, i, all) => (i === 0 ? w : i < all.length - 1 ? title(w) : last(w))).join('');
  const requests = [
    ...TYPE_NAMES.flatMap((type) => [[`PACK_${type}`, { op: 'pack', type }], [`UNPACK_${type}`, { op: 'unpack', type }]]),
    ...ints.map((type) => [`UNPACK_INTEGRAL_${type}`, { op: 'unpack', type, integralFloats: true }]),
    ...[title, (w) => w.toUpperCase()].flatMap((last) => stringNames.map((name) => [name, { op: camel(name, last) }])),
  ];
  const number = new Map(printed);
  for (const [name, request] of requests) {
    expect({ request, name: harnessOpName(request), number: harnessOp(request) }).toEqual({ request, name, number: number.get(name) });
  }
  // Each op is reachable by some request.
  expect(new Set(requests.map(([name]) => name))).toEqual(new Set(number.keys()));
  expect(harnessOpName({ op: 'derReadBMP' })).toBe('DER_READ_BMP');
  expect(harnessOpName({ op: 'ia5Encode' })).toBe('IA5_ENCODE');
});
