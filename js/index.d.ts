// Type declarations of fastmp-wasm (the browser entry js/index.js, the
// Node entries js/node.js and js/node.cjs, and fastmp-wasm/inline
// (js/inline.js) export the same API). CommonJS consumers get the same
// declarations through js/index.d.cts.
//
// Every array fastmp returns has its own ArrayBuffer (or, for packView() and
// alloc(), is a view of wasm memory, also an ArrayBuffer), so results are
// typed `Uint8Array<ArrayBuffer>` etc. on TypeScript >= 5.7: they can be
// passed where a `BufferSource` is required, as to `new Blob([bytes])`,
// `fetch(url, { body: bytes })` or `crypto.subtle.digest('SHA-256', bytes)`.
//
// TypeScript >= 5.0 compiles these declarations (skipLibCheck false). Before
// 5.7 the typed arrays are not generic: `Uint8Array<ArrayBuffer>` would be an
// error there, so it is never written here; the results' types are read from
// lib's constructors instead (TypedArrayOf: what `new Uint8Array(n)` makes),
// which gives `Uint8Array<ArrayBuffer>` on 5.7+ and `Uint8Array` before.

/**
 * What runs the calls: the SIMD or scalar wasm build, or 'js' (pure JS, no
 * WebAssembly: asked for, or where a Content Security Policy refuses to compile wasm).
 */
export type Backend = 'simd' | 'scalar' | 'js';

/**
 * The element types: every typed array that pack() takes and unpack() fills,
 * with its constructor and its group ('bytes': packed as a bin unless
 * `{ bin: false }`). The one list on the TypeScript side: the unions below
 * are read from it, and test/types.test.js checks that it names the types of
 * js/kinds.js KINDS, in their order.
 */
interface ElementTypes {
  Float32Array: { array: Float32Array; type: Float32ArrayConstructor; group: 'float' };
  Float64Array: { array: Float64Array; type: Float64ArrayConstructor; group: 'float' };
  Int8Array: { array: Int8Array; type: Int8ArrayConstructor; group: 'int' };
  Uint8Array: { array: Uint8Array; type: Uint8ArrayConstructor; group: 'bytes' };
  Uint8ClampedArray: { array: Uint8ClampedArray; type: Uint8ClampedArrayConstructor; group: 'bytes' };
  Int16Array: { array: Int16Array; type: Int16ArrayConstructor; group: 'int' };
  Uint16Array: { array: Uint16Array; type: Uint16ArrayConstructor; group: 'int' };
  Int32Array: { array: Int32Array; type: Int32ArrayConstructor; group: 'int' };
  Uint32Array: { array: Uint32Array; type: Uint32ArrayConstructor; group: 'int' };
  BigInt64Array: { array: BigInt64Array; type: BigInt64ArrayConstructor; group: 'big' };
  BigUint64Array: { array: BigUint64Array; type: BigUint64ArrayConstructor; group: 'big' };
}
/** The element types of some groups, as `field` (their arrays or their constructors). */
type ElementTypesOf<G extends string, F extends 'array' | 'type'> =
  { [K in keyof ElementTypes]: ElementTypes[K]['group'] extends G ? ElementTypes[K][F] : never }[keyof ElementTypes];

/** Typed arrays that pack() takes (over any buffer). */
export type FloatArray = ElementTypesOf<'float', 'array'>;
export type IntArray = ElementTypesOf<'int' | 'bytes', 'array'>;
export type BigIntArray = ElementTypesOf<'big', 'array'>;
export type PackableArray = ElementTypes[keyof ElementTypes]['array'];

/** Constructors of the typed arrays that unpack() fills. */
export type PackableArrayType = ElementTypes[keyof ElementTypes]['type'];

/**
 * Float16Array where the lib the consumer compiles with declares it (TypeScript's
 * lib "esnext" / "esnext.float16"), else never; named without the global, which
 * lib ES2022 lacks. pack(), packView() and encode() take one (as float32
 * elements); unpack(), unpackFrom() and a shape fill one. Not alloc(): no kernel
 * reads float16. At run time only where the engine has Float16Array.
 */
type Float16ArrayIfDeclared = typeof globalThis extends { Float16Array: { prototype: infer A } } ? A : never;
/** Float16ArrayConstructor where the lib declares it, else never. */
type Float16ArrayConstructorIfDeclared = typeof globalThis extends { Float16Array: infer C } ? C : never;

/**
 * The array that unpack(bytes, T) and alloc(T, n) return for the constructor
 * T, over an ArrayBuffer: `TypedArrayOf<Float32ArrayConstructor>` is
 * `Float32Array<ArrayBuffer>` (what `new T(n)` makes; lib's constructors
 * declare it so), and `Float32Array` before TypeScript 5.7.
 */
export type TypedArrayOf<T extends PackableArrayType | Float16ArrayConstructorIfDeclared> =
  T extends { new (length?: number): infer A } ? A : never;

/** `Uint8Array<ArrayBuffer>` (a Uint8Array of its own, or a view of wasm memory); `Uint8Array` before TypeScript 5.7. */
type OwnUint8Array = TypedArrayOf<Uint8ArrayConstructor>;
/** `Uint16Array<ArrayBuffer>`; `Uint16Array` before TypeScript 5.7. */
type OwnUint16Array = TypedArrayOf<Uint16ArrayConstructor>;

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

// The WebAssembly and fetch types are read from the program's own lib where it declares them
// (dom, webworker; @types/node declares Response but not WebAssembly), never named: a Node
// project whose lib has no "dom" compiles these declarations too (skipLibCheck false).
/** A WebAssembly.Module (any object where the lib does not declare WebAssembly). */
type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } } ? M : object;
/** A module's bytes: what `new WebAssembly.Module()` compiles (the DOM's BufferSource). */
type WasmBytes = ArrayBuffer | ArrayBufferView;
/** A fetch Response (none where the lib does not declare fetch). */
type FetchResponse = typeof globalThis extends { Response: { prototype: infer R } } ? R : never;
/** A wasm module as init() / createFastmp() take it. */
type WasmSource = WasmModule | WasmBytes | FetchResponse | PromiseLike<FetchResponse>;
/**
 * A wasm module as initSync() / createFastmpSync() take it: a module or its bytes, not a promise
 * nor a Response (a TypeError there). Said so because lib dom's WebAssembly.Module is an empty
 * interface, which any object (a promise, a Response, an array of them) would fit.
 */
