// msgpackr.cjs - `require('fastmp-wasm/msgpackr')` in Node: the plug-in as
// `import` loads it (dist/fastmp-node-msgpackr.js: js/msgpackr-node.js built
// with js/node.js into one module graph, scripts/build-node.js), so that it
// shares the package's default instance. Needs require() of ES modules, as
// js/node.cjs says.
'use strict';

require('./node.cjs');

module.exports = require('../dist/fastmp-node-msgpackr.js');
