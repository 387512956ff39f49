// Type declarations for `require('fastmp-wasm/msgpackr')` (js/msgpackr.cjs):
// the same declarations as msgpackr.d.ts, handed to require().
//
//   import plugin = require('fastmp-wasm/msgpackr');   // TypeScript, --module node16 / nodenext
//   const { useFastmpForTypedArrays } = require('fastmp-wasm/msgpackr');

import type * as api from './msgpackr.js' with { 'resolution-mode': 'import' };

declare const plugin: typeof api;

declare namespace plugin {
  export type MsgpackrWithExtensions = api.MsgpackrWithExtensions;
}

export = plugin;
