// audit-loading2.test.js - the second loading audit (js/loader.js, js/core.js,
// js/siblings.js, the entries), each numbered test a finding that failed on
// fa10de3: in Node, a call made while an init() not awaited is loading its
// module threw NOT_READY (alloc(), packView(), packBoolView()) where Node loads
// it synchronously at the call without init() (js/core.js initFrom() now loads
// what it can read synchronously at once); a module that does not import the
// instance's memory (one built with a memory of its own, as builds before the
// three modules were) was attached, and its kernels wrote where nothing reads:
// pack() gave zeros. (Also found: a module given as a Response already read,
// or as a view of a detached buffer, fails with the engine's TypeError, which
// names no option. Left so: its fix weighed on every page, in js/loader.js.)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { createFastmp, createFastmpSync } from '../js/index.js';
import { ROOT } from './helpers.js';

const bytesOf = (module, build) => readFileSync(`${ROOT}/dist/fastmp-${module}-${build}.wasm`);
// Above every pack crossover: the kernel's path, where it is loaded.
const BIG = Float32Array.from({ length: 5000 }, (_, i) => i * 0.37 - 100);
const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** `script` (an ES module's body) run by Node in the repository; its stdout. */
const runNode = (script) => execFileSync(process.execPath, ['--input-type=module', '-e', script], {
  cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
}).trim();

test.each([
  ['the Node entry (js/node.js)', './js/node.js'],
  ['the inline entry (js/inline.js: "a module compiles synchronously on the first call that needs it")', './js/inline.js'],
])('1: %s: a call made while an init() not awaited loads its module loads it synchronously, as without init() (alloc(), packView(), packBoolView() not NOT_READY)', (_, entry) => {
  // docs/browsers.md "Node": the first call that needs a module reads and compiles it,
  // synchronously; errors.md: NOT_READY is "a page that has not awaited init()". README's worker
  // recipe starts init() and awaits it later. js/core.js readyNow() returned false for a module
  // whose (asynchronous) load init() had started, so these threw until that load finished.
  const script = `
    const fm = await import('${entry}');
    const ready = fm.init(); // not awaited
    for (let i = 0; i < 5; i++) await null; // (init()'s load has started, and cannot end within microtasks)
    const big = Float32Array.from({ length: 5000 }, (_, i) => i);
    const out = [];
    for (const [name, f] of [['alloc', () => fm.alloc(Float32Array, 8).length], ['packView', () => fm.packView(big).length],
      ['packBoolView', () => fm.packBoolView([true, false]).length]]) {
      try { out.push(name + ':' + f()); } catch (e) { out.push(name + ':' + e.code); }
    }
    out.push(await ready, fm.backend());
    console.log(out.join(' '));`;
  expect(runNode(script)).toBe('alloc:8 packView:25003 packBoolView:3 simd simd');
});

/**
 * `bytes` (a module that imports its memory, env.memory) made into one that
 * defines a memory of its own, of the same limits: what a build without
 * -sIMPORTED_MEMORY is, as fastmp's were before they shared one memory.
 */
function withOwnMemory(bytes) {
  const leb = (at) => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[at++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return [value, at];
  };
  const sections = [];
  for (let at = 8; at < bytes.length;) {
    const id = bytes[at];
    const [size, start] = leb(at + 1);
    sections.push({ id, payload: bytes.subarray(start, start + size) });
    at = start + size;
  }
  const imports = sections.find((s) => s.id === 2).payload;
  // One import: count 1, "env", "memory", kind 2 (memory), then its limits.
  expect([imports[0], ...imports.subarray(1, 13)]).toEqual([1, 3, ...Buffer.from('env'), 6, ...Buffer.from('memory'), 2]);
  const memory = Uint8Array.of(1, ...imports.subarray(13)); // one memory of those limits
  const out = sections.filter((s) => s.id !== 2);
  const before = out.findIndex((s) => s.id > 5 && s.id !== 12 && s.id !== 0); // (global, export, ...)
  out.splice(before, 0, { id: 5, payload: memory });
  const parts = [bytes.subarray(0, 8)];
  for (const { id, payload } of out) {
    const size = [];
    let n = payload.length;
    do {
      size.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
      n >>>= 7;
    } while (n > 0);
    parts.push(Uint8Array.of(id, ...size), payload);
  }
  return Buffer.concat(parts);
}

test('2: a module that does not import the instance\'s memory is refused by name, not attached to write where nothing reads (js/loader.js moduleOf)', async () => {
  // c/fastmp.h "the wasm modules' memory": every module imports the one memory the instance's JS
  // creates. One with a memory of its own has the right exports, so moduleOf() took it: its
  // kernels ran on their own memory, and pack() returned the zeros of the instance's.
  const own = withOwnMemory(bytesOf('pack', 'scalar'));
  expect(WebAssembly.Module.imports(new WebAssembly.Module(own))).toEqual([]); // (valid, and imports nothing)
  const packed = (fm) => {
    try {
      return hex(fm.pack(BIG)) === hex(createFastmpSync({ backend: 'js' }).pack(BIG)) ? 'the right bytes' : 'wrong bytes';
    } catch (e) {
      return e.name;
    }
  };
  let made;
  try {
    made = packed(createFastmpSync({ wasm: own, pureJs: 'never' }));
  } catch (e) {
    made = `${e.name}: ${e.message}`;
  }
  expect(made).toMatch(/^TypeError: .*createFastmpSync\(\) options.wasm is not fastmp's pack or unpack module/);
  await expect(createFastmp({ wasm: own })).rejects.toThrow(/options.wasm is not fastmp's pack or unpack module/);
});
