// audit-buffers.test.js - the buffers audit: every public function given
// unusual buffers (resizable and growable shared ones, views that track their
// buffer's length, buffers detached or shrunk by the caller's code during the
// call, other realms, prototypes set by hand). Each numbered describe() is a
// finding that failed on afccc0a; the last one covers growable
// SharedArrayBuffers, which no other test gives fastmp. (Two more findings of
// this audit, a keyDecoder and a stream's loop body that detach the input,
// were fixed meanwhile by the errors audit: test/audit-errors.test.js.)
import { execFileSync } from 'node:child_process';
import vm from 'node:vm';
import { readFileSync } from 'node:fs';
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { createFastmp, createFastmpSync, encode } from '../js/node.js';
import { ROOT } from './helpers.js';

describe('1: fastmp-wasm/msgpackr writes an array as its brand says, not as the class msgpackr matched (js/msgpackr.js)', () => {
  // msgpackr picks an extension by instanceof. An Int8Array whose prototype is Float32Array's
  // was written untagged in a Packr that writes records (its fixints 0x40.. read as record ids:
  // "Unexpected end of MessagePack data"), and a Uint8Array whose prototype is Int8Array's had
  // its bin's bytes "tagged" as if they were fixints (a corrupt message).
  test('in a Packr that writes records, each reads back as its elements', () => {
    const program = `
      import * as msgpackr from 'msgpackr';
      import { useFastmpForTypedArrays } from ${JSON.stringify(`${ROOT}js/msgpackr.js`)};
      useFastmpForTypedArrays(msgpackr);
      const packr = new msgpackr.Packr();
      const as = (x, Type) => Object.setPrototypeOf(x, Type.prototype);
      const cases = [as(Int8Array.of(0x40, 0x41, 5), Float32Array), as(Uint8Array.of(0x40, 0x41, 200), Int8Array), as(Float64Array.of(0.5, 64), Int16Array), Int16Array.of(0x40, 5)];
      const out = cases.map((x) => {
        try {
          const back = packr.unpack(packr.pack([{ r: 1 }, { r: 2 }, x]))[2];
          return Array.from(back);
        } catch (e) {
          return e.message;
        }
      });
      process.stdout.write(JSON.stringify(out));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', program], { cwd: ROOT, encoding: 'utf8' }));
    expect(out).toEqual([[64, 65, 5], [64, 65, 200], [0.5, 64], [64, 5]]);
  });
});

describe('2: createFastmp({ wasm }) takes module bytes in an ArrayBuffer of another realm (js/loader.js wasmBytes())', () => {
  // An ArrayBuffer was asked `instanceof ArrayBuffer`: one of a vm context (a test runner's) was
  // refused as "must be a WebAssembly.Module, a Response, an ArrayBuffer or a typed array", which
  // it is (typed-arrays.md "Other realms work": known by the brand, not instanceof).
  const bytes = readFileSync(new URL('../dist/fastmp-pack-scalar.wasm', import.meta.url));
  const otherRealm = () => {
    const view = vm.runInNewContext(`new Uint8Array(${bytes.length})`);
    view.set(bytes);
    return view.buffer;
  };
  test('an ArrayBuffer of a vm context', async () => {
    for (const m of [await createFastmp({ wasm: otherRealm() }), createFastmpSync({ wasm: otherRealm() })]) {
      expect(m.backend()).toBe('scalar');
      expect(m.pack(new Float32Array(100)).length).toBe(3 + 5 * 100);
    }
  });
});

// Confirmed correct, and covered by no other test: growable SharedArrayBuffers (and
// length-tracking views of them) as inputs and targets, on every backend.
describe('growable SharedArrayBuffers', () => {
  const growable = (bytes, offset = 1) => {
    const buffer = new SharedArrayBuffer(offset + bytes.length, { maxByteLength: 4 * (offset + bytes.length) });
    const view = new Uint8Array(buffer, offset); // (tracks the buffer's length)
    view.set(bytes);
    return view;
  };
  const value = { a: 1.5, s: 'hello', b: new Uint8Array([9, 8, 7]), f: Float32Array.from({ length: 300 }, (_, i) => i / 3) };
  const wire = encode(value);
  test.each([['simd', {}], ['scalar', { backend: 'scalar' }], ['js', { backend: 'js' }]])('%s: the bytes and values of a plain buffer, bins as copies', async (_, options) => {
    const m = await createFastmp(options);
    const input = growable(wire);
    const shape = { f: Float32Array };
    const back = m.decode(input, { shape });
    expect(back).toEqual(m.decode(wire, { shape }));
    expect(back.b.buffer).not.toBe(input.buffer);
    expect(m.decodeFrom(input).end).toBe(wire.length);
    expect([...m.decodeMulti(input)]).toHaveLength(1);
    expect(m.unpack(growable(m.pack(value.f)), Float32Array)).toEqual(value.f);
    const f = new Float32Array(new SharedArrayBuffer(1200, { maxByteLength: 2400 }));
    f.set(value.f);
    expect(m.pack(f)).toEqual(m.pack(value.f));
    expect(m.encode({ f }, { typedArrays: 'bin' })).toEqual(msgpack.encode({ f }));
    const target = growable(new Uint8Array(wire.length + 8), 3);
    const end = m.encodeInto(value, target, 2);
    expect(target.subarray(2, end)).toEqual(wire);
    expect(m.decodeBMP(growable(m.encodeBMP('x'.repeat(200))))).toBe('x'.repeat(200));
  });
});
