// startup.js - what a fresh Node process pays to start using the codec (issue
// 43): the time from just before `await import(LIBRARY)` to the end of the
// first encode() of a small message ({ id: 1, name: 'x', v: [1, 2, 3] };
// msgpackr's pack()), taken by performance.now() inside the process, and the
// whole process's wall time (spawn to exit) taken by this script around it.
// fastmp (what `import 'fastmp-wasm'` loads from this checkout in Node:
// dist/fastmp-node.js; or each --fastmp given),
// @msgpack/msgpack and msgpackr each run in a process of their own, one of
// each per round, interleaved, and which goes first rotates every round; a
// round of each, untimed, warms the file cache first. A row "node alone"
// runs the same child without an import: the process column's floor.
// Every library is imported by the file URL its name resolves to from this
// script (as an app's `import` would resolve it in Node), so none pays the
// name's resolution inside the timed span. Goal: fastmp's median at most 2x
// @msgpack/msgpack's.
//   node bench/startup.js [--rounds 9] [--fastmp [LABEL=]PATH/js/node.js ...] [--out FILE.md]
// (for example, another checkout's entry beside this one's:
//   --fastmp fastmp=js/node.js --fastmp old=/tmp/old/js/node.js)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const GOAL = 2;
const PEER = '@msgpack/msgpack';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The child: a module evaluated by `node --input-type=module -e`; prints { ms, bytes } as JSON. */
function childSource(url, fn) {
  if (url === null) return 'const t0 = performance.now(); const t1 = performance.now(); console.log(JSON.stringify({ ms: t1 - t0, bytes: 0 }));';
  return `const t0 = performance.now();
const m = await import(${JSON.stringify(url)});
const bytes = m.${fn}({ id: 1, name: 'x', v: [1, 2, 3] });
const t1 = performance.now();
console.log(JSON.stringify({ ms: t1 - t0, bytes: bytes.length }));`;
}

/** The contenders: each fastmp entry asked for (this checkout's by default), the two peers, and node alone. */
function contenders(fastmps) {
  // By default what `import 'fastmp-wasm'` loads in Node: the package's own name resolved from here (dist/fastmp-node.js, built by ./build.sh).
  const given = fastmps?.length ? fastmps : [`fastmp=${fileURLToPath(import.meta.resolve('fastmp-wasm'))}`];
  const ours = given.map((arg) => {
    const [label, path] = arg.includes('=') ? arg.split(/=(.*)/s) : [given.length > 1 ? `fastmp (${arg})` : 'fastmp', arg];
    return { name: label, url: pathToFileURL(resolve(path)).href, fn: 'encode' };
  });
  return [
    ...ours,
    { name: PEER, url: import.meta.resolve(PEER), fn: 'encode' },
    { name: 'msgpackr', url: import.meta.resolve('msgpackr'), fn: 'pack' },
    { name: 'node alone', url: null, fn: null },
  ];
}

/** One fresh process of a contender: { ms (import + first encode, inside), wall (spawn to exit), bytes }. */
function runOnce(c) {
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', childSource(c.url, c.fn)], { cwd: ROOT, encoding: 'utf8' });
  const wall = performance.now() - start;
  if (r.status !== 0) throw new Error(`startup.js: ${c.name} exited ${r.status}: ${r.stderr}`);
  return { ...JSON.parse(r.stdout.trim().split('\n').at(-1)), wall };
}

/** `rounds` rounds of one process per contender, the order rotated one place each round. */
function measure(list, rounds) {
  const times = new Map(list.map((c) => [c.name, { ms: [], wall: [], bytes: 0 }]));
  for (const c of list) runOnce(c); // warm-up: the file cache, not timed
  for (let round = 0; round < rounds; round++) {
    const order = list.map((_, i) => list[(i + round) % list.length]);
    for (const c of order) {
      const r = runOnce(c);
      const t = times.get(c.name);
      t.ms.push(r.ms);
      t.wall.push(r.wall);
      t.bytes = r.bytes;
    }
  }
  return times;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (ms) => ms.toFixed(1);
const stats = (xs) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;

/** fastmp's median over @msgpack/msgpack's, the range of the per-round ratios, and the verdict in words. */
function verdict(name, t, peer) {
  const ratio = median(t.ms) / median(peer.ms);
  const perRound = t.ms.map((x, i) => x / peer.ms[i]);
  const range = `${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}`;
  const meets = ratio <= GOAL;
  const all = perRound.every((r) => (r <= GOAL) === meets) ? `, in every round` : `, though not in every round`;
  const words = meets ? `meets the goal of at most ${GOAL}×${all}` : `misses the goal of at most ${GOAL}× (${(ratio / GOAL).toFixed(2)}× over it)${all}`;
  return `- ${name}: ${f(median(t.ms))} ms ÷ ${f(median(peer.ms))} ms = **${ratio.toFixed(2)}×** ${PEER}'s import + first encode (rounds: ${range}): ${words}.`;
}

function table(times) {
  const lines = ['| library | encoded bytes | import + first encode, ms: median (min–max) | whole process, ms: median (min–max) |', '| --- | --- | --- | --- |'];
  for (const [name, t] of times) lines.push(`| ${name} | ${t.bytes || '–'} | ${name === 'node alone' ? '–' : stats(t.ms)} | ${stats(t.wall)} |`);
  return lines.join('\n');
}

function report(times, list, rounds, command) {
  const peer = times.get(PEER);
  const ours = list.filter((c) => c.fn === 'encode' && c.name !== PEER);
  return `# Start-up in Node (issue 43)

\`${command}\`, ${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node} (${process.platform}-${process.arch}).
Each process imports one library (by the file URL its name resolves to) and encodes
\`{ id: 1, name: 'x', v: [1, 2, 3] }\` once (msgpackr: \`pack\`); the first column is
performance.now() inside it from before \`await import()\` to the end of that encode, the second
the process's wall time from spawn to exit as the parent sees it ("node alone": the same child
without an import). ${rounds} rounds of one process each, interleaved, the order rotated every
round, after one untimed round; medians, and the range over the rounds.

${table(times)}

${ours.map((c) => verdict(c.name, times.get(c.name), peer)).join('\n')}
`;
}

function main() {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '9' }, fastmp: { type: 'string', multiple: true }, out: { type: 'string' } } });
  const rounds = Number(values.rounds);
  if (!(rounds >= 1)) throw new Error('startup.js: --rounds takes a number >= 1');
  const list = contenders(values.fastmp);
  const times = measure(list, rounds);
  const command = `node bench/startup.js${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
  const text = report(times, list, rounds, command);
  console.log(text);
  if (values.out) writeFileSync(values.out, text);
}

main();