type WasmSyncSource = (WasmModule & { readonly then?: never; readonly arrayBuffer?: never; readonly length?: never }) | WasmBytes;

export interface InitOptions {
  /**
   * 'auto' (default): SIMD where the engine has it, pure JS where compiling wasm is
   * refused (CSP without 'wasm-unsafe-eval'). 'scalar' forces the scalar build;
   * 'js' never touches WebAssembly (alloc() is then unavailable).
   */
  backend?: 'auto' | Backend;
  /**
   * The pack module (dist/fastmp-pack-<build>.wasm) or the unpack module
   * (dist/fastmp-unpack-<build>.wasm) to use instead of the sibling file, or
   * an array of both: each a compiled module, its bytes, or a (promise of a)
   * fetch Response. The backend is then read from the module itself; a module
   * not given is read from its sibling file when first needed.
   */
  wasm?: WasmSource | readonly WasmSource[];
  /** The same for the ASN.1 string module (dist/fastmp-strings-<build>.wasm), of the same build. */
  stringsWasm?: WasmSource;
  /**
   * 'auto' (default): small inputs in pure JS; 'never': always the kernels;
   * 'always': every call in pure JS (alloc() and packView() still use wasm memory).
   */
  pureJs?: 'auto' | 'never' | 'always';
}

export interface InitSyncOptions extends Omit<InitOptions, 'wasm' | 'stringsWasm'> {
  /**
   * A compiled module or its bytes, or an array of both modules. Required
   * on a page that imports 'fastmp-wasm' (Node reads the sibling file; the
   * inline entry holds the modules). Compiling blocks the thread: on a page
   * prefer init().
   */
  wasm?: WasmSyncSource | readonly WasmSyncSource[];
  /** The same for the ASN.1 string module, where the program uses ASN.1 functions. */
  stringsWasm?: WasmSyncSource;
}

// ---- the module's instance -------------------------------------------------

/**
 * Loads a wasm build into the module's own instance, which the functions
 * exported below use; resolves to the backend in use. Call again to switch.
 * (Optional: every call works before it, each module loaded on first need.)
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
 * `const { pack, unpack } = await createFastmp()`). Frozen: its members are
 * read-only (assigning one is a TypeError in strict code).
 */
export interface Fastmp {
  readonly backend: typeof backend;
  readonly memoryStats: typeof memoryStats;

  readonly pack: typeof pack;
  readonly packBool: typeof packBool;
  readonly packBoolView: typeof packBoolView;
  readonly packInto: typeof packInto;
  readonly packView: typeof packView;
  readonly unpack: typeof unpack;
  readonly unpackFrom: typeof unpackFrom;
  readonly unpackBool: typeof unpackBool;
  readonly unpackBoolFrom: typeof unpackBoolFrom;

  readonly alloc: typeof alloc;
  readonly free: typeof free;
  readonly refresh: typeof refresh;

  readonly encodeBMP: typeof encodeBMP;
  readonly decodeBMP: typeof decodeBMP;
  readonly decodeBMPToUint16: typeof decodeBMPToUint16;
  readonly writeBMPString: typeof writeBMPString;
  readonly readBMPString: typeof readBMPString;
  readonly encodeIA5: typeof encodeIA5;
  readonly decodeIA5: typeof decodeIA5;
  readonly decodeIA5ToUint16: typeof decodeIA5ToUint16;
  readonly writeIA5String: typeof writeIA5String;
  readonly readIA5String: typeof readIA5String;
  readonly encodeVisible: typeof encodeVisible;
  readonly decodeVisible: typeof decodeVisible;
  readonly decodeVisibleToUint16: typeof decodeVisibleToUint16;
  readonly writeVisibleString: typeof writeVisibleString;
  readonly readVisibleString: typeof readVisibleString;
  readonly encodePrintable: typeof encodePrintable;
  readonly decodePrintable: typeof decodePrintable;
  readonly decodePrintableToUint16: typeof decodePrintableToUint16;
  readonly writePrintableString: typeof writePrintableString;
  readonly readPrintableString: typeof readPrintableString;
  readonly encodeNumeric: typeof encodeNumeric;
  readonly decodeNumeric: typeof decodeNumeric;
  readonly decodeNumericToUint16: typeof decodeNumericToUint16;
  readonly writeNumericString: typeof writeNumericString;
  readonly readNumericString: typeof readNumericString;

  readonly encode: typeof encode;
  readonly encodeInto: typeof encodeInto;
  readonly decode: typeof decode;
  readonly decodeFrom: typeof decodeFrom;
  readonly decodeMulti: typeof decodeMulti;
  readonly decodeAsync: typeof decodeAsync;
  readonly decodeMultiStream: typeof decodeMultiStream;
  readonly decodeArrayStream: typeof decodeArrayStream;
  /**
   * Encoders of this instance (typed arrays packed by its kernels). Every
   * instance's Encoders share one prototype: `new fm.Encoder() instanceof Encoder`
   * (the module's class) is true.
   */
  readonly Encoder: typeof Encoder;
  /** Decoders of this instance (shaped typed arrays read by its kernels); one prototype for all, as Encoder. */
  readonly Decoder: typeof Decoder;
}

// ---- the API: functions of the module's instance, and methods of a Fastmp ----

/** The backend in use (the default instance runs every call from the start: before init() too). */
export function backend(): Backend;

/** Bytes of wasm linear memory, and of the scratch region inputs and outputs pass through. */
export function memoryStats(): { wasmMemory: number; scratch: number };

/**
 * Packs a typed array into a standard msgpack array: Float32Array as float32
 * elements (0xca), Float64Array as float64 (0xcb), bit for bit; integer arrays
 * with each value in its smallest int form; Uint8Array / Uint8ClampedArray as
 * bin unless `{ bin: false }`; a Float16Array (where the engine has one) as
 * float32 elements, its values widened exactly. Returns a new array.
 */
