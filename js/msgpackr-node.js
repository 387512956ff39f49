// msgpackr-node.js - `import 'fastmp-wasm/msgpackr'` in Node: the plug-in
// (js/msgpackr.js) with the default instance made first, as js/node.js makes it.

import './node.js';

export * from './msgpackr.js';
