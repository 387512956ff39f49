// modules.js - the wasm modules, one per family of kernels (the Makefile
// builds each, SIMD and scalar), and which of them this program uses.
//
// A family's JS marks its module used when it is evaluated (js/port.js for
// the typed arrays and the codec, js/strings.js for the ASN.1 strings), so
// that init() fetches only the modules of the families an app imports: a
// bundler that drops a family's files drops their mark too. A module not
// loaded by init() loads on its family's first call where it can be read
// synchronously (js/instance.js).

/** The module of each family: what `finder.find(module, build)` is asked for (js/loader.js). */
export const TYPED = 'typed'; // pack/unpack kernels: the typed-array API and the codec's fields
export const STRINGS = 'strings'; // the ASN.1 string kernels

/** An export only the family's own module has: what tells a given module's family. */
export const MODULE_MARK = { [TYPED]: 'fm_pack_f32', [STRINGS]: 'fm_bmp_encode' };

const used = new Set();

/** Marks `module` as one this program uses (a family's top level calls it). */
export const useModule = (module) => void used.add(module);

/** The modules marked so far, in a fixed order. */
export const usedModules = () => [TYPED, STRINGS].filter((m) => used.has(m));
