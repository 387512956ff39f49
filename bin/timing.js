// timing.js - how the bench times a call: contenders interleaved in rounds,
// their order rotated by one each round, each given the same slice of time
// per round, timed in batches long enough for the clock; a round's figure is
// the median of its batches, and a contender's figures are the median and
// the range of its rounds. So that none pays for another's garbage, a
// young-generation collection runs before each slice (where the garbage of
// the slice before lies) and a full one before each round (a full one per
// slice would cost more than most slices). The kernels are timed by
// c/harness/fm_bench.c's rule instead, on the wasm side too (bestNs), as the
// native harness times them.
import v8 from 'node:v8';
import vm from 'node:vm';

/** A full collection: Node's gc() when run with --expose-gc, else the same function switched on here. */
const gc = (() => {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc');
  } catch {
    return () => {};
  }
})();
/** A young-generation collection (V8's gc({ type: 'minor' })). */
const minorGc = () => gc({ type: 'minor' });

/** Where each result goes, so that no call is optimised away. */
export const sink = { value: undefined };

const now = () => Number(process.hrtime.bigint());

/**
 * Warms fn up (calls it for at least `warmNs`, once at least), then returns
 * the calls per batch that make a batch last at least `batchNs`.
 */
function warmAndCalibrate(fn, warmNs, batchNs) {
  const until = now() + warmNs;
  let once;
  do {
    const t = now();
    sink.value = fn();
    once = now() - t;
  } while (now() < until);
  if (once >= batchNs) return 1;
  for (let batch = Math.max(1, Math.floor(batchNs / Math.max(once, 1))); ; ) {
    const t = now();
    for (let i = 0; i < batch; i++) sink.value = fn();
    const took = now() - t;
    if (took >= batchNs || batch >= 1 << 24) return batch;
    batch = Math.ceil(batch * Math.min(16, Math.max(1.25, (1.2 * batchNs) / Math.max(took, 1))));
  }
}

/** One round of fn: batches of `batch` calls for at least `ns` (one batch at least); the median ns per call. */
function slice(fn, batch, ns) {
  const perCall = [];
  const until = now() + ns;
  do {
    const t = now();
    for (let i = 0; i < batch; i++) sink.value = fn();
    perCall.push((now() - t) / batch);
  } while (now() < until);
  return median(perCall);
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** { median, min, max, rounds } of a contender's round figures (ns per call). */
export const stats = (rounds) => ({ median: median(rounds), min: Math.min(...rounds), max: Math.max(...rounds), rounds });

/**
 * Warms up and calibrates every task ({ fn }) of every group ({ tasks }):
 * call before the rounds. Sets task.batch.
 */
export function prepare(groups, { warmupMs, batchUs }) {
  for (const g of groups) {
    for (const t of g.tasks) {
      t.batch = warmAndCalibrate(t.fn, warmupMs * 1e6, batchUs * 1e3);
      t.figures = [];
    }
  }
}

/**
 * One round of every group: each group's tasks in the order rotated by
 * `round`, each for `sliceMs` after a young-generation collection (a full
 * one before the round); appends each task's figure (ns per call) to
 * task.figures.
 */
export function runRound(groups, round, { sliceMs }) {
  gc();
  for (const g of groups) {
    const n = g.tasks.length;
    for (let k = 0; k < n; k++) {
      const t = g.tasks[(k + round) % n];
      minorGc();
      t.figures.push(slice(t.fn, t.batch, sliceMs * 1e6));
    }
  }
}

/**
 * ns per call of fn by c/harness/fm_bench.c's rule: the best of 7 runs of
 * at least 2 ms each (as many calls as one call's time says fill 2 ms).
 */
export function bestNs(fn) {
  let t = now();
  sink.value = fn();
  const once = now() - t;
  const reps = Math.floor(2e6 / Math.max(once, 1)) + 1;
  let best = Infinity;
  for (let run = 0; run < 7; run++) {
    t = now();
    for (let i = 0; i < reps; i++) sink.value = fn();
    best = Math.min(best, (now() - t) / reps);
  }
  return best;
}

/** A time for people: 312 ns, 3.70 µs, 1.17 ms, 2.30 s (three significant digits, no exponents). */
export function formatNs(ns) {
  if (!Number.isFinite(ns)) return '–';
  const [v, unit] = ns >= 1e9 ? [ns / 1e9, 's'] : ns >= 1e6 ? [ns / 1e6, 'ms'] : ns >= 1e3 ? [ns / 1e3, 'µs'] : [ns, 'ns'];
  return `${v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${unit}`;
}

export { gc };
