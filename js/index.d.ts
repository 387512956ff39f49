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
export type FastmpErrorCode = 'NOT_ARRAY' | 'TRUNCATED' | 'LENGTH' | 'TYPE' | 'TRAILING';

/** Bad input: what is wrong (`code`), where (`index`: element or -1, `offset`: byte). */
export class FastmpError extends Error {
  readonly name: 'FastmpError';
  readonly code: FastmpErrorCode;
  /** The element at fault, or -1 when the fault is in no element (the header, trailing bytes). */
  readonly index: number;
  /** Byte offset of the fault in the input. */
  readonly offset: number;
}
