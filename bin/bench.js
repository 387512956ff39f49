// bench.js - `fastmp-wasm bench`: what the package is for, timed on the
// user's machine in about a minute (`--quick`: about 10 s). Three tables:
// - typed arrays: pack() / unpack() of a Float32Array and an Int32Array at
//   16, 4096 and 1 M elements through the public API (wasm SIMD, wasm scalar,
//   pure JS, the default instance, zero copy), against the JS loop (a reused DataView scratch) and
//   the peers installed where the bench is run from;
// - the kernels alone (input and output already in memory): wasm, timed
//   here, against the same C compiled natively (bin/native.js), the fair
//   pair for "how close is wasm to native";
// - whole messages, encoded and decoded by shape, against the peers.
// Before timing, every contender's output is checked, and the native builds'
// outputs are compared with the wasm builds' byte for byte (parity).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { INTEGRAL_FLOATS, RESULT, TYPES, loadKernels, packOutput } from './kernels.js';
import { jsLoop, toArray } from './loops.js';
import { MSGPACK_C_OPS, nativeHarnesses, runParityHarness, runSpeedHarness } from './native.js';
import { comparison, proseRatio, renderTable, wrap } from './report.js';
import { bestNs, gc, median as medianOf, prepare, runRound, stats } from './timing.js';
import { SIZES, messages, random, sameValue, sizeLabel, typedInputs } from './workloads.js';

/** How long each part runs: rounds of every contender, each given `sliceMs` a round. */
const MODES = {
  full: { name: 'full run', rounds: 5, sliceMs: 40, warmupMs: 20, batchUs: 200, kernelRounds: 5, msgpackc: true, peersAt1M: true },
  quick: { name: 'quick run', rounds: 3, sliceMs: 7, warmupMs: 4, batchUs: 100, kernelRounds: 2, msgpackc: false, peersAt1M: false },
};

const OPS = ['pack', 'unpack'];
const TYPE_NAMES = { f32: 'Float32Array', i32: 'Int32Array' };
const LOOPS = { f32: jsLoop(Float32Array), i32: jsLoop(Int32Array) };

/**
 * The peers as installed where the bench runs from (the current directory):
 * { peers: { msgpack, msgpackr } (each { module, version } or null), notes }.
 */
function loadPeers() {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const load = (name) => {
    let file;
    try {
      file = require.resolve(name);
    } catch {
      return null;
    }
    // Its version: the package.json above the file it resolved to that bears its name.
    let version = '?';
    for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      if (pkg.name === name) {
        version = pkg.version;
        break;
      }
    }
    try {
      return { module: require(name), version };
    } catch (e) {
      return { error: `${name} ${version} is installed but did not load (${e.message.split('\n')[0]}): not timed` };
    }
  };
  const peers = { msgpack: load('@msgpack/msgpack'), msgpackr: load('msgpackr') };
  const notes = [];
  for (const [id, peer] of Object.entries(peers)) {
    if (peer?.error) {
      notes.push(peer.error);
      peers[id] = null;
    }
  }
  return { peers, notes };
}

