// csp.js - what test/csp.test.js runs in a page whose Content Security Policy
// may forbid compiling wasm: the result goes to globalThis.cspResult.
import * as fastmp from '/js/index.js';
import * as inline from '/js/inline.js';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

async function run() {
  const result = {};
  result.init = await fastmp.init();
  result.backend = fastmp.backend();
  const x = new Float32Array([1.5, -2, 3.25, NaN]);
  result.packed = hex(fastmp.pack(x));
  result.roundTrip = Array.from(fastmp.unpack(fastmp.pack(x), Float32Array)).map(String);
  const message = fastmp.encode({ v: new Float32Array([0.5, 1]), n: 'x' });
  result.message = hex(message);
  result.decoded = Array.from(fastmp.decode(message, { shape: { v: Float32Array } }).v);
  result.bmp = fastmp.decodeBMP(fastmp.encodeBMP('Grüße'));
  result.explicitJs = (await fastmp.createFastmp({ backend: 'js' })).backend();
  try {
    result.forcedSimd = (await fastmp.createFastmp({ backend: 'simd' })).backend();
  } catch (e) {
    result.forcedSimd = `error: ${e.name}`;
  }
  result.inline = await inline.init();
  return result;
}

run().then((r) => { globalThis.cspResult = r; }, (e) => { globalThis.cspResult = { failed: String(e) }; });
