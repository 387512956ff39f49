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

/* FM_EXPORT, on a kernel's definition, makes the wasm modules export it: the
 * one list of what the JS boundary can call (the Makefile names only the
 * allocator; test/c-interface.test.js compares both with the modules). */
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

/* FM_PACK_EXPORT on a pack kernel's definition, FM_UNPACK_EXPORT on an unpack
 * kernel's: FM_EXPORT, except in the typed kernels' two modules, each of
 * which leaves the other's kernels unexported and so out of it: the pack
 * module (-DFM_PACK_ONLY) and the unpack module (-DFM_UNPACK_ONLY). An app
 * fetches the module of each kind of call it makes (js/surface.js). */
#if defined(FM_PACK_ONLY) && defined(FM_UNPACK_ONLY)
#error "a module holds the pack kernels (FM_PACK_ONLY) or the unpack kernels (FM_UNPACK_ONLY), not neither"
#endif
#ifdef FM_UNPACK_ONLY
#define FM_PACK_EXPORT
#else
#define FM_PACK_EXPORT FM_EXPORT
#endif
#ifdef FM_PACK_ONLY
#define FM_UNPACK_EXPORT
#else
#define FM_UNPACK_EXPORT FM_EXPORT
#endif

/* FM_SIMD_PACK: whether the build holds the SIMD pack kernels (FM_SIMD, but
 * not in the unpack module). The int pack kernels' tables are built by
 * constructors, which the linker keeps whatever is exported: the unpack
 * module leaves out the SIMD pack code, and so the constructors and tables. */
#if FM_SIMD && !defined(FM_UNPACK_ONLY)
#define FM_SIMD_PACK 1
#else
#define FM_SIMD_PACK 0
#endif

/* The wire is big-endian and the kernels read typed-array memory as little-
 * endian (wasm memory always is; so are x86-64 and aarch64 Linux). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fastmp kernels assume a little-endian host"
#endif

/* For the small SIMD helpers that pass vectors through arrays: unless they
 * are inlined, those arrays live on the stack and every vector makes a round
 * trip through memory, which leaves unpack far behind its inlined speed. */
#define FM_INLINE static inline __attribute__((always_inline))

/* FM_COLD on a function that runs once (the constructors that build the
 * kernels' tables): kept out of line and compiled for size, as its speed
 * does not count and its code is fetched with the module. */
#if defined(__clang__)
#define FM_COLD __attribute__((cold, minsize, noinline))
#else
#define FM_COLD __attribute__((cold, noinline))
#endif

/* wasm_i8x16_make takes 16 lane arguments (and may be a macro); this
 * indirection lets a macro that expands to the 16 be passed. */
#define FM_I8X16(...) wasm_i8x16_make(__VA_ARGS__)

/* FM_SHUFFLE(a, b, i0..i15): byte r of the result is byte i_r of a (0-15) or
 * of b (16-31), or 0 for any other index. It is built from i8x16.swizzle
 * with constant index vectors rather than i8x16.shuffle: V8 keeps constant
 * vectors in registers across a loop, but rebuilds a shuffle's mask from its
 * immediates at every use: the float32 pack kernel runs much faster with
 * swizzles (bench/kernels.js --types=f32 times it). A shuffle that reads only
 * `a` takes one swizzle. */
#define FM_APPLY(M, ...) M(__VA_ARGS__)
#define FM_MAP16(F, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) \
  F(a), F(b), F(c), F(d), F(e), F(f), F(g), F(h), F(i), F(j), F(k), F(l), F(m), F(n), F(o), F(p)
#define FM_OR16(F, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) \
  (F(a) | F(b) | F(c) | F(d) | F(e) | F(f) | F(g) | F(h) | F(i) | F(j) | F(k) | F(l) | F(m) | F(n) | F(o) | F(p))
#define FM_FROM_A(i) ((i) >= 0 && (i) < 16 ? (i) : -128)
#define FM_FROM_B(i) ((i) >= 16 && (i) < 32 ? (i)-16 : -128)
#define FM_READS_B(i) ((i) >= 16 && (i) < 32)
#define FM_SHUFFLE(a, b, ...)                                                                     \
  __builtin_choose_expr(                                                                          \
      FM_APPLY(FM_OR16, FM_READS_B, __VA_ARGS__),                                                 \
      wasm_v128_or(wasm_i8x16_swizzle(a, FM_I8X16(FM_APPLY(FM_MAP16, FM_FROM_A, __VA_ARGS__))),   \
                   wasm_i8x16_swizzle(b, FM_I8X16(FM_APPLY(FM_MAP16, FM_FROM_B, __VA_ARGS__)))), \
      wasm_i8x16_swizzle(a, FM_I8X16(FM_APPLY(FM_MAP16, FM_FROM_A, __VA_ARGS__))))

#endif
