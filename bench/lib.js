// lib.js - shared by the benchmark scripts: independent fastmp instances (one
// per path, so all are measured in the same run), a tinybench runner of
// rotated rounds (medians and their spread), the page-fault probe, and a
// plain-text table with ratios.
import { Bench } from 'tinybench';
import { createFastmp } from '../js/index.js';
import { arrayHeaderSize } from '../js/wire.js';
import { bareKernels } from '../test/bare-kernels.js';

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
 * The two builds' typed-array kernels (the pack and the unpack module on one
 * memory), bare: for timing the kernels alone (input and output already in
 * memory, no JS boundary). Views of their memory are made afresh at each
 * use, so memory growth needs no handling.
 */
export async function loadKernels() {
  return { simd: bareKernels('simd'), scalar: bareKernels('scalar') };
}

/**
 * One kind's kernels of one build (`k`, from loadKernels) on fixed inputs in
 * its memory: `values` (the typed elements, little-endian bytes) and `packed`
 * (their msgpack). Returns { pack(), unpack(), packed(), unpacked(), free() }:
 * the calls to time, their outputs as copies (to check), and free().
 */
export function kernelCalls(k, kind, values, packed) {
  const n = values.byteLength / kind.bytes;
  const input = k.malloc(Math.max(1, values.byteLength)) >>> 0;
  const { block, out: wire } = packOutput(k, n, kind.wire);
  const msgpack = k.malloc(Math.max(1, packed.length)) >>> 0;
  const decoded = k.malloc(Math.max(1, values.byteLength)) >>> 0;
  const result = k.malloc(64) >>> 0;
  const bytes = (at, size) => new Uint8Array(k.memory.buffer, at, size);
  bytes(input, values.byteLength).set(values);
  bytes(msgpack, packed.length).set(packed);
  let size = 0;
  return {
    pack: () => (size = k[kind.pack](input, n, wire) >>> 0),
    unpack: () => k[kind.unpack](msgpack, packed.length, decoded, n, 0, result),
    packed: () => bytes(wire, size).slice(),
    unpacked: () => bytes(decoded, values.byteLength).slice(),
    free: () => [input, block, msgpack, decoded, result].forEach((at) => k.free(at)),
  };
}

/**
 * Room in a bare module's memory for a pack of n elements of up to `wire`
 * bytes, placed as the API places it (js/io.js packInScratch): the
 * elements after the array header at a 16-byte boundary. { block (to free), out }.
 */
export function packOutput(k, n, wire) {
  const block = k.malloc(n * wire + 64) >>> 0;
  return { block, out: ((block + 15) & ~15) + (-arrayHeaderSize(n) & 15) };
}

/**
 * Each task's median time (ns) per round, with the median and the range of
 * those round medians: { name -> { median, min, max, rounds } }. Every task
 * runs in every round, the order rotated by one per round: on a shared 2-core
 * machine a task that happens to run while the GC settles the previous task's
 * garbage, or while another process runs, would otherwise carry that cost
 * alone, and min..max shows how much that moved a figure. Run node with
 * --expose-gc to also collect before every task. `iterations` is tinybench's
 * minimum per task: lower it for inputs that take long. `batch` calls per
 * sample (time divided by it): below ~1 µs a call is near the timer's
 * granularity, so short calls are timed in batches, every task alike.
 */
export async function timeRounds(tasks, { time = 300, warmupTime = 100, rounds = 3, iterations = 64, warmupIterations = 16, batch = 1 } = {}) {
  const perTask = new Map(tasks.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    // A full collection before each task's phases, so that no task pays for another's garbage.
    const bench = new Bench({ time: time / rounds, warmupTime, iterations, warmupIterations, setup: () => globalThis.gc?.() });
    for (let k = 0; k < tasks.length; k++) {
      const { name, fn } = tasks[(k + round) % tasks.length];
      bench.add(name, batch === 1 ? fn : batched(fn, batch));
    }
    await bench.run();
    for (const t of bench.tasks) {
      if (t.result.error) throw new Error(`benchmark task '${t.name}' failed: ${t.result.error.message}`, { cause: t.result.error });
      perTask.get(t.name).push((t.result.latency.p50 * 1e6) / batch);
    }
  }
  return new Map([...perTask].map(([name, ns]) => {
    const sorted = [...ns].sort((a, b) => a - b);
    const h = sorted.length >> 1; // (an even number of rounds: the mean of the two middle ones)
    return [name, { median: sorted.length % 2 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2, min: sorted[0], max: sorted.at(-1), rounds: ns }];
  }));
}

/** Where a result must stay observable: the last of a batch is kept here. */
export const sink = { value: undefined };
function batched(fn, k) {
  return () => {
    for (let i = 1; i < k; i++) sink.value = fn();
    sink.value = fn();
  };
}

/** Median time in ns of each task { name, fn } over rotated rounds (timeRounds()'s medians). */
export async function medians(tasks, options) {
  return new Map([...await timeRounds(tasks, options)].map(([name, { median }]) => [name, median]));
}

/**
 * The cost of a page on this machine, per page in ns: the first write to each
 * page of a fresh 64 MB buffer (the kernel maps a page) against a second
 * write to the same pages; and `churn`: 16
 * rounds of 64 buffers of 20 KB (a pack of 4096 floats' output), every page
 * written, then collected. Churn pays the first figure again only where the
 * allocator gives freed memory back to the kernel (glibc's defaults trim the
 * heap's free top beyond 128 KB); with the kept-memory tunables it pays the
 * second. Needs --expose-gc for the churn.
 */
export function pageFaultProbe() {
  const PAGE = 4096;
  const touch = (bytes) => {
    for (let i = 0; i < bytes.length; i += PAGE) bytes[i] = 1;
  };
  const perPage = (bytes, fn) => {
    const t = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - t) / Math.ceil(bytes / PAGE);
  };
  const big = new Uint8Array(64 << 20);
  const firstWrite = perPage(big.length, () => touch(big));
  const rewrite = perPage(big.length, () => touch(big));
  const churn = [];
  for (let round = 0; round < 16; round++) {
    globalThis.gc?.();
    churn.push(perPage(64 * 20480, () => {
      for (let k = 0; k < 64; k++) touch(new Uint8Array(20480));
    }));
  }
  churn.sort((a, b) => a - b);
  return { firstWrite, rewrite, churn: churn[churn.length >> 1] };
}

export function formatNs(ns) {
  if (ns === undefined || !Number.isFinite(ns)) return '–';
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
