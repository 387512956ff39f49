// native.js - the kernels compiled natively on this machine, from the C
// sources that ship in the package, for the bench's native rows and its
// parity check: the parity harness (c/harness/fm_cli.c) and the speed harness
// (c/harness/fm_bench.c), each in a SIMD build (the wasm SIMD128 intrinsics
// through SIMDe, as the Makefile builds them) and a scalar one.
//
// The builds are cached under node_modules/.cache/fastmp-wasm/ (else the
// system's temporary directory), in a folder named by a hash of the
// compiler, the flags' inputs and the sources, so that a changed source or
// compiler builds afresh (and a build unused for a day is then removed);
// deleting the folder probes SIMDe and msgpack-c again. fm_bench.c times msgpack-c beside the kernels: where msgpack-c is
// not found it is built against bin/no-msgpack-c/msgpack.h, which stands in
// for msgpack-c's header, and the bench sends it only the kernels' requests.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const C = path.join(ROOT, 'c');
const STUB_DIR = path.join(ROOT, 'bin', 'no-msgpack-c');
/** Bump when the build rules below change, so that caches of the old rules are not used. */
const RULES = 1;

/** The msgpack-c requests of fm-bench (c/harness/fm_bench.c): its op numbers. */
export const MSGPACK_C_OPS = { 'pack f32': 100, 'unpack f32': 101, 'pack f64': 102, 'unpack f64': 103, 'pack i32': 104, 'unpack i32': 105 };

/** The first C compiler that answers --version: $CC, then cc, gcc, clang. { argv, version } or null. */
export function findCompiler() {
  const names = [...new Set([process.env.CC, 'cc', 'gcc', 'clang'].filter(Boolean))];
  for (const name of names) {
    const argv = name.trim().split(/\s+/);
    const r = spawnSync(argv[0], [...argv.slice(1), '--version'], { encoding: 'utf8' });
    if (r.status === 0) return { argv, version: r.stdout.split('\n')[0].trim() };
  }
  return null;
}

/** Where to keep the builds: the first of the usual cache folders that can be written. */
function cacheRoot() {
  const dirs = [];
  const parent = path.dirname(ROOT);
  if (path.basename(parent) === 'node_modules') dirs.push(path.join(parent, '.cache', 'fastmp-wasm'));
  if (fs.existsSync(path.join(ROOT, 'node_modules'))) dirs.push(path.join(ROOT, 'node_modules', '.cache', 'fastmp-wasm'));
  dirs.push(path.join(os.tmpdir(), `fastmp-wasm-cache-${os.userInfo().uid}`));
  for (const dir of dirs) {
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.accessSync(dir, fs.constants.W_OK);
      return dir;
    } catch {
      // the next one
    }
  }
  throw new Error(`no writable cache folder (tried ${dirs.join(', ')})`);
}

/** The sources the harnesses are built from, relative to the package root. */
function sources() {
  const list = (dir, re) => fs.readdirSync(path.join(C, dir)).filter((f) => re.test(f)).sort().map((f) => path.join('c', dir, f));
  return {
    kernels: list('', /^fm_.*\.c$/),
    headers: [...list('', /\.h$/), ...list('harness', /\.h$/)],
    ops: 'c/harness/fm_ops.c',
    cli: 'c/harness/fm_cli.c',
    bench: 'c/harness/fm_bench.c',
  };
}

/** Runs the compiler; resolves to { ok, stderr }. */
function run(cc, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(cc.argv[0], [...cc.argv.slice(1), ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => resolve({ ok: false, stderr: e.message }));
    child.on('close', (code) => resolve({ ok: code === 0, stderr }));
  });
}

/** Runs `jobs` (functions returning promises) `width` at a time; resolves to their results in order. */
async function parallel(jobs, width) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

/** Whether a tiny program with `code` compiles (and links, with `link`) under `flags`. */
async function probe(cc, dir, name, code, flags, link = null) {
  const src = path.join(dir, `${name}.c`);
  fs.writeFileSync(src, code);
  const args = link === null ? [...flags, '-fsyntax-only', src] : [...flags, src, '-o', path.join(dir, name), ...link];
  return (await run(cc, args, dir)).ok;
}

