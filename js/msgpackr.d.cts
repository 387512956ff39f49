// Type declarations for `require('fastmp-wasm/msgpackr')` (js/msgpackr.cjs):
// the same declarations as msgpackr.d.ts, handed to require().
//
//   import plugin = require('fastmp-wasm/msgpackr');   // TypeScript, --module node16 / nodenext
//   const { useFastmpForTypedArrays } = require('fastmp-wasm/msgpackr');

// The import is of types only; why it carries a @ts-ignore, and no
// resolution-mode attribute: see index.d.cts.
// @ts-ignore: type-only import of an ES module from a CommonJS one (TS1479, TS1541)
import type * as api from './msgpackr.js';

declare const plugin: typeof api;

declare namespace plugin {
  export type MsgpackrWithExtensions = api.MsgpackrWithExtensions;
}

export = plugin;
