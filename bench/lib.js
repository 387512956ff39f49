// lib.js - shared by the benchmark scripts: independent fastmp instances (one
// per path, so all are measured in the same run), a tinybench runner that
// reports medians, and a plain-text table with ratios.
import { Bench } from 'tinybench';
import { createFastmp } from '../js/index.js';

/**
 * One instance of the API per path: wasm-simd, wasm-scalar (wasm forced at
 * every size) and pure-js; `auto` is what users get (SIMD + JS for small inputs).
 * Each is an instance of its own (createFastmp), side by side in this process.
 */
export async function loadPaths() {
  const paths = {};
  for (const [name, options] of [
    ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
    ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
    ['pure-js', { pureJs: 'always' }],
    ['auto', {}],
  ]) {
    paths[name] = await createFastmp(options);
  }
  return paths;
}

/**
 * Median time in ns of each task { name, fn }. Tasks run in `rounds` rounds,
 * each in a rotated order, and each task's result is the median of its round
 * medians: on a shared 2-core machine a task that happens to run while the GC
 * settles the previous task's garbage would otherwise carry that cost alone.
 * Run node with --expose-gc to also collect before every task. `iterations`
 * is tinybench's minimum per task: lower it for inputs that take long.
 */
export async function medians(tasks, { time = 300, warmupTime = 100, rounds = 3, iterations = 64, warmupIterations = 16 } = {}) {
  const perTask = new Map(tasks.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    // A full collection before each task's phases, so that no task pays for another's garbage.
    const bench = new Bench({ time: time / rounds, warmupTime, iterations, warmupIterations, setup: () => globalThis.gc?.() });
    for (let k = 0; k < tasks.length; k++) {
      const { name, fn } = tasks[(k + round) % tasks.length];
      bench.add(name, fn);
    }
    await bench.run();
    for (const t of bench.tasks) {
      if (t.result.error) throw new Error(`benchmark task '${t.name}' failed: ${t.result.error.message}`, { cause: t.result.error });
      perTask.get(t.name).push(t.result.latency.p50 * 1e6);
    }
  }
  return new Map([...perTask].map(([name, values]) => [name, values.sort((a, b) => a - b)[values.length >> 1]]));
}

export function formatNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/** Prints rows as an aligned table; the header is the keys of the first row. */
export function printTable(rows) {
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(line(keys));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(keys.map((k) => r[k])));
}
