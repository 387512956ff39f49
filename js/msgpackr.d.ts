// fastmp-wasm/msgpackr: makes msgpackr write typed arrays as standard msgpack
// arrays by fastmp's kernels. See js/msgpackr.js for the details.

import type { PackableArrayType } from './index.js';

/** What useFastmpForTypedArrays needs of msgpackr: its addExtension (pass the module). */
export interface MsgpackrWithExtensions {
  addExtension(extension: any): void;
}

/** Float16ArrayConstructor where the lib the consumer compiles with declares it, else never. */
type Float16ArrayConstructorIfDeclared = typeof globalThis extends { Float16Array: infer C } ? C : never;

/**
 * The classes whose instances msgpackr writes as standard arrays once
 * registered: every type that pack() takes but the bytes, which stay bin
 * (Float16Array at run time only where the engine has it).
 */
export const typedArrayClasses: readonly (Exclude<PackableArrayType, Uint8ArrayConstructor | Uint8ClampedArrayConstructor> | Float16ArrayConstructorIfDeclared)[];

/**
 * Registers with `msgpackr` (`import * as msgpackr from 'msgpackr'`) an
 * extension per class in typedArrayClasses, so that msgpackr writes those
 * typed arrays as standard msgpack arrays, exactly as fastmp's
 * `pack(x)` does. Bytes (Uint8Array, Buffer, Uint8ClampedArray) stay `bin`.
 *
 * PROCESS-WIDE (msgpackr #93): every Packr of that msgpackr copy in the
 * process changes, `moreTypes` ones included; it cannot be undone. msgpackr
 * still decodes standard arrays as plain JS arrays; decode with fastmp
 * (`decode(bytes, { shape })`) to get typed arrays back. Works from the first
 * call (in pure JS until the kernels have loaded: `await init()` to have them
 * from the first pack). A Packr with `useFloat32` DECIMAL_ROUND or DECIMAL_FIT
 * writes a Float32Array (and a Float16Array) as float 64s (its reader rounds float32s).
 *
 * @returns true when it registered, false when that msgpackr was already registered.
 */
export function useFastmpForTypedArrays(msgpackr: MsgpackrWithExtensions): boolean;
