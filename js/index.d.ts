// Type declarations of fastmp-wasm (the browser entry js/index.js, the
// Node entries js/node.js and js/node.cjs, and fastmp-wasm/inline
// (js/inline.js) export the same API). CommonJS consumers get the same
// declarations through js/index.d.cts.
//
// Every array fastmp returns has its own ArrayBuffer (or, for packView() and
// alloc(), is a view of wasm memory, also an ArrayBuffer), so results are
// typed `Uint8Array<ArrayBuffer>` etc. (TypeScript >= 5.7): they can be
// passed where a `BufferSource` is required, as to `new Blob([bytes])`,
// `fetch(url, { body: bytes })` or `crypto.subtle.digest('SHA-256', bytes)`.

/** The build that runs the kernels. */
export type Backend = 'simd' | 'scalar';

/** Typed arrays that pack() takes (over any buffer). */
export type FloatArray = Float32Array | Float64Array;
export type IntArray = Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array;
export type BigIntArray = BigInt64Array | BigUint64Array;
export type PackableArray = FloatArray | IntArray | BigIntArray;

/** Constructors of the typed arrays that unpack() fills. */
export type PackableArrayType =
  | Float32ArrayConstructor | Float64ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor
  | Uint8ClampedArrayConstructor | Int16ArrayConstructor | Uint16ArrayConstructor | Int32ArrayConstructor
  | Uint32ArrayConstructor | BigInt64ArrayConstructor | BigUint64ArrayConstructor;

/**
 * The array that unpack(bytes, T) and alloc(T, n) return for the constructor
 * T, over an ArrayBuffer: `TypedArrayOf<Float32ArrayConstructor>` is
 * `Float32Array<ArrayBuffer>`.
 */
export type TypedArrayOf<T extends PackableArrayType> =
  T extends Float32ArrayConstructor ? Float32Array<ArrayBuffer>
  : T extends Float64ArrayConstructor ? Float64Array<ArrayBuffer>
  : T extends Int8ArrayConstructor ? Int8Array<ArrayBuffer>
  : T extends Uint8ClampedArrayConstructor ? Uint8ClampedArray<ArrayBuffer>
  : T extends Uint8ArrayConstructor ? Uint8Array<ArrayBuffer>
  : T extends Int16ArrayConstructor ? Int16Array<ArrayBuffer>
  : T extends Uint16ArrayConstructor ? Uint16Array<ArrayBuffer>
  : T extends Int32ArrayConstructor ? Int32Array<ArrayBuffer>
  : T extends Uint32ArrayConstructor ? Uint32Array<ArrayBuffer>
  : T extends BigInt64ArrayConstructor ? BigInt64Array<ArrayBuffer>
  : T extends BigUint64ArrayConstructor ? BigUint64Array<ArrayBuffer>
  : never;

/** Bytes of msgpack: a Uint8Array (a Buffer too) or a whole ArrayBuffer / SharedArrayBuffer. */
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

export interface InitSyncOptions extends Omit<InitOptions, 'wasm'> {
  /**
   * A compiled module or its bytes. Required outside Node (Node reads the
   * sibling file). Compiling blocks the thread: on a page prefer init().
   */
  wasm?: WebAssembly.Module | BufferSource;
}

// ---- the module's instance -------------------------------------------------

/**
 * Loads a wasm build into the module's own instance, which the functions
 * exported below use; resolves to the backend in use. Call again to switch.
 * (The Node entries have done it on import.)
 */
export function init(options?: InitOptions): Promise<Backend>;

/** init() done synchronously; returns the backend in use. */
export function initSync(options?: InitSyncOptions): Backend;

/** True when this engine runs wasm SIMD128. */
export function simdSupported(): boolean;

/**
 * A separate instance: its own wasm memory, backend and options, with the
 * whole API as its methods. The module-level functions are not affected.
 */
export function createFastmp(options?: InitOptions): Promise<Fastmp>;

/** createFastmp() done synchronously (what initSync() is to init()). */
export function createFastmpSync(options?: InitSyncOptions): Fastmp;

/**
 * An instance from createFastmp(): the module-level API, bound to the
 * instance (its methods may be destructured:
 * `const { pack, unpack } = await createFastmp()`).
 */
