// baselines.js - what a JS developer writes without fastmp, for the browser
// benchmark: DataView loops for msgpack, a charCodeAt loop and TextDecoder for
// BMPString. Each handles exactly what its case needs, nothing more.

function header(out, view, n) {
  if (n <= 15) { out[0] = 0x90 | n; return 1; }
  if (n <= 0xffff) { out[0] = 0xdc; view.setUint16(1, n); return 3; }
  out[0] = 0xdd; view.setUint32(1, n); return 5;
}

function readHeader(bytes, view) {
  const tag = bytes[0];
  if (tag === 0xdc) return [view.getUint16(1), 3];
  if (tag === 0xdd) return [view.getUint32(1), 5];
  return [tag & 0x0f, 1];
}

/** Float32Array -> msgpack array of float32. */
export function packF32(x) {
  const out = new Uint8Array(5 + 5 * x.length);
  const view = new DataView(out.buffer);
  let p = header(out, view, x.length);
  for (let i = 0; i < x.length; i++, p += 5) {
    out[p] = 0xca;
    view.setFloat32(p + 1, x[i]);
  }
  return out.subarray(0, p);
}

/** msgpack array of float32 -> Float32Array. */
export function unpackF32(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [n, start] = readHeader(bytes, view);
  const out = new Float32Array(n);
  for (let i = 0, p = start; i < n; i++, p += 5) {
    if (bytes[p] !== 0xca) throw new Error('not a float32');
    out[i] = view.getFloat32(p + 1);
  }
  return out;
}

/** Int32Array -> msgpack array, each int in its smallest form. */
export function packI32(x) {
  const out = new Uint8Array(5 + 5 * x.length);
  const view = new DataView(out.buffer);
  let p = header(out, view, x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (v >= 0) {
      if (v < 128) out[p++] = v;
      else if (v < 256) { out[p] = 0xcc; out[p + 1] = v; p += 2; }
      else if (v < 65536) { out[p] = 0xcd; view.setUint16(p + 1, v); p += 3; }
      else { out[p] = 0xce; view.setUint32(p + 1, v); p += 5; }
    } else if (v >= -32) out[p++] = v & 0xff;
    else if (v >= -128) { out[p] = 0xd0; view.setInt8(p + 1, v); p += 2; }
    else if (v >= -32768) { out[p] = 0xd1; view.setInt16(p + 1, v); p += 3; }
    else { out[p] = 0xd2; view.setInt32(p + 1, v); p += 5; }
  }
  return out.subarray(0, p);
}

/** msgpack array of ints (any form up to 32 bits) -> Int32Array. */
export function unpackI32(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [n, start] = readHeader(bytes, view);
  const out = new Int32Array(n);
  for (let i = 0, p = start; i < n; i++) {
    const t = bytes[p];
    if (t < 0x80) { out[i] = t; p += 1; } else if (t >= 0xe0) { out[i] = t - 256; p += 1; } else if (t === 0xcc) { out[i] = bytes[p + 1]; p += 2; } else if (t === 0xcd) { out[i] = view.getUint16(p + 1); p += 3; } else if (t === 0xce) {
      const v = view.getUint32(p + 1);
      if (v > 0x7fffffff) throw new RangeError('out of range');
      out[i] = v; p += 5;
    } else if (t === 0xd0) { out[i] = view.getInt8(p + 1); p += 2; } else if (t === 0xd1) { out[i] = view.getInt16(p + 1); p += 3; } else if (t === 0xd2) { out[i] = view.getInt32(p + 1); p += 5; } else throw new Error('not an int');
  }
  return out;
}

/** string -> BMPString content (big-endian UCS-2), surrogates rejected. */
export function encodeBMP(s) {
  const out = new Uint8Array(2 * s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) throw new Error(`surrogate at ${i}`);
    out[2 * i] = c >> 8;
    out[2 * i + 1] = c;
  }
  return out;
}

const utf16be = new TextDecoder('utf-16be', { ignoreBOM: true });

/** BMPString content -> string with the browser's decoder (which accepts surrogate pairs). */
export function decodeBMP(bytes) {
  return utf16be.decode(bytes);
}
