/* fm_module.c - what every wasm module holds besides its family's kernels
 * (the Makefile links this file into each): the build it is, which the JS
 * loader checks against the build it asked for. */
#include "fastmp.h"
#include "fm_platform.h"

FM_EXPORT int fm_simd_enabled(void) { return FM_SIMD; }
