// report.js - turns the benchmark's results into bench/RESULTS.md (targets,
// then a table per operation), the raw JSON, and an SVG chart (throughput vs
// size, log axes, one line per method).

export function formatNs(ns) {
  if (ns === undefined || !Number.isFinite(ns)) return '–';
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

const ratio = (base, ns) => (base && ns ? `${(base / ns).toFixed(2)}x` : '–');

/** The targets of issue 5, each with its measured ratio and whether it is met. */
export function targets(results) {
  const find = (group, n, content) => results.find((r) => r.group === group && r.n === n && r.content === content);
  const rows = [];
  const add = (target, r, num, den, goal, note = '') => {
    const value = r && r.ns[num] && r.ns[den] ? r.ns[den] / r.ns[num] : undefined;
    rows.push({ target, measured: value === undefined ? 'not measured' : `${value.toFixed(2)}x`, met: value === undefined ? '–' : value >= goal ? 'yes' : 'no', note });
  };
  const f32pack = (n) => find('pack Float32Array', n, 'random');
  const f32unpack = (n) => find('unpack Float32Array', n, 'random');
  add('pack Float32Array, copying API ≥ 3x DataView loop at 4096', f32pack(4096), 'auto', 'DataView loop', 3);
  add('pack Float32Array, copying API ≥ 2x DataView loop at 1 M', f32pack(1 << 20), 'auto', 'DataView loop', 2);
  add('pack Float32Array ≥ 40x @msgpack/msgpack at 4096', f32pack(4096), 'auto', '@msgpack/msgpack', 40);
  add('pack Float32Array ≥ 40x @msgpack/msgpack at 1 M', f32pack(1 << 20), 'auto', '@msgpack/msgpack', 40);
  add('zero-copy pack Float32Array at 1 M ≥ 6x DataView loop', f32pack(1 << 20), 'zero-copy simd', 'DataView loop', 6);
  add('zero-copy pack kernel ≥ 50 % of memcpy speed at 1 M (memcpy time / kernel time ≥ 0.5)', f32pack(1 << 20), 'zero-copy simd', 'memcpy', 0.5,
    'memcpy: native, same output size');
  for (const [type, goal, content] of [['Float32Array', 4, 'random'], ['Float64Array', 4, 'random'], ['Int16Array', 2, 'random'],
    ['Int32Array', 2, 'random'], ['BigInt64Array', 2, 'random'], ['boolean', 10, 'random']]) {
    const r = find(`pack ${type}`, 4096, content);
    add(`wasm-simd ÷ wasm-scalar, pack ${type} at 4096 ≥ ${goal}x (copying API)`, r, 'wasm-simd', 'wasm-scalar', goal);
    add(`wasm-simd ÷ wasm-scalar, pack ${type} at 4096 ≥ ${goal}x (kernels: zero-copy)`, r, 'zero-copy simd', 'zero-copy scalar', goal,
      type === 'boolean' ? 'no zero-copy path for booleans' : '');
  }
  for (const group of ['pack Float32Array', 'unpack Float32Array', 'pack Int32Array', 'unpack Int32Array', 'encode BMPString', 'decode BMPString']) {
    for (const n of [4096, 65536, 4 << 20]) {
      const r = results.find((x) => x.group === group && x.n === n && (x.content === 'random' || x.content === 'text'));
      if (r) add(`wasm-simd within 1.5x of native SIMD: ${group} at ${n} (native time / zero-copy time ≥ 0.67)`, r,
        r.ns['zero-copy simd'] ? 'zero-copy simd' : 'wasm-simd', 'native simd', 1 / 1.5, r.ns['zero-copy simd'] ? '' : 'copying API');
    }
  }
  // At N <= 16: fastmp as users get it (auto) against the best JS alternative.
  // Content against content, DER against DER: the DER peers (asn1js,
  // node-forge) also write or parse a tag and a length.
  for (const r of results.filter((x) => x.n <= 16 && x.n > 0)) {
    for (const [mine, der] of [['auto', false], ['fastmp DER', true]]) {
      const js = Object.entries(r.ns).filter(([m]) => JS_PEERS.has(m) && m.endsWith('(DER)') === der);
      if (js.length === 0 || r.ns[mine] === undefined) continue;
      const [best, ns] = js.reduce((a, b) => (b[1] < a[1] ? b : a));
      const value = ns / r.ns[mine];
      if (value < 1) {
        rows.push({ target: `N ≤ 16: ${r.group} ${r.size} (${r.content}) not slower than ${best}`, measured: `${value.toFixed(2)}x`, met: 'no', note: `${mine} vs the best JS alternative` });
      }
    }
  }
  const small = results.filter((x) => x.n <= 16 && x.n > 0).length;
  rows.push({ target: `N ≤ 16: no operation slower than the best JS alternative (${small} cases)`, measured: `${rows.filter((x) => x.target.startsWith('N ≤ 16:') && x.met === 'no').length} slower`, met: rows.some((x) => x.target.startsWith('N ≤ 16:') && x.met === 'no') ? 'no' : 'yes', note: 'rows above name each miss' });
  add('unpack Float32Array at 1 M ≥ 20x @msgpack/msgpack', f32unpack(1 << 20), 'auto', '@msgpack/msgpack', 20);
  add('unpack Float32Array at 1 M ≥ 3x DataView decode loop', f32unpack(1 << 20), 'auto', 'DataView loop', 3);
  const bmp = (op) => results.find((x) => x.group === `${op} BMPString` && x.n === 65536);
  add("BMP decode at 64 K ≥ 3x TextDecoder('utf-16be', fatal)", bmp('decode'), 'auto', "TextDecoder('utf-16be')", 3);
  add('BMP encode at 64 K ≥ 3x charCodeAt loop', bmp('encode'), 'auto', 'charCodeAt loop', 3);
  add('BMP decode at 64 K ≥ 20x asn1js (DER both)', bmp('decode'), 'fastmp DER', 'asn1js (DER)', 20);
  add('BMP encode at 64 K ≥ 20x asn1js (DER both)', bmp('encode'), 'fastmp DER', 'asn1js (DER)', 20);
  return rows;
}

/** Methods that a JS developer has without fastmp (the "best JS alternative"). */
const JS_PEERS = new Set(['DataView loop', '@msgpack/msgpack', 'msgpackr', 'charCodeAt loop', 'Buffer utf16le + swap16',
  "TextDecoder('utf-16be')", 'Buffer swap16 + utf16le', 'fromCharCode loop', 'check loop + TextDecoder', 'asn1js (DER)', 'node-forge (DER)']);

function table(rows) {
  const keys = Object.keys(rows[0]);
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(keys), line(keys.map(() => '---')), ...rows.map((r) => line(keys.map((k) => String(r[k]).replaceAll('|', '\\|'))))].join('\n');
}

