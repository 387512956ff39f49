// pack-manifest.js - the package.json that npm packs names no script that
// cannot run from the tarball: bench/, test/, build.sh and the Makefile do
// not ship, so neither do `test`, `lint`, `bench`, `bench:browser`,
// `test:engines`, `size`, `size:costs`, `size:families` and `build`: every
// script but the pack steps (KEPT), which npm runs only when it packs a
// source folder.
//
//   node scripts/pack-manifest.js strip     (package.json "prepack", after the wasm build)
//   node scripts/pack-manifest.js restore   (package.json "postpack")
//
// strip keeps the working package.json as package.json.orig, byte for byte,
// and writes package.json without those scripts; npm then packs that file;
// restore moves package.json.orig back (npm runs "postpack" from the
// manifest it read before "prepack").
//
// An interrupted pack (Ctrl-C, or a failure between the two steps) leaves
// package.json.orig beside the stripped package.json, which still has the
// pack steps: the next `npm pack` puts the original back before it strips
// again, and `node scripts/pack-manifest.js restore` does it by hand. Both
// steps refuse, and change nothing, when package.json is no longer exactly
// what strip wrote (edited meanwhile): merge the two files by hand, then
// delete package.json.orig.
//
// `npm publish` from this folder sends the registry the manifest it reads
// again after "postpack" (the restored one): publish the packed tarball
// (`npm pack`, then `npm publish fastmp-wasm-<version>.tgz`) for the
// registry's manifest to be the tarball's.
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The scripts the packed manifest keeps: the pack steps, so that a pack after an interrupted one restores package.json. */
const KEPT = ['prepack', 'postpack'];

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = `${ROOT}package.json`;
const ORIGINAL = `${ROOT}package.json.orig`;

/** The packed manifest made from the working one's text. */
function stripped(text) {
  const pkg = JSON.parse(text);
  const scripts = Object.fromEntries(Object.entries(pkg.scripts ?? {}).filter(([name]) => KEPT.includes(name)));
  if (Object.keys(scripts).length) pkg.scripts = scripts;
  else delete pkg.scripts;
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function fail(message) {
  process.stderr.write(`pack-manifest: ${message}\n`);
  process.exit(1);
}

/** Puts package.json.orig back, if a strip left it, provided package.json is still what that strip wrote. */
function restore() {
  if (!existsSync(ORIGINAL)) return;
  if (readFileSync(MANIFEST, 'utf8') !== stripped(readFileSync(ORIGINAL, 'utf8'))) {
    fail('package.json changed since package.json.orig was kept (an interrupted npm pack?): merge the two by hand, then delete package.json.orig');
  }
  renameSync(ORIGINAL, MANIFEST);
}

const step = process.argv[2];
if (step === 'strip') {
  restore();
  const text = readFileSync(MANIFEST, 'utf8');
  copyFileSync(MANIFEST, ORIGINAL);
  writeFileSync(`${MANIFEST}.tmp`, stripped(text));
  renameSync(`${MANIFEST}.tmp`, MANIFEST);
} else if (step === 'restore') {
  restore();
} else {
  fail('usage: node scripts/pack-manifest.js strip | restore');
}
