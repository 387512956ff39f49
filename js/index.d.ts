// Type declarations of fastmp-wasm (the browser entry js/index.js and the
// Node entry js/node.js export the same API).

/** The build that runs the kernels. */
export type Backend = 'simd' | 'scalar';

/** Typed arrays that pack() takes. */
export type FloatArray = Float32Array | Float64Array;

/** Constructors of the typed arrays that unpack() fills. */
export type FloatArrayType = Float32ArrayConstructor | Float64ArrayConstructor;

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

/** The backend in use; throws before init(). */
export function backend(): Backend;

/** True when this engine runs wasm SIMD128. */
export function simdSupported(): boolean;

/**
 * Packs a Float32Array (as float32 elements, 0xca) or a Float64Array (as
 * float64 elements, 0xcb) into a standard msgpack array, bit for bit.
 */
export function pack(x: FloatArray): Uint8Array;

/**
 * Unpacks a msgpack array of numbers (any int or float form) that fills the
 * whole input. Trailing bytes are a FastmpError with code 'TRAILING'.
 */
export function unpack(bytes: Uint8Array | ArrayBufferLike, type: Float32ArrayConstructor): Float32Array;
export function unpack(bytes: Uint8Array | ArrayBufferLike, type: Float64ArrayConstructor): Float64Array;

/** Unpacks the array that starts at bytes[offset]; `end` is the offset just past it. */
export function unpackFrom(bytes: Uint8Array | ArrayBufferLike, type: Float32ArrayConstructor, offset?: number): { value: Float32Array; end: number };
export function unpackFrom(bytes: Uint8Array | ArrayBufferLike, type: Float64ArrayConstructor, offset?: number): { value: Float64Array; end: number };

/** Bytes of wasm linear memory, and of the scratch region inputs and outputs pass through. */
export function memoryStats(): { wasmMemory: number; scratch: number };

/** What a FastmpError's `code` can be. */
export type FastmpErrorCode = 'NOT_ARRAY' | 'TRUNCATED' | 'LENGTH' | 'TYPE' | 'TRAILING' | StringErrorCode;

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

/** Bytes to decode. */
export type Bytes = Uint8Array | ArrayBufferLike;

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
}
