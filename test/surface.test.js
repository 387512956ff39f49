// surface.test.js - js/surface.js is the public surface, once: the module
// API, the inline entry and an instance's methods are made from it, and the
// declarations (js/index.d.ts) say the same. Each test fails when one of them
// gains, loses or renames a name without the others; and when a function
// marks a module other than the one js/surface.js gives it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import * as inline from '../js/inline.js';
import * as api from '../js/index.js';
import { MODULE } from '../js/core.js';
import { MODULE_ONLY, SURFACE } from '../js/surface.js';
import { CORE } from '../js/instances.js';
import { ROOT } from './helpers.js';

const sorted = (names) => [...names].sort();
const PUBLIC = sorted([...Object.keys(SURFACE), ...MODULE_ONLY]);

/** What js/index.d.ts exports (functions, classes, constants, default) and the members of its `interface Fastmp`. */
function declared() {
  const file = join(ROOT, 'js/index.d.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const values = new Set();
  let fastmp = [];
  const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const node of source.statements) {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'Fastmp') fastmp = node.members.map((m) => m.name.getText(source));
    if (!exported(node)) {
      if (ts.isExportAssignment(node)) values.add('default');
      continue;
    }
    if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) values.add(node.name.text);
    if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) values.add(d.name.getText(source));
    if (node.modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) values.add('default');
  }
  return { values: sorted(values), fastmp: sorted(fastmp) };
}

test('the module API exports exactly js/surface.js\'s functions and what no instance owns', () => {
  expect(sorted(Object.keys(api))).toEqual(PUBLIC);
});

test('fastmp-wasm/inline exports the same names as the module API', () => {
  expect(sorted(Object.keys(inline))).toEqual(PUBLIC);
});

test('an instance\'s methods are exactly js/surface.js\'s names, over its own core', async () => {
  const instance = await api.createFastmp({ backend: 'js' });
  expect(sorted(Object.keys(instance))).toEqual(sorted(Object.keys(SURFACE)));
  expect(instance[CORE]).toBeDefined();
  expect(Object.isFrozen(instance)).toBe(true);
});

test('each module-level function marks the module js/surface.js gives it (what init() loads for it)', () => {
  const marked = Object.fromEntries(Object.keys(SURFACE).map((name) => [name, api[name][MODULE] ?? null]));
  expect(marked).toEqual({ ...SURFACE });
  for (const name of MODULE_ONLY) expect(api[name]?.[MODULE], name).toBeUndefined();
});

test('js/index.d.ts declares every public name, and `interface Fastmp` every method, no more', () => {
  const { values, fastmp } = declared();
  expect(values).toEqual(PUBLIC);
  expect(fastmp).toEqual(sorted(Object.keys(SURFACE)));
});

/** The members js/index.d.ts declares on its exported classes, as `Class.member` (not `private` ones: the classes' insides, named only so that a subclass cannot replace them). */
function declaredMembers() {
  const file = join(ROOT, 'js/index.d.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.filter(ts.isClassDeclaration).flatMap((c) => c.members
    .filter((m) => m.name && !ts.isPrivateIdentifier(m.name) && !m.modifiers?.some((k) => k.kind === ts.SyntaxKind.PrivateKeyword))
    .map((m) => `${c.name.text}.${m.name.getText(source)}`));
}

test('every public name, and every member the declarations give a class, is documented for users (README.md or docs/, not history.md)', () => {
  const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'history.md').map((f) => `docs/${f}`);
  const text = ['README.md', ...pages].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
  const inCode = (name) => new RegExp(`\`[^\`\\n]*\\b${name}\\b[^\`\\n]*\``).test(text);
  const names = [...PUBLIC.filter((n) => n !== 'default'), ...declaredMembers()];
  expect(names.filter((n) => !inCode(n.split('.').pop()))).toEqual([]);
});
