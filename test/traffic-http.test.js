// traffic-http.test.js - a node:http service that decodes request bodies with
// decodeAsync(req) (test/traffic/server.mjs, in a process of its own) under
// the traffic that hurts a stream decoder: bodies trickled a byte at a time,
// garbage, and valid requests in between. The server's CPU for a trickled
// body must grow linearly with its size (a decoder that reads a value again
// for every chunk grows with its square), and every valid request is
// answered with exactly its value.

import { spawn } from 'node:child_process';
import http from 'node:http';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import * as msgpack from '@msgpack/msgpack';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { difference } from './messages-helpers.js';

let server;
let port;

beforeAll(async () => {
  server = spawn(process.execPath, [new URL('./traffic/server.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = Number(await new Promise((resolve) => server.stdout.once('data', resolve)));
});

afterAll(() => server?.kill());

/**
 * POSTs `body` in pieces of `piece` bytes, each written alone (TCP_NODELAY, a
 * turn of the event loop between), calling `during` after each; resolves to
 * { status, value, cpu }. A server may answer before the body's end (a 400
 * for garbage) and close: writing then stops, and its errors are expected.
 */
function post(body, piece = body.length, during = async () => {}) {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/', agent: false, headers: { 'content-type': 'application/msgpack' } }, (res) => {
      answered = true;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({
        status: res.statusCode, value: msgpack.decode(Buffer.concat(chunks)), cpu: Number(res.headers['x-cpu-us']), chunks: Number(res.headers['x-chunks']),
      }));
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.on('socket', (socket) => socket.setNoDelay(true));
    (async () => {
      for (let at = 0; at < body.length && !answered; at += piece) {
        if (!req.write(body.subarray(at, at + piece))) await new Promise((r) => req.once('drain', r));
        await yieldTurn();
        await during(at, body.length);
      }
      if (!answered) req.end();
    })().catch(reject);
  });
}

/** A message of about `size` bytes: a list of small maps, as an API sends. */
const bodyOf = (size) => msgpack.encode({ list: Array.from({ length: Math.ceil(size / 24) }, (_, i) => ({ i, name: `n${i % 97}`, ok: i % 2 === 0 })) });

test('bodies trickled a byte at a time cost the server CPU linear in their size, while valid requests in between are answered exactly', async () => {
  const valid = [{ a: 1 }, { text: 'é€😀', list: [1, -2, 3.5, null, true] }, [new Date(5)], 'x'.repeat(300)];
  /** Sends the valid requests at ten points of a trickled body (the same count whatever its size). */
  const interleave = async (at, length) => {
    if (Math.floor((10 * at) / length) === Math.floor((10 * (at - 1)) / length)) return;
    const value = valid[at % valid.length];
    const reply = await post(msgpack.encode(value));
    expect(reply.status).toBe(200);
    expect(difference(reply.value.value, msgpack.decode(msgpack.encode(value)))).toBe('');
  };
  const cpu = {};
  for (const size of [4_000, 16_000, 64_000]) { // (the first warms the server up)
    const body = bodyOf(size);
    const reply = await post(body, 1, interleave);
    expect(reply.status).toBe(200);
    expect(difference(reply.value.value, msgpack.decode(body))).toBe('');
    expect(reply.chunks, 'the body arrived in small chunks').toBeGreaterThan(body.length / 16);
    cpu[size] = reply.cpu;
  }
  // Linear: ~4x for 4x the bytes (the per-byte cost of HTTP and of the stream
  // itself included); a decoder that reread the value per chunk: ~16x and more.
  console.log(`server CPU for a body trickled a byte at a time: 16 KB ${cpu[16_000]} µs, 64 KB ${cpu[64_000]} µs`);
  expect(cpu[64_000] / cpu[16_000], `${cpu[16_000]} µs, then ${cpu[64_000]} µs`).toBeLessThan(8);
});

test('garbage and lying bodies are refused with a FastmpError code, and the server goes on answering', async () => {
  const garbage = [
    Uint8Array.of(0xc1),
    Uint8Array.of(0x82, 0xa1, 0x61), // cut short
    Uint8Array.of(0xdb, 0x7f, 0xff, 0xff, 0xff, 0x41, 0x41), // a str claiming 2 GB: beyond maxStrLength
    Uint8Array.of(0xdd, 0xff, 0xff, 0xff, 0xff), // an array claiming 2^32-1 elements, then nothing
    new TextEncoder().encode('{"json": "not msgpack"}'),
    Uint8Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256),
  ];
  for (const body of garbage) {
    for (const piece of [1, 7, body.length]) {
      const reply = await post(body, piece);
      expect(reply.status, `${Buffer.from(body.subarray(0, 8)).toString('hex')} in pieces of ${piece}`).toBe(400);
      expect(typeof reply.value.code).toBe('string');
    }
  }
  const reply = await post(msgpack.encode({ still: 'here' }), 3);
  expect(reply.value).toEqual({ ok: true, value: { still: 'here' } });
});