/** A fresh copy of bytes (a Uint8Array over its own ArrayBuffer). */
const own = (bytes) => Uint8Array.prototype.slice.call(bytes);
const bytesOf = (x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
const equalBytes = (a, b) => a.length === b.length && Buffer.compare(bytesOf(a), bytesOf(b)) === 0;

/** Throws unless `ok`: a contender whose output is wrong is not timed. */
function check(ok, what) {
  if (!ok) throw Object.assign(new Error(`${what}: wrong output, so nothing was timed (please report this)`), { foreseen: true });
}

const PEERS = ['msgpack', 'msgpackr'];
const PEER_NAMES = { msgpack: '@msgpack/msgpack', msgpackr: 'msgpackr' };

/**
 * The tasks whose output `right(task, output)` accepts, each called once. A
 * wrong output of fastmp or of the loop stops the bench (a bug to report); a
 * peer's (another version than this bench knows?) drops its row, with a note.
 */
function checked(ctx, tasks, what, right) {
  return tasks.filter((t) => {
    if (!PEERS.includes(t.id)) {
      check(right(t, t.fn()), `${t.id} ${what}`);
      return true;
    }
    let ok = false;
    try {
      ok = right(t, t.fn());
    } catch {
      // a peer that throws on this input is not timed either
    }
    if (!ok) ctx.notes.push(`${PEER_NAMES[t.id]} was not timed on ${what}: its output was not the input's values`);
    return ok;
  });
}

// ---- the contenders ------------------------------------------------------------------

/** The rows of the typed-array and message tables, in order: { id, label, about }. */
function contenderRows(ctx) {
  const { peers, inst } = ctx;
  const rows = [
    { id: 'default', label: 'default', about: `createFastmp(): what users get (here the ${inst.default.backend()} build${inst.default.backend() === 'js' ? '' : ', pure JS below the sizes where wasm pays'})` },
    inst.simd && { id: 'simd', label: 'wasm SIMD', about: "createFastmp({ backend: 'simd', pureJs: 'never' }): the SIMD kernels at every size" },
    { id: 'scalar', label: 'wasm scalar', about: "createFastmp({ backend: 'scalar', pureJs: 'never' }): the scalar kernels at every size" },
    { id: 'js', label: 'pure JS', about: "createFastmp({ backend: 'js' }): fastmp's pure-JS path, no wasm" },
    inst.default.backend() !== 'js' && { id: 'zerocopy', label: 'zero copy', about: "the default instance on an alloc() array in wasm memory: pack = packView() (no copy in, the output a view), unpack = unpack() of an alloc(Uint8Array) (no copy in); typed arrays only" },
    { id: 'loop', label: 'JS loop', about: 'hand-written JS: the same msgpack bytes through a reused DataView scratch, a fresh array out (bin/loops.js); typed arrays only' },
    peers.msgpack && { id: 'msgpack', label: '@msgpack/msgpack', about: `${peers.msgpack.version}: a reused Encoder ({ forceFloat32: true } for floats) and Decoder; typed arrays through a copy loop and TypedArray.from, timed` },
    peers.msgpackr && { id: 'msgpackr', label: 'msgpackr', about: `${peers.msgpackr.version}: a reused Packr ({ useRecords: false }, useFloat32: ALWAYS for floats) and Unpackr ({ useRecords: false }); the same conversions, timed` },
  ];
  return rows.filter(Boolean);
}

/** The tasks of one bare typed-array case and op, each { id, fn } with its output checked. */
function typedTasks(ctx, c, op) {
  const { inst, peers } = ctx;
  const { x, Type, packed, type } = c;
  const tasks = [];
  const api = (id, f) => f && tasks.push(op === 'pack' ? { id, fn: () => f.pack(x) } : { id, fn: () => f.unpack(packed, Type) });
  api('default', inst.default);
  api('simd', inst.simd);
  api('scalar', inst.scalar);
  api('js', inst.js);
  if (inst.default.backend() !== 'js') {
    const f = inst.default;
    if (op === 'pack') {
      let a = f.alloc(Type, x.length);
      a.set(x);
      // Memory growth (a larger call elsewhere) detaches the view: refresh() gives it back, values kept.
      tasks.push({ id: 'zerocopy', fn: () => (a.length !== x.length && (a = f.refresh(a)), f.packView(a)) });
    } else {
      let b = f.alloc(Uint8Array, packed.length);
      b.set(packed);
      tasks.push({ id: 'zerocopy', fn: () => (b.length !== packed.length && (b = f.refresh(b)), f.unpack(b, Type)) });
    }
  }
  const loop = LOOPS[type][op];
  tasks.push({ id: 'loop', fn: op === 'pack' ? () => loop(x) : () => loop(packed) });
  const withPeers = c.n < 1 << 20 || ctx.mode.peersAt1M;
  if (peers.msgpack && withPeers) {
    const { Encoder, Decoder } = peers.msgpack.module;
    const encoder = new Encoder(type === 'f32' ? { forceFloat32: true } : {});
    const decoder = new Decoder();
    tasks.push({ id: 'msgpack', fn: op === 'pack' ? () => encoder.encode(toArray(x)) : () => Type.from(decoder.decode(packed)) });
  }
  if (peers.msgpackr && withPeers) {
    const { Packr, Unpackr, FLOAT32_OPTIONS } = peers.msgpackr.module;
    const packr = new Packr(type === 'f32' ? { useRecords: false, useFloat32: FLOAT32_OPTIONS?.ALWAYS ?? 1 } : { useRecords: false });
    const unpackr = new Unpackr({ useRecords: false });
    tasks.push({ id: 'msgpackr', fn: op === 'pack' ? () => packr.pack(toArray(x)) : () => Type.from(unpackr.unpack(packed)) });
  }
  // Each output checked: fastmp's and the loop's bytes are the reference's; a peer's decode to the same values.
  return checked(ctx, tasks, `${op} ${c.name}(${c.n})`, (t, out) => {
    if (op === 'unpack') return out instanceof Type && equalBytes(out, x);
    if (PEERS.includes(t.id)) return equalBytes(ctx.ref.unpack(own(out), Type), x);
    return equalBytes(out, packed);
  });
}

/** The tasks of one message workload and op. */
function messageTasks(ctx, w, op) {
  const { inst, peers } = ctx;
  const tasks = [];
  for (const id of ['default', 'simd', 'scalar', 'js']) {
    const f = inst[id];
    if (!f) continue;
    if (op === 'encode') {
      const encoder = new f.Encoder();
      tasks.push({ id, fn: () => encoder.encode(w.value) });
    } else {
      const decoder = new f.Decoder({ shape: w.shape });
      tasks.push({ id, fn: () => decoder.decode(w.bytes) });
    }
  }
  const withPeers = w.id !== 'big' || ctx.mode.peersAt1M;
  if (peers.msgpack && withPeers) {
    const { Encoder, Decoder } = peers.msgpack.module;
    const encoder = new Encoder({ forceFloat32: true });
    const decoder = new Decoder();
    tasks.push({ id: 'msgpack', fn: op === 'encode' ? () => encoder.encode(w.toPlain(w.value)) : () => w.fromPlain(decoder.decode(w.bytes)) });
  }
  if (peers.msgpackr && withPeers) {
    const { Packr, Unpackr, FLOAT32_OPTIONS } = peers.msgpackr.module;
    const packr = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS?.ALWAYS ?? 1 });
    const unpackr = new Unpackr({ useRecords: false });
    tasks.push({ id: 'msgpackr', fn: op === 'encode' ? () => packr.pack(w.toPlain(w.value)) : () => w.fromPlain(unpackr.unpack(w.bytes)) });
  }
  const decoder = new ctx.ref.Decoder({ shape: w.shape });
  return checked(ctx, tasks, `${op} ${w.label}`, (t, out) => sameValue(op === 'encode' ? decoder.decode(own(out)) : out, w.value));
}

