// audit-streams3.test.js - a third audit of the stream decoders (decodeAsync,
// decodeMultiStream, decodeArrayStream, the Decoder's stream methods;
// js/codec/stream.js, js/codec/scan.js), against decodeMulti() of the same
// bytes, a `for await` loop and @msgpack/msgpack 3.1.3. Each numbered
// describe() is a finding that failed on 02f08ec:
// 1. maxDepth 0 (which refuses every value: depth 1 is beyond it, as decode()
//    and decodeArrayStream() count it) was not applied early: a value whose
//    start a chunk cut was scanned, and its bytes held, up to its end (a str
//    header claiming 1e9 bytes: every byte the source sent) before the
//    decoder refused it, where docs/messages.md "Limits apply early" says
//    maxDepth applies "as soon as a header shows them, before the bytes it
//    claims arrive". The scanner (js/codec/scan.js) stopped at containers
//    only, never at a top value that is itself too deep.
// 2. A source whose next() rejected (or answered with no result object) had
//    its return() called by the stream, where a `for await` loop, which
//    docs/messages.md says the streams close their source as, and
//    @msgpack/msgpack's stream functions leave an iterator that failed alone.
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import * as codec from '../js/codec/index.js';
import * as entry from '../js/index.js';
import { FastmpError, decode, init } from '../js/index.js';
import { collect, rejection } from './messages-helpers.js';

await init();

const libs = [['fastmp-wasm', entry], ['pure-JS codec', codec]];

describe('1: maxDepth 0 refuses a stream\'s value on sight, as "Limits apply early" says (js/codec/scan.js)', () => {
  const str32 = [0xdb, 0x3b, 0x9a, 0xca, 0x00]; // a str of 1e9 bytes
  const options = { maxDepth: 0 };

  /** A source that sends `head` (a small first chunk: the value is scanned, not tried) then up to 16 MB of the str's bytes, counting what it sent. */
  function counted(head) {
    const sent = { bytes: 0 };
    const source = (async function* () {
      sent.bytes += head.length;
      yield Uint8Array.from(head);
      const filler = new Uint8Array(4096).fill(0x61);
      for (let i = 0; i < 4096; i++) {
        sent.bytes += filler.length;
        yield filler;
      }
    })();
    return { sent, source };
  }

  test('decode() refuses any value at maxDepth 0 (the behaviour to match)', () => {
    expect(() => decode(Uint8Array.of(0xa1, 0x61), options)).toThrow(expect.objectContaining({ code: 'DEPTH' }));
    expect(() => decode(Uint8Array.from(str32), options)).toThrow(expect.objectContaining({ code: 'DEPTH' }));
  });

  for (const [name, lib] of libs) {
    test.each([
      ['decodeAsync', (lib_, source) => lib_.decodeAsync(source, options)],
      ['decodeMultiStream', (lib_, source) => collect(lib_.decodeMultiStream(source, options))],
      ['Decoder#decodeStream', (lib_, source) => collect(new lib_.Decoder(options).decodeStream(source))],
      ['Decoder#decodeAsync', (lib_, source) => new lib_.Decoder(options).decodeAsync(source)],
    ])(`${name}: %s`, async (_, run) => {
      const { sent, source } = counted(str32);
      const err = await rejection(run(lib, source));
      expect(err).toBeInstanceOf(FastmpError);
      expect(err.code).toBe('DEPTH');
      expect(err.streamOffset).toBe(0);
      expect(sent.bytes).toBeLessThan(1 << 16);
    });
  }
});

describe("2: a source whose next() fails is not closed (its return() not called), as a for await loop leaves it (js/codec/stream.js)", () => {
  /** An iterator of `chunks`, whose next() then fails (`failure`: 'reject', or 'no result' for an answer that is no object); `log` records each call. */
  function failing(chunks, failure, log) {
    return {
      [Symbol.asyncIterator]() {
        let i = 0;
        return {
          next: async () => {
            log.push('next');
            if (i < chunks.length) return { done: false, value: chunks[i++] };
            if (failure === 'reject') throw new Error('source failed');
            return undefined;
          },
          return: async () => {
            log.push('return');
            return { done: true };
          },
        };
      },
    };
  }

  /** The calls the source saw while `consume` read it, and the error it ended with. */
  async function calls(consume, chunks, failure) {
    const log = [];
    const err = await rejection(consume(failing(chunks, failure, log)));
    return { log, err };
  }

  const forAwait = async (source) => { for await (const v of source) void v; };
  const cut = entry.encode(['abcdef']).subarray(0, 4); // a value (an array) the failure cuts
  const whole = entry.encode([{ a: 1 }]); // a whole value, then the failure

  test.each([['reject'], ['no result']])('the behaviour to match, next() %s: for await and @msgpack/msgpack call next() only', async (failure) => {
    for (const consume of [forAwait, (s) => msgpack.decodeAsync(s), (s) => collect(msgpack.decodeMultiStream(s)), (s) => collect(msgpack.decodeArrayStream(s))]) {
      for (const chunks of [[cut], [whole]]) {
        const { log, err } = await calls(consume, chunks, failure);
        expect(log, `${consume} ${chunks[0]}`).toEqual(['next', 'next']);
        expect(err).toBeInstanceOf(failure === 'reject' ? Error : TypeError);
      }
    }
  });

  for (const [name, lib] of libs) {
    test.each([['reject'], ['no result']])(`${name}, next() %s: decodeAsync, decodeMultiStream, decodeArrayStream`, async (failure) => {
      const runs = [
        (s) => lib.decodeAsync(s), (s) => collect(lib.decodeMultiStream(s)), (s) => collect(lib.decodeArrayStream(s)),
        (s) => collect(new lib.Decoder().decodeStream(s)),
      ];
      for (const consume of runs) {
        for (const chunks of [[cut], [whole], [whole.subarray(0, 1)]]) {
          const { log, err } = await calls(consume, chunks, failure);
          expect(log, `${consume} ${chunks[0]}`).toEqual(['next', 'next']);
          if (failure === 'reject') expect(err.message).toBe('source failed');
          else expect(err).toBeInstanceOf(TypeError);
        }
      }
    });
  }

  test('a source the stream fails on, or that the loop leaves, is still closed once (the rule kept)', async () => {
    for (const [name, lib] of libs) {
      const log = [];
      const bad = failing([Uint8Array.of(0xc1)], 'reject', log);
      expect((await rejection(collect(lib.decodeMultiStream(bad)))).code, name).toBe('TAG');
      expect(log, name).toEqual(['next', 'return']);
      log.length = 0;
      for await (const v of lib.decodeMultiStream(failing([Uint8Array.from([...whole, ...whole])], 'reject', log))) {
        expect(v).toEqual([{ a: 1 }]);
        break;
      }
      expect(log, name).toEqual(['next', 'return']);
    }
  });
});
