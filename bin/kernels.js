// kernels.js - fastmp's wasm kernels alone, for the bench's kernel rows and
// its native parity check: the one file of bin/ that instantiates the .wasm
// files itself. The package's own loader (js/) owns the module layout, which
// changes; a new layout is mended here and nowhere else in bin/.
//
// Two layouts are known, tried in this order:
// - dist/fastmp-pack-<build>.wasm and dist/fastmp-unpack-<build>.wasm, each
//   importing its memory as env.memory and holding no allocator: both get
//   one memory made here, and buffers are placed from 16 MB up (above the
//   modules' static data and stacks), the memory grown as they need;
// - dist/fastmp-<build>.wasm, both kinds of kernel in one module that
//   exports its memory, malloc and free.
// The kernels (c/fastmp.h): fm_pack_<t>(in, n, out) -> bytes written, and
// fm_unpack_<t>(in, len, out, capacity, flags, result) -> fm_code, which fills
// the fm_result at `result` (RESULT below).
import { existsSync, readFileSync } from 'node:fs';

const DIST = new URL('../dist/', import.meta.url);
const LAYOUTS = [
  (build) => [`fastmp-pack-${build}.wasm`, `fastmp-unpack-${build}.wasm`],
  (build) => [`fastmp-${build}.wasm`],
];

/** Bytes per element and of the largest msgpack form of one, per element type (c/fastmp.h FM_ELEMENT_TYPES). */
export const TYPES = {
  f32: { size: 4, wire: 5 }, f64: { size: 8, wire: 9 },
  i8: { size: 1, wire: 2 }, u8: { size: 1, wire: 2 }, i16: { size: 2, wire: 3 }, u16: { size: 2, wire: 3 },
  i32: { size: 4, wire: 5 }, u32: { size: 4, wire: 5 }, i64: { size: 8, wire: 9 }, u64: { size: 8, wire: 9 },
  bool: { size: 1, wire: 1 },
};

/** fm_result on wasm32: byte offsets of its u32 fields (value: two, low first), and its size. */
export const RESULT = { code: 0, count: 4, index: 8, offset: 12, end: 16, tag: 20, valueLo: 24, valueHi: 28, size: 32 };

/** FM_INTEGRAL_FLOATS, the unpack flag that lets integer targets take integral floats. */
export const INTEGRAL_FLOATS = 1;

/** Room a pack of n elements of `wire` bytes may use: the array32 header, the elements, the SIMD packers' 16 bytes of slack. */
export const packBound = (n, wire) => 5 + n * wire + 16;

/** Bytes of the msgpack array header of n elements. */
export const headerSize = (n) => (n <= 15 ? 1 : n <= 0xffff ? 3 : 5);

const PAGE = 65536;
const HEAP_START = 16 << 20;