/** bench/RESULTS.md. */
export function markdown(results, meta) {
  const out = [];
  out.push('# fastmp-wasm benchmark results', '');
  out.push(`Produced by \`${meta.command}\` on ${meta.date} (${meta.mode} mode, ${meta.seconds.toFixed(0)} s). Rerun it to replace this file.`, '');
  out.push(table([
    { what: 'machine', value: `${meta.cpu}, ${meta.cores} cores (${meta.platform})` },
    { what: 'CPU SIMD flags', value: meta.flags },
    { what: 'Node / V8', value: `${meta.node} / ${meta.v8}` },
    { what: 'Emscripten', value: meta.emcc },
    { what: 'native compiler', value: `${meta.gcc}, ${meta.nativeFlags}` },
  ]), '');
  out.push('How to read: medians of tinybench (three rounds in rotated order, a full GC before each task),',
    'and for the native rows the best of 7 rounds of `clock_gettime`; ratios are baseline time / method time',
    '(above 1: faster than the baseline named in each table), all measured in this one run. `auto` is what',
    'users get (SIMD build, pure JS below the crossover); `zero-copy` is `packView()` of an `alloc()` array',
    '(unpack: an `alloc()` input); `memcpy` copies the output size natively: the physical limit. aarch64 under',
    'qemu is not a speed figure and is not measured.', '');
  out.push('## Targets', '', table(targets(results)), '');
  out.push('![throughput](chart.svg)', '');
  const groups = [...new Set(results.map((r) => r.group))];
  for (const group of groups) {
    const rows = results.filter((r) => r.group === group);
    const methods = [...new Set(rows.flatMap((r) => Object.keys(r.ns)))];
    out.push(`## ${group}`, '', `Baseline: ${rows[0].baseline}.`, '');
    out.push(table(rows.map((r) => {
      const row = { size: r.size, content: r.content, 'msgpack bytes': r.wireBytes };
      for (const m of methods) row[m] = r.ns[m] === undefined ? '–' : `${formatNs(r.ns[m])} (${ratio(r.ns[r.baseline], r.ns[m])})`;
      return row;
    })), '');
  }
  return out.join('\n');
}

