// The family modules that bench/size-families.js weighs (`make families`):
// each typed module's kernels split by element family, the floats' and the
// integers' with the booleans'. Its figures are a real split's only when the
// two families together export exactly the kernels of the module they split,
// neither holding a kernel of the other family's types.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { BOOL, KINDS } from '../js/kinds.js';
import { ROOT } from './helpers.js';

const kernelsOf = (file) => WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(ROOT, file))))
  .map((e) => e.name).filter((name) => /^fm_(?:un)?pack_/.test(name)).sort();

const FLOATS = new Set(KINDS.filter((k) => k.float).map((k) => k.c));
const INTS = new Set([...KINDS.filter((k) => !k.float).map((k) => k.c), BOOL.c]);
const typeOf = (kernel) => kernel.replace(/^fm_(?:un)?pack_/, '');

test.each(['pack', 'unpack'])('make families: the %s module split into the floats\' kernels and the integers\' and booleans\', together exactly its own', (module) => {
  execFileSync('make', ['--no-print-directory', 'families'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const float = kernelsOf(`build/families/fastmp-${module}-float-simd.wasm`);
  const int = kernelsOf(`build/families/fastmp-${module}-int-simd.wasm`);
  expect(float.length).toBeGreaterThan(0);
  expect(float.every((k) => FLOATS.has(typeOf(k)))).toBe(true);
  expect(int.every((k) => INTS.has(typeOf(k)))).toBe(true);
  expect([...float, ...int].sort()).toEqual(kernelsOf(`dist/fastmp-${module}-simd.wasm`));
}, 120_000);
