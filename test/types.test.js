// The TypeScript declarations type-check a consumer under --strict, and they
// name every function the module exports.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import * as api from '../js/index.js';
import { ROOT } from './helpers.js';

test('a consumer type-checks with tsc --strict', () => {
  const tsc = `${ROOT}/node_modules/typescript/bin/tsc`;
  const run = () => execFileSync(process.execPath, [tsc, '-p', `${ROOT}/test/types/tsconfig.json`], { encoding: 'utf8' });
  expect(run).not.toThrow();
});

test('every export is declared', () => {
  const dts = readFileSync(`${ROOT}/js/index.d.ts`, 'utf8');
  for (const name of Object.keys(api)) {
    expect(dts).toMatch(new RegExp(`export (function|class) ${name}\\b`));
  }
});
