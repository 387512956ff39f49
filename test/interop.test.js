// Interop with real peers: what fastmp packs, @msgpack/msgpack, msgpackr and
// Python's msgpack decode to the same numbers; what they encode from plain
// arrays (ints in their smallest form, float64, float32), fastmp unpacks.
import { execFileSync } from 'node:child_process';
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { Packr, Unpackr } from 'msgpackr';
import { beforeAll, describe, expect, test } from 'vitest';
import { encode, init, pack, unpack } from '../js/index.js';
import { randomF32, randomF64, rng } from './helpers.js';

const sameNumbers = (got, want) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (Number.isNaN(want[i])) expect(Number.isNaN(got[i])).toBe(true);
    else expect(Object.is(got[i], want[i]) || got[i] === want[i]).toBe(true);
  }
};

/** A plain array as a JS service would build it: ints of every size, fractions, specials. */
function plainNumbers(n, seed) {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    switch (r.int(8)) {
      case 0: return r.int(256) - 128;
      case 1: return r.int(70000) - 35000;
      case 2: return r() - 2 ** 31;
      case 3: return r() * 2 ** 21 + r(); // up to 2^53
      case 4: return -(r() * 2 ** 20) - r();
      case 5: return [NaN, Infinity, -Infinity, 1e-310, 1.7976931348623157e308][r.int(5)];
      default: return (r.float() - 0.5) * 10 ** (r.int(40) - 20);
    }
  });
}

/** Runs Python's msgpack (Debian's python3-msgpack) on stdin, returns stdout. */
function python(script, input) {
  return execFileSync('/usr/bin/python3', ['-c', `import sys, msgpack\n${script}`], { input, maxBuffer: 1 << 28 });
}

for (const [name, options] of [['wasm', { pureJs: 'never' }], ['pure-js', { pureJs: 'always' }]]) {
  describe(name, () => {
    beforeAll(() => init(options));

    test.each([0, 1, 16, 100, 4097])('peers decode fastmp floats to the same numbers (%i)', (n) => {
      const x32 = randomF32(n, 300 + n);
      const x64 = randomF64(n, 400 + n);
      const unpackr = new Unpackr({ mapsAsObjects: true });
      for (const x of [x32, x64]) {
        const bytes = pack(x);
        sameNumbers(msgpackDecode(bytes), Array.from(x));
        sameNumbers(unpackr.unpack(bytes), Array.from(x));
      }
    });

    test('Python msgpack decodes fastmp floats to the same numbers', () => {
      const x32 = randomF32(1000, 77);
      const x64 = randomF64(1000, 78);
      // Python re-encodes each list as float64, which fastmp reads back exactly.
      const script = 'data = sys.stdin.buffer.read()\nup = msgpack.Unpacker()\nup.feed(data)\nout = b"".join(msgpack.packb([float(v) for v in a], use_single_float=False) for a in up)\nsys.stdout.buffer.write(out)';
      const back = python(script, Buffer.concat([pack(x32), pack(x64)]));
      const first = unpack(back.subarray(0, 3 + 9 * 1000), Float64Array);
      const second = unpack(back.subarray(3 + 9 * 1000), Float64Array);
      sameNumbers(first, Array.from(x32));
      sameNumbers(second, Array.from(x64));
    });

    test.each([1, 15, 16, 64, 1000])('fastmp unpacks @msgpack/msgpack and msgpackr encodings of plain arrays (%i)', (n) => {
      const values = plainNumbers(n, 500 + n);
      const encodings = [
        msgpackEncode(values),
        msgpackEncode(values, { forceFloat32: true }),
        new Packr().pack(values),
        new Packr({ useFloat32: 1 }).pack(values),
      ];
      for (const bytes of encodings) {
        const decoded = msgpackDecode(bytes); // what the peer itself reads back
        sameNumbers(unpack(bytes, Float64Array), decoded);
        sameNumbers(unpack(bytes, Float32Array), decoded.map(Math.fround));
      }
    });

    test('fastmp unpacks what Python msgpack writes (ints of every size, float64)', () => {
      const script = [
        'import json, random',
        'random.seed(7)',
        'vals = [random.choice([random.randint(-2**63, 2**64 - 1), random.randint(-40, 130), random.randint(-2**31, 2**32),',
        '                       random.random() * 1e6, float("inf"), float("nan"), 2.0**-1074]) for _ in range(3000)]',
        'print(json.dumps({"packed": msgpack.packb(vals).hex(), "values": [repr(v) for v in vals]}))',
      ].join('\n');
      const { packed, values } = JSON.parse(python(script, Buffer.alloc(0)).toString());
      const exact = values.map((v) => (/^-?\d+$/.test(v) ? BigInt(v) : Number(v.replace('inf', 'Infinity').replace('nan', 'NaN'))));
      const bytes = Buffer.from(packed, 'hex');
      // Number(BigInt) and Math.fround(Number) are the nearest double / float, except that
      // fround of a rounded double can round twice: compare f32 only where that cannot happen.
      sameNumbers(unpack(bytes, Float64Array), exact.map(Number));
      const f32 = unpack(bytes, Float32Array);
      exact.forEach((v, i) => {
        if (typeof v !== 'bigint' || (v < 2n ** 53n && v > -(2n ** 53n))) sameNumbers([f32[i]], [Math.fround(Number(v))]);
      });
      expect(exact.filter((v) => typeof v === 'bigint' && (v >= 2n ** 32n || v < -(2n ** 31n))).length).toBeGreaterThan(300);
    });
  });
}

test("a message's Map with int keys and its Set: Python msgpack reads a dict with int keys and a list", () => {
  init();
  const bytes = encode({ m: new Map([[1, 'a'], [-2, 'b'], [300, [1.5]], ['k', null]]), s: new Set([3, 'x']) });
  const script = 'print(repr(msgpack.unpackb(sys.stdin.buffer.read(), strict_map_key=False)))';
  expect(python(script, bytes).toString().trim()).toBe("{'m': {1: 'a', -2: 'b', 300: [1.5], 'k': None}, 's': [3, 'x']}");
});