/** The kernel cases: per typed case and op, the wasm calls of each build and the native requests. */
function kernelCases(ctx, typed) {
  const cases = [];
  if (!Object.keys(ctx.kernels).length && !ctx.native) return cases;
  for (const c of typed) {
    const { size, wire } = TYPES[c.type];
    for (const op of OPS) {
      const kc = { c, op, wasm: {}, figures: {} };
      for (const [build, k] of Object.entries(ctx.kernels)) {
        const input = op === 'pack' ? bytesOf(c.x) : c.packed;
        const at = k.alloc(input.length);
        k.write(at, input);
        if (op === 'pack') {
          const out = packOutput(k, c.n, wire);
          const kernel = k.fn(`fm_pack_${c.type}`);
          const fn = () => kernel(at, c.n, out);
          check(equalBytes(k.bytes(out, fn() >>> 0).slice(), c.packed), `wasm ${build} kernel pack ${c.name}(${c.n})`);
          kc.wasm[build] = fn;
        } else {
          const out = k.alloc(c.n * size);
          const result = k.alloc(RESULT.size);
          const kernel = k.fn(`fm_unpack_${c.type}`);
          const fn = () => kernel(at, input.length, out, c.n, 0, result);
          check(fn() === 0 && equalBytes(k.bytes(out, c.n * size).slice(), bytesOf(c.x)), `wasm ${build} kernel unpack ${c.name}(${c.n})`);
          kc.wasm[build] = fn;
        }
      }
      const data = op === 'pack' ? bytesOf(c.x) : c.packed;
      kc.native = {};
      for (const [build, b] of Object.entries(ctx.native?.builds ?? {})) {
        kc.native[build] = { op: b.ops[`${op.toUpperCase()}_${c.type}`], data };
      }
      if (ctx.native?.msgpackc && ctx.mode.msgpackc) kc.msgpackc = { op: MSGPACK_C_OPS[`${op} ${c.type}`], data };
      cases.push(kc);
    }
  }
  return cases;
}

/** One round of the kernel rows: the wasm kernels here and the native harnesses, alternating which goes first. */
function kernelRound(ctx, cases, round) {
  const push = (kc, id, ns) => (kc.figures[id] ??= []).push(ns);
  const wasm = () => {
    gc();
    for (const kc of cases) for (const [build, fn] of Object.entries(kc.wasm)) push(kc, `wasm-${build}`, bestNs(fn));
  };
  const native = () => {
    for (const [build, b] of Object.entries(ctx.native?.builds ?? {})) {
      const requests = cases.map((kc) => kc.native[build]);
      const peer = build === Object.keys(ctx.native.builds)[0] ? cases.filter((kc) => kc.msgpackc) : [];
      const answers = runSpeedHarness(b.bench, [...requests, ...peer.map((kc) => kc.msgpackc)]);
      cases.forEach((kc, i) => push(kc, `native-${build}`, answers[i].ns));
      peer.forEach((kc, i) => push(kc, 'msgpackc', answers[cases.length + i].ns));
    }
  };
  if (round % 2) (wasm(), native());
  else (native(), wasm());
}

// ---- parity: the native builds against the wasm builds, byte for byte ----------------