export function pack(x: PackableArray | Float16ArrayIfDeclared, options?: PackOptions): OwnUint8Array;

/** Packs booleans (or bytes: 0 = false, anything else = true) as msgpack false / true. */
export function packBool(x: readonly boolean[] | Uint8Array): OwnUint8Array;

/**
 * packBool() without the copy out (and for an alloc(Uint8Array, n) array
 * without the copy in): a view of wasm memory, valid as packView()'s.
 */
export function packBoolView(x: readonly boolean[] | Uint8Array): OwnUint8Array;

/**
 * pack() into `target` from `offset` (default 0): returns the offset just
 * past the output. Allocates no output array. An output longer than the room
 * left is a RangeError, and the target is then unchanged. The target may be
 * an alloc() array, not a packView() or encodeSharedRef() output (TypeError).
 */
export function packInto(
  x: PackableArray | Float16ArrayIfDeclared, target: Uint8Array, offset?: number, options?: PackOptions,
): number;

/**
 * pack() without the copy out (and for an alloc() array without the copy in):
 * the result is a view of wasm memory valid until the next fastmp call
 * (passing it to fastmp later is 'STALE'). No output array is allocated.
 */
export function packView(x: PackableArray | Float16ArrayIfDeclared, options?: PackOptions): OwnUint8Array;

/**
 * Unpacks a msgpack array that fills the whole input into a new typed array:
 * floats from any numeric form; integers from any int form that fits (floats
 * only with `integralFloats`); Uint8Array / Uint8ClampedArray also from bin;
 * a Float16Array read as float64, each value then rounded once (Math.f16round).
 * Trailing bytes are a FastmpError with code 'TRAILING'.
 */
export function unpack<T extends PackableArrayType | Float16ArrayConstructorIfDeclared>(bytes: Bytes, type: T, options?: UnpackOptions): TypedArrayOf<T>;

/** Unpacks the array (or bin) that starts at bytes[offset]; `end` is the offset just past it. */
export function unpackFrom<T extends PackableArrayType | Float16ArrayConstructorIfDeclared>(
  bytes: Bytes, type: T, offset?: number, options?: UnpackOptions,
): { value: TypedArrayOf<T>; end: number };

/** Unpacks a msgpack array of booleans (0xc2 / 0xc3 only) into a Uint8Array of 0 / 1. */
export function unpackBool(bytes: Bytes): OwnUint8Array;

/** unpackBool for the array that starts at bytes[offset]. */
export function unpackBoolFrom(bytes: Bytes, offset?: number): { value: OwnUint8Array; end: number };

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
export function encodeBMP(value: Chars): OwnUint8Array;
/** BMPString content -> string. Odd lengths are 'ODD_LENGTH'; nothing (no BOM) is stripped. */
export function decodeBMP(bytes: Bytes): string;
/** BMPString content -> its chars as UTF-16 code units. */
export function decodeBMPToUint16(bytes: Bytes): OwnUint16Array;
/** DER BMPString: tag 0x1E, shortest definite length, content. */
export function writeBMPString(value: Chars): OwnUint8Array;
/** The DER BMPString at bytes[offset] (primitive, definite minimal length). */
export function readBMPString(bytes: Bytes, offset?: number): ReadString;

/** IA5String content: one byte per char, chars 0x00-0x7F (others are 'RANGE'). */
export function encodeIA5(value: Chars): OwnUint8Array;
/** IA5String content -> string; bytes above 0x7F are 'RANGE'. */
export function decodeIA5(bytes: Bytes): string;
/** IA5String content -> its chars as UTF-16 code units. */
export function decodeIA5ToUint16(bytes: Bytes): OwnUint16Array;
/** DER IA5String: tag 0x16. */
export function writeIA5String(value: Chars): OwnUint8Array;
/** The DER IA5String at bytes[offset]. */
export function readIA5String(bytes: Bytes, offset?: number): ReadString;

/** VisibleString content: one byte per char, chars 0x20-0x7E (others are 'RANGE'). */
export function encodeVisible(value: Chars): OwnUint8Array;
/** VisibleString content -> string; bytes outside 0x20-0x7E are 'RANGE'. */
export function decodeVisible(bytes: Bytes): string;
/** VisibleString content -> its chars as UTF-16 code units. */
export function decodeVisibleToUint16(bytes: Bytes): OwnUint16Array;
/** DER VisibleString: tag 0x1A. */
export function writeVisibleString(value: Chars): OwnUint8Array;
/** The DER VisibleString at bytes[offset]. */
export function readVisibleString(bytes: Bytes, offset?: number): ReadString;

/**
 * PrintableString content: one byte per char, chars A-Z a-z 0-9, space and
 * ' ( ) + , - . / : = ? (X.680 41.4; others are 'RANGE').
 */
export function encodePrintable(value: Chars): OwnUint8Array;
/** PrintableString content -> string; bytes outside its set are 'RANGE'. */
export function decodePrintable(bytes: Bytes): string;
/** PrintableString content -> its chars as UTF-16 code units. */
export function decodePrintableToUint16(bytes: Bytes): OwnUint16Array;
/** DER PrintableString: tag 0x13. */
export function writePrintableString(value: Chars): OwnUint8Array;
/** The DER PrintableString at bytes[offset]. */
export function readPrintableString(bytes: Bytes, offset?: number): ReadString;

/** NumericString content: one byte per char, chars 0-9 and space (others are 'RANGE'). */
export function encodeNumeric(value: Chars): OwnUint8Array;
/** NumericString content -> string; bytes other than 0-9 and space are 'RANGE'. */
export function decodeNumeric(bytes: Bytes): string;
/** NumericString content -> its chars as UTF-16 code units. */
export function decodeNumericToUint16(bytes: Bytes): OwnUint16Array;
/** DER NumericString: tag 0x12. */
export function writeNumericString(value: Chars): OwnUint8Array;
/** The DER NumericString at bytes[offset]. */
export function readNumericString(bytes: Bytes, offset?: number): ReadString;

