// strings-crossover.js - where does a wasm call start to beat the pure-JS
// loop for the string codecs? Each operation at small lengths (in chars),
// pure JS vs wasm (SIMD and scalar), in one run; the V8 `strings` entries of
// js/crossovers.js come from this. Ratios are taken within each round (wasm ÷ pure JS, the
// contenders interleaved, bench/lib.js timeRounds), then their median and
// range over the rounds: on a shared machine a round's absolute times move
// a lot, the ratio within it much less.
//   node --expose-gc bench/strings-crossover.js [op]
import { formatNs, loadPaths, printTable, timeRounds } from './lib.js';
import { text } from './texts.js';

const paths = await loadPaths();
const SIZES = [2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256];


// decodeBMPascii: BMPString content of ASCII chars only, which takes the one-byte routes.
const OPS = {
  encodeBMP: { input: (n) => text(n, false), call: (api, x) => api.encodeBMP(x) },
  decodeBMP: { input: (n) => paths['pure-js'].encodeBMP(text(n, false)), call: (api, x) => api.decodeBMP(x) },
  decodeBMPascii: { input: (n) => paths['pure-js'].encodeBMP(text(n, true)), call: (api, x) => api.decodeBMP(x) },
  encodeASCII: { input: (n) => text(n, true), call: (api, x) => api.encodeVisible(x) },
  decodeASCII: { input: (n) => paths['pure-js'].encodeVisible(text(n, true)), call: (api, x) => api.decodeVisible(x) },
};

/** Median and range of the per-round ratios a / b. */
function ratio(a, b) {
  const r = a.rounds.map((v, i) => v / b.rounds[i]).sort((x, y) => x - y);
  return `${r[r.length >> 1].toFixed(2)} (${r[0].toFixed(2)}-${r.at(-1).toFixed(2)})`;
}

const only = process.argv[2];
const rows = [];
for (const [op, { input, call }] of Object.entries(OPS)) {
  if (only && op !== only) continue;
  for (const n of SIZES) {
    const x = input(n);
    const tasks = ['pure-js', 'wasm-simd', 'wasm-scalar'].map((name) => ({ name, fn: () => call(paths[name], x) }));
    const m = await timeRounds(tasks, { time: 350, warmupTime: 50, rounds: 7, batch: 16 });
    const [js, simd, scalar] = ['pure-js', 'wasm-simd', 'wasm-scalar'].map((name) => m.get(name));
    rows.push({
      op, n,
      'pure-js': formatNs(js.median),
      'wasm-simd': formatNs(simd.median),
      'wasm-scalar': formatNs(scalar.median),
      'simd/js': ratio(simd, js),
      'scalar/js': ratio(scalar, js),
    });
  }
}
printTable(rows);
