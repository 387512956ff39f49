// A msgpack service as users write one: each request body is decoded with
// decodeAsync(req), and the value is sent back encoded (400 and the error's
// code for a body that is not msgpack). Each response says how much CPU the
// process used while that request was open (its cpuUsage, user + system, µs)
// and in how many chunks the body arrived.
// Run by test/traffic-http.test.js: it prints the port it listens on.

import http from 'node:http';
import { finished } from 'node:stream/promises';
import { decodeAsync, encode } from '../../js/node.js';

let chunks = 0;
/** The chunks of a body, counted (the response reports how many arrived). */
async function* counted(body) {
  for await (const chunk of body) {
    chunks++;
    yield chunk;
  }
}

const server = http.createServer(async (req, res) => {
  const start = process.cpuUsage();
  chunks = 0;
  let status = 200;
  let reply;
  try {
    // (An error closes the source, as leaving a for await loop does: a
    // request would be destroyed, and the client answered with a reset.
    // This iterator leaves it open, so that the 400 below reaches the client.)
    const body = counted(req.iterator({ destroyOnReturn: false }));
    reply = encode({ ok: true, value: await decodeAsync(body, { maxStrLength: 1 << 20, maxBinLength: 1 << 20 }) });
  } catch (err) {
    status = 400;
    reply = encode({ ok: false, code: err.code ?? err.name });
    req.resume(); // the rest of a bad body is read and dropped, then the answer sent
    await finished(req).catch(() => {});
  }
  const used = process.cpuUsage(start);
  res.writeHead(status, { 'content-type': 'application/msgpack', 'x-cpu-us': String(used.user + used.system), 'x-chunks': String(chunks) });
  res.end(reply);
});

server.listen(0, '127.0.0.1', () => console.log(server.address().port));