/** The parity requests: every element type packed and unpacked, valid, converting and faulty inputs. */
function parityRequests(ops, types, typed, reference) {
  const r = random(45);
  const randomBytes = (n) => Uint8Array.from({ length: n }, () => (r() * 256) | 0);
  const requests = [];
  const packedOf = {};
  for (const t of types) {
    packedOf[t] = {};
    for (const n of [0, 1, 15, 16, 17, 31, 33, 100, 1000, 65537]) {
      const data = randomBytes(n * TYPES[t].size);
      requests.push({ name: `pack ${t} × ${n}`, op: ops[`PACK_${t}`], type: t, kind: 'pack', data });
      packedOf[t][n] = reference(t, data);
    }
  }
  for (const c of typed) requests.push({ name: `pack ${c.type} × ${c.n}`, op: ops[`PACK_${c.type}`], type: c.type, kind: 'pack', data: bytesOf(c.x) });
  for (const t of types) {
    for (const [prefix, flags] of [['UNPACK', 0], ['UNPACK_INTEGRAL', INTEGRAL_FLOATS]]) {
      const op = ops[`${prefix}_${t}`];
      if (op === undefined) continue;
      const add = (name, data) => requests.push({ name: `${prefix.toLowerCase()} ${t} of ${name}`, op, type: t, kind: 'unpack', flags, data });
      for (const u of types) for (const n of [17, 100]) add(`${u} × ${n}`, packedOf[u][n]); // every type's arrays: conversions and range / type errors
      for (const n of [0, 1, 1000, 65537]) add(`${t} × ${n}`, packedOf[t][n]);
      add(`${t} × 100, cut short`, packedOf[t][100].subarray(0, packedOf[t][100].length - 1));
      add('random bytes', randomBytes(64));
      for (const c of typed) if (c.type === t) add(`${t} × ${c.n}`, c.packed);
    }
  }
  return requests;
}

/** A harness response (c/harness/fm_cli.c) of the wasm kernels: u32 code, count, index, offset, end, tag, value lo / hi, length, output. */
function wasmResponse(k, req) {
  const { size, wire } = TYPES[req.type];
  const head = (fields, out) => {
    const b = Buffer.alloc(36 + out.length);
    fields.forEach((v, i) => b.writeUInt32LE(v >>> 0, 4 * i));
    b.writeUInt32LE(out.length, 32);
    b.set(out, 36);
    return b;
  };
  const at = k.alloc(req.data.length);
  k.write(at, req.data);
  if (req.kind === 'pack') {
    const n = req.data.length / size;
    const out = packOutput(k, n, wire);
    const written = k.pack(req.type, at, n, out);
    return head([0, n, 0, 0, written, 0, 0, 0], k.bytes(out, written));
  }
  const capacity = req.data.length; // as fm_cli: room for as many elements as there are bytes
  const out = k.alloc(capacity * size);
  const result = k.alloc(RESULT.size);
  k.write(result, new Uint8Array(RESULT.size));
  const code = k.unpack(req.type, at, req.data.length, out, capacity, req.flags, result);
  const r = k.result(result);
  return head([r.code, r.count, r.index, r.offset, r.end, r.tag, r.valueLo, r.valueHi], code === 0 ? k.bytes(out, r.count * size) : new Uint8Array(0));
}

/** Runs the parity check, every build's answers against the first's: { ok, requests, compared, mismatch? }. */
async function parity(ctx, typed) {
  const ops = Object.values(ctx.native.builds)[0].ops;
  // Fresh kernel instances: the parity inputs' memory is dropped with them.
  const wasm = Object.fromEntries(await Promise.all(Object.keys(ctx.kernels).map(async (b) => [b, await loadKernels(b)])));
  const first = Object.values(wasm)[0];
  const reference = (t, data) => first.scoped(() => {
    const at = first.alloc(data.length);
    first.write(at, data);
    const n = data.length / TYPES[t].size;
    const out = packOutput(first, n, TYPES[t].wire);
    return first.bytes(out, first.pack(t, at, n, out)).slice();
  });
  const types = first.types.filter((t) => ops[`PACK_${t}`] !== undefined && ops[`UNPACK_${t}`] !== undefined);
  const requests = parityRequests(ops, types, typed, reference);
  const answers = {};
  for (const [b, k] of Object.entries(wasm)) answers[`wasm ${b}`] = requests.map((req) => k.scoped(() => wasmResponse(k, req)));
  for (const [b, { cli }] of Object.entries(ctx.native.builds)) answers[`native ${b}`] = runParityHarness(cli, requests);
  const [refName, ...others] = Object.keys(answers);
  for (const name of others) {
    const i = requests.findIndex((_, j) => !answers[name][j].equals(answers[refName][j]));
    if (i >= 0) return { ok: false, requests: requests.length, compared: Object.keys(answers), mismatch: `${name} and ${refName} differ on ${requests[i].name}` };
  }
  return { ok: true, requests: requests.length, compared: Object.keys(answers) };
}

// ---- the run ---------------------------------------------------------------------------

