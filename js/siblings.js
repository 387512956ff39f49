// siblings.js - how the default entries (js/index.js, js/node.js, js/node.cjs)
// find the wasm: each module's build next to the package
// (dist/fastmp-<build>.wasm, dist/fastmp-pack-<build>.wasm,
// dist/fastmp-strings-<build>.wasm), fetched on a page and read from disk in
// Node. Only those entries import this file: its literal URLs are what tells
// a bundler to emit the .wasm files, and an entry that never fetches them
// (js/inline.js) must not reach it.

// Literal URLs, so that bundlers see and copy the files.
const SIBLINGS = {
  typed: {
    simd: () => new URL('../dist/fastmp-simd.wasm', import.meta.url),
    scalar: () => new URL('../dist/fastmp-scalar.wasm', import.meta.url),
  },
  pack: {
    simd: () => new URL('../dist/fastmp-pack-simd.wasm', import.meta.url),
    scalar: () => new URL('../dist/fastmp-pack-scalar.wasm', import.meta.url),
  },
  strings: {
    simd: () => new URL('../dist/fastmp-strings-simd.wasm', import.meta.url),
    scalar: () => new URL('../dist/fastmp-strings-scalar.wasm', import.meta.url),
  },
};

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

/** The module's build: its bytes (Node, from a file: URL) or the fetch Response (everywhere else). */
async function readSibling(module, backend) {
  const url = SIBLINGS[module][backend]();
  if (url.protocol === 'file:' && isNode) {
    // A variable specifier keeps bundlers from pulling a Node builtin into browser code.
    const fsName = 'node:fs/promises';
    const fs = await import(/* @vite-ignore */ fsName);
    return fs.readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fastmp: cannot fetch ${url}: HTTP ${response.status}`);
  return response;
}

/** The module's build, read synchronously: Node only (process.getBuiltinModule, Node >= 20.16); elsewhere null. */
function readSiblingSync(module, backend) {
  const url = SIBLINGS[module][backend]();
  const fs = url.protocol === 'file:' && isNode ? process.getBuiltinModule?.('node:fs') : undefined;
  return fs ? fs.readFileSync(url) : null;
}

/** A wasm finder (js/loader.js): the sibling files. */
export const SIBLING_WASM = Object.freeze({ find: readSibling, findSync: readSiblingSync });