/** Flags for this CPU, SIMDe's include folder, msgpack-c's link flags: what the machine offers. */
async function probeMachine(cc, dir) {
  const notes = [];
  let arch = [];
  if (process.arch === 'x64') {
    // x86-64-v2 (SSSE3, SSE4.2) is what SIMDe needs for byte shuffles (the Makefile's X86_FLAGS).
    arch = (await probe(cc, dir, 'march', 'int main(void) { return 0; }\n', ['-march=x86-64-v2'])) ? ['-march=x86-64-v2'] : ['-msse4.2', '-mpopcnt'];
  }
  const prefixes = ['/opt/homebrew', '/usr/local'].filter((p) => fs.existsSync(path.join(p, 'include')));
  const includes = [[], ...prefixes.map((p) => [`-I${path.join(p, 'include')}`])];
  const libs = [[], ...prefixes.map((p) => [`-L${path.join(p, 'lib')}`])];
  let simde = null;
  for (const inc of includes) {
    if (await probe(cc, dir, 'simde', '#define SIMDE_ENABLE_NATIVE_ALIASES\n#include <simde/wasm/simd128.h>\nint main(void) { return 0; }\n', ['-std=c11', ...arch, ...inc])) {
      simde = inc;
      break;
    }
  }
  if (simde === null) notes.push('SIMDe was not found (<simde/wasm/simd128.h>; Debian: libsimde-dev, Homebrew: simde): no native SIMD build, the scalar one only');
  const msgpackMain = '#include <msgpack.h>\nint main(void) { msgpack_sbuffer b; msgpack_sbuffer_init(&b); msgpack_sbuffer_destroy(&b); return 0; }\n';
  let msgpackc = null;
  search: for (let i = 0; i < includes.length; i++) {
    for (const lib of ['-lmsgpackc', '-lmsgpack-c']) {
      if (await probe(cc, dir, 'msgpackc', msgpackMain, ['-std=c11', ...includes[i]], [...libs[i], lib])) {
        msgpackc = { include: includes[i], link: [...libs[i], lib] };
        break search;
      }
    }
  }
  if (msgpackc === null) notes.push('The native speed harness was built without msgpack-c, which was not found (Debian: libmsgpack-dev): no msgpack-c rows');
  return { arch, simde, msgpackc, notes };
}

/**
 * Builds (or finds cached) the native harnesses. Resolves to { compiler,
 * flags, dir, cached, seconds, msgpackc, notes, builds: { simd?, scalar?:
 * { cli, bench, ops } } } (ops: the harness's op numbers by name), or to {
 * skipped: reason } when there is no C compiler or nothing builds.
 */
export async function nativeHarnesses(log = () => {}) {
  const cc = findCompiler();
  if (!cc) return { skipped: 'No C compiler on PATH (cc, gcc or clang): no native rows, no parity check' };
  const src = sources();
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ RULES, cc: cc.argv, version: cc.version, arch: process.arch, platform: process.platform }));
  for (const file of [...src.kernels, ...src.headers, src.ops, src.cli, src.bench, 'bin/no-msgpack-c/msgpack.h']) {
    hash.update(file).update(fs.readFileSync(path.join(ROOT, file)));
  }
  const root = cacheRoot();
  const dir = path.join(root, `native-${hash.digest('hex').slice(0, 16)}`);
  const manifest = path.join(dir, 'build.json');
  if (fs.existsSync(manifest)) {
    const built = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    if (Object.values(built.builds).every((b) => fs.existsSync(b.cli) && fs.existsSync(b.bench))) {
      const now = new Date();
      fs.utimesSync(manifest, now, now); // in use: see the clean-up below
      return { ...built, compiler: compilerName(cc), cached: true, seconds: 0 };
    }
  }

  log(`building the native harnesses with ${compilerName(cc)} into ${dir} ...`);
  const started = performance.now();
  const work = fs.mkdtempSync(path.join(root, 'tmp-'));
  try {
    const machine = await probeMachine(cc, work);
    const base = ['-std=c11', '-O3', ...machine.arch];
    const builds = {};
    const notes = [...machine.notes];
    const wanted = machine.simde === null ? ['scalar'] : ['simd', 'scalar'];
    const width = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
    for (const build of wanted) {
      const flags = [...base, `-DFM_SIMD=${build === 'simd' ? 1 : 0}`, ...(build === 'simd' ? machine.simde : [])];
      const out = path.join(work, build);
      fs.mkdirSync(out);
      const objects = [...src.kernels, src.ops, src.cli, src.bench];
      const obj = (file) => path.join(out, `${path.basename(file, '.c')}.o`);
      const benchFlags = machine.msgpackc ? machine.msgpackc.include : [`-I${STUB_DIR}`];
      const compiled = await parallel(objects.map((file) => () => run(cc, [...flags, ...(file === src.bench ? benchFlags : []), '-c', path.join(ROOT, file), '-o', obj(file)], out)), width);
      const failed = compiled.findIndex((r) => !r.ok);
      if (failed >= 0) {
        notes.push(`The native ${build} build failed to compile ${objects[failed]}: ${firstLine(compiled[failed].stderr)}`);
        continue;
      }
      const kernels = src.kernels.map(obj);
      const cli = path.join(out, 'fm-cli');
      const bench = path.join(out, 'fm-bench');
      const linked = await parallel([
        () => run(cc, [...flags, ...kernels, obj(src.ops), obj(src.cli), '-o', cli, '-lm'], out),
        () => run(cc, [...flags, ...kernels, obj(src.ops), obj(src.bench), '-o', bench, ...(machine.msgpackc?.link ?? []), '-lm'], out),
      ], 2);
      if (!linked.every((r) => r.ok)) {
        notes.push(`The native ${build} build failed to link: ${firstLine(linked.find((r) => !r.ok).stderr)}`);
        continue;
      }
      const ops = spawnSync(cli, ['--ops'], { encoding: 'utf8' });
      if (ops.status !== 0) {
        notes.push(`The native ${build} build does not run on this machine (${ops.error?.message ?? ops.signal ?? `exit ${ops.status}`})`);
        continue;
      }
      for (const f of fs.readdirSync(out)) if (f.endsWith('.o')) fs.rmSync(path.join(out, f));
      const opNumbers = Object.fromEntries(ops.stdout.trim().split('\n').map((line) => line.split(' ')).map(([n, name]) => [name, Number(n)]));
      builds[build] = { cli: path.join(dir, build, 'fm-cli'), bench: path.join(dir, build, 'fm-bench'), ops: opNumbers };
    }
    if (!Object.keys(builds).length) return { skipped: `No native build: ${notes.join('; ')}` };
    const built = {
      flags: base,
      simdVia: machine.simde === null ? null : 'SIMDe',
      msgpackc: machine.msgpackc !== null,
      dir,
      notes,
      builds,
    };
    for (const f of fs.readdirSync(work)) if (!fs.statSync(path.join(work, f)).isDirectory()) fs.rmSync(path.join(work, f)); // the probes
    fs.writeFileSync(path.join(work, 'build.json'), `${JSON.stringify(built, null, 2)}\n`);
    // Into place in one step: a bench running beside this one sees no half-built folder.
    if (fs.existsSync(dir) && !fs.existsSync(manifest)) fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(work, dir);
    } catch {
      if (!fs.existsSync(manifest)) throw new Error(`could not move the native build into ${dir}`);
    }
    // Builds of other sources or compilers unused for a day, and what interrupted builds left, go.
    const dayAgo = Date.now() - 86400e3;
    for (const f of fs.readdirSync(root)) {
      const at = path.join(root, f);
      const used = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
      const stale = (f.startsWith('native-') && at !== dir && used(path.join(at, 'build.json')) < dayAgo) || (f.startsWith('tmp-') && used(at) < dayAgo);
      if (stale) fs.rmSync(at, { recursive: true, force: true });
    }
    return { ...built, compiler: compilerName(cc), cached: false, seconds: (performance.now() - started) / 1e3 };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The compiler as people know it: its --version line, after the command when that does not start with it. */
