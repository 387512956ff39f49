// node-driver.mjs - runs test/engines/behaviour.js in a server runtime (Node,
// Bun): imports the package by its own name, as an application does (the
// "node" export condition: js/node.js, ready on import), and prints the
// result as one line of JSON after a marker that test/engines/run.js reads.
//   node test/engines/node-driver.mjs      bun test/engines/node-driver.mjs
import * as fastmp from 'fastmp-wasm';
import { run } from './behaviour.js';

const result = await run(fastmp);
process.stdout.write(`\nFASTMP_ENGINE_RESULT ${JSON.stringify(result)}\n`);
