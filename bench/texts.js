// texts.js - the strings the string crossover benches time (bench/strings-crossover.js
// on V8, bench/engines-bench.js on every engine): plain ESM, the same on every runtime.

/** A string of n chars: BMP chars from several scripts, or printable ASCII. */
export function text(n, ascii) {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(ascii ? 0x20 + ((i * 7) % 95) : [0x41, 0xe9, 0x436, 0x4e2d, 0x3042][i % 5] + (i % 13));
  return s;
}
