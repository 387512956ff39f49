// runtime.js - what runtime this is, where the code cannot know it before it
// runs. A bundler that builds for browsers takes js/runtime.browser.js
// instead (package.json "browser"), so that a page bundles none of the
// Node-only paths; loaded as it is (a browser importing js/ itself, Node,
// Bun, Deno), this file asks. test/package.test.js holds the two to the same
// exports.

/** Whether this runtime says it is Node (process.versions.node, which Bun reports too). */
export const isNode = typeof process !== 'undefined' && process.versions?.node != null;

/** Node's Buffer, only in Node (a bundler's Buffer polyfill is not taken for it). */
export const NodeBuffer = isNode ? globalThis.Buffer : null;
