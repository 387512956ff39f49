// build-node.js - the Node entries as single files: dist/fastmp-node.js (the
// package's `node` condition for `import 'fastmp-wasm'` and
// 'fastmp-wasm/inline') and dist/fastmp-node-msgpackr.js
// ('fastmp-wasm/msgpackr'), with the code they share in
// dist/fastmp-node-shared.js, so that both are one module graph (one default
// instance). Loading ~50 ES modules one by one is most of what importing the
// package cost in Node; one file of the same code loads in a fraction of it
// (`node bench/startup.js`). The source stays js/: these are build outputs
// (./build.sh and the pack step make them), never edited or committed.
// They lie in dist/ beside the .wasm files, which js/siblings.js finds at
// '../dist/…' from its own URL: the same path from dist/ as from js/.
//
//   node scripts/build-node.js
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist');

const bundle = await rolldown({
  input: { 'fastmp-node': join(ROOT, 'js/node.js'), 'fastmp-node-msgpackr': join(ROOT, 'js/msgpackr-node.js') },
  platform: 'node',
  // Every module's top-level code runs, as it does unbundled: the entries mark
  // the modules the program uses, and set how the default instance finds them.
  treeshake: { moduleSideEffects: true },
});
for (const name of ['fastmp-node.js', 'fastmp-node-msgpackr.js', 'fastmp-node-shared.js']) rmSync(join(OUT, name), { force: true });
const { output } = await bundle.write({
  dir: OUT,
  format: 'esm',
  entryFileNames: '[name].js',
  // (A fixed name gets a number from rolldown 1.2 when the graph has a
  // namespace object, though the chunk is alone: the shared chunk's [name] is
  // 'node', and the check below says if that changes.)
  chunkFileNames: 'fastmp-[name]-shared.js',
  comments: { legal: false, annotation: false, jsdoc: false },
});
await bundle.close();
const names = output.map((o) => o.fileName).sort();
const expected = ['fastmp-node-msgpackr.js', 'fastmp-node-shared.js', 'fastmp-node.js'];
if (names.join() !== expected.join()) throw new Error(`build-node.js: wrote ${names.join(', ')}; expected ${expected.join(', ')}`);
console.log(`build-node.js: ${names.map((n) => `dist/${n}`).join(', ')}`);
