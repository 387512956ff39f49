// index.js - what an instance (js/instance.js) needs of the boundary as a
// whole: a boundary over a wasm module's exports or none, its growth
// notification, and memoryStats(). Every family's calls are in the other
// files of this folder; the core (core.js) is theirs alone.

import { Boundary, noWasmBoundary } from './core.js';

/** The boundary of a wasm module's instance (its exports), or of no wasm (null). */
export const newBoundary = (exports) => (exports === null ? noWasmBoundary() : new Boundary(exports));

/** What the module calls when its memory has grown (emscripten_notify_memory_growth). */
export const memoryGrew = (b) => b.refreshViews();

/** What memoryStats() reports. */
export const boundaryStats = (b) => (b.memory === null ? { wasmMemory: 0, scratch: 0 } : { wasmMemory: b.memory.buffer.byteLength, scratch: b.capacity });
