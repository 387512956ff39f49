// report.js - turns the benchmark's results (both memory regimes, as
// results.json holds them) into bench/RESULTS.md (targets, flags, then a table
// per operation), an SVG chart (throughput vs size, log axes, one line per
// method) and the README's tables. The targets and flags are made here, from
// the cases, not stored.
import { formatNs } from './lib.js';
import { REGIMES } from './messages.js';
import { JS_LOOP, PEER_ROWS } from './peers.js';

export { formatNs };

const ratio = (base, ns) => (base && ns ? `${(base / ns).toFixed(2)}x` : '–');

/** The spread of a median: its lowest and highest round median, relative to it ('−2/+5%'), or '' without rounds. */
function spreadOf(r, method) {
  const [min, max] = r.spread?.[method] ?? [];
  const ns = r.ns[method];
  if (min === undefined || !ns) return '';
  return ` −${Math.round((100 * (ns - min)) / ns)}/+${Math.round((100 * (max - ns)) / ns)}%`;
}

/** A table cell: time, spread over the rounds, and the baseline's time ÷ this time. */
const cell = (r, m) => (r.ns[m] === undefined ? '–' : `${formatNs(r.ns[m])}${spreadOf(r, m)} (${ratio(r.ns[r.baseline], r.ns[m])})`);

/** The library rows that include the user's conversion (bench/peers.js PEER_ROWS). */
const converting = (m) => / incl\. (Array|Type)\.from$/.test(m);
/** Methods that a JS developer has without fastmp and that do the whole job (the "best JS alternative"). */
const JS_PEERS = new Set([JS_LOOP, 'DataView loop', 'charCodeAt loop', 'Buffer utf16le + swap16', "TextDecoder('utf-16be')",
  'Buffer swap16 + utf16le', 'fromCharCode loop', 'check loop + TextDecoder', 'asn1js (DER)', 'node-forge (DER)']);
const isJsPeer = (m) => JS_PEERS.has(m) || converting(m);
/** The fastest JS alternative of a result: [name, ns], DER peers only when `der`. */
function bestJs(r, der = false) {
  const js = Object.entries(r.ns).filter(([m]) => isJsPeer(m) && m.endsWith('(DER)') === der);
  return js.length ? js.reduce((a, b) => (b[1] < a[1] ? b : a)) : [undefined, undefined];
}

const isLibrary = (m) => m.startsWith('@msgpack/msgpack') || m.startsWith('msgpackr');
/** A library row's name (bench/peers.js libraryPeers()), by op and conversion. */
const lib = (name, op, conversion) => `${name}${conversion === 'converted' ? ' ' : ', '}${PEER_ROWS[op][conversion]}`;

/** '16 inputs' when result r has the kernel rows over distinct inputs (bench/suite.js), else undefined. */
const distinctInputs = (r) => Object.keys(r.ns).find((m) => /^kernel simd, \d+ inputs$/.test(m))?.slice('kernel simd, '.length);

/**
 * The targets (issue 5, issue 13 item 6) in one regime's results: rows of
 * { target, value (peer time ÷ fastmp time), goal, note }.
 */