/** What the run compares: fastmp's instances, the peers, the bare kernels and the native builds; { ..., notes }. */
async function setup(mode, progress) {
  const notes = [];
  let fastmp;
  try {
    fastmp = await import('fastmp-wasm');
  } catch (e) {
    throw Object.assign(new Error(`the package did not load: ${e.message}`, { cause: e }), { foreseen: true });
  }
  const inst = { default: await fastmp.createFastmp() };
  if (fastmp.simdSupported()) inst.simd = await fastmp.createFastmp({ backend: 'simd', pureJs: 'never' });
  else notes.push('This engine has no wasm SIMD: no SIMD rows');
  inst.scalar = await fastmp.createFastmp({ backend: 'scalar', pureJs: 'never' });
  inst.js = await fastmp.createFastmp({ backend: 'js' });

  const { peers, notes: peerNotes } = loadPeers();
  notes.push(...peerNotes);
  const missing = PEERS.filter((id) => !peers[id]).map((id) => PEER_NAMES[id]);

  const kernels = {};
  for (const build of inst.simd ? ['simd', 'scalar'] : ['scalar']) {
    try {
      kernels[build] = await loadKernels(build);
    } catch (e) {
      notes.push(`No wasm ${build} kernel rows: ${e.message}`);
    }
  }
  let native;
  try {
    native = await nativeHarnesses(progress);
  } catch (e) {
    native = { skipped: `The native build failed: ${e.message}` };
  }
  notes.push(...(native.skipped ? [native.skipped] : native.notes));
  return { mode, inst, ref: inst.simd ?? inst.scalar, peers, missing, kernels, native: native.skipped ? null : native, notes };
}

/** The inputs, each checked contender's task, and the kernel cases. */
function tasksOf(ctx) {
  const typed = typedInputs();
  for (const c of typed) c.packed = own(ctx.ref.pack(c.x));
  const workloads = messages();
  for (const w of workloads) w.bytes = own(ctx.ref.encode(w.value));
  const groups = [];
  for (const c of typed) for (const op of OPS) groups.push({ table: 'typed', section: `${op} ${c.type}`, column: String(c.n), tasks: typedTasks(ctx, c, op) });
  for (const w of workloads) for (const op of ['encode', 'decode']) groups.push({ table: 'messages', section: op, column: w.id, tasks: messageTasks(ctx, w, op) });
  return { typed, workloads, groups, kcases: kernelCases(ctx, typed) };
}

/** Times everything: the API rounds and the kernel rounds interleaved, so that a machine that slows down slows both. */
function measure(ctx, groups, kcases, progress) {
  const { mode } = ctx;
  const kernelRounds = kcases.length ? mode.kernelRounds : 0;
  const rounds = Math.max(mode.rounds, kernelRounds);
  progress(`timing, ${rounds} rounds ...`);
  prepare(groups, mode);
  for (let round = 0; round < rounds; round++) {
    if (round < mode.rounds) runRound(groups, round, mode);
    if (round < kernelRounds) kernelRound(ctx, kcases, round);
    progress(`round ${round + 1} of ${rounds} done`);
  }
}

/** The ratio columns' rows: the typed-array table's is the loop; the message table's the first peer installed, else pure JS. */
const messageBaseline = (peers) => PEERS.find((id) => peers[id]) ?? 'js';

/** The typed-array and message tables: { table: { title, first, columns, ratio, sections } }. */
function apiTables(ctx, groups, workloads, rows) {
  const { mode } = ctx;
  const how = `Times per call: the median of ${mode.rounds} rounds ± half their range.`;
  const baseline = messageBaseline(ctx.peers);
  const baselineLabel = rows.find((r) => r.id === baseline).label;
  const tables = {
    typed: {
      id: 'typed',
      title: `Typed arrays: pack() and unpack() through the public API, each returning a fresh array. ${how}`,
      first: { label: 'contender', key: 'who is timed: see "contenders" above' },
      columns: SIZES.map((n, i) => ({
        id: String(n),
        label: `N = ${sizeLabel(n)}`,
        key: `time per call on ${n.toLocaleString('en-US')} elements${i ? '' : ' (Float32Array: floats with fractions; Int32Array: ints small and large)'}`,
      })),
      ratio: { label: '× loop', key: 'the JS loop\'s time ÷ this time: above 1 is faster than the loop' },
      base: 'loop',
      sections: [],
    },
    messages: {
      id: 'messages',
      title: `Whole messages: encode(), and decode() by shape into typed arrays. ${how}`,
      first: { label: 'contender', key: 'who is timed: see "contenders" above' },
      columns: workloads.map((w) => ({ id: w.id, label: w.label, key: `${w.about}: ${w.bytes.length.toLocaleString('en-US')} bytes` })),
      ratio: { label: `× ${baseline === 'js' ? 'pure JS' : 'peer'}`, key: `${baselineLabel}'s time ÷ this time: above 1 is faster than ${baselineLabel}` },
      base: baseline,
      sections: [],
    },
  };
  const cell = (group, id) => {
    const t = group.tasks.find((task) => task.id === id);
    return t && { stats: stats(t.figures) };
  };
  for (const table of Object.values(tables)) {
    const mine = groups.filter((g) => g.table === table.id);
    for (const section of [...new Set(mine.map((g) => g.section))]) {
      const inSection = mine.filter((g) => g.section === section);
      const [op, type] = section.split(' ');
      table.sections.push({
        label: type ? `${op} ${TYPE_NAMES[type]}` : op,
        rows: rows.filter((r) => inSection.some((g) => g.tasks.some((t) => t.id === r.id))).map((r) => {
          const cells = {};
          for (const g of inSection) {
            const c = cell(g, r.id);
            const base = cell(g, table.base);
            if (c && base) c.ratio = base.stats.median / c.stats.median;
            cells[g.column] = c;
          }
          return { id: r.id, label: r.label, cells };
        }),
      });
    }
  }
  return tables;
}