const compilerName = (cc) => (cc.version.startsWith(cc.argv[0]) ? cc.version : `${cc.argv.join(' ')}: ${cc.version}`);

const firstLine = (text) => text.split('\n').find((l) => /error/i.test(l))?.trim() ?? text.split('\n')[0].trim();

/** Writes requests in the harnesses' format: u8 op, u32 length (little-endian), the bytes. */
function writeRequests(file, requests) {
  const fd = fs.openSync(file, 'w');
  try {
    for (const { op, data } of requests) {
      const head = Buffer.alloc(5);
      head[0] = op;
      head.writeUInt32LE(data.byteLength, 1);
      fs.writeSync(fd, head);
      fs.writeSync(fd, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Runs a harness on requests in a temporary folder; returns its output file's bytes. */
function harness(exe, requests) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastmp-bench-'));
  try {
    writeRequests(path.join(dir, 'in'), requests);
    const r = spawnSync(exe, [path.join(dir, 'in'), path.join(dir, 'out')], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${exe} failed: ${r.stderr.trim() || r.error?.message || r.signal}`);
    return fs.readFileSync(path.join(dir, 'out'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * fm-cli on requests [{ op, data }]: each response as its bytes (u32 code,
 * count, index, offset, end, tag, value low, value high, length, then the
 * output: c/harness/fm_cli.c), for comparing byte for byte.
 */
export function runParityHarness(exe, requests) {
  const out = harness(exe, requests);
  const responses = [];
  for (let p = 0; p < out.length;) {
    const end = p + 36 + out.readUInt32LE(p + 32);
    responses.push(out.subarray(p, end));
    p = end;
  }
  if (responses.length !== requests.length) throw new Error(`${exe} answered ${responses.length} of ${requests.length} requests`);
  return responses;
}

/** fm-bench on requests [{ op, data }]: [{ ns, memcpyNs, bytes }], each the best of 7 rounds of at least 2 ms (c/harness/fm_bench.c). */
export function runSpeedHarness(exe, requests) {
  return harness(exe, requests).toString('utf8').trim().split('\n').map((line) => {
    const [ns, memcpyNs, bytes] = line.split(' ').map(Number);
    return { ns, memcpyNs, bytes };
  });
}
