// Type declarations of fastmp-wasm (the browser entry js/index.js, the
// Node entries js/node.js and js/node.cjs, and fastmp-wasm/inline
// (js/inline.js) export the same API).

/** The build that runs the kernels. */
export type Backend = 'simd' | 'scalar';

/** Typed arrays that pack() takes. */
export type FloatArray = Float32Array | Float64Array;
export type IntArray = Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array;
export type BigIntArray = BigInt64Array | BigUint64Array;
export type PackableArray = FloatArray | IntArray | BigIntArray;

/** Constructors of the typed arrays that unpack() fills. */
export type PackableArrayType =
  | Float32ArrayConstructor | Float64ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor
  | Uint8ClampedArrayConstructor | Int16ArrayConstructor | Uint16ArrayConstructor | Int32ArrayConstructor
  | Uint32ArrayConstructor | BigInt64ArrayConstructor | BigUint64ArrayConstructor;

/** Bytes of msgpack: a Uint8Array (a Buffer too) or a whole ArrayBuffer. */
export type Bytes = Uint8Array | ArrayBufferLike;

export interface PackOptions {
  /** Uint8Array / Uint8ClampedArray only: true (default) writes msgpack bin, false an array of ints. */
  bin?: boolean;
}

export interface UnpackOptions {
  /** Integer targets only: accept floats that are exactly integral and in range (default false: TYPE error). */
  integralFloats?: boolean;
}

export interface InitOptions {
  /** 'auto' (default): SIMD where the engine has it. 'scalar' forces the scalar build. */
  backend?: 'auto' | Backend;
  /**
   * The wasm to use instead of the sibling file next to the module: a compiled
   * module, its bytes, or a (promise of a) fetch Response. The backend is then
   * read from the module itself.
   */
  wasm?: WebAssembly.Module | BufferSource | Response | PromiseLike<Response>;
  /** 'auto' (default): small inputs in pure JS; 'never': always wasm; 'always': never wasm. */
  pureJs?: 'auto' | 'never' | 'always';
}

/** Loads a wasm build; resolves to the backend in use. Call again to switch. */
export function init(options?: InitOptions): Promise<Backend>;

export interface InitSyncOptions extends Omit<InitOptions, 'wasm'> {
  /**
   * A compiled module or its bytes. Required outside Node (Node reads the
   * sibling file). Compiling blocks the thread: on a page prefer init().
   */
  wasm?: WebAssembly.Module | BufferSource;
}

/** init() done synchronously; returns the backend in use. */
export function initSync(options?: InitSyncOptions): Backend;

/** The backend in use; throws before init(). */
export function backend(): Backend;

/** True when this engine runs wasm SIMD128. */
export function simdSupported(): boolean;

/**
 * Packs a typed array into a standard msgpack array: Float32Array as float32
 * elements (0xca), Float64Array as float64 (0xcb), bit for bit; integer arrays
 * with each value in its smallest int form; Uint8Array / Uint8ClampedArray as
 * bin unless `{ bin: false }`.
 */
export function pack(x: PackableArray, options?: PackOptions): Uint8Array;

/** Packs booleans (or bytes: 0 = false, anything else = true) as msgpack false / true. */
export function packBool(x: readonly boolean[] | Uint8Array): Uint8Array;

/**
 * Unpacks a msgpack array that fills the whole input into a new typed array:
 * floats from any numeric form; integers from any int form that fits (floats
 * only with `integralFloats`); Uint8Array / Uint8ClampedArray also from bin.
 * Trailing bytes are a FastmpError with code 'TRAILING'.
 */
export function unpack<T extends PackableArrayType>(bytes: Bytes, type: T, options?: UnpackOptions): InstanceType<T>;

/** Unpacks the array (or bin) that starts at bytes[offset]; `end` is the offset just past it. */
export function unpackFrom<T extends PackableArrayType>(
  bytes: Bytes, type: T, offset?: number, options?: UnpackOptions,
): { value: InstanceType<T>; end: number };

/** Unpacks a msgpack array of booleans (0xc2 / 0xc3 only) into a Uint8Array of 0 / 1. */
export function unpackBool(bytes: Bytes): Uint8Array;

/** unpackBool for the array that starts at bytes[offset]. */
export function unpackBoolFrom(bytes: Bytes, offset?: number): { value: Uint8Array; end: number };