// ---- message codec (encode / decode) ----------------------------------------------
// Whole MessagePack messages, with @msgpack/msgpack's names, defaults and
// options, plus typed arrays inside messages and decoding into typed arrays
// by shape (js/codec/index.js documents the codec). The functions use the
// default instance; an instance from createFastmp() has its own (`fm.encode`,
// `new fm.Encoder()`).

/**
 * What decode() reads: a Uint8Array (a Buffer) in place, any other
 * ArrayBuffer view (a DataView, a Float32Array, ...) or an ArrayBuffer /
 * SharedArrayBuffer as its bytes, or an array of byte values (copied).
 */
export type DecodeInput = ArrayBufferView | ArrayBufferLike | readonly number[];

/**
 * What the stream decoders read: an async iterable of chunks (a Node
 * Readable, an async generator) or a web ReadableStream (fetch's
 * `response.body`), each chunk a DecodeInput.
 */
export type DecodeStream = AsyncIterable<DecodeInput> | ChunkStream;

// A web ReadableStream as the decoders use it (js/codec/stream.js: its default reader, where the
// stream is not async iterable), described rather than named, as WebAssembly is above: a
// project whose lib declares no ReadableStream (no dom, webworker or @types/node) compiles too.
/** What the decoders use of a web ReadableStream's default reader. */
interface ChunkReader {
  read(): PromiseLike<{ done: true; value?: unknown } | { done: false; value: DecodeInput }>;
  cancel(reason?: any): PromiseLike<void>;
  releaseLock(): void;
}
/** A web ReadableStream of DecodeInput chunks (the lib's ReadableStream<Uint8Array> is one). */
interface ChunkStream {
  getReader(): ChunkReader;
}

/**
 * An extension encoder: the payload of `value` (a Uint8Array, or a function
 * of the payload's offset in the output that returns it, written as ext 32),
 * or null / undefined when `value` is not this extension's.
 */
export type ExtensionEncoder<ContextType = undefined> =
  (value: unknown, context: ContextType) => Uint8Array | ((pos: number) => Uint8Array) | null | undefined;

/** An extension decoder: the value of a payload (a view of the input) of type `type`. */
export type ExtensionDecoder<ContextType = undefined> =
  (data: Uint8Array, type: number, context: ContextType) => unknown;

/** @msgpack/msgpack's names for ExtensionEncoder and ExtensionDecoder, for code written against its types. */
export type ExtensionEncoderType<ContextType = undefined> = ExtensionEncoder<ContextType>;
export type ExtensionDecoderType<ContextType = undefined> = ExtensionDecoder<ContextType>;

/** What ExtensionCodec.register() takes; either function may be left out (or null) for one direction only. */
export interface Extension<ContextType = undefined> {
  /** An integer from -128 to 127 (negative types are msgpack's own: -1 is the timestamp). */
  type: number;
  encode?: ExtensionEncoder<ContextType> | null;
  decode?: ExtensionDecoder<ContextType> | null;
}

/**
 * What the `extensionCodec` option takes: an ExtensionCodec of fastmp's or of
 * @msgpack/msgpack's (the encoder calls tryToEncode(), the decoder decode()).
 */
export interface ExtensionCodecType<ContextType = undefined> {
  tryToEncode(value: unknown, context: ContextType): ExtData | null;
  decode(data: Uint8Array, type: number, context: ContextType): unknown;
}

/** An extension value as it is on the wire: what an unregistered ext type decodes to, and encodes as itself. */
export class ExtData {
  /**
   * @param type from -128 to 127
   * @param data the payload, or a function of the payload's offset in the output that returns it
   */
  constructor(type: number, data: Uint8Array | ((pos: number) => Uint8Array));
  type: number;
  data: Uint8Array | ((pos: number) => Uint8Array);
}

/**
 * Extension types: built-in ones (negative; the timestamp, -1, is registered
 * in every codec) are tried before custom ones. ContextType is the type of the
 * encoder's / decoder's `context` option, passed to the extensions.
 */
export class ExtensionCodec<ContextType = undefined> implements ExtensionCodecType<ContextType> {
  // What the class keeps and calls inside (its fields and internal methods), named so that a
  // subclass cannot declare a member of the same name, which would replace the codec's own
  // (as @msgpack/msgpack's declarations name theirs; test/audit-types2.test.js holds the list
  // to the class at run time).
  private builtInEncoders; private builtInDecoders; private encoders; private decoders;
  private nativeTimestamp; private onlyTimestamps;
  /** The codec used when no `extensionCodec` option is given (timestamps only). */
  static readonly defaultCodec: ExtensionCodec;
  constructor();
  /** Adds (or replaces) the extension of `type`; a type outside -128..127 or a non-function is a TypeError. */
  register(extension: Extension<ContextType>): void;
  /** The ExtData for `value`, or null when no extension takes it (an ExtData is itself). */
  tryToEncode(value: unknown, context: ContextType): ExtData | null;
  /** The value of an extension; an ExtData when no decoder is registered for `type`. */
  decode(data: Uint8Array, type: number, context: ContextType): unknown;
  /** Whether a decoder is registered for `type`. */
  decodes(type: number): boolean;
}

/** The type of the timestamp extension (-1). */
export const EXT_TIMESTAMP: -1;

/** A timestamp: seconds since the epoch (may be negative) and nanoseconds (0 to 999 999 999). */
export interface TimeSpec {
  sec: number;
  nsec: number;
}

/** A Date as a TimeSpec (an invalid Date gives NaNs, which are written as 0). */
export function encodeDateToTimeSpec(date: Date): TimeSpec;
/** The timestamp payload of a TimeSpec: 4, 8 or 12 bytes, in the smallest form that holds it. */
export function encodeTimeSpecToTimestamp(spec: TimeSpec): OwnUint8Array;
/** The timestamp payload of a Date, or null for anything else (the built-in extension encoder). */
export function encodeTimestampExtension(value: unknown): OwnUint8Array | null;
/** A timestamp payload as a TimeSpec; a length other than 4, 8, 12 is a FastmpError 'EXT'. */
export function decodeTimestampToTimeSpec(data: Uint8Array): TimeSpec;
/** A timestamp payload as a Date (the built-in extension decoder). */
export function decodeTimestampExtension(data: Uint8Array): Date;

