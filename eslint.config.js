// ESLint flat config: `npm run lint` (and the first step of `npm test`).
// @eslint/js recommended on every .js / .mjs / .cjs file; each file gets the
// globals of the place it runs in (Node, a page, a Worker, or both for js/).
import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';

export default [
  {
    ignores: [
      'dist/', // generated: the inlined-wasm bundle
      'build/', // generated: native builds and fuzz corpora
      'bench/results.json',
      'test/.readme-example.mjs', // written by readme.test.js from the README
    ],
  },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Dropping keys by destructuring (`const { message, ...facts } = o`)
      // leaves the dropped names unused on purpose.
      'no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // The library runs on pages, in Workers and in Node. It touches Node's
    // `process` only behind a `typeof process` check.
    files: ['js/**/*.js'],
    languageOptions: { globals: { ...globals.browser, process: 'readonly' } },
  },
  {
    // The library's modules form no import cycle: each can be read, and
    // bundled, on its own terms (a cycle also hides evaluation-order bugs).
    files: ['js/**/*.js'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The heap (js/wasm/heap.js) owns wasm memory, its state language-private;
    // an instance's core (js/core.js) makes the one Heap it has, and every
    // other file reaches memory through that heap's verbs, never a Heap of its own.
    files: ['js/**/*.js'],
    ignores: ['js/wasm/**', 'js/core.js'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: "NewExpression[callee.name='Heap'], NewExpression[callee.property.name='Heap']", message: 'only js/core.js makes a Heap: use the instance\'s (core.heap, core.kernels())' }],
    },
  },
  {
    // The package's command (`npx fastmp-wasm bench`) and the pack step's script run in Node.
    files: ['bin/**/*.js', 'scripts/**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['js/**/*.cjs', 'test/**', 'bench/**', 'examples/bench/serve.js', '*.config.js'],
    ignores: ['test/package/main.js', 'test/package/*worker*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Tests that drive Chromium: the callbacks they pass to page.evaluate()
    // and page.waitForFunction() run on the page.
    files: ['test/browser.test.js', 'test/bench-page.test.js', 'test/package.test.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Page and Worker code: the browser benchmark and the package test's
    // consumers (check.js runs in Node too).
    files: [
      'examples/bench/bench.js', 'examples/bench/baselines.js',
      'test/package/check.js', 'test/package/main.js', 'test/package/*worker*.js',
    ],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
];
