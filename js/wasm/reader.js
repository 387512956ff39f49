// reader.js - the codec's decoding port over wasm memory (the contract:
// js/codec/port-contract.js): a shaped decode copies its input into a region of wasm
// memory once, and the kernels read each long typed-array field there.

import { ELEMENTS_ONLY, INTEGRAL_FLOATS, MAX_NUMBER_BYTES } from '../abi.js';
import { bufferOf, lengthOf } from '../args.js';
import { MIN_SCRATCH, align16 } from './core.js';
import { kernelError } from './errors.js';
import { detachedError, locate } from './lifetimes.js';
import { copyOut } from './outputs.js';
import { UNPACK_CHUNK, unpackChunked } from './typed.js';

/**
 * The decoding port of boundary b. `unpackInJsBelow` (by kind index:
 * js/port.js jsLimits()) says below how many elements a field is decoded in
 * JS; a kernel's failure is worded as unpack() words it (errors.js).
 * unpack() does.
 * @returns {import('../codec/port-contract.js').DecodingPort}
 */
export const wasmDecodingPort = (b, unpackInJsBelow) => Object.freeze({
  unpackInJsBelow,
  typedReader: (input) => new WasmReader(b, input),
  detachedError: (x, fn) => detachedError(b, x, fn),
  // An input in wasm memory is decoded from a copy: a call during the
  // decode (a shaped field's, an extension's) may grow memory and detach it.
  checkInput: (bytes, original, fn) => {
    locate(b, bytes, fn, original);
    return bufferOf(bytes) === b.buffer;
  },
});

/**
 * The input region: a grow-only allocation apart from scratch, where a
 * shaped decode copies its input once (scratch then takes each field's output).
 * Each call counts in `regionUses`: a decode made meanwhile (by an
 * extension of the one in progress) takes the region over, and the reader
 * that copied before it copies again (WasmReader.read()).
 */
function inputRegion(b, bytes) {
  b.regionUses++;
  if (bytes > b.inputCapacity) {
    if (b.inputPointer) b.wasm.free(b.inputPointer);
    b.inputPointer = 0;
    b.inputCapacity = 0;
    // The next power of two; where that cannot be had, exactly what is asked.
    // The capacity is what was got: a later, longer copy must grow the region.
    let size = Math.max(MIN_SCRATCH, 2 ** Math.ceil(Math.log2(bytes + 16)));
    let pointer = b.allocate(size);
    if (pointer === 0) pointer = b.allocate((size = bytes + 16));
    if (pointer === 0) throw new RangeError(`fastmp: wasm memory cannot grow to hold a ${bytes}-byte input`);
    b.inputPointer = pointer;
    b.inputCapacity = size - 16;
  }
  return align16(b.inputPointer);
}

// The most of a message a shaped decode copies into the input region at once
// (fields longer than UNPACK_CHUNK.from go a chunk at a time instead): 1 MB.
const REGION_WINDOW = 1 << 20;

// A decode's first copy takes what its field can span, and each later copy
// twice the one before (up to REGION_WINDOW): the bytes copied stay within a
// few times the value's own, however much input follows it (decodeMulti, a
// stream's chunk), so that decoding many values from one input is linear.
const WINDOW_GROWTH = 2;

/** Shaped typed-array fields of one input, decoded by the kernels: a Reader of js/codec/port-contract.js. */
class WasmReader {
  constructor(boundary, input) {
    this.b = boundary;
    this.input = input;
    this.from = -1; // input[from, to) is copied at `base` (on the first field that needs it)
    this.to = -1;
    this.base = 0;
    this.use = 0; // the boundary's regionUses when the copy was made
    this.window = 0; // how many bytes the last copy took at least
    this.end = 0; // where the array read() last decoded ends
  }

  /** Port contract (js/codec/port-contract.js Reader.read): the caller has read the header. */
  read(kind, offset, body, count, integralFloats, into) {
    const { b, input } = this;
    // The bytes the elements can span (none is longer than 9 bytes, a boolean 1).
    const len = Math.min(lengthOf(input) - body, count * (kind.c === 'bool' ? 1 : MAX_NUMBER_BYTES));
    const flags = integralFloats ? INTEGRAL_FLOATS : 0;
    // A long field a chunk at a time, straight from the input (which is in JS
    // memory: asInput() copies one in wasm memory): wasm memory holds a chunk,
    // not the field and its output.
    if (len >= UNPACK_CHUNK.from) {
      const { value, end } = unpackChunked(b, kind, input, offset, body, count, body + len, flags, into);
      this.end = end;
      return value;
    }
    if (this.from < 0 || body < this.from || body + len > this.to || this.use !== b.regionUses) this.copyFrom(body, len);
    const out = b.reserve(count * kind.bytes);
    const base = this.base + (body - this.from);
    // The elements only (FM_ELEMENTS_ONLY): the kernel is told where they begin and how many.
    if (b.wasm[kind.unpack](base, len, out, count, flags | ELEMENTS_ONLY, b.result) !== 0) {
      throw kernelError(kind, body, b.readResult(), input);
    }
    const first = out / kind.bytes;
    this.end = body + b.resultEnd();
    const elements = b.view(kind.Type);
    if (into === undefined) return copyOut(elements, first, first + count);
    into.set(elements.subarray(first, first + count));
    return into;
  }

  /**
   * The input from `offset` into the input region: `len` bytes (what the
   * field at `offset` can span) or the next window, WINDOW_GROWTH times the
   * last, whichever is longer, and no further than the input's end. Fields
   * come in order: a decode copies a few times, each copy's bytes at most a
   * few times those its fields have moved on since the copy before.
   */
  copyFrom(offset, len) {
    this.window = Math.max(len, Math.min(REGION_WINDOW, WINDOW_GROWTH * this.window));
    const end = Math.min(this.input.length, offset + this.window);
    const part = this.input.subarray(offset, end);
    this.base = inputRegion(this.b, part.length);
    this.use = this.b.regionUses;
    this.b.u8.set(part, this.base);
    this.from = offset;
    this.to = end;
  }
}
