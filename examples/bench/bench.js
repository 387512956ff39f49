// bench.js - fastmp in the browser that opens this page: wasm-simd and
// wasm-scalar (wasm at every size), auto (what users get: SIMD, and pure JS
// below the measured crossovers) against a plain JS baseline, over a few
// representative cases, with tinybench. Renders a table and an SVG chart.
// ?quick runs short budgets (the test); the default takes ~30 s.
import { Bench } from 'tinybench';
import * as baseline from './baselines.js';
import { createFastmp, simdSupported } from '/js/index.js';

const quick = new URLSearchParams(location.search).has('quick');
const BUDGET = quick ? { time: 40, warmupTime: 10, iterations: 4 } : { time: 300, warmupTime: 100, iterations: 16 };
const ROUNDS = quick ? 1 : 3;
const PATHS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['auto', {}],
];
const COLORS = { 'wasm-simd': '#1f6feb', 'wasm-scalar': '#d29922', auto: '#2da44e' };

const $ = (selector) => document.querySelector(selector);
const status = (text) => { $('#status').textContent = text; };

/** One instance per path (createFastmp), side by side in the page; null where it cannot load. */
async function loadPaths() {
  const paths = {};
  for (const [name, options] of PATHS) {
    try {
      paths[name] = await createFastmp(options);
    } catch (e) {
      paths[name] = null;
      console.warn(`${name}: ${e.message}`);
    }
  }
  return paths;
}

function randomF32(n) {
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = (Math.random() - 0.5) * 1e6;
  return x;
}

/** Ints of every magnitude, so that every msgpack int form occurs. */
function randomI32(n) {
  const x = new Int32Array(n);
  for (let i = 0; i < n; i++) x[i] = Math.trunc((Math.random() - 0.5) * 2 ** (1 + Math.floor(Math.random() * 32)));
  return x;
}

/** Mixed Latin, Cyrillic, Greek and CJK text, plane 0 only. */
function bmpText(n) {
  const alphabet = 'Grüße Москва Ελλάδα 日本語 Zoë € ';
  let s = '';
  while (s.length < n) s += alphabet;
  return s.slice(0, n);
}

/** The cases: each has an op per path and the JS baseline doing the same work. */
function cases() {
  const list = [];
  for (const n of [16, 4096, 1 << 20]) {
    const x = randomF32(n);
    const bytes = baseline.packF32(x).slice();
    list.push({ name: `pack Float32Array ${label(n)}`, baseline: 'DataView loop', base: () => baseline.packF32(x), op: (api) => () => api.pack(x) });
    list.push({ name: `unpack Float32Array ${label(n)}`, baseline: 'DataView loop', base: () => baseline.unpackF32(bytes), op: (api) => () => api.unpack(bytes, Float32Array) });
  }
  const ints = randomI32(4096);
  const intBytes = baseline.packI32(ints).slice();
  list.push({ name: 'pack Int32Array 4 K', baseline: 'DataView loop', base: () => baseline.packI32(ints), op: (api) => () => api.pack(ints) });
  list.push({ name: 'unpack Int32Array 4 K', baseline: 'DataView loop', base: () => baseline.unpackI32(intBytes), op: (api) => () => api.unpack(intBytes, Int32Array) });
  const text = bmpText(1024);
  const bmp = baseline.encodeBMP(text);
  list.push({ name: 'encodeBMP 1 K chars', baseline: 'charCodeAt loop', base: () => baseline.encodeBMP(text), op: (api) => () => api.encodeBMP(text) });
  list.push({ name: 'decodeBMP 1 K chars', baseline: "TextDecoder('utf-16be')", base: () => baseline.decodeBMP(bmp), op: (api) => () => api.decodeBMP(bmp) });
  return list;
}

function label(n) {
  return n >= 1 << 20 ? `${n / (1 << 20)} M` : n >= 1024 ? `${n / 1024} K` : String(n);
}

/**
 * A task that runs `fn` enough times per sample for the browser's coarse
 * timer (5 µs cross-origin isolated, 100 µs otherwise) to resolve it:
 * batches of at least ~1 ms, judged by the fastest of three runs (a busy
 * machine only ever makes a run slower). Returns { name, fn, batch }.
 */
function batched(name, fn) {
  const run = (batch) => {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    return performance.now() - t0;
  };
  let batch = 1;
  while (batch < 1 << 20 && Math.min(run(batch), run(batch), run(batch)) < 1) batch *= 2;
  return { name, batch, fn: () => { for (let i = 0; i < batch; i++) fn(); } };
}

