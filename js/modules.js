// modules.js - the wasm modules, one per family of kernels (the Makefile
// builds each, SIMD and scalar), and which of them this program uses.
//
// A family's JS marks its module used when it is evaluated (js/port.js for
// the typed arrays and the codec, js/wasm/typed.js for unpacking,
// js/strings.js for the ASN.1 strings), so that init() fetches
// only the modules of the families an app imports: a bundler that drops a
// family's files drops their mark too. A module not loaded by init() loads on
// its family's first call where it can be read synchronously (js/instance.js).
//
// The typed family has two modules: TYPED (pack and unpack kernels) and
// PACK (the pack kernels alone, about half the bytes), which a program that
// never unpacks in wasm loads: its mark is set by the code every typed-array
// call runs, and TYPED's by the code that unpacks, so a program holding both
// loads TYPED. Where PACK is loaded, unpacking runs in pure JS (js/port.js
// jsLimits()): a program that imports decoding only after init() (a dynamic
// import) decodes its typed arrays in JS.

/** The module of each family: what `finder.find(module, build)` is asked for (js/loader.js). */
export const TYPED = 'typed'; // pack/unpack kernels: the typed-array API and the codec's fields
export const PACK = 'pack'; // the typed family's pack kernels alone
export const STRINGS = 'strings'; // the ASN.1 string kernels

/** The family a module belongs to: its boundary's slot in an instance (js/instance.js). */
export const FAMILY = { [TYPED]: TYPED, [PACK]: TYPED, [STRINGS]: STRINGS };

/** The stem of a module's files: dist/<stem><build>.wasm (js/siblings.js names each literally). */
export const FILE_STEM = { [TYPED]: 'fastmp-', [PACK]: 'fastmp-pack-', [STRINGS]: 'fastmp-strings-' };

/** An export only the family's own modules have: what tells a given module's family. */
export const MODULE_MARK = { [TYPED]: 'fm_pack_f32', [STRINGS]: 'fm_bmp_encode' };

/** An export of TYPED that PACK lacks: a typed module that has it unpacks in wasm. */
export const UNPACK_MARK = 'fm_unpack_f32';

const used = new Set();

/** Marks `module` as one this program uses (a family's top level calls it). */
export const useModule = (module) => void used.add(module);

/** Of a set of marked modules, those to load: one per family, in a fixed order; TYPED over PACK. */
export const modulesToLoad = (marked) => [marked.has(TYPED) ? TYPED : PACK, STRINGS].filter((m) => marked.has(m));

/** The modules to load for the marks made so far. */
export const usedModules = () => modulesToLoad(used);