// ---- the chart ---------------------------------------------------------------------

const PANELS = [
  ['pack Float32Array', 'random'], ['unpack Float32Array', 'random'], ['pack Int32Array', 'random'],
  ['unpack Int32Array', 'random'], ['encode BMPString', 'text'], ['decode BMPString', 'text'],
];
const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22',
  '#17becf', '#393b79', '#637939', '#843c39', '#7b4173'];

/** bench/chart.svg: one panel per headline operation; x: elements (log), y: MB/s of msgpack or content (log). */
export function svg(results) {
  const W = 460;
  const H = 330;
  const pad = { left: 56, right: 150, top: 28, bottom: 40 };
  const panels = PANELS.map(([group, content]) => results.filter((r) => r.group === group && r.content === content && r.n > 0))
    .filter((rows) => rows.length > 1);
  const methods = [...new Set(panels.flatMap((rows) => rows.flatMap((r) => Object.keys(r.ns))))];
  const color = (m) => COLORS[methods.indexOf(m) % COLORS.length];
  const cols = 2;
  const width = cols * W;
  const height = Math.ceil(panels.length / cols) * H;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="10">`,
    `<rect width="${width}" height="${height}" fill="white"/>`];
  panels.forEach((rows, k) => {
    const x0 = (k % cols) * W;
    const y0 = Math.floor(k / cols) * H;
    const points = rows.flatMap((r) => Object.entries(r.ns).map(([m, ns]) => ({ m, n: r.n, mbps: (r.wireBytes / ns) * 1000 })))
      .filter((p) => Number.isFinite(p.mbps) && p.mbps > 0);
    const lx = (n) => Math.log10(n);
    const [nMin, nMax] = [Math.min(...rows.map((r) => r.n)), Math.max(...rows.map((r) => r.n))];
    const ys = points.map((p) => Math.log10(p.mbps));
    const [yMin, yMax] = [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys))];
    const px = (n) => x0 + pad.left + ((lx(n) - lx(nMin)) / (lx(nMax) - lx(nMin) || 1)) * (W - pad.left - pad.right);
    const py = (mbps) => y0 + H - pad.bottom - ((Math.log10(mbps) - yMin) / (yMax - yMin || 1)) * (H - pad.top - pad.bottom);
    parts.push(`<text x="${x0 + pad.left}" y="${y0 + 16}" font-size="12" font-weight="bold">${rows[0].group} (${rows[0].content})</text>`);
    for (let e = yMin; e <= yMax; e++) {
      const y = py(10 ** e);
      parts.push(`<line x1="${x0 + pad.left}" x2="${x0 + W - pad.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`,
        `<text x="${x0 + pad.left - 4}" y="${y + 3}" text-anchor="end">${10 ** e >= 1000 ? `${10 ** (e - 3)} GB/s` : `${10 ** e} MB/s`}</text>`);
    }
    for (const r of rows) {
      parts.push(`<text x="${px(r.n)}" y="${y0 + H - pad.bottom + 14}" text-anchor="middle">${r.size}</text>`);
    }
    parts.push(`<text x="${x0 + (W - pad.right + pad.left) / 2}" y="${y0 + H - 8}" text-anchor="middle">elements (chars), log scale</text>`);
    const present = methods.filter((m) => points.some((p) => p.m === m));
    present.forEach((m, i) => {
      const line = points.filter((p) => p.m === m).sort((a, b) => a.n - b.n).map((p) => `${px(p.n).toFixed(1)},${py(p.mbps).toFixed(1)}`);
      parts.push(`<polyline fill="none" stroke="${color(m)}" stroke-width="1.6" points="${line.join(' ')}"/>`);
      parts.push(`<rect x="${x0 + W - pad.right + 8}" y="${y0 + pad.top + i * 14 - 7}" width="10" height="3" fill="${color(m)}"/>`,
        `<text x="${x0 + W - pad.right + 22}" y="${y0 + pad.top + i * 14 - 3}">${escape(m)}</text>`);
    });
  });
  parts.push('</svg>');
  return parts.join('\n');
}

const escape = (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll("'", '&apos;');