/** Median ns per call of each task, medians over rounds in rotated order (as bench/lib.js does in Node). */
async function medians(tasks) {
  const perTask = new Map(tasks.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ ...BUDGET, warmupIterations: 2 });
    for (let k = 0; k < tasks.length; k++) {
      const t = tasks[(k + round) % tasks.length];
      bench.add(t.name, t.fn);
    }
    await bench.run();
    for (const t of bench.tasks) {
      const { batch } = tasks.find((task) => task.name === t.name);
      perTask.get(t.name).push((t.result.latency.p50 * 1e6) / batch);
    }
  }
  return new Map([...perTask].map(([name, v]) => [name, v.sort((a, b) => a - b)[v.length >> 1]]));
}

function formatNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

function renderTable(rows) {
  const head = ['case', ...PATHS.map(([name]) => name), 'JS baseline'];
  const cell = (r, name) => (r.times[name] == null ? 'n/a' : `${formatNs(r.times[name])} <small>(${r.ratios[name].toFixed(2)}x)</small>`);
  $('#table').innerHTML = `<table>
    <thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>
    <tbody>${rows.map((r) => `<tr><td>${r.name}</td>${PATHS.map(([name]) => `<td>${cell(r, name)}</td>`).join('')}<td>${formatNs(r.base)} <small>${r.baseline}</small></td></tr>`).join('')}</tbody>
  </table>`;
}

/** Grouped horizontal bars: speed-up over the JS baseline, a line at 1x. */
function renderChart(rows) {
  const names = PATHS.map(([name]) => name);
  const bar = 12;
  const group = bar * names.length + 14;
  const left = 190;
  const width = 860;
  const plot = width - left - 70;
  const top = 30;
  const height = top + group * rows.length + 30;
  const max = Math.max(1, ...rows.flatMap((r) => names.map((n) => r.ratios[n] ?? 0)));
  const x = (ratio) => left + (plot * ratio) / max;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12">`];
  parts.push(`<text x="${left}" y="16" font-weight="bold">speed-up over the JS baseline (higher is faster)</text>`);
  names.forEach((n, i) => {
    parts.push(`<rect x="${width - 300 + i * 100}" y="6" width="12" height="12" fill="${COLORS[n]}"/><text x="${width - 284 + i * 100}" y="16">${n}</text>`);
  });
  rows.forEach((r, gi) => {
    const y0 = top + gi * group;
    parts.push(`<text x="${left - 8}" y="${y0 + (bar * names.length) / 2 + 4}" text-anchor="end">${r.name}</text>`);
    names.forEach((n, i) => {
      const ratio = r.ratios[n];
      if (ratio == null) return;
      const y = y0 + i * bar;
      parts.push(`<rect class="bar" x="${left}" y="${y}" width="${Math.max(1, x(ratio) - left).toFixed(1)}" height="${bar - 2}" fill="${COLORS[n]}"/>`);
      parts.push(`<text x="${(x(ratio) + 4).toFixed(1)}" y="${y + bar - 3}" font-size="10">${ratio.toFixed(2)}x</text>`);
    });
  });
  parts.push(`<line x1="${x(1)}" x2="${x(1)}" y1="${top - 4}" y2="${height - 24}" stroke="#888" stroke-dasharray="4 3"/>`);
  parts.push(`<text x="${x(1)}" y="${height - 10}" text-anchor="middle" fill="#555">1x = JS baseline</text>`);
  parts.push('</svg>');
  $('#chart').innerHTML = parts.join('');
}

async function main() {
  status('loading the wasm builds…');
  const paths = await loadPaths();
  const auto = paths.auto;
  $('#env').textContent = [
    navigator.userAgent,
    `wasm SIMD128: ${simdSupported() ? 'yes' : 'no'}`,
    `auto backend: ${auto?.backend() ?? 'n/a'}`,
    `cross-origin isolated (5 µs timer): ${globalThis.crossOriginIsolated ? 'yes' : 'no'}`,
    quick ? 'quick run (short budgets)' : `${ROUNDS} rounds in rotated order, median`,
  ].join(' · ');
  const rows = [];
  const list = cases();
  for (const [i, c] of list.entries()) {
    status(`running ${i + 1}/${list.length}: ${c.name}…`);
    const tasks = [batched('baseline', c.base)];
    for (const [name] of PATHS) if (paths[name]) tasks.push(batched(name, c.op(paths[name])));
    const times = await medians(tasks);
    const row = { name: c.name, baseline: c.baseline, base: times.get('baseline'), times: {}, ratios: {} };
    for (const [name] of PATHS) {
      if (!times.has(name)) continue;
      row.times[name] = times.get(name);
      row.ratios[name] = row.base / times.get(name);
    }
    rows.push(row);
    renderTable(rows);
  }
  renderChart(rows);
  status(`done: ${rows.length} cases`);
  return rows;
}

window.bench = main().then(
  (rows) => ({ rows }),
  (e) => {
    status(`failed: ${e.message}`);
    return { error: String(e?.stack ?? e) };
  },
);
