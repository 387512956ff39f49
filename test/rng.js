// rng.js - the tests' seeded PRNG (xorshift32), in a file of its own with no
// imports, so that portable scripts (test/engines/behaviour.js, which runs in
// browsers and Bun too) and test/helpers.js share one: the same numbers on
// every engine, and a failure reproduces from its seed.

/** xorshift32: next() -> u32; next.float() in [0, 1); next.int(n) in [0, n). */
export function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  next.float = () => next() / 4294967296;
  next.int = (n) => Math.floor(next.float() * n);
  return next;
}
