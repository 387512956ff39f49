// contents.js - what the numeric benchmark inputs hold, defined once for
// every bench script (bench/suite.js; bench/kernels.js can import it too):
// the content names and the values each puts into a typed array, from a
// seeded generator so that every run and every script times the same values.
import { rng } from '../test/rng.js';

/**
 * The integer distributions. The int kernels' speed depends on how many
 * elements take each msgpack form, so SIMD ÷ scalar is reported per
 * distribution:
 * - 'uniform': every bit pattern equally likely (mostly the widest form);
 * - '0..1000': uniform in [0, 1000] (positive fixint, uint8 and uint16 forms);
 * - '±100000': uniform in [-100000, 100000], intersected with the type's
 *   range (Int8/Int16: the whole range; Uint*: [0, 100000]).
 */
export const INT_DISTRIBUTIONS = ['uniform', '0..1000', '±100000'];

/**
 * The content names: 'fixed' (the value 7, or true, in every element: the
 * shortest forms), 'random' (floats: uniform reals in ±1e6; booleans: a fair
 * coin) and, for ints, INT_DISTRIBUTIONS.
 */
export const typicalContent = (kind) => (kind.float || kind.c === 'bool' ? 'random' : 'uniform');

/** [lo, hi] of an int kind's values, as numbers. */
function rangeOf(kind) {
  const bits = 8 * kind.bytes;
  const unsigned = kind.c.startsWith('u');
  return unsigned ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
}

/**
 * Fills x (a typed array of `kind` (js/kinds.js), possibly a view into wasm
 * memory) with `content`; `next` is a test/rng.js generator. Returns x.
 */
export function fill(x, kind, content, next = rng(0x5eed)) {
  const n = x.length;
  if (content === 'fixed') return x.fill(kind.c === 'bool' ? 1 : kind.big ? 7n : 7);
  if (kind.c === 'bool') {
    for (let i = 0; i < n; i++) x[i] = next() & 1;
  } else if (kind.float) {
    for (let i = 0; i < n; i++) x[i] = (next.float() - 0.5) * 2e6;
  } else if (content === 'uniform') {
    const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = next() & 0xff;
  } else {
    const [tlo, thi] = rangeOf(kind);
    const [lo, hi] = content === '0..1000' ? [0, 1000] : content === '±100000' ? [-100000, 100000] : [];
    if (lo === undefined) throw new Error(`no content '${content}' for ${kind.name}`);
    const from = Math.max(lo, tlo);
    const span = Math.min(hi, thi) - from + 1;
    for (let i = 0; i < n; i++) {
      const v = from + next.int(span);
      x[i] = kind.big ? BigInt(v) : v;
    }
  }
  return x;
}

/** A new typed array of n elements of `kind`, holding `content`. */
export const values = (kind, n, content, next) => fill(new kind.Type(n), kind, content, next);
