// Float16Array where the consumer's lib declares it (lib esnext; type-checked
// by types.test.js with tsconfig.float16.json): the CommonJS declarations
// take it where the ES module ones do.
import fastmp = require('fastmp-wasm');

export const halves: fastmp.TypedArrayOf<Float16ArrayConstructor> = fastmp.unpack(fastmp.pack(new Float16Array([1])), Float16Array);