/**
 * Marks bytes as booleans: encode() writes a BoolArray as a msgpack array of
 * false (0) / true (anything else), whatever the `typedArrays` option. As a
 * shape, BoolArray (like Boolean) reads an array of booleans into a Uint8Array of 0 / 1.
 */
export class BoolArray {
  /** A bytes argument that is not a Uint8Array is a TypeError. */
  constructor(bytes: Uint8Array);
  readonly bytes: Uint8Array;
  readonly length: number;
}

/** new BoolArray(bytes): 0 = false, anything else = true. */
export function asBools(bytes: Uint8Array): BoolArray;

/** The shape "a map, every value of which has shape S" (from mapOf()). */
export class MapOf<S extends Shape = Shape> {
  #private;
  constructor(shape: S);
  readonly shape: S;
}

/** A shape: every value of this map has shape S. */
export function mapOf<const S extends Shape>(shape: S): MapOf<S>;

/** The shape of a map's field that may be absent, or nil (from optional()). */
export class Optional<S extends Shape = Shape> {
  #private;
  constructor(shape: S);
  readonly shape: S;
}

/**
 * A field of a map shape that may be absent (the key stays absent) or nil
 * (null): `{ frames: [S], meta: optional({ gps: Float64Array }) }`. A field
 * not so marked must be there (FastmpError 'MISSING', with its path).
 */
export function optional<const S extends Shape>(shape: S): Optional<S>;

/** The shapes of a typed array in a message: a typed-array constructor, or Boolean / BoolArray for booleans. */
export type TypedShape = PackableArrayType | Float16ArrayConstructorIfDeclared | BooleanConstructor | typeof BoolArray;

/**
 * What the decoder is told about a message (its `shape` option); it mirrors
 * the message:
 * - Float32Array, Int16Array, ... : a numeric msgpack array there is read into
 *   that typed array (range-checked as unpack() does), as is a bin of whole
 *   little-endian elements or a typed-array ext (0x74) of that type;
 * - Boolean or BoolArray: an array of booleans, into a Uint8Array of 0 / 1;
 * - `[S]`: an array, each element by S;
 * - `{ key: S, ... }`: a map whose listed keys have their shapes, each of
 *   which must be there ('MISSING'), unless it is `optional(S)` (other keys decode as usual);
 * - mapOf(S): a map whose every value is S.
 * Anything else at a shaped position is a DecodeError 'TYPE'; a bad shape a TypeError.
 * A shape kept in a `const` types decode()'s result as well as one written in
 * the call (see DecodedBy): `[S]` may be an array type or a one-element tuple.
 */
export type Shape = TypedShape | readonly Shape[] | MapOf | { readonly [key: string]: Shape | Optional };

/**
 * What decode() returns for a shape S: `DecodedBy<{ v: Float32ArrayConstructor }>`
 * is `{ v: Float32Array<ArrayBuffer>; [key: string]: unknown }` (a listed key is
 * there, or the decode fails; one marked optional(S) may be absent or null;
 * keys not listed are any value). For the general type `Shape` (a shape not
 * known statically), `unknown`.
 */
export type DecodedBy<S> =
  Shape extends S ? unknown
  : S extends PackableArrayType | Float16ArrayConstructorIfDeclared ? TypedArrayOf<S>
  : S extends BooleanConstructor | typeof BoolArray ? OwnUint8Array
  : S extends MapOf<infer E> ? { [key: string]: DecodedBy<E> }
  : S extends readonly (infer E)[] ? DecodedBy<E>[]
  : S extends object ? DecodedFields<S> & { [key: string]: unknown }
  : never;

/** The fields of a map shape S as decode() gives them: required ones, and optional(S) ones that may be absent or null. */
export type DecodedFields<S> =
  { -readonly [K in keyof S as S[K] extends Optional ? never : K]: DecodedBy<S[K]> }
  & { -readonly [K in keyof S as S[K] extends Optional ? K : never]?: S[K] extends Optional<infer E> ? DecodedBy<E> | null : never };

/**
 * The `context` option, passed to the extensions: required where ContextType
 * does not admit undefined, since the extensions are typed to receive a
 * ContextType and get undefined without it (as @msgpack/msgpack's types
 * require it: `ExtensionCodec<Ctx>` then needs `context`).
 */
type ContextOption<ContextType> = undefined extends ContextType ? { context?: ContextType } : { context: ContextType };

/** T, from which TypeScript infers nothing (NoInfer<T>, which TypeScript 5.4 brought, before it). */
type NotInferred<T> = [T][T extends unknown ? 0 : never];

/**
 * S with each array shape that has no element or several (`[]`, `[A, B]`: a
 * TypeError when the shape is compiled, "an array shape is [S] with one
 * element") made never, so that the `shape` option refuses it; an array
 * type (`S[]`, as a shape kept in a const is typed) is taken as `[S]`, and
 * the general type Shape as it is.
 */
type CheckedShape<S> =
  Shape extends S ? S // (a shape not known statically)
  : S extends readonly unknown[] ? (S extends readonly [unknown] ? readonly [CheckedShape<S[0]>] : number extends S['length'] ? readonly CheckedShape<S[number]>[] : never)
  : S extends MapOf<infer E> ? MapOf<CheckedShape<E> & Shape>
  : S extends Optional<infer E> ? Optional<CheckedShape<E> & Shape>
  : S extends Function ? S
  : S extends object ? { [K in keyof S]: CheckedShape<S[K]> }
  : S;

/** Options of encode() and of an Encoder. Unknown keys and wrong types are TypeErrors. */
export type EncoderOptions<ContextType = undefined> = EncoderOwnOptions<ContextType> & ContextOption<ContextType>;