/** The kernel table: wasm here against native, each ratio against the native build of its kind. */
function kernelTable(ctx, kcases) {
  const { mode, native } = ctx;
  if (!kcases.length) return null;
  const nativeBase = native?.builds.simd ? 'native-simd' : 'native-scalar';
  const kernelRows = [
    ['wasm-simd', 'wasm SIMD kernel', 'native-simd'], ['native-simd', 'native SIMD', null],
    ['wasm-scalar', 'wasm scalar kernel', 'native-scalar'], ['native-scalar', 'native scalar', null],
    ['msgpackc', 'msgpack-c (native)', nativeBase],
  ];
  const msgpackc = kcases.some((kc) => kc.figures.msgpackc);
  const table = {
    id: 'kernels',
    title: native
      ? `Kernels alone: input and output already in memory, no JS boundary; wasm timed here, native: the same C built on this machine. Times per call: the median of ${mode.kernelRounds} rounds (native and wasm alternating), each the best of 7 runs of at least 2 ms (c/harness/fm_bench.c's rule, on both sides), ± half their range.`
      : `Kernels alone: input and output already in memory, no JS boundary (wasm only: no native build). Times per call: the median of ${mode.kernelRounds} rounds, each the best of 7 runs of at least 2 ms, ± half their range.`,
    first: { label: 'kernel', key: `wasm: dist/'s modules, bare (bin/kernels.js), one JS-to-wasm call each${native ? '; native: see "native" above' : ''}` },
    columns: SIZES.map((n, i) => ({ id: String(n), label: `N = ${sizeLabel(n)}`, key: `time per call on ${n.toLocaleString('en-US')} elements${i ? '' : ' (the same inputs as above)'}` })),
    ratio: native ? { label: '× native', key: `the same build's native time ÷ this time${msgpackc ? ' (msgpack-c: native SIMD\'s)' : ''}: 1 is native speed` } : null,
    sections: [],
  };
  for (const op of OPS) {
    for (const type of ['f32', 'i32']) {
      const inSection = kcases.filter((kc) => kc.op === op && kc.c.type === type);
      const rows = [];
      for (const [id, label, base] of kernelRows) {
        if (!inSection.some((kc) => kc.figures[id])) continue;
        const cells = {};
        for (const kc of inSection) {
          if (!kc.figures[id]) continue;
          const c = { stats: stats(kc.figures[id]) };
          if (base && kc.figures[base]) c.ratio = stats(kc.figures[base]).median / c.stats.median;
          cells[String(kc.c.n)] = c;
        }
        rows.push({ id, label, cells });
      }
      table.sections.push({ label: `${op} ${TYPE_NAMES[type]}`, rows });
    }
  }
  return table;
}

/** The report: the machine, the contenders, the tables, the parity check, the verdict. */
function reportLines(ctx, { version, rows, tables, parityResult, sentences, elapsed }) {
  const { mode, native, peers, missing } = ctx;
  const cpus = os.cpus();
  const lines = [`fastmp-wasm ${version} bench: Node ${process.versions.node} (V8 ${process.versions.v8}), ${process.platform} ${process.arch}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}; ${mode.name}`];
  lines.push('contenders:');
  const legend = rows.map((r) => [r.label, r.about]);
  if (native) {
    legend.push(['native', `${native.compiler}, ${native.flags.join(' ')}${native.builds.simd ? ', SIMD through SIMDe' : ''}${native.msgpackc ? ', msgpack-c found' : ''}; ${native.cached ? 'cached' : `built in ${native.seconds.toFixed(1)} s`} in ${native.dir}`]);
  }
  const width = Math.max(...legend.map(([l]) => l.length));
  for (const [label, about] of legend) wrap(about, 96 - width).forEach((text, i) => lines.push(`  ${(i ? '' : label).padEnd(width)}  ${text}`));
  if (!mode.peersAt1M && PEERS.some((id) => peers[id])) lines.push('  (--quick: the peers are not timed at 1 M elements, where a call of theirs takes 0.05 to 0.3 s)');
  if (missing.length) lines.push(`  not installed here (${process.cwd()}), so not timed: ${missing.join(', ')}`);
  for (const table of [tables.typed, tables.kernels, tables.messages].filter(Boolean)) lines.push('', ...renderTable(table));
  lines.push('');
  if (parityResult) {
    const builds = parityResult.compared.join(', ').replace(/simd/g, 'SIMD');
    lines.push(...wrap(parityResult.ok
      ? `parity: ok (${builds}: the same bytes for all ${parityResult.requests} requests, every element type, valid and faulty inputs)`
      : `parity: FAILED (${builds}): ${parityResult.mismatch}`));
  } else lines.push(`parity: not checked (${native ? 'no wasm kernels' : 'no native build'})`);
  lines.push('', ...wrap(`Verdict: ${sentences.join(' ')}`), '');
  lines.push(`${elapsed.toFixed(0)} s; figures from one run on a machine that may be busy: compare ratios within a table, not single times.`);
  return lines;
}