function targetRows(results) {
  const find = (group, n, content) => results.find((r) => r.group === group && r.n === n && r.content === content);
  const rows = [];
  const add = (target, r, mine, peer, goal, note = '') => {
    const value = r && r.ns[mine] && r.ns[peer] ? r.ns[peer] / r.ns[mine] : undefined;
    rows.push({ target, value, goal, note });
  };
  const f32 = (op, n) => find(`${op} Float32Array`, n, 'random');
  const M = 1 << 20;
  const best4096 = f32('pack', 4096) && bestJs(f32('pack', 4096))[0];
  add('pack Float32Array at 4096, copying API ≥ 3x the best JS alternative', f32('pack', 4096), 'auto', best4096, 3, best4096 ?? '');
  add('pack Float32Array at 1 M, copying API ≥ 2x the JS loop', f32('pack', M), 'auto', JS_LOOP, 2);
  for (const n of [4096, M]) {
    for (const conversion of ['converted', 'plain']) {
      const peer = lib('@msgpack/msgpack', 'pack', conversion);
      add(`pack Float32Array at ${n === M ? '1 M' : n} ≥ 40x ${peer}`, f32('pack', n), 'auto', peer, 40);
    }
  }
  add('zero-copy pack Float32Array at 1 M ≥ 6x the JS loop', f32('pack', M), 'zero-copy simd', JS_LOOP, 6);
  add('zero-copy pack Float32Array at 1 M ≥ 0.9x memcpy of the same output (TypedArray#set into a preallocated array)',
    f32('pack', M), 'zero-copy simd', 'memcpy', 0.9);
  add('pack kernel at 1 M ≥ 0.5x native memcpy of the output size', f32('pack', M), 'kernel simd', 'native memcpy', 0.5);
  for (const [type, goal] of [['Float32Array', 4], ['Float64Array', 4], ['Int16Array', 2], ['Int32Array', 2], ['BigInt64Array', 2], ['boolean', 10]]) {
    for (const r of results.filter((x) => x.group === `pack ${type}` && x.n === 4096 && x.content !== 'fixed')) {
      const of = `pack ${type} at 4096 (${r.content})`;
      add(`wasm-simd ÷ wasm-scalar, ${of} ≥ ${goal}x (copying API)`, r, 'wasm-simd', 'wasm-scalar', goal);
      add(`wasm-simd ÷ wasm-scalar, ${of} ≥ ${goal}x (zero-copy API)`, r, 'zero-copy simd', 'zero-copy scalar', goal);
      add(`wasm-simd ÷ wasm-scalar, ${of} ≥ ${goal}x (kernels)`, r, 'kernel simd', 'kernel scalar', goal);
      const inputs = distinctInputs(r);
      if (inputs) {
        add(`wasm-simd ÷ wasm-scalar, ${of} ≥ ${goal}x (kernels, ${inputs} in turn)`, r, `kernel simd, ${inputs}`, `kernel scalar, ${inputs}`, goal,
          'distinct inputs of the distribution: a repeated input lets the branch predictor learn the scalar kernel');
      }
    }
  }
  // Issue 13 item 3: the boolean kernels both ways. Item 2 asks the int unpack
  // kernels to stay as fast as they were: no goal of their own, shown.
  for (const r of results.filter((x) => x.group === 'unpack boolean' && x.n === 4096 && x.content !== 'fixed')) {
    add(`wasm-simd ÷ wasm-scalar, unpack boolean at 4096 (${r.content}) ≥ 10x (kernels)`, r, 'kernel simd', 'kernel scalar', 10);
  }
  for (const type of ['Int16Array', 'Int32Array', 'BigInt64Array']) {
    for (const r of results.filter((x) => x.group === `unpack ${type}` && x.n === 4096 && x.content !== 'fixed')) {
      add(`wasm-simd ÷ wasm-scalar, unpack ${type} at 4096 (${r.content}), kernels (shown, no goal)`, r, 'kernel simd', 'kernel scalar', undefined);
      const inputs = distinctInputs(r);
      if (inputs) {
        add(`wasm-simd ÷ wasm-scalar, unpack ${type} at 4096 (${r.content}), kernels, ${inputs} in turn (shown, no goal)`, r, `kernel simd, ${inputs}`, `kernel scalar, ${inputs}`, undefined);
      }
    }
  }
  for (const group of ['pack Float32Array', 'unpack Float32Array', 'pack Int32Array', 'unpack Int32Array', 'encode BMPString', 'decode BMPString']) {
    for (const n of [4096, 65536, 4 << 20]) {
      const r = results.find((x) => x.group === group && x.n === n && ['random', 'uniform', 'text'].includes(x.content));
      const mine = r?.ns['kernel simd'] ? 'kernel simd' : 'wasm-simd';
      if (r) add(`wasm-simd within 1.5x of native SIMD: ${group} at ${n} (native time ÷ ${mine} time ≥ 0.67)`, r, mine, 'native simd', 1 / 1.5);
    }
  }
  // Item 6: at N = 1, 4, 16 the copying API (auto) against the JS loop, per operation.
  for (const op of ['pack', 'unpack']) {
    for (const [type, content] of [['Float32Array', 'random'], ['Float64Array', 'random'], ['Int32Array', 'uniform']]) {
      const values = [1, 4, 16].map((n) => find(`${op} ${type}`, n, content)).filter(Boolean).map((r) => r.ns[JS_LOOP] / r.ns.auto);
      rows.push({
        target: `N = 1 / 4 / 16: ${op} ${type}, copying API ≥ 1x the JS loop`, value: values.length ? Math.min(...values) : undefined, goal: 1,
        note: values.length ? `the lowest of ${values.map((v) => `${v.toFixed(2)}x`).join(' / ')}` : '',
      });
    }
  }
  // At N <= 16: fastmp as users get it (auto) against the best JS alternative.
  // Content against content, DER against DER: the DER peers (asn1js,
  // node-forge) also write or parse a tag and a length.
  const small = results.filter((x) => x.n <= 16 && x.n > 0);
  let misses = 0;
  for (const r of small) {
    for (const [mine, der] of [['auto', false], ['fastmp DER', true]]) {
      const [best, ns] = bestJs(r, der);
      if (best === undefined || r.ns[mine] === undefined || ns / r.ns[mine] >= 1) continue;
      misses++;
      rows.push({ target: `N ≤ 16: ${r.group} ${r.size} (${r.content}) not slower than ${best}`, value: ns / r.ns[mine], goal: 1, note: `${mine} vs the best JS alternative` });
    }
  }
  rows.push({ target: `N ≤ 16: no operation slower than the best JS alternative (${small.length} cases)`, goal: 1, count: misses, note: 'rows above name each miss' });
  add('unpack Float32Array at 1 M ≥ 20x @msgpack/msgpack incl. Type.from', f32('unpack', M), 'auto', lib('@msgpack/msgpack', 'unpack', 'converted'), 20);
  add('unpack Float32Array at 1 M, copying API ≥ 8x the JS loop', f32('unpack', M), 'auto', JS_LOOP, 8);
  add('unpack Float32Array at 1 M, copying API ≥ 8x the DataView loop (a DataView over the input per call)', f32('unpack', M), 'auto', 'DataView loop', 8);
  const bmp = (op, n = 65536, content = 'text') => results.find((x) => x.group === `${op} BMPString` && x.n === n && x.content === content);
  add("BMP decode at 64 K ≥ 3x TextDecoder('utf-16be', fatal)", bmp('decode'), 'auto', "TextDecoder('utf-16be')", 3);
  add('BMP encode at 64 K ≥ 3x charCodeAt loop', bmp('encode'), 'auto', 'charCodeAt loop', 3);
  add('BMP decode at 64 K ≥ 20x asn1js (DER both)', bmp('decode'), 'fastmp DER', 'asn1js (DER)', 20);
  add('BMP encode at 64 K ≥ 20x asn1js (DER both)', bmp('encode'), 'fastmp DER', 'asn1js (DER)', 20);
  // Issue 13 item 7.
  add("BMP decode at 16 chars ≥ 1x TextDecoder('utf-16be', fatal)", bmp('decode', 16), 'auto', "TextDecoder('utf-16be')", 1);
  add("BMP decode of ASCII-only text at 64 K ≥ 3x TextDecoder('utf-16be', fatal)", bmp('decode', 65536, 'ascii'), 'auto', "TextDecoder('utf-16be')", 3);
  for (const kind of ['BMPString', 'IA5String', 'VisibleString', 'PrintableString', 'NumericString']) {
    for (const n of [1024, 65536]) {
      for (const op of ['encode', 'decode']) {
        const r = results.find((x) => x.group === `${op} ${kind}` && x.n === n && x.content === 'text');
        add(`${kind} ${op} at ${n === 1024 ? '1 K' : '64 K'} ≥ 10x asn1js (DER both)`, r, 'fastmp DER', 'asn1js (DER)', 10);
      }
    }
  }
  return rows;
}

