// Bench audit: what the published speed figures rest on, checked without
// timing anything.
// - The peers' users turn typed arrays into plain arrays before packing
//   (the "+ Array.from (timed)" / "incl. Array.from" rows, which the
//   README's headline encode ratios and `npx fastmp-wasm bench`'s peer
//   column divide by). The project's rule asks for the fastest honest JS
//   there. `Array.from(typedArray)` takes the iterator path, about 10x an
//   indexed loop on V8 (1536 floats: 28 us against 2.9 us on Node 20),
//   so these rows time the conversion more than the peer. Checked here by
//   behaviour: the conversion must read the typed array by index, not
//   through its iterator.
// - RESULTS-messages.md must describe how its run was made: it must not say
//   one process ran every table when results-messages.json records a
//   process per table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { libraryPeers } from '../bench/peers.js';
import { workloads } from '../bench/messages.js';
import { messages } from '../bin/workloads.js';
import { ROOT } from './helpers.js';

/** Every typed array (not Uint8Array) inside v gets an own Symbol.iterator that counts its calls. */
function spyIterators(v, counter, seen = new Set()) {
  if (v === null || typeof v !== 'object' || seen.has(v)) return v;
  seen.add(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const proto = Object.getPrototypeOf(v);
    Object.defineProperty(v, Symbol.iterator, {
      configurable: true,
      value() {
        counter.calls++;
        return proto[Symbol.iterator].call(this);
      },
    });
    return v;
  }
  for (const x of Array.isArray(v) ? v : Object.values(v)) spyIterators(x, counter, seen);
  return v;
}

/** The plain values must equal the typed ones, element by element. */
function sameNumbers(typed, plain) {
  if (ArrayBuffer.isView(typed)) {
    expect(Array.isArray(plain)).toBe(true);
    expect(plain).toEqual([...Object.getPrototypeOf(typed)[Symbol.iterator].call(typed)]);
    return;
  }
  if (Array.isArray(typed)) return typed.forEach((x, i) => sameNumbers(x, plain[i]));
  if (typed !== null && typeof typed === 'object' && !(typed instanceof Date)) {
    for (const k of Object.keys(typed)) sameNumbers(typed[k], plain[k]);
  }
}

test.each(['W1', 'W2', 'W4'])('bench/messages.js %s: the peers users\' conversion to plain arrays reads by index, not through the iterator', (id) => {
  const w = workloads().find((x) => x.id === id);
  const counter = { calls: 0 };
  spyIterators(w.value, counter);
  const plain = w.toPlain(w.value);
  sameNumbers(w.value, plain);
  expect(counter.calls).toBe(0);
});

test('bin/workloads.js (npx fastmp-wasm bench): every message\'s conversion to plain arrays reads by index', () => {
  for (const m of messages()) {
    if (!m.toPlain) continue;
    const counter = { calls: 0 };
    spyIterators(m.value, counter);
    const plain = m.toPlain(m.value);
    sameNumbers(m.value, plain);
    expect(counter.calls, m.about ?? m.name).toBe(0);
  }
});

test('bench/peers.js: the library rows that convert before packing read the typed array by index', () => {
  const x = Float32Array.from({ length: 64 }, (_, i) => i / 8);
  const counter = { calls: 0 };
  spyIterators(x, counter);
  const rows = libraryPeers('pack', Float32Array, false, x, null);
  counter.calls = 0; // (construction converts once too)
  const converting = rows.filter((r) => !r.name.includes('pre-converted'));
  expect(converting.length).toBe(2);
  for (const r of converting) expect(r.fn().length).toBeGreaterThan(64);
  expect(counter.calls).toBe(0);
});

test('RESULTS-messages.md says how its tables were run: a process per table, as results-messages.json records', () => {
  const { regimes } = JSON.parse(readFileSync(join(ROOT, 'bench', 'results-messages.json'), 'utf8'));
  for (const run of Object.values(regimes)) {
    const pids = run.tables.map((t) => t.pid);
    expect(new Set(pids).size).toBe(pids.length);
  }
  const report = readFileSync(join(ROOT, 'bench', 'RESULTS-messages.md'), 'utf8');
  expect(report).not.toMatch(/Each regime is one node process running every table/);
});
