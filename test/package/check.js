// check.js - what every consumer in the package test runs (Node ESM, Node
// CommonJS, a Vite page, its Worker, a plain page): fixed inputs through the
// installed package, results as hex. The test compares them with bytes
// written out by hand; the long inputs are compared here with an independent
// DataView / charCodeAt encoder, never with fastmp itself.

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** A Float32Array as msgpack, by a DataView loop (array16 header: 16 <= n <= 0xffff). */
function referenceF32(x) {
  const out = new Uint8Array(3 + 5 * x.length);
  const view = new DataView(out.buffer);
  out[0] = 0xdc;
  view.setUint16(1, x.length);
  for (let i = 0; i < x.length; i++) {
    out[3 + 5 * i] = 0xca;
    view.setFloat32(4 + 5 * i, x[i]);
  }
  return out;
}

/** A plane-0 string as BMPString content, by a charCodeAt loop. */
function referenceBMP(s) {
  const out = new Uint8Array(2 * s.length);
  for (let i = 0; i < s.length; i++) {
    out[2 * i] = s.charCodeAt(i) >> 8;
    out[2 * i + 1] = s.charCodeAt(i) & 0xff;
  }
  return out;
}

/** Runs the checks against `api` (the package's exports, initialised). */
export function check(api) {
  // Long enough for the wasm kernels on every backend (above every pure-JS crossover).
  const floats = Float32Array.from({ length: 4096 }, (_, i) => (i - 2048) / 3);
  const packed = api.pack(floats);
  const ints = new Int32Array([0, -1, 127, 128, -33, 65536, -2147483648]);
  const text = 'Zoë € ' + '日本'.repeat(600);
  let surrogate = 'no error';
  try {
    api.encodeBMP('ab\uD800');
  } catch (e) {
    surrogate = [e instanceof api.FastmpError, e.code, e.index];
  }
  return {
    backend: api.backend(),
    simd: api.simdSupported(),
    small: hex(api.pack(new Float32Array([1.5, -2, 3.25, 1e30]))),
    floatsHead: hex(packed.subarray(0, 13)),
    floats: same(packed, referenceF32(floats)),
    floatsBack: same(api.unpack(packed, Float32Array), floats),
    ints: hex(api.pack(ints)),
    intsBack: Array.from(api.unpack(api.pack(ints), Int32Array)).join(),
    bmp: hex(api.encodeBMP('Zoë €')),
    bmpLong: same(api.encodeBMP(text), referenceBMP(text)),
    bmpBack: api.decodeBMP(api.encodeBMP(text)) === text,
    der: hex(api.writeBMPString('Zoë')),
    surrogate,
  };
}