/** The options of EncoderOptions but `context`. */
interface EncoderOwnOptions<ContextType> {
  /** Extension types (default: timestamps only); fastmp's or @msgpack/msgpack's. */
  extensionCodec?: ExtensionCodecType<ContextType>;
  /** BigInts as int64 / uint64 (else a BigInt is for an extension to take), and safe integers beyond 32 bits as float64. Default false. */
  useBigInt64?: boolean;
  /** The deepest nesting written, the top value being depth 1 (default 100); beyond it a FastmpError 'DEPTH'. */
  maxDepth?: number;
  /** The output buffer's first capacity in bytes, 1 to 2^31 (default 2048). */
  initialBufferSize?: number;
  /** Map keys sorted (canonical output; a `Map` must then have string keys only). Default false. */
  sortKeys?: boolean;
  /** Numbers that are not integers as float32 (default false: float64). */
  forceFloat32?: boolean;
  /** Map entries whose value is undefined left out (default false: written as nil). */
  ignoreUndefined?: boolean;
  /** Integers as floats too (float32 with forceFloat32), a `Map`'s integer keys included. Default false. */
  forceIntegerToFloat?: boolean;
  /**
   * How typed arrays other than Uint8Array (always a bin) are written:
   * 'array' (default) a standard msgpack array, as pack(x, { bin: false })
   * writes it; 'ext' msgpackr's typed-array ext 0x74; 'bin' their raw bytes.
   * A Float16Array is written as a Float32Array of its values ('array', 'ext'),
   * or as its raw bytes ('bin').
   */
  typedArrays?: 'array' | 'ext' | 'bin';
}

/** The map-key cache of a decoder: fastmp's or @msgpack/msgpack's CachedKeyDecoder fits. */
export interface KeyDecoder {
  canBeCached(byteLength: number): boolean;
  /** The key in bytes[start, start + byteLength). (fastmp's own cache returns undefined for bytes that are not UTF-8; a key of yours that is neither a string nor a number is refused as `KEY`, where no mapKeyConverter takes it.) */
  decode(bytes: Uint8Array, start: number, byteLength: number): string | undefined;
}

/** Options of decode() and of a Decoder. Unknown keys and wrong types are TypeErrors. */
export type DecoderOptions<ContextType = undefined, S extends Shape = Shape> =
  DecoderOwnOptions<ContextType, S> & ContextOption<ContextType> & { shape?: CheckedShape<NotInferred<S>> };

/** The options of DecoderOptions but `context`. */
interface DecoderOwnOptions<ContextType, S extends Shape> {
  /** Extension types (default: timestamps only); fastmp's or @msgpack/msgpack's. */
  extensionCodec?: ExtensionCodecType<ContextType>;
  /** int64 / uint64 as BigInt (default false: a number, rounded beyond 2^53). */
  useBigInt64?: boolean;
  /** str values (not map keys) as Uint8Array views of the input (default false: strings). */
  rawStrings?: boolean;
  /** The longest str in bytes (default 2^32-1); beyond it a FastmpError 'MAX_LENGTH'. The same for the four below. */
  maxStrLength?: number;
  /** The longest bin in bytes (default 2^32-1). */
  maxBinLength?: number;
  /** The most array elements (default 2^32-1). */
  maxArrayLength?: number;
  /** The most map entries (default 2^32-1). */
  maxMapLength?: number;
  /** The longest ext payload in bytes (default 2^32-1). */
  maxExtLength?: number;
  /** The map-key cache (default: a shared one); null: none. */
  keyDecoder?: KeyDecoder | null;
  /** Turns every map key into a property key (a result of another type is made a string). */
  mapKeyConverter?: (key: unknown) => PropertyKey;
  /** The deepest nesting read, the top value being depth 1 (default 100); beyond it a FastmpError 'DEPTH'. */
  maxDepth?: number;
  /** Where typed arrays are in the message (see Shape); compiled once per shape object. */
  shape?: S;
  /** Integer typed arrays of the shape accept floats that are exact integers in range (default false). */
  integralFloats?: boolean;
  /**
   * Decode the shape's typed-array fields into the arrays this Decoder returned
   * for the same fields last time, when the lengths match (default false):
   * same-shaped messages then allocate no typed array. A returned typed array
   * is valid until this Decoder's next decode, which overwrites it (in a
   * stream: until the next value is asked for). Needs `shape`; Float16Array fields are not
   * reused. Use it on a `new Decoder()` you keep.
   */
  reuseTypedArrays?: boolean;
}

/**
 * A value as MessagePack, in a new array. A Uint8Array is a bin; other typed
 * arrays are written as `options.typedArrays` says; a Date is a timestamp;
 * a Map is a map of its entries, a Set an array of its values; values
 * nothing can encode are a FastmpError 'TYPE'.
 */
export function encode<ContextType = undefined>(value: unknown, options?: EncoderOptions<ContextType>): OwnUint8Array;

/**
 * encode() into target[offset...]; returns the offset after the message.
 * Allocates no output. A message that does not fit is a RangeError whose
 * `needed` is its size. An output of fastmp's own (packView(),
 * encodeSharedRef()) is no target: a TypeError, or 'STALE' once expired.
 */
export function encodeInto<ContextType = undefined>(
  value: unknown, target: Uint8Array, offset?: number, options?: EncoderOptions<ContextType>,
): number;

/**
 * The one value that fills `bytes` (bytes after it: FastmpError 'TRAILING').
 * With `options.shape`, its type follows the shape (DecodedBy); else unknown.
 */
export function decode<ContextType = undefined, const S extends Shape = Shape>(
  bytes: DecodeInput, options?: DecoderOptions<ContextType, S>,
): DecodedBy<S>;

/** The value at the start of `bytes`, and the offset just past it (`Decoder#decodeFrom` takes an offset). */
export function decodeFrom<ContextType = undefined, const S extends Shape = Shape>(
  bytes: DecodeInput, options?: DecoderOptions<ContextType, S>,
): { value: DecodedBy<S>; end: number };

/** The values of `bytes`, one after another. */
export function decodeMulti<ContextType = undefined, const S extends Shape = Shape>(
  bytes: DecodeInput, options?: DecoderOptions<ContextType, S>,
): Generator<DecodedBy<S>, void, unknown>;

