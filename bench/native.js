// native.js - runs requests through the native speed harness (fm-bench,
// c/harness/fm_bench.c) of one build, in one process: the same kernels as
// the wasm builds, compiled natively, timed best-of-N with clock_gettime.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** [{ op, data }] -> [{ ns, memcpyNs, bytes }] from build/<build>/fm-bench. */
export function runNativeBench(build, requests) {
  const exe = join(ROOT, 'build', build, 'fm-bench');
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run ./build.sh first`);
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-bench-'));
  try {
    const parts = [];
    for (const { op, data } of requests) {
      const head = Buffer.alloc(5);
      head[0] = op;
      head.writeUInt32LE(data.length, 1);
      parts.push(head, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
    writeFileSync(join(dir, 'in'), Buffer.concat(parts));
    execFileSync(exe, [join(dir, 'in'), join(dir, 'out')], { stdio: ['ignore', 'ignore', 'inherit'] });
    return readFileSync(join(dir, 'out'), 'utf8').trim().split('\n').map((line) => {
      const [ns, memcpyNs, bytes] = line.split(' ').map(Number);
      return { ns, memcpyNs, bytes };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
