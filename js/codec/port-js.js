// port-js.js - the pure-JS port (the contract: port-contract.js): output
// stores over JS ArrayBuffers, every typed-array field packed and unpacked
// by wire.js. It needs nothing but JS, so the codec works where wasm cannot
// be compiled.

import { packBound } from '../abi.js';
import { usableView, viewBuffer, viewByteLength, viewByteOffset } from '../args.js';
import { writtenOutputError } from '../errors.js';
import { BOOL, KINDS } from '../kinds.js';
import { packKindInto } from '../wire.js';

/** An output store over a JS ArrayBuffer that doubles when it grows: a Store of port-contract.js. */
class JsStore {
  constructor(initialBytes) {
    this.bytes = new Uint8Array(initialBytes);
    this.view = new DataView(this.bytes.buffer);
    this.use = 0;
    this.shared = 0;
  }

  start() {}

  stop() {}

  refresh() {}

  release() {}

  live(view, original, fn = 'encode') {
    return usableView(view, fn);
  }

  source(data) {
    this.refuseOwn(data);
    return data;
  }

  /**
   * Refuses a view of this store while a call writes it (only an
   * encodeSharedRef() output kept past its lifetime can be one: STALE). A
   * view from offset 0 of up to 64 bytes is not asked for its buffer (the
   * engine may keep such an array on its heap, and asking moves it off).
   */
  refuseOwn(view) {
    if ((viewByteOffset(view) !== 0 || viewByteLength(view) > 64) && viewBuffer(view) === this.bytes.buffer) throw writtenOutputError('encode');
  }

  ensure(pos, extra) {
    const need = pos + extra;
    if (need <= this.bytes.length) return;
    const bytes = new Uint8Array(Math.max(need, 2 * this.bytes.length));
    bytes.set(this.bytes.subarray(0, pos));
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer);
  }

  writeTyped(kind, x, n, pos) {
    this.refuseOwn(x);
    this.ensure(pos, packBound(n, kind.wire));
    return packKindInto(kind, x, n, this.bytes, pos);
  }

  take(pos) {
    return this.bytes.slice(0, pos);
  }

  copyInto(target, offset, pos) {
    target.set(this.bytes.subarray(0, pos), offset);
  }
}

/** No view is the pure-JS port's own: a detached one is DETACHED, whatever it was. */
const noDetachedError = () => undefined;

/** The pure-JS encoding port. @type {import('./port-contract.js').EncodingPort} */
export const jsEncodingPort = Object.freeze({
  newOutput: (initialBytes) => new JsStore(initialBytes),
  jsMemory: true,
  detachedError: noDetachedError,
});

/**
 * The pure-JS decoding port: the decoder decodes every field itself (no
 * reader), and reads any input in place (a JS array stays where it is).
 * @type {import('./port-contract.js').DecodingPort}
 */
export const jsDecodingPort = Object.freeze({
  unpackInJsBelow: Object.freeze([...KINDS, BOOL].map(() => Infinity)),
  typedReader: undefined,
  detachedError: noDetachedError,
  checkInput: (bytes) => bytes,
});

/** The pure-JS port, both halves. @type {import('./port-contract.js').CodecPort} */
export const jsPort = Object.freeze({ ...jsEncodingPort, ...jsDecodingPort });