/** The one value a stream of chunks holds (bytes after it: 'TRAILING'; a stream that ends early: 'TRUNCATED', or 'LENGTH' inside a str, bin or ext). */
export function decodeAsync<ContextType = undefined, const S extends Shape = Shape>(
  stream: DecodeStream, options?: DecoderOptions<ContextType, S>,
): Promise<DecodedBy<S>>;

/** The values of a stream of chunks, each as soon as it is complete. */
export function decodeMultiStream<ContextType = undefined, const S extends Shape = Shape>(
  stream: DecodeStream, options?: DecoderOptions<ContextType, S>,
): AsyncGenerator<DecodedBy<S>, void, unknown>;

/** The elements of the one array a stream of chunks holds, each as soon as it is complete (a shape applies to each element). */
export function decodeArrayStream<ContextType = undefined, const S extends Shape = Shape>(
  stream: DecodeStream, options?: DecoderOptions<ContextType, S>,
): AsyncGenerator<DecodedBy<S>, void, unknown>;

/**
 * An encoder with fixed options that keeps its output buffer between calls:
 * reuse one on hot paths. The module's class encodes on the default instance
 * (as it is when the Encoder is made); `fm.Encoder` on the instance fm.
 */
export class Encoder<ContextType = undefined> {
  // What the class keeps and calls inside (its fields and internal methods), named so that a
  // subclass cannot declare a member of the same name, which would replace the codec's own
  // (as @msgpack/msgpack's declarations name theirs; test/audit-types2.test.js holds the list
  // to the class at run time).
  private config; private port; private outputs; private extensionCodec; private context; private useBigInt64;
  private maxDepth; private initialBufferSize; private sortKeys; private forceFloat32; private ignoreUndefined;
  private forceIntegerToFloat; private typedArrays; private store; private shared; private bytes; private view;
  private pos; private base; private entered; private fastDates; private noExtensions; private outputsOf;
  private session; private clone; private run; private grow; private roomFor; private growAt; private tooDeep;
  private encodeAny; private writeByte; private writeNumber; private writeFloat; private writeBigInt;
  private writeString; private writeLongString; private writeUtf8; private putHeader;
  private writeContainerHeader; private encodeObject; private writeArray; private writeOtherObject;
  private writeMap; private writeMapEntries; private writeSetValues; private writeMapWithoutUndefined;
  private writeView; private writeBools; private writeTypedArray; private writeBin; private writeTypedExt;
  private writeExt; private extBytes; private extTooLong; private writeExtHeader; private writeDate;
  constructor(options?: EncoderOptions<ContextType>);
  /** The value as MessagePack, in a new array. */
  encode(value: unknown): OwnUint8Array;
  /**
   * encode() without a fresh array: a view of a buffer the encoder keeps (in
   * JS memory) and reuses, valid until its next call ends (which may read
   * it) or dispose(). An expired view given to fastmp is a FastmpError 'STALE'.
   */
  encodeSharedRef(value: unknown): OwnUint8Array;
  /**
   * Into target[offset...] (offset default 0); returns the offset after the
   * message. Too small: RangeError with `needed`. An output of fastmp's own
   * is no target (TypeError; 'STALE' once expired).
   */
  encodeInto(value: unknown, target: Uint8Array, offset?: number): number;
  /**
   * The latest encodeSharedRef() output expires and the encoder lets go of
   * its buffer (the next encodeSharedRef() makes another). Also under
   * Symbol.dispose where the engine has it (not declared here: that needs
   * TypeScript's esnext.disposable lib).
   */
  dispose(): void;
}

/**
 * A decoder with fixed options (and shape: its results are typed by it).
 * The module's class decodes on the default instance (as it is when the
 * Decoder is made); `fm.Decoder` on the instance fm.
 */
export class Decoder<ContextType = undefined, const S extends Shape = Shape> {
  // What the class keeps and calls inside (its fields and internal methods), named so that a
  // subclass cannot declare a member of the same name, which would replace the codec's own
  // (as @msgpack/msgpack's declarations name theirs; test/audit-types2.test.js holds the list
  // to the class at run time).
  private config; private port; private extras; private cursor; private extensionCodec; private context;
  private useBigInt64; private rawStrings; private maxStrLength; private maxBinLength; private maxArrayLength;
  private maxMapLength; private maxExtLength; private mapKeyConverter; private maxDepth; private shape;
  private integralFloats; private reuseTypedArrays; private keyDecoder; private keys; private bytes;
  private view; private pos; private end; private reader; private entered; private copiesBytes;
  private copyBytes; private streamAt; private copies; private scanner; private topDepth; private element;
  private kept; private keptBuffers; private decodes; private leave; private mustCopy; private extrasOf;
  private clone; private forStream; private readElements; private setInput; private readTop; private truncated;
  private tooLong; private overLimit; private tooDeep; private need; private readAny; private readTagged;
  private lengthAfter; private readInt64; private readStr; private readText; private notUtf8; private readBin;
  private bytesAt; private readArray; private readTypedFields; private checkArray; private checkArrayLimits;
  private readMap; private readFields; private readNil; private checkFields; private checkMap; private readKey;
  private readKeyText; private badKey; private extLength; private readExt; private extValue;
  private afterUserCode; private readShaped; private peekTag; private readShapedArray; private readShapedMap;
  private arrayHeader; private mapHeader; private readTypedField; private typedInJs; private typedFromArray;
  private typedByKernel; private keptArray; private keptSlot; private keptOf; private typedFromBin;
  private typedFromExtAt; private notShaped; private extTypeAt; private record;
  constructor(options?: DecoderOptions<ContextType, S>);
  /** The one value that fills `bytes` (bytes after it: 'TRAILING'). */
  decode(bytes: DecodeInput): DecodedBy<S>;
  /** The value at bytes[offset] (offset default 0), and the offset just past it. */
  decodeFrom(bytes: DecodeInput, offset?: number): { value: DecodedBy<S>; end: number };
  /** The values of `bytes`, one after another. */
  decodeMulti(bytes: DecodeInput): Generator<DecodedBy<S>, void, unknown>;
  /** The one value a stream of chunks holds. */
  decodeAsync(stream: DecodeStream): Promise<DecodedBy<S>>;
  /** The values of a stream of chunks, each as soon as it is complete (decodeMultiStream()). */
  decodeStream(stream: DecodeStream): AsyncGenerator<DecodedBy<S>, void, unknown>;
  /** The elements of the one array a stream of chunks holds, each as soon as it is complete. */
  decodeArrayStream(stream: DecodeStream): AsyncGenerator<DecodedBy<S>, void, unknown>;
}

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
  // a DecodeError made by code of yours as @msgpack/msgpack's: new DecodeError(message)
  | 'DECODE'
  | StringErrorCode
  | MessageErrorCode
  // misuse, with `index` and `offset` -1: a packView() output passed in after
  // a later call (STALE), an alloc() array after free() (FREED), an input
  // whose buffer is detached, e.g. transferred (DETACHED)
  | 'STALE' | 'FREED' | 'DETACHED'
  // alloc(), packView(), packBoolView(): before the pack kernels have loaded
  // (NOT_READY); alloc() on an instance that runs no wasm (NO_WASM)
  | 'NOT_READY' | 'NO_WASM';