const REGIME_LABEL = { kept: 'kept memory', plain: 'plain process' };

/**
 * The targets of both regimes: one row per target, the kept-memory figure
 * deciding whether it is met (the plain process's shown beside it).
 */
export function targets(regimes) {
  const [decides, other] = regimes.kept ? ['kept', 'plain'] : ['plain', 'kept'];
  const others = new Map((regimes[other] ? targetRows(regimes[other].results) : []).map((r) => [r.target, r]));
  const shown = (r) => {
    if (r === undefined) return '–';
    if (r.count !== undefined) return `${r.count} slower`;
    return r.value === undefined ? 'not measured' : `${r.value.toFixed(2)}x`;
  };
  const met = (r) => {
    if (r.count !== undefined) return r.count ? 'no' : 'yes';
    if (r.goal === undefined) return 'info';
    return r.value === undefined ? '–' : r.value >= r.goal ? 'yes' : 'no';
  };
  return targetRows(regimes[decides].results).map((r) => ({
    target: r.target, [REGIME_LABEL[decides]]: shown(r), [REGIME_LABEL[other]]: shown(others.get(r.target)), met: met(r), note: r.note,
  }));
}

// ---- flags: rows of one code path that disagree ------------------------------------

/** How far apart two rows of one code path may be before they are flagged: the slower ÷ the faster. */
export const FLAG_RATIO = 1.3;
/** Below this (ns per call) a figure is too close to the timer's granularity for a FLAG_RATIO comparison. */
const FLAG_FROM_NS = 1000;
/** Pack paths that allocate nothing per call (the output stays in wasm memory, or is preallocated). */
const NO_ALLOCATION = ['zero-copy simd', 'zero-copy scalar', 'kernel simd', 'kernel scalar', 'memcpy'];