/** { minimum, maximum } pages of the memory a module imports as env.memory, read from its import section. */
function importedMemoryLimits(bytes) {
  let p = 8;
  const u32 = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[p++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  const name = () => {
    const n = u32();
    const s = Buffer.from(bytes.subarray(p, p + n)).toString('utf8');
    p += n;
    return s;
  };
  const limits = () => {
    const flags = bytes[p++];
    const minimum = u32();
    return { minimum, maximum: flags & 1 ? u32() : undefined };
  };
  while (p < bytes.length) {
    const id = bytes[p++];
    const size = u32();
    if (id !== 2) {
      p += size;
      continue;
    }
    for (let count = u32(); count > 0; count--) {
      const [module, field, kind] = [name(), name(), bytes[p++]];
      if (kind === 0) u32(); // a function: its type
      else if (kind === 1) (p++, limits()); // a table: its element type, limits
      else if (kind === 3) p += 2; // a global: type, mutability
      else if (kind === 2) {
        const memory = limits();
        if (module === 'env' && field === 'memory') return memory;
      } else throw new Error(`unknown import kind ${kind}`);
    }
    break;
  }
  throw new Error('no env.memory import found');
}

/**
 * The kernels of one build ('simd' or 'scalar') and a memory to call them
 * in. Resolves to { build, files, memory, alloc(bytes) -> address,
 * scoped(fn) (runs fn, then frees what it allocated), write(at, bytes),
 * bytes(at, length) (a fresh view: memory may grow), fn(name) (an export,
 * for timing it bare), pack(type, in, n, out), unpack(type, in, len, out,
 * capacity, flags, result), result(at), types }, or throws when neither
 * layout is in dist/.
 */
export async function loadKernels(build) {
  const files = LAYOUTS.map((layout) => layout(build)).find((names) => names.every((f) => existsSync(new URL(f, DIST))));
  if (!files) throw new Error(`no wasm kernels of the ${build} build in dist/ (looked for ${LAYOUTS.map((l) => l(build).join(' + ')).join(', then ')})`);
  const modules = files.map((file) => {
    const bytes = readFileSync(new URL(file, DIST));
    const module = new WebAssembly.Module(bytes);
    const imports = WebAssembly.Module.imports(module);
    const importsMemory = imports.some((i) => i.module === 'env' && i.name === 'memory' && i.kind === 'memory');
    return { file, module, imports, limits: importsMemory ? importedMemoryLimits(bytes) : null };
  });

  // One memory for every module: made here when they import it, else the one that exports it.
  const importing = modules.filter((m) => m.limits !== null);
  let memory = importing.length
    ? new WebAssembly.Memory({
      initial: Math.max(...importing.map((m) => m.limits.minimum)),
      maximum: Math.min(65536, ...importing.map((m) => m.limits.maximum ?? 65536)),
    })
    : null;
  const exports = {};
  for (const m of modules) {
    const env = {};
    for (const i of m.imports) {
      if (i.kind === 'memory') env[i.name] = memory;
      else if (i.kind === 'function') env[i.name] = () => {}; // e.g. emscripten_notify_memory_growth
      else throw new Error(`${m.file} imports ${i.module}.${i.name} (${i.kind}), which this bench does not provide`);
    }
    const instance = new WebAssembly.Instance(m.module, { env });
    instance.exports._initialize?.();
    if (instance.exports.fm_simd_enabled() !== (build === 'simd' ? 1 : 0)) throw new Error(`dist/${m.file} is not the ${build} build`);
    memory ??= instance.exports.memory;
    for (const [name, value] of Object.entries(instance.exports)) exports[name] ??= value;
  }

  // Buffers: malloc where a module has one, else placed from HEAP_START up, the memory grown to hold them.
  let top = HEAP_START;
  const taken = [];
  const alloc = exports.malloc && !importing.length
    ? (size) => {
      const at = exports.malloc(Math.max(1, size)) >>> 0;
      if (!at) throw new RangeError(`wasm malloc(${size}) failed`);
      taken.push(at);
      return at;
    }
    : (size) => {
      const at = (top + 15) & ~15;
      top = at + Math.max(1, size);
      if (top > memory.buffer.byteLength) memory.grow(Math.ceil((top - memory.buffer.byteLength) / PAGE));
      return at;
    };
  /** Runs fn(), then frees every buffer allocated during it; returns fn's result. */
  const scoped = (fn) => {
    const [mark, count] = [top, taken.length];
    try {
      return fn();
    } finally {
      top = mark;
      for (const at of taken.splice(count)) exports.free(at);
    }
  };
  const fn = (name) => {
    if (typeof exports[name] !== 'function') throw new Error(`the ${build} kernels have no ${name}`);
    return exports[name];
  };
  const u32 = (at) => new DataView(memory.buffer).getUint32(at, true);
  return {
    build,
    files: files.map((f) => `dist/${f}`),
    memory,
    alloc,
    scoped,
    fn,
    types: Object.keys(TYPES).filter((t) => exports[`fm_pack_${t}`] && exports[`fm_unpack_${t}`]),
    write: (at, bytes) => new Uint8Array(memory.buffer, at, bytes.length).set(bytes),
    bytes: (at, length) => new Uint8Array(memory.buffer, at, length),
    pack: (type, input, n, out) => fn(`fm_pack_${type}`)(input, n, out) >>> 0,
    unpack: (type, input, len, out, capacity, flags, result) => fn(`fm_unpack_${type}`)(input, len, out, capacity, flags, result) >>> 0,
    result: (at) => Object.fromEntries(Object.entries(RESULT).filter(([k]) => k !== 'size').map(([k, off]) => [k, u32(at + off)])),
  };
}

/**
 * Room in `k`'s memory for a pack of n elements of `wire` bytes, placed as
 * the package places it: the elements after the array header at a 16-byte
 * boundary, so that the SIMD packers' stores do not straddle cache lines
 * (c/harness/fm_ops.c places the native outputs alike). Returns the address.
 */
export function packOutput(k, n, wire) {
  const block = k.alloc(packBound(n, wire) + 32);
  return ((block + 15) & ~15) + (-headerSize(n) & 15);
}
