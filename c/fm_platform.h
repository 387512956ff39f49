/* fm_platform.h - the only file that knows where the kernels are compiled.
 *
 * Every kernel is written once against the wasm SIMD128 intrinsics. Under
 * Emscripten they come from <wasm_simd128.h>; natively (x86-64, aarch64) SIMDe
 * supplies the very same names on SSE/AVX or NEON. FM_SIMD (set by the build,
 * 0 or 1) switches the SIMD paths off for the scalar builds, so the scalar path
 * that ships in fastmp-scalar.wasm is the one the native scalar builds test.
 */
#ifndef FM_PLATFORM_H
#define FM_PLATFORM_H

#ifndef FM_SIMD
#error "build with -DFM_SIMD=1 (SIMD128 paths) or -DFM_SIMD=0 (scalar only)"
#endif

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define FM_EXPORT EMSCRIPTEN_KEEPALIVE
#if FM_SIMD
#include <wasm_simd128.h>
#endif
#else
#define FM_EXPORT
#if FM_SIMD
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#endif
#endif

/* The wire is big-endian and the kernels read typed-array memory as little-
 * endian (wasm memory always is; so are x86-64 and aarch64 Linux). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fastmp kernels assume a little-endian host"
#endif

/* For the small SIMD helpers that pass vectors through arrays: unless they
 * are inlined, those arrays live on the stack and every vector makes a round
 * trip through memory (measured: unpack at 40 % of the inlined speed). */
#define FM_INLINE static inline __attribute__((always_inline))

/* wasm_i8x16_shuffle and wasm_i8x16_make take 16 lane arguments (and may be
 * macros); these indirections let a macro that expands to the 16 be passed. */
#define FM_SHUFFLE(a, b, ...) wasm_i8x16_shuffle(a, b, __VA_ARGS__)
#define FM_I8X16(...) wasm_i8x16_make(__VA_ARGS__)

#endif