export interface Fastmp {
  backend: typeof backend;
  memoryStats: typeof memoryStats;

  pack: typeof pack;
  packBool: typeof packBool;
  packView: typeof packView;
  unpack: typeof unpack;
  unpackFrom: typeof unpackFrom;
  unpackBool: typeof unpackBool;
  unpackBoolFrom: typeof unpackBoolFrom;

  alloc: typeof alloc;
  free: typeof free;
  refresh: typeof refresh;

  encodeBMP: typeof encodeBMP;
  decodeBMP: typeof decodeBMP;
  decodeBMPToUint16: typeof decodeBMPToUint16;
  writeBMPString: typeof writeBMPString;
  readBMPString: typeof readBMPString;
  encodeIA5: typeof encodeIA5;
  decodeIA5: typeof decodeIA5;
  decodeIA5ToUint16: typeof decodeIA5ToUint16;
  writeIA5String: typeof writeIA5String;
  readIA5String: typeof readIA5String;
  encodeVisible: typeof encodeVisible;
  decodeVisible: typeof decodeVisible;
  decodeVisibleToUint16: typeof decodeVisibleToUint16;
  writeVisibleString: typeof writeVisibleString;
  readVisibleString: typeof readVisibleString;

  // Message codec (encode / decode): declared here and below when it lands.
}

// ---- the API: functions of the module's instance, and methods of a Fastmp ----

/** The backend in use; throws before init(). */
export function backend(): Backend;

/** Bytes of wasm linear memory, and of the scratch region inputs and outputs pass through. */
export function memoryStats(): { wasmMemory: number; scratch: number };

/**
 * Packs a typed array into a standard msgpack array: Float32Array as float32
 * elements (0xca), Float64Array as float64 (0xcb), bit for bit; integer arrays
 * with each value in its smallest int form; Uint8Array / Uint8ClampedArray as
 * bin unless `{ bin: false }`. Returns a new array.
 */
export function pack(x: PackableArray, options?: PackOptions): Uint8Array<ArrayBuffer>;

/** Packs booleans (or bytes: 0 = false, anything else = true) as msgpack false / true. */
export function packBool(x: readonly boolean[] | Uint8Array): Uint8Array<ArrayBuffer>;

/**
 * pack() without the copy out (and for an alloc() array without the copy in):
 * the result is a view of wasm memory valid until the next fastmp call
 * (passing it to fastmp later is 'STALE'). No output array is allocated.
 */
export function packView(x: PackableArray, options?: PackOptions): Uint8Array<ArrayBuffer>;

/**
 * Unpacks a msgpack array that fills the whole input into a new typed array:
 * floats from any numeric form; integers from any int form that fits (floats
 * only with `integralFloats`); Uint8Array / Uint8ClampedArray also from bin.
 * Trailing bytes are a FastmpError with code 'TRAILING'.
 */
export function unpack<T extends PackableArrayType>(bytes: Bytes, type: T, options?: UnpackOptions): TypedArrayOf<T>;

/** Unpacks the array (or bin) that starts at bytes[offset]; `end` is the offset just past it. */
export function unpackFrom<T extends PackableArrayType>(
  bytes: Bytes, type: T, offset?: number, options?: UnpackOptions,
): { value: TypedArrayOf<T>; end: number };

/** Unpacks a msgpack array of booleans (0xc2 / 0xc3 only) into a Uint8Array of 0 / 1. */
export function unpackBool(bytes: Bytes): Uint8Array<ArrayBuffer>;

/** unpackBool for the array that starts at bytes[offset]. */
export function unpackBoolFrom(bytes: Bytes, offset?: number): { value: Uint8Array<ArrayBuffer>; end: number };

/**
 * Zero-copy: a typed array of n elements that lives in wasm memory. Fill it,
 * then pack() or packView() it without the copy in (unpack() reads an
 * alloc(Uint8Array, n) without one too). Valid until free(x); wasm memory
 * growth detaches it (length 0): refresh(x) then gives a live view.
 */
export function alloc<T extends PackableArrayType>(type: T, n: number): TypedArrayOf<T>;

/** Releases an array from alloc(); using it afterwards is a FastmpError 'FREED'. */
export function free(x: PackableArray): void;