/**
 * Zero-copy: a typed array of n elements that lives in wasm memory. Fill it,
 * then pack() or packView() it without the copy in (unpack() reads an
 * alloc(Uint8Array, n) without one too). Valid until free(x); wasm memory
 * growth detaches it (length 0): refresh(x) then gives a live view.
 */
export function alloc<T extends PackableArrayType>(type: T, n: number): InstanceType<T>;

/** Releases an array from alloc(); using it afterwards is a FastmpError 'FREED'. */
export function free(x: PackableArray): void;

/** A live view of the same elements as an array from alloc(), after memory growth. */
export function refresh<T extends PackableArray>(x: T): T;

/**
 * pack() without the copy out (and for an alloc() array without the copy in):
 * the result is a view of wasm memory valid until the next fastmp call
 * (passing it to fastmp later is 'STALE'). No output array is allocated.
 */
export function packView(x: PackableArray, options?: PackOptions): Uint8Array;

/** Bytes of wasm linear memory, and of the scratch region inputs and outputs pass through. */
export function memoryStats(): { wasmMemory: number; scratch: number };

/** What a FastmpError's `code` can be. */
export type FastmpErrorCode =
  | 'NOT_ARRAY' | 'TRUNCATED' | 'LENGTH' | 'TYPE' | 'RANGE' | 'TRAILING' | StringErrorCode
  /** misuse of the zero-copy API: index and offset are -1 */
  | 'STALE' | 'FREED';

/**
 * Codes of the string and DER functions (a DER input cut short is 'TRUNCATED').
 * SURROGATE, ODD_LENGTH and RANGE name the char (`index`) and its byte
 * (`offset`: in the output when encoding, in the input when decoding); the
 * DER_* codes name the byte of the tag or of the length, with `index` -1.
 */
export type StringErrorCode =
  | 'SURROGATE' | 'ODD_LENGTH' | 'RANGE'
  | 'DER_TAG' | 'DER_CONSTRUCTED' | 'DER_INDEFINITE' | 'DER_NONMINIMAL' | 'DER_LENGTH';

/** Chars to encode: a string, or its UTF-16 code units. */
export type Chars = string | Uint16Array;

/** A string read from DER, and the offset just past it. */
export interface ReadString {
  value: string;
  end: number;
}

/**
 * BMPString content: big-endian UCS-2, 2 bytes per char. Surrogate code units
 * (0xD800-0xDFFF) are rejected (code 'SURROGATE'); U+FEFF is an ordinary char.
 */
export function encodeBMP(value: Chars): Uint8Array;
/** BMPString content -> string. Odd lengths are 'ODD_LENGTH'; nothing (no BOM) is stripped. */
export function decodeBMP(bytes: Bytes): string;
/** BMPString content -> its chars as UTF-16 code units. */
export function decodeBMPToUint16(bytes: Bytes): Uint16Array;
/** DER BMPString: tag 0x1E, shortest definite length, content. */
export function writeBMPString(value: Chars): Uint8Array;
/** The DER BMPString at bytes[offset] (primitive, definite minimal length). */
export function readBMPString(bytes: Bytes, offset?: number): ReadString;

/** IA5String content: one byte per char, chars 0x00-0x7F (others are 'RANGE'). */
export function encodeIA5(value: Chars): Uint8Array;
export function decodeIA5(bytes: Bytes): string;
export function decodeIA5ToUint16(bytes: Bytes): Uint16Array;
/** DER IA5String: tag 0x16. */
export function writeIA5String(value: Chars): Uint8Array;
export function readIA5String(bytes: Bytes, offset?: number): ReadString;

/** VisibleString content: one byte per char, chars 0x20-0x7E (others are 'RANGE'). */
export function encodeVisible(value: Chars): Uint8Array;
export function decodeVisible(bytes: Bytes): string;
export function decodeVisibleToUint16(bytes: Bytes): Uint16Array;
/** DER VisibleString: tag 0x1A. */
export function writeVisibleString(value: Chars): Uint8Array;
export function readVisibleString(bytes: Bytes, offset?: number): ReadString;

/** Bad input: what is wrong (`code`), where (`index`: element or char, or -1; `offset`: byte). */
export class FastmpError extends Error {
  readonly name: 'FastmpError';
  readonly code: FastmpErrorCode;
  /** The element (or char) at fault, or -1 when the fault is in none (a header, trailing bytes). */
  readonly index: number;
  /** Byte offset of the fault in the input. */
  readonly offset: number;
  /** RANGE (and TYPE for a float into an integer array): the element's value. */
  readonly value?: number | bigint;
}
