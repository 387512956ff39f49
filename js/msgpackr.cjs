// msgpackr.cjs - `require('fastmp-wasm/msgpackr')` in Node: the plug-in
// (js/msgpackr.js, an ES module without top-level await, so require() takes it)
// with the default instance made first, as js/node.cjs makes it.
'use strict';

require('./node.cjs');

module.exports = require('./msgpackr.js');