/**
 * Rows of one code path whose times disagree by more than FLAG_RATIO. One code
 * path means, precisely:
 * - 'auto = wasm-simd': `auto` and `wasm-simd` in the same case (regime, op,
 *   type, size, content) from 4096 elements on, where auto takes the SIMD wasm
 *   path for every operation (every JS_BELOW threshold of js/crossovers.js and
 *   js/strings.js is at most 128): the same calls on two instances;
 * - 'content-blind float': one method on Float32Array / Float64Array, same
 *   regime, op and size, 'fixed' vs 'random' content: a float takes the same
 *   bytes and the same code whatever its value (0xca / 0xcb, 4 / 8 bytes).
 *   Not the libraries: they write an integral value (the fixed 7) as an int;
 * - 'regime-blind': pack by a path that allocates nothing per call
 *   (zero-copy and kernel simd / scalar: the output stays in wasm memory; memcpy: a
 *   preallocated output), same case in the two regimes: glibc's memory policy
 *   cannot touch it.
 * Only where both take at least FLAG_FROM_NS. Returns [{ regime, rule, what, ratio }].
 */
export function flags(regimes) {
  const out = [];
  const flag = (regime, rule, a, b, what) => {
    if (!a || !b || Math.min(a, b) < FLAG_FROM_NS) return;
    const q = Math.max(a, b) / Math.min(a, b);
    if (q > FLAG_RATIO) out.push({ regime, rule, what: `${what}: ${formatNs(a)} vs ${formatNs(b)} (${q.toFixed(2)}x)`, ratio: q });
  };
  const name = (r) => `${r.group} ${r.size} (${r.content})`;
  const twinOf = (results, r, content = r.content) => results.find((x) => x.group === r.group && x.n === r.n && x.content === content);
  for (const [regime, { results }] of Object.entries(regimes)) {
    for (const r of results.filter((x) => x.n >= 4096)) flag(regime, 'auto = wasm-simd', r.ns.auto, r.ns['wasm-simd'], `${name(r)}, auto vs wasm-simd`);
    for (const r of results.filter((x) => x.content === 'fixed' && /Float(32|64)Array$/.test(x.group))) {
      const twin = twinOf(results, r, 'random');
      for (const m of Object.keys(r.ns).filter((x) => !isLibrary(x))) flag(regime, 'content-blind float', r.ns[m], twin?.ns[m], `${r.group} ${r.size}, ${m}, fixed vs random`);
    }
  }
  if (regimes.kept && regimes.plain) {
    for (const r of regimes.kept.results.filter((x) => x.op === 'pack')) {
      const twin = twinOf(regimes.plain.results, r);
      for (const m of NO_ALLOCATION) flag('both', 'regime-blind', r.ns[m], twin?.ns[m], `${name(r)}, ${m}, kept vs plain`);
    }
  }
  return out;
}