/** A live view of the same elements as an array from alloc(), after memory growth. */
export function refresh<T extends PackableArray>(x: T): T;

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
export function encodeBMP(value: Chars): Uint8Array<ArrayBuffer>;
/** BMPString content -> string. Odd lengths are 'ODD_LENGTH'; nothing (no BOM) is stripped. */
export function decodeBMP(bytes: Bytes): string;
/** BMPString content -> its chars as UTF-16 code units. */
export function decodeBMPToUint16(bytes: Bytes): Uint16Array<ArrayBuffer>;
/** DER BMPString: tag 0x1E, shortest definite length, content. */
export function writeBMPString(value: Chars): Uint8Array<ArrayBuffer>;
/** The DER BMPString at bytes[offset] (primitive, definite minimal length). */
export function readBMPString(bytes: Bytes, offset?: number): ReadString;

/** IA5String content: one byte per char, chars 0x00-0x7F (others are 'RANGE'). */
export function encodeIA5(value: Chars): Uint8Array<ArrayBuffer>;
/** IA5String content -> string; bytes above 0x7F are 'RANGE'. */
export function decodeIA5(bytes: Bytes): string;
/** IA5String content -> its chars as UTF-16 code units. */
export function decodeIA5ToUint16(bytes: Bytes): Uint16Array<ArrayBuffer>;
/** DER IA5String: tag 0x16. */
export function writeIA5String(value: Chars): Uint8Array<ArrayBuffer>;
/** The DER IA5String at bytes[offset]. */
export function readIA5String(bytes: Bytes, offset?: number): ReadString;

/** VisibleString content: one byte per char, chars 0x20-0x7E (others are 'RANGE'). */
export function encodeVisible(value: Chars): Uint8Array<ArrayBuffer>;
/** VisibleString content -> string; bytes outside 0x20-0x7E are 'RANGE'. */
export function decodeVisible(bytes: Bytes): string;
/** VisibleString content -> its chars as UTF-16 code units. */
export function decodeVisibleToUint16(bytes: Bytes): Uint16Array<ArrayBuffer>;
/** DER VisibleString: tag 0x1A. */
export function writeVisibleString(value: Chars): Uint8Array<ArrayBuffer>;
/** The DER VisibleString at bytes[offset]. */
export function readVisibleString(bytes: Bytes, offset?: number): ReadString;

// ---- message codec (encode / decode) ------------------------------------------
// Not declared yet: it is being written (js/codec/). Its functions go here,
// and into `interface Fastmp` above as `encode: typeof encode` etc.

// ---- errors -------------------------------------------------------------------

/** What a FastmpError's `code` can be. */
export type FastmpErrorCode =
  // msgpack input: no array where one must start, cut short, a length beyond the input
  | 'NOT_ARRAY' | 'TRUNCATED' | 'LENGTH'
  // an element of the wrong type, or a value the target cannot hold exactly (see `value`)
  | 'TYPE' | 'RANGE'
  // bytes after the array (unpack(), unpackBool(); unpackFrom() reads a prefix)
  | 'TRAILING'
  // internal: a kernel's output buffer too small; a bug in fastmp if ever seen
  | 'CAPACITY'
  | StringErrorCode
  // misuse, with `index` and `offset` -1: a packView() output passed in after
  // a later call (STALE), an alloc() array after free() (FREED), an input
  // whose buffer is detached, e.g. transferred (DETACHED)
  | 'STALE' | 'FREED' | 'DETACHED';

/**
 * Codes of the string and DER functions (a DER input cut short is 'TRUNCATED').
 * SURROGATE, ODD_LENGTH and RANGE name the char (`index`) and its byte
 * (`offset`: in the output when encoding, in the input when decoding); the
 * DER_* codes name the byte of the tag or of the length, with `index` -1.
 */
export type StringErrorCode =
  | 'SURROGATE' | 'ODD_LENGTH' | 'RANGE'
  | 'DER_TAG' | 'DER_CONSTRUCTED' | 'DER_INDEFINITE' | 'DER_NONMINIMAL' | 'DER_LENGTH';

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
  /** Set by the message codec: where in the message the fault is, from the root (`$.frames[3].accel`). */
  readonly path?: string;
}
