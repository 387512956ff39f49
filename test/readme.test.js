// The README's example runs as written, and prints what its comments say.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './helpers.js';

/** The first ```js block after a heading, and the output its comments promise. */
function example(heading) {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const after = readme.slice(readme.indexOf(`## ${heading}`));
  const code = after.match(/```js\n([\s\S]*?)```/)[1];
  const expected = [];
  const lines = code.split('\n');
  lines.forEach((line, i) => {
    if (!line.includes('console.log(')) return;
    const inline = line.match(/\); \/\/ (.*)$/);
    const next = lines[i + 1]?.match(/^\s*\/\/ (.*)$/);
    expected.push((inline ?? next)[1]);
  });
  return { code, expected };
}

test.each([
  ['Example', 4],
  ['BMPString, IA5String and VisibleString', 5],
])('the README example under "%s" runs as written and prints what it says', (heading, lines) => {
  const { code, expected } = example(heading);
  expect(expected.length).toBeGreaterThanOrEqual(lines);
  // Inside the package directory, so that 'fastmp-wasm' resolves to this package.
  const file = join(ROOT, 'test', '.readme-example.mjs');
  writeFileSync(file, code);
  try {
    const out = execFileSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(expected);
  } finally {
    rmSync(file, { force: true });
  }
});
