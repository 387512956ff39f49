#!/usr/bin/env node
// fastmp-wasm.js - the package's command: `npx fastmp-wasm bench`, which
// times what the package is for on this machine (bin/bench.js).
import { parseArgs } from 'node:util';

const USAGE = `Usage: npx fastmp-wasm <command>

Commands:
  bench [--quick] [--json FILE]   time fastmp-wasm on this machine (about a minute; --quick: about 10 s):
                                  typed arrays through the API (wasm SIMD, wasm scalar, pure JS, zero copy)
                                  against a JS loop and @msgpack/msgpack / msgpackr where installed,
                                  the kernels alone against the same C built natively (with a C compiler),
                                  and whole messages; --json FILE also writes the figures as JSON

Options:
  -h, --help                      this text
`;

const fail = (message) => {
  process.stderr.write(`fastmp-wasm: ${message}\n\n${USAGE}`);
  process.exit(2);
};

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
  (command === undefined ? process.stderr : process.stdout).write(USAGE);
  process.exit(command === undefined ? 1 : 0);
}
if (command !== 'bench') fail(`unknown command '${command}'`);

let values;
try {
  ({ values } = parseArgs({ args: rest, options: { quick: { type: 'boolean' }, json: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (e) {
  fail(e.message);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const { bench } = await import('./bench.js');
try {
  process.exitCode = await bench({ quick: values.quick ?? false, jsonFile: values.json ?? null });
} catch (e) {
  // A failure the bench foresaw says what to do in its message; anything else is a bug: its stack helps.
  process.stderr.write(`fastmp-wasm bench: ${e.foreseen ? e.message : e.stack}\n`);
  process.exitCode = 1;
}