// ---- RESULTS.md ------------------------------------------------------------------------

/** The page-fault probe, one line (bench/lib.js pageFaultProbe). */
export const probeLine = (p) => `first write to a fresh page ${formatNs(p.firstWrite)}, a rewrite ${formatNs(p.rewrite)}; `
  + `churn of 20 KB buffers ${formatNs(p.churn)} per page`;

function table(rows) {
  const keys = Object.keys(rows[0]);
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(keys), line(keys.map(() => '---')), ...rows.map((r) => line(keys.map((k) => String(r[k]).replaceAll('|', '\\|'))))].join('\n');
}

const HOW_TO_READ = `How to read: each memory regime ran in a node process of its own. Every method of a case ran in
each of five rounds (order rotated by one per round, a full GC before each method; calls on up to 64
elements timed in batches of 32, up to 4096 in batches of 4); a time is the median of the round medians, and \`−a/+b%\` how far the
lowest and the highest round median lie from it. Native rows: best of 7 rounds of \`clock_gettime\`.
Ratios are baseline time ÷ method time (above 1: faster than the baseline). The typed-array tables'
baseline is the \`JS loop\`: a reused scratch written through a DataView made once, returned as
\`slice()\`, with fastmp's argument checks (bench/peers.js); \`DataView loop\` is the 12-line loop with a
fresh output and a DataView per call. \`auto\` is what users get (SIMD build, pure JS below the
crossover); \`zero-copy\` is \`packView()\` of an \`alloc()\` array (unpack: an \`alloc()\` input); \`kernel\`
is the kernel alone, called on the bare module with its input and output already in wasm memory; \`memcpy\`
copies the packed output's bytes into a preallocated array of the same size (\`TypedArray#set\`),
\`native memcpy\` the same in C. Library rows use one reused \`Encoder\`/\`Decoder\` (@msgpack/msgpack) or
\`Packr\`/\`Unpackr\` (msgpackr), with the user's conversion timed (\`incl. copy loop\` / \`incl.
Type.from\`) or not. Every string result is flattened in the timed region, fastmp's too. The targets
are read from the kept-memory run: in a plain process on this VM a call that allocates a large
output faults its pages in again (the page cost above).`;

