// The TypeScript declarations: consumers in test/types/ type-check under
// --strict with lib ES2022 + DOM (an ES module, a CommonJS .cts and a checked
// CommonJS .cjs), resolved through package.json "exports" as users resolve
// them; and the declarations name every function the module exports, once.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import * as api from '../js/index.js';
import { ROOT } from './helpers.js';

const TSC = `${ROOT}/node_modules/typescript/bin/tsc`;

/** tsc's report on a tsconfig in test/types ('' when it compiles). */
async function typeCheck(config) {
  try {
    await promisify(execFile)(process.execPath, [TSC, '-p', `${ROOT}/test/types/${config}`], { encoding: 'utf8' });
    return '';
  } catch (e) {
    return `${e.stdout}${e.stderr}` || String(e);
  }
}

describe('consumers type-check with tsc --strict', () => {
  test.concurrent.each([
    ['tsconfig.json', 'module nodenext: ESM, .cts and checked .cjs'],
    ['tsconfig.node16.json', 'module node16 (no require() of ES modules): the .d.cts'],
    ['tsconfig.bundler.json', 'moduleResolution bundler: ESM'],
  ])('%s (%s)', async (config) => {
    expect(await typeCheck(config)).toBe('');
  });
});

const dts = readFileSync(`${ROOT}/js/index.d.ts`, 'utf8');
const dcts = readFileSync(`${ROOT}/js/index.d.cts`, 'utf8');
const declared = (pattern, text = dts) => [...text.matchAll(pattern)].map((m) => m[1]).sort();

/** Functions of the module only: an instance from createFastmp() does not have them. */
const MODULE_ONLY = ['init', 'initSync', 'simdSupported', 'createFastmp', 'createFastmpSync'];

test('every export is declared, and every declared function is exported', () => {
  const functions = declared(/^export function (\w+)/gm);
  const classes = declared(/^export class (\w+)/gm);
  expect(Object.keys(api).sort()).toEqual([...functions, ...classes].sort());
});

test('interface Fastmp has every function of the module but init, initSync, simdSupported, createFastmp*', () => {
  const body = dts.slice(dts.indexOf('export interface Fastmp {'));
  const members = declared(/^ {2}(\w+): typeof \1;$/gm, body.slice(0, body.indexOf('\n}')));
  expect(members).toEqual(declared(/^export function (\w+)/gm).filter((name) => !MODULE_ONLY.includes(name)));
});

test('index.d.cts names every type of index.d.ts', () => {
  const types = declared(/^export (?:type|interface|class) (\w+)/gm);
  expect(declared(/^ {2}export type (\w+)\b/gm, dcts)).toEqual(types);
});

test('an instance from createFastmpSync() has every method interface Fastmp declares; they work destructured', () => {
  const body = dts.slice(dts.indexOf('export interface Fastmp {'));
  const members = declared(/^ {2}(\w+): typeof \1;$/gm, body.slice(0, body.indexOf('\n}')));
  const fm = api.createFastmpSync();
  expect(members.filter((name) => typeof fm[name] !== 'function')).toEqual([]);
  const { pack, unpack, backend } = fm; // the declarations promise that this works
  expect(Array.from(unpack(pack(new Int16Array([1, -300])), Int16Array))).toEqual([1, -300]);
  expect(['simd', 'scalar']).toContain(backend());
});
