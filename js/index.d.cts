// Type declarations for CommonJS consumers: `require('fastmp-wasm')` (Node:
// js/node.cjs, ready on return) and `require('fastmp-wasm/inline')`.
//
//   import fastmp = require('fastmp-wasm');   // TypeScript, --module node16 / nodenext
//   const { pack, unpack } = require('fastmp-wasm');
//
// The API itself is declared once, in index.d.ts; this file hands the same
// declarations to require(). Its namespace repeats the names of the types
// (not their definitions), so that `fastmp.Backend` etc. name them.
//
// The import below is of types only (it loads nothing), and './index.js' is
// the same file in either resolution mode; still TypeScript reports it in a
// CommonJS file (TS1479 or TS1541, by version) unless it carries
// `with { 'resolution-mode': 'import' }`, which TypeScript before 5.3 cannot
// parse. The @ts-ignore silences that one diagnostic instead, so that this
// file compiles from TypeScript 5.0; test/types.test.js checks, on 5.0 and on
// the repo's TypeScript, that the types still arrive.
// @ts-ignore: type-only import of an ES module from a CommonJS one (TS1479, TS1541)
import type * as api from './index.js';

declare const fastmp: typeof api;

declare namespace fastmp {
  export type Backend = api.Backend;
  export type FloatArray = api.FloatArray;
  export type IntArray = api.IntArray;
  export type BigIntArray = api.BigIntArray;
  export type PackableArray = api.PackableArray;
  export type PackableArrayType = api.PackableArrayType;
  export type TypedArrayOf<T extends Parameters<typeof api.unpack>[1]> = api.TypedArrayOf<T>;
  export type Bytes = api.Bytes;
  export type PackOptions = api.PackOptions;
  export type UnpackOptions = api.UnpackOptions;
  export type InitOptions = api.InitOptions;
  export type InitSyncOptions = api.InitSyncOptions;
  export type Fastmp = api.Fastmp;
  export type Chars = api.Chars;
  export type ReadString = api.ReadString;
  export type DecodeInput = api.DecodeInput;
  export type DecodeStream = api.DecodeStream;
  export type ExtensionEncoder<ContextType = undefined> = api.ExtensionEncoder<ContextType>;
  export type ExtensionDecoder<ContextType = undefined> = api.ExtensionDecoder<ContextType>;
  export type ExtensionEncoderType<ContextType = undefined> = api.ExtensionEncoderType<ContextType>;
  export type ExtensionDecoderType<ContextType = undefined> = api.ExtensionDecoderType<ContextType>;
  export type Extension<ContextType = undefined> = api.Extension<ContextType>;
  export type ExtensionCodecType<ContextType = undefined> = api.ExtensionCodecType<ContextType>;
  export type ExtData = api.ExtData;
  export type ExtensionCodec<ContextType = undefined> = api.ExtensionCodec<ContextType>;
  export type TimeSpec = api.TimeSpec;
  export type BoolArray = api.BoolArray;
  export type MapOf<S extends api.Shape = api.Shape> = api.MapOf<S>;
  export type Optional<S extends api.Shape = api.Shape> = api.Optional<S>;
  export type TypedShape = api.TypedShape;
  export type Shape = api.Shape;
  export type DecodedBy<S> = api.DecodedBy<S>;
  export type DecodedFields<S> = api.DecodedFields<S>;
  export type EncoderOptions<ContextType = undefined> = api.EncoderOptions<ContextType>;
  export type KeyDecoder = api.KeyDecoder;
  export type DecoderOptions<ContextType = undefined, S extends api.Shape = api.Shape> = api.DecoderOptions<ContextType, S>;
  export type Encoder<ContextType = undefined> = api.Encoder<ContextType>;
  export type Decoder<ContextType = undefined, S extends api.Shape = api.Shape> = api.Decoder<ContextType, S>;
  export type FastmpErrorCode = api.FastmpErrorCode;
  export type StringErrorCode = api.StringErrorCode;
  export type MessageErrorCode = api.MessageErrorCode;
  export type FastmpError = api.FastmpError;
  export type DecodeError = api.DecodeError;
}

export = fastmp;