/**
 * Codes of the string and DER functions (a DER input cut short is 'TRUNCATED').
 * SURROGATE, ODD_LENGTH and RANGE name the char (`index`) and its byte
 * (`offset`: in the output when encoding, in the input when decoding); the
 * DER_* codes name the byte of the tag or of the length, with `index` -1.
 */
export type StringErrorCode =
  | 'SURROGATE' | 'ODD_LENGTH' | 'RANGE'
  | 'DER_TAG' | 'DER_CONSTRUCTED' | 'DER_INDEFINITE' | 'DER_NONMINIMAL' | 'DER_LENGTH';

/**
 * Codes that only the message codec (encode / decode) gives; it also gives
 * TRUNCATED, LENGTH (decode: a length beyond the input; encode: a str, bin or
 * ext beyond 2^32-1 bytes), TRAILING, TYPE (a shaped position holding
 * something else; encode: a value nothing can encode) and RANGE (a shaped
 * integer out of range; encode: a BigInt beyond 64 bits).
 */
export type MessageErrorCode =
  // the byte 0xc1, which msgpack never uses
  | 'TAG'
  // a length beyond a max*Length option
  | 'MAX_LENGTH'
  // nesting beyond maxDepth (encode or decode; a cyclic value ends here)
  | 'DEPTH'
  // a str that is not UTF-8
  | 'UTF8'
  // a map key that is not a string or number, or is __proto__
  | 'KEY'
  // a malformed timestamp or typed-array ext
  | 'EXT'
  // a msgpackr record (ext 0x72)
  | 'UNSUPPORTED'
  // a map without a field its shape names (not optional(S))
  | 'MISSING';

/**
 * Bad input: what is wrong (`code`), where (`index`: element or char, or -1;
 * `offset`: byte). Every error fastmp throws about its input is a FastmpError
 * (name 'FastmpError'); msgpack input that cannot be decoded is a DecodeError,
 * and input that ends too early or goes on after the value ('TRUNCATED',
 * 'LENGTH', 'TRAILING') a RangeError as well, as @msgpack/msgpack throws there.
 */
export class FastmpError extends Error {
  readonly name: 'FastmpError';
  readonly code: FastmpErrorCode;
  /** The element (or char) at fault, or -1 when the fault is in none (a header, trailing bytes). */
  readonly index: number;
  /** Byte offset of the fault in the input (the message codec's encode: in the output; in streams: from the first byte of the value at fault). */
  readonly offset: number;
  /** RANGE and SURROGATE (and TYPE for a float into an integer array): the element's value (a string function's: the char's code unit). */
  readonly value?: number | bigint;
  /** Set by the message codec: where in the message the fault is, from the root (`$.frames[3].accel`). */
  readonly path?: string;
  /**
   * Decoder's TRUNCATED and LENGTH: the input length that could complete the
   * value (what a stream waits for).
   */
  readonly needed?: number;
  /** Errors of a stream: where the value at fault (or the bytes after the last value) starts in the stream. */
  readonly streamOffset?: number;
  constructor(code: FastmpErrorCode, message: string, index: number, offset: number, value?: number | bigint);
}

/**
 * msgpack input that cannot be decoded (@msgpack/msgpack's DecodeError): every
 * decode error of the codec and of unpack(). One that is also a RangeError
 * (input cut short, or going on after the value) is an instance of both.
 */
export class DecodeError extends FastmpError {
  /** As @msgpack/msgpack's: a DecodeError of your own code (an extension's decoder), code 'DECODE'. */
  constructor(message: string);
  /** index and offset: -1 when left out. */
  constructor(code: FastmpErrorCode, message: string, index?: number, offset?: number, value?: number | bigint);
}

/**
 * The message codec as one object, with @msgpack/msgpack's names, for
 * `import msgpack from 'fastmp-wasm'` (as code written against
 * @msgpack/msgpack's CommonJS build imports it).
 */
declare const msgpackApi: {
  encode: typeof encode;
  decode: typeof decode;
  decodeMulti: typeof decodeMulti;
  decodeAsync: typeof decodeAsync;
  decodeArrayStream: typeof decodeArrayStream;
  decodeMultiStream: typeof decodeMultiStream;
  Encoder: typeof Encoder;
  Decoder: typeof Decoder;
  ExtensionCodec: typeof ExtensionCodec;
  ExtData: typeof ExtData;
  DecodeError: typeof DecodeError;
  EXT_TIMESTAMP: typeof EXT_TIMESTAMP;
  encodeDateToTimeSpec: typeof encodeDateToTimeSpec;
  encodeTimeSpecToTimestamp: typeof encodeTimeSpecToTimestamp;
  decodeTimestampToTimeSpec: typeof decodeTimestampToTimeSpec;
  encodeTimestampExtension: typeof encodeTimestampExtension;
  decodeTimestampExtension: typeof decodeTimestampExtension;
};
export default msgpackApi;