/** bench/RESULTS.md: both regimes, the targets from the kept-memory one, the flags, a table per operation. */
export function markdown(regimes, meta, found) {
  const names = Object.keys(regimes);
  const out = [];
  out.push('# fastmp-wasm benchmark results', '');
  out.push(`Produced by \`${meta.command}\` on ${meta.date} (${meta.mode} mode, ${meta.seconds.toFixed(0)} s). Rerun it to replace this file.`, '');
  out.push('On every engine (Node 20/22/24, Bun, Chromium, Firefox ESR: wasm SIMD vs scalar vs pure JS, and the pure-JS crossovers): '
    + '[RESULTS-engines.md](RESULTS-engines.md), from `npm run bench -- --engines`.', '');
  out.push(table([
    { what: 'machine', value: `${meta.cpu}, ${meta.cores} cores (${meta.platform})` },
    { what: 'CPU SIMD flags', value: meta.flags },
    { what: 'Node / V8', value: `${meta.node} / ${meta.v8}` },
    { what: 'Emscripten', value: meta.emcc },
    { what: 'native compiler', value: `${meta.gcc}, ${meta.nativeFlags}` },
    ...names.map((r) => ({
      what: `regime: ${REGIME_LABEL[r]}`,
      value: `${REGIMES[r].title}; ${regimes[r].seconds.toFixed(0)} s, load average ${regimes[r].loadavg.map((x) => x.toFixed(2)).join(' ')} at its end`,
    })),
    ...names.map((r) => ({ what: `page cost, ${REGIME_LABEL[r]}`, value: probeLine(regimes[r].probe) })),
  ]), '');
  out.push(HOW_TO_READ, '');
  out.push('## Targets', '', table(targets(regimes)), '');
  out.push('## Flags: rows of one code path that disagree', '',
    `Two rows of one code path more than ${FLAG_RATIO}x apart (bench/report.js flags(): \`auto\` and \`wasm-simd\` from 4096`,
    'elements on; one method on floats, fixed vs random content, libraries aside; a pack path that allocates nothing, kept vs plain).',
    'Figures under 1 µs are not compared. A flagged figure is not to be trusted as it stands: rerun that case (`--only`, `--sizes`).', '');
  out.push(found.length ? table(found.map(({ regime, rule, what }) => ({ regime, rule, what }))) : 'None.', '');
  out.push('![throughput](chart.svg)', '');
  const all = names.flatMap((r) => regimes[r].results.map((x) => ({ ...x, regime: r })));
  const order = (a, b) => a.n - b.n || a.content.localeCompare(b.content) || a.regime.localeCompare(b.regime);
  for (const group of [...new Set(all.map((r) => r.group))]) {
    const rows = all.filter((r) => r.group === group).sort(order);
    const methods = [...new Set(rows.flatMap((r) => Object.keys(r.ns)))];
    out.push(`## ${group}`, '', `Baseline: ${rows[0].baseline}.`, '');
    out.push(table(rows.map((r) => {
      const row = { size: r.size, content: r.content, memory: REGIME_LABEL[r.regime], 'msgpack bytes': r.wireBytes };
      for (const m of methods) row[m] = cell(r, m);
      return row;
    })), '');
  }
  return out.join('\n');
}

// ---- the chart ---------------------------------------------------------------------

