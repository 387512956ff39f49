// siblings.js - how the default entries (js/index.js, js/node.js) find the
// wasm: each module's build next to the package
// (dist/fastmp-<module>-<build>.wasm), fetched on a page and read from disk in
// Node. Only those entries import this file, and an entry that never fetches
// the files (js/inline.js) must not reach it.
// Literal URLs, so that bundlers see and copy the files; `?no-inline` keeps
// Vite from inlining a small build (under 4 KB) into the JS as a data: URL,
// where every page would carry it, needed or not (Vite strips the query).

import { isNode } from './runtime.js';

const URLS = {
  pack: {
    simd: () => new URL('../dist/fastmp-pack-simd.wasm?no-inline', import.meta.url),
    scalar: () => new URL('../dist/fastmp-pack-scalar.wasm?no-inline', import.meta.url),
  },
  unpack: {
    simd: () => new URL('../dist/fastmp-unpack-simd.wasm?no-inline', import.meta.url),
    scalar: () => new URL('../dist/fastmp-unpack-scalar.wasm?no-inline', import.meta.url),
  },
  strings: {
    simd: () => new URL('../dist/fastmp-strings-simd.wasm?no-inline', import.meta.url),
    scalar: () => new URL('../dist/fastmp-strings-scalar.wasm?no-inline', import.meta.url),
  },
};

/**
 * Where a build lies in Node: this file's URL names the package. (Not as
 * `new URL(template, import.meta.url)`, which a bundler reads as a pattern of
 * files to emit.)
 */
const nodeUrl = (module, build) => {
  const base = here();
  return new URL(`../dist/fastmp-${module}-${build}.wasm`, base);
};

/**
 * This file's URL. A bundle into CommonJS (esbuild's format 'cjs') leaves
 * import.meta empty: no file can be found from it, and the caller says so
 * (Node; a page asks its own location: pageUrl()).
 */
function here() {
  const url = import.meta.url;
  if (typeof url === 'string') return url;
  throw new Error('fastmp-wasm: this copy of the package has no import.meta.url (bundled into CommonJS?), so it cannot find its .wasm files: '
    + 'give the modules to init({ wasm, stringsWasm }) or initSync(), or bundle it as an ES module with its dist/*.wasm files');
}

/**
 * The files a Node bundle emitted (webpack, target node): the literal URL,
 * which the bundler rewrote to its copy beside the bundle, where the package's
 * own path (nodeUrl(), from the URL the bundler baked in) names the machine
 * that built it. Null where it is the same file, or not a file.
 */
function bundledUrl(module, build, tried) {
  const url = URLS[module][build]();
  return url.protocol === 'file:' && url.pathname !== tried.pathname ? url : null;
}

/**
 * Where a page fetches a build. Vite's dev server before Vite 8 pre-bundles
 * the package into node_modules/.vite/deps/ and leaves the URL relative to
 * that copy (vitejs/vite#8427): in node_modules/.vite/dist/, where no file
 * is (its HTML fallback answers), not the package's dist/. A bundle into an
 * iife or CommonJS (esbuild's default for browsers is iife) leaves
 * import.meta empty: the build is then asked of dist/ as seen from the
 * page or worker script, as from an ES module bundle beside it.
 */
const pageUrl = (module, build) => (typeof import.meta.url === 'string'
  ? new URL(URLS[module][build]().href.replace('/.vite/dist/', '/fastmp-wasm/dist/'))
  : new URL(`../dist/fastmp-${module}-${build}.wasm`, location.href));

/** The module's build: its bytes (Node, from a file: URL) or the fetch Response (everywhere else). */
async function readSibling(module, build) {
  const url = isNode && here().startsWith('file:') ? nodeUrl(module, build) : pageUrl(module, build);
  if (url.protocol === 'file:' && isNode) {
    // A variable specifier keeps bundlers from pulling a Node builtin into browser code (webpackIgnore:
    // webpack would warn of a "critical dependency" in every build of the package).
    const fsName = 'node:fs/promises';
    const fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
    try {
      return await fs.readFile(url);
    } catch (e) {
      const bundled = bundledUrl(module, build, url);
      if (bundled === null) throw e;
      return fs.readFile(bundled);
    }
  }
  return fetch(url);
}

/** The module's build, read synchronously: Node only (process.getBuiltinModule, Node >= 20.16); elsewhere null. */
function readSiblingSync(module, build) {
  const fs = isNode && here().startsWith('file:') ? process.getBuiltinModule?.('node:fs') : undefined;
  if (!fs) return null;
  const url = nodeUrl(module, build);
  try {
    return fs.readFileSync(url);
  } catch (e) {
    const bundled = bundledUrl(module, build, url);
    if (bundled === null) throw e;
    return fs.readFileSync(bundled);
  }
}

/** A wasm finder (js/loader.js): the sibling files. */
export const SIBLING_WASM = Object.freeze({ find: readSibling, findSync: readSiblingSync });