/** The report as JSON: the run's facts and every figure, one object per table cell. */
function jsonReport(ctx, { version, tables, parityResult, sentences, elapsed }) {
  const { mode, inst, peers, native, notes } = ctx;
  const cpus = os.cpus();
  const figures = [];
  for (const table of Object.values(tables).filter(Boolean)) {
    for (const s of table.sections) {
      for (const r of s.rows) {
        for (const [column, c] of Object.entries(r.cells)) {
          if (!c) continue;
          figures.push({
            table: table.id, section: s.label, contender: r.label, column: table.columns.find((col) => col.id === column).label,
            medianNs: c.stats.median, minNs: c.stats.min, maxNs: c.stats.max, roundsNs: c.stats.rounds,
            ...(c.ratio !== undefined ? { ratio: c.ratio, ratioOf: table.ratio.label } : {}),
          });
        }
      }
    }
  }
  return {
    tool: 'fastmp-wasm bench', version, date: new Date().toISOString(), mode: mode === MODES.quick ? 'quick' : 'full', seconds: elapsed,
    machine: { node: process.versions.node, v8: process.versions.v8, platform: process.platform, arch: process.arch, cpus: cpus.length, cpu: cpus[0]?.model.trim() },
    rounds: { api: mode.rounds, kernels: mode.kernelRounds },
    backends: { default: inst.default.backend() },
    peers: { '@msgpack/msgpack': peers.msgpack?.version ?? null, msgpackr: peers.msgpackr?.version ?? null },
    native: native && { compiler: native.compiler, flags: native.flags, builds: Object.keys(native.builds), msgpackc: native.msgpackc, dir: native.dir },
    parity: parityResult,
    notes,
    figures,
    verdict: sentences,
  };
}

/**
 * Runs the bench and prints its report to `out` (progress to `err`);
 * --json: also writes the figures to `jsonFile`. Resolves to the exit code:
 * 1 when the parity check failed, else 0.
 */
export async function bench({ quick = false, jsonFile = null, out = process.stdout, err = process.stderr } = {}) {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1e3;
  const progress = (line) => err.write(`fastmp-wasm bench: ${seconds().toFixed(1)} s: ${line}\n`);
  const version = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

  const ctx = await setup(quick ? MODES.quick : MODES.full, progress);
  progress('checking every contender\'s output ...');
  const { typed, workloads, groups, kcases } = tasksOf(ctx);
  let parityResult = null;
  if (ctx.native && Object.keys(ctx.kernels).length) {
    progress('parity: the native builds against the wasm builds ...');
    parityResult = await parity(ctx, typed);
  }
  measure(ctx, groups, kcases, progress);

  const rows = contenderRows(ctx);
  const tables = { ...apiTables(ctx, groups, workloads, rows), kernels: kernelTable(ctx, kcases) };
  const sentences = verdict(ctx, { tables, rows, parityResult });
  const facts = { version, rows, tables, parityResult, sentences, elapsed: seconds() };
  for (const line of reportLines(ctx, facts)) out.write(`${line}\n`);
  if (jsonFile) {
    try {
      fs.writeFileSync(jsonFile, `${JSON.stringify(jsonReport(ctx, facts), null, 2)}\n`);
    } catch (e) {
      throw Object.assign(new Error(`could not write the figures to ${jsonFile}: ${e.message}`), { foreseen: true });
    }
  }
  return parityResult && !parityResult.ok ? 1 : 0;
}