const PANELS = [
  ['pack Float32Array', 'random'], ['unpack Float32Array', 'random'], ['pack Int32Array', 'uniform'],
  ['unpack Int32Array', 'uniform'], ['encode BMPString', 'text'], ['decode BMPString', 'text'],
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

// ---- the README's figures ------------------------------------------------------------
// README.md quotes two tables of the committed run, between markers; a full
// `npm run bench` writing into bench/ rewrites them (run.js), and
// test/readme.test.js checks that they are what this code makes of
// bench/results.json: no figure in the README is typed by hand.

/** The README's Float32Array columns: [header, method of op]. The libraries' rows are those that include the user's conversion. */
const README_TYPED_COLUMNS = [
  ['auto', () => 'auto'], ['wasm-simd', () => 'wasm-simd'], ['wasm-scalar', () => 'wasm-scalar'], ['pure-js', () => 'pure-js'],
  ['zero-copy simd', () => 'zero-copy simd'], ['kernel simd', () => 'kernel simd'], [JS_LOOP, () => JS_LOOP],
  ['DataView loop', () => 'DataView loop'], ['@msgpack/msgpack', (op) => lib('@msgpack/msgpack', op, 'converted')],
  ['msgpackr', (op) => lib('msgpackr', op, 'converted')], ['native simd', () => 'native simd'],
];
const README_SIZES = [[1, '1'], [16, '16'], [4096, '4096'], [1 << 20, '1 M']];

/** The BMPString columns: [header, op, peer, fastmp method set against it]. */
const README_STRING_COLUMNS = [
  ['encode vs charCodeAt loop', 'encode', 'charCodeAt loop', 'auto'],
  ['vs Buffer `utf16le` + `swap16`', 'encode', 'Buffer utf16le + swap16', 'auto'],
  ['vs asn1js', 'encode', 'asn1js (DER)', 'fastmp DER'],
  ["decode vs `TextDecoder('utf-16be')`", 'decode', "TextDecoder('utf-16be')", 'auto'],
  ['vs `fromCharCode` loop', 'decode', 'fromCharCode loop', 'auto'],
  ['vs Buffer `swap16` + `utf16le`', 'decode', 'Buffer swap16 + utf16le', 'auto'],
  ['vs asn1js', 'decode', 'asn1js (DER)', 'fastmp DER'],
];

const mdTable = (header, rows) => [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

/**
 * The README's tables from a results.json ({ meta, regimes }): `typed`, the
 * Float32Array table (time, and the JS loop's time ÷ it), and `strings`, the
 * BMPString one (peer time ÷ fastmp time), both from the kept-memory run.
 */
export function readmeTables({ meta, regimes }) {
  const { results } = regimes.kept ?? regimes.plain;
  const run = `\`npm run bench\`, ${Math.round(meta.seconds)} s, Node ${meta.node.slice(1).split('.').slice(0, 2).join('.')}, ${regimes.kept ? 'freed memory kept' : 'a plain process'}`;
  const typedRows = README_SIZES.flatMap(([n, label]) => ['pack', 'unpack'].map((op) => {
    const r = results.find((x) => x.group === `${op} Float32Array` && x.n === n && x.content === 'random');
    return [label, op, ...README_TYPED_COLUMNS.map(([, method]) => {
      const m = method(op);
      return !r?.ns[m] ? '–' : m === r.baseline ? formatNs(r.ns[m]) : `${formatNs(r.ns[m])} (${ratio(r.ns[r.baseline], r.ns[m])})`;
    })];
  }));
  const strings = results.filter((x) => x.group === 'encode BMPString');
  const stringRows = strings.map((e) => [`${e.size}${e.content === 'ascii' ? ' (ASCII)' : ''}`, ...README_STRING_COLUMNS.map(([, op, peer, mine]) => {
    const r = results.find((x) => x.group === `${op} BMPString` && x.size === e.size && x.content === e.content);
    return ratio(r?.ns[peer], r?.ns[mine]);
  })]);
  return {
    typed: `From the committed run (${run}). Time per call, and in brackets the \`JS loop\`'s time ÷ this time:\nabove 1 is faster than the loop.\n\n${
      mdTable(['N', 'operation', ...README_TYPED_COLUMNS.map(([h]) => h)], typedRows)}`,
    strings: `From the committed run (${run}). Peer time ÷ fastmp time, above 1 when fastmp is faster:\n\n${
      mdTable(['chars', ...README_STRING_COLUMNS.map(([h]) => h)], stringRows)}`,
  };
}

/** The markers around each README table, by name: `<!-- bench:typed:start -->` ... `<!-- bench:typed:end -->`. */
export const readmeMarkers = (name) => [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`];

/** README text with each table of readmeTables() between its markers. */
export function withReadmeTables(readme, tables) {
  let text = readme;
  for (const [name, table] of Object.entries(tables)) {
    const [start, end] = readmeMarkers(name);
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`README.md has no ${start} ... ${end}`);
    text = `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`;
  }
  return text;
}
