// runtime.browser.js - js/runtime.js as a browser build sees it (package.json
// "browser" names this file in its place): not Node.

/** Whether this runtime says it is Node: a page built for browsers is not. */
export const isNode = false;

/** Node's Buffer: none. */
export const NodeBuffer = null;