/** The verdict: sentences computed from the tables. */
function verdict(ctx, { tables, rows, parityResult }) {
  const { peers, missing, inst, native, notes } = ctx;
  const find = (table, section, rowId, col) => table?.sections.find((s) => s.label === section)?.rows.find((r) => r.id === rowId)?.cells[col];
  const ratio = (table, section, rowId, col) => find(table, section, rowId, col)?.ratio;
  const median = (table, section, rowId, col) => find(table, section, rowId, col)?.stats.median;
  const short = (r) => comparison(r).replace(/ (than|as)$/, '');
  const said = [];
  const { typed, kernels, messages } = tables;
  const fast = inst.simd ? 'simd' : 'scalar';
  const fastLabel = rows.find((r) => r.id === fast).label;
  const mid = String(4096);
  const big = String(1 << 20);

  // Bare typed arrays against the loop.
  const pf = ratio(typed, 'pack Float32Array', fast, mid);
  const uf = ratio(typed, 'unpack Float32Array', fast, mid);
  const pfBig = ratio(typed, 'pack Float32Array', fast, big);
  const ufBig = ratio(typed, 'unpack Float32Array', fast, big);
  const pi = ratio(typed, 'pack Int32Array', fast, mid);
  const ui = ratio(typed, 'unpack Int32Array', fast, mid);
  said.push(`On this machine ${fastLabel} packs 4096 floats ${comparison(pf)} the JS loop and unpacks them ${short(uf)} (1 M floats: ${short(pfBig)} and ${short(ufBig)}); for 4096 mixed ints it packs ${short(pi)} and unpacks ${short(ui)}.`);
  const small = ratio(typed, 'pack Float32Array', 'default', '16');
  const smallUnpack = ratio(typed, 'unpack Float32Array', 'default', '16');
  if (small !== undefined) said.push(`At 16 elements, where a call costs more than its work, the default instance packs ${comparison(small)} the loop and unpacks ${short(smallUnpack)}.`);
  const zc = ratio(typed, 'pack Float32Array', 'zerocopy', mid);
  if (zc !== undefined) said.push(`Zero copy (alloc() and packView()) packs 4096 floats ${comparison(zc)} the loop.`);
  const peerTyped = ['msgpack', 'msgpackr'].filter((id) => peers[id]).map((id) => {
    const r = median(typed, 'pack Float32Array', id, mid) / median(typed, 'pack Float32Array', fast, mid);
    const u = median(typed, 'unpack Float32Array', id, mid) / median(typed, 'unpack Float32Array', fast, mid);
    return `${comparison(r)} ${rows.find((row) => row.id === id).label} (unpacks ${short(u)})`; // (comparison(): 'than' or 'as')
  });
  if (peerTyped.length) said.push(`Against the peers writing the same standard arrays, ${fastLabel} packs 4096 floats ${peerTyped.join(' and ')}.`);

  // The kernels: wasm against native.
  if (kernels && native) {
    const parts = ['simd', 'scalar'].map((build) => {
      const rs = kernels.sections.flatMap((s) => [mid, big].map((col) => s.rows.find((r) => r.id === `wasm-${build}`)?.cells[col]?.ratio)).filter((r) => r !== undefined);
      if (!rs.length) return null;
      return `${proseRatio(medianOf(rs))}× native speed for ${build === 'simd' ? 'SIMD' : 'scalar'} (${proseRatio(Math.min(...rs))}–${proseRatio(Math.max(...rs))}×)`;
    }).filter(Boolean);
    if (parts.length) said.push(`The wasm kernels alone run at ${parts.join(' and at ')}: the median of pack and unpack of both types at 4096 and 1 M elements.`);
  }

  // Whole messages against the peers.
  const peerIds = ['msgpack', 'msgpackr'].filter((id) => peers[id]);
  if (peerIds.length && messages) {
    const range = (op, id) => {
      const own = messages.sections.find((s) => s.label === op).rows.find((r) => r.id === 'default');
      const rs = Object.keys(own.cells).map((col) => median(messages, op, id, col) / own.cells[col].stats.median).filter(Number.isFinite);
      return `${proseRatio(Math.min(...rs))}–${proseRatio(Math.max(...rs))}×`;
    };
    const [a, b] = peerIds.map((id) => ({ label: rows.find((r) => r.id === id).label, encode: range('encode', id), decode: range('decode', id) }));
    said.push(`Whole messages: the default instance encodes the messages above at ${a.encode} ${a.label}'s speed and decodes them at ${a.decode}${b ? `; against ${b.label}: ${b.encode} and ${b.decode}` : ''}.`);
  } else {
    said.push('Whole messages are compared with fastmp\'s pure JS only: no peer is installed here.');
  }
  if (parityResult) said.push(parityResult.ok ? 'The native builds write the wasm builds\' bytes (parity: ok).' : `Parity FAILED: ${parityResult.mismatch}.`);
  if (missing.length) said.push(`${missing.join(' and ')} ${missing.length > 1 ? 'were' : 'was'} not installed here (npm install ${missing.join(' ')} to add ${missing.length > 1 ? 'their' : 'its'} rows).`);
  for (const note of notes) said.push(`${note}.`);
  return said;
}
