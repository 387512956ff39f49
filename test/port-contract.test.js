// port-contract.test.js - every codec port (js/codec/port-contract.js) has
// what the contract names: the pure-JS port and each wasm build's, with and
// without pure-JS limits, exactly those members, and the halves an Encoder
// and a Decoder take exactly theirs; each port's stores and readers have the
// members the codec uses. A member the codec starts to use goes into
// PORT_MEMBERS, or a port that lacks it fails here.

import { describe, expect, test } from 'vitest';
import { ExtensionCodec, makeCodec } from '../js/codec/index.js';
import { jsDecodingPort, jsEncodingPort, jsPort } from '../js/codec/port-js.js';
import { PORT_MEMBERS } from '../js/codec/port-contract.js';
import { CODEC_PORT, decodingPortOf, encodingPortOf } from '../js/families.js';
import { createFastmpSync, pack } from '../js/node.js';
import { current } from '../js/instance.js';
import { KIND_OF_NAME } from '../js/kinds.js';

const sorted = (list) => [...list].sort();
const PORT = sorted(new Set([...PORT_MEMBERS.EncodingPort, ...PORT_MEMBERS.DecodingPort])); // (detachedError: in both halves)

/** The own members of a store or reader, and the methods of its class. */
function surface(o) {
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(o)).filter((k) => k !== 'constructor');
  return new Set([...Object.keys(o), ...methods]);
}

const PORTS = [
  ['pure-JS', jsPort],
  ...['simd', 'scalar'].flatMap((backend) => ['never', 'auto', 'always'].map((pureJs) => [`wasm ${backend}, pureJs ${pureJs}`, createFastmpSync({ backend, pureJs })[CODEC_PORT]])),
  ['backend js', createFastmpSync({ backend: 'js' })[CODEC_PORT]],
];

test('the halves an Encoder and a Decoder take have exactly their half of the contract', () => {
  expect(Object.keys(PORT_MEMBERS).sort()).toEqual(['DecodingPort', 'EncodingPort', 'Reader', 'Store']);
  for (const [name, port, half] of [
    ['pure-JS encoding', jsEncodingPort, 'EncodingPort'], ['pure-JS decoding', jsDecodingPort, 'DecodingPort'],
    ['default instance encoding', encodingPortOf(current()), 'EncodingPort'], ['default instance decoding', decodingPortOf(current()), 'DecodingPort'],
  ]) {
    expect(sorted(Object.keys(port)), name).toEqual(sorted(PORT_MEMBERS[half]));
    expect(Object.isFrozen(port), name).toBe(true);
  }
});

describe.each(PORTS)('%s', (name, port) => {
  test('the port has exactly the members of both halves', () => {
    expect(sorted(Object.keys(port))).toEqual(PORT);
    expect(typeof port.newOutput).toBe('function');
    expect(typeof port.checkInput).toBe('function');
    expect(port.unpackInJsBelow.every((n) => typeof n === 'number')).toBe(true);
    // A reader exactly where some field goes to one.
    expect(typeof port.typedReader).toBe(port.unpackInJsBelow.every((n) => n === Infinity) ? 'undefined' : 'function');
  });

  test('a store has the members the codec uses, and writes what pack() writes', () => {
    const store = port.newOutput(16);
    try {
      const has = surface(store);
      for (const m of PORT_MEMBERS.Store) expect(has.has(m), `store.${m}`).toBe(true);
      expect(store.use).toBe(0);
      store.start();
      const x = Float32Array.of(1.5, -2, 3);
      const end = store.writeTyped(KIND_OF_NAME.get('Float32Array'), x, x.length, 0);
      store.stop();
      expect(store.take(end)).toEqual(pack(x));
    } finally {
      store.release();
    }
  });

  // The aliasing rule (js/shared-refs.js checkStoreBytes(), stated once for every port).
  test('a view made of an encodeSharedRef() output is read while the output lives, STALE once it expired', () => {
    const codec = makeCodec(port);
    const encoder = new codec.Encoder();
    const out = encoder.encodeSharedRef({ k: 'hello' });
    const derived = out.subarray(0, out.length);
    expect(codec.decode(derived)).toEqual({ k: 'hello' });
    expect(codec.decode(codec.encode({ a: derived })).a).toEqual(out.slice());
    encoder.encodeSharedRef({ x: 1 }); // `out` expires; its store goes back to the pool
    for (const call of [() => codec.encode({ a: derived }), () => codec.decode(derived), () => codec.encode({ a: out })]) {
      expect(call).toThrow(expect.objectContaining({ code: 'STALE' }));
    }
  });

  test('a live encodeSharedRef() output is decoded as it was, while an extension encodes with its encoder again', () => {
    class Mark {}
    const codec = makeCodec(port);
    const extensions = new ExtensionCodec();
    const encoder = new codec.Encoder({ extensionCodec: extensions });
    extensions.register({
      type: 1,
      encode: (v) => (v instanceof Mark ? Uint8Array.of(0) : null),
      decode: () => {
        encoder.encodeSharedRef(['zzzzzzzz']); // the output being decoded expires, its store goes back...
        encoder.encodeSharedRef(['ext', 'BBBB']); // ...and is written again here
        return 'ext';
      },
    });
    const live = encoder.encodeSharedRef([new Mark(), 'AAAA']);
    expect(codec.decode(live, { extensionCodec: extensions })).toEqual(['ext', 'AAAA']);
  });

  test('a reader has the members the codec uses, and reads what pack() wrote', () => {
    if (port.typedReader === undefined) return expect(port.unpackInJsBelow.every((n) => n === Infinity)).toBe(true);
    const bytes = pack(Float64Array.of(0.25, 7));
    const reader = port.typedReader(bytes);
    const has = surface(reader);
    for (const m of PORT_MEMBERS.Reader) expect(has.has(m), `reader.${m}`).toBe(true);
    expect(reader.read(KIND_OF_NAME.get('Float64Array'), 0, 1, 2, false)).toEqual(Float64Array.of(0.25, 7)); // fixarray: elements from byte 1
    expect(reader.end).toBe(bytes.length);
  });
});
