// port-contract.test.js - every codec port (js/codec/port-contract.js) has
// what the contract names: the pure-JS port and each wasm build's instance
// core, with and without pure-JS limits; each port's stores and readers have
// the members the codec uses. A member the codec starts to use goes into
// PORT_MEMBERS, or a port that lacks it fails here. And the aliasing rule
// holds on every port.

import { describe, expect, test } from 'vitest';
import { ExtensionCodec, makeCodec } from '../js/codec/index.js';
import { PORT_MEMBERS } from '../js/codec/port-contract.js';
import { jsPort } from '../js/codec/port-js.js';
import { storePool } from '../js/codec/stores.js';
import { FieldReader } from '../js/io.js';
import { CORE } from '../js/instances.js';
import { createFastmpSync, pack } from '../js/node.js';
import { KIND_OF_NAME } from '../js/kinds.js';

const sorted = (list) => [...list].sort();

/** The own members of a store or reader, and the methods of its class. */
function surface(o) {
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(o)).filter((k) => k !== 'constructor');
  return new Set([...Object.keys(o), ...methods]);
}

/** The members of a port: its own and those of its class (a core's methods). */
const portMembers = (port) => sorted(new Set([...surface(port)].filter((m) => PORT_MEMBERS.Port.includes(m))));

const PORTS = [
  ['pure-JS', jsPort],
  ...['simd', 'scalar'].flatMap((backend) => ['never', 'auto', 'always'].map((pureJs) => [`wasm ${backend}, pureJs ${pureJs}`, createFastmpSync({ backend, pureJs })[CORE]])),
  ['backend js', createFastmpSync({ backend: 'js' })[CORE]],
];

test('the contract names a port, a store and a reader', () => {
  expect(Object.keys(PORT_MEMBERS).sort()).toEqual(['Port', 'Reader', 'Store']);
});

describe.each(PORTS)('%s', (name, port) => {
  test('the port has every member of the contract', () => {
    expect(portMembers(port)).toEqual(sorted(PORT_MEMBERS.Port));
    expect(typeof port.ready).toBe('function');
    expect(['simd', 'scalar', 'js']).toContain(port.build);
  });

  test('a store has the members the codec uses, and writes what pack() writes', () => {
    const pool = storePool(port);
    const store = pool.borrow(16);
    try {
      const has = surface(store);
      for (const m of PORT_MEMBERS.Store) expect(has.has(m), `store.${m}`).toBe(true);
      store.start();
      const x = Float32Array.of(1.5, -2, 3);
      const end = store.writeTyped(KIND_OF_NAME.get('Float32Array'), x, x.length, 0);
      store.stop();
      expect(store.take(end)).toEqual(pack(x));
    } finally {
      store.release();
    }
  });

  // The aliasing rule (js/codec/encoder.js, "encodeSharedRef()'s output"; js/lifetimes.js refuses), on every port.
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
    const bytes = pack(Float64Array.of(0.25, 7));
    const reader = new FieldReader(port, bytes, 'decode');
    const has = surface(reader);
    for (const m of PORT_MEMBERS.Reader) expect(has.has(m), `reader.${m}`).toBe(true);
    expect(reader.read(KIND_OF_NAME.get('Float64Array'), 0, 1, 2, false)).toEqual(Float64Array.of(0.25, 7)); // fixarray: elements from byte 1
    expect(reader.end).toBe(bytes.length);
  });
});
