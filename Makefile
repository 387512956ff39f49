# Six builds of the same C: two wasm modules (the product) and four native
# builds of the parity harness. build.sh installs the toolchain, then runs make.

KERNELS   := $(wildcard c/fm_*.c)
HEADERS   := $(wildcard c/*.h c/harness/*.h)
HARNESS   := c/harness/fm_cli.c c/harness/fm_ops.c
CWARN     := -std=c11 -Wall -Wextra -Werror
# Every element type has fm_pack_<type> and fm_unpack_<type>; the modules export
# those and what the JS boundary needs, nothing else it can avoid.
TYPES     := f32 f64 i8 u8 i16 u16 i32 u32 i64 u64 bool
comma     := ,
space     := $(subst ,, )
WASM_EXPORTS := $(subst $(space),$(comma),$(strip \
                  $(foreach t,$(TYPES),_fm_pack_$(t) _fm_unpack_$(t)) _fm_simd_enabled _malloc _free))
# ASN.1 strings (c/fm_string.c)
WASM_EXPORTS := $(WASM_EXPORTS),_fm_bmp_encode,_fm_bmp_decode,_fm_ia5_encode,_fm_ia5_decode,_fm_ia5_check,_fm_visible_encode,_fm_visible_decode,_fm_visible_check

EMCC      ?= emcc
WASM_FLAGS := -O3 $(CWARN) --no-entry -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH -sMALLOC=emmalloc \
              -sEXPORTED_FUNCTIONS=$(WASM_EXPORTS) -sFILESYSTEM=0 -sSUPPORT_ERRNO=0 -sTOTAL_STACK=65536 -sINITIAL_MEMORY=2MB -sMAXIMUM_MEMORY=4GB

# x86-64-v2 (SSSE3, SSE4.2) is what SIMDe needs for byte shuffles; every x86-64
# CI machine has it.
X86_CC    ?= gcc
X86_FLAGS ?= -O3 -march=x86-64-v2
ARM_CC    ?= aarch64-linux-gnu-gcc
ARM_FLAGS ?= -O3 -static

NATIVE := build/x86_64-simd/fm-cli build/x86_64-scalar/fm-cli \
          build/aarch64-simd/fm-cli build/aarch64-scalar/fm-cli \
          build/x86_64-simd/fm-bench build/x86_64-scalar/fm-bench

.PHONY: all wasm native clean
all: wasm native
wasm: dist/fastmp-simd.wasm dist/fastmp-scalar.wasm
native: $(NATIVE)

# Emscripten's optimizer runs on Node and needs Debian's node modules.
export NODE_PATH := /usr/share/nodejs

dist/fastmp-simd.wasm: $(KERNELS) $(HEADERS) Makefile
	@mkdir -p dist
	$(EMCC) $(WASM_FLAGS) -msimd128 -DFM_SIMD=1 $(KERNELS) -o $@

dist/fastmp-scalar.wasm: $(KERNELS) $(HEADERS) Makefile
	@mkdir -p dist
	$(EMCC) $(WASM_FLAGS) -DFM_SIMD=0 $(KERNELS) -o $@

build/x86_64-simd/fm-cli: $(KERNELS) $(HEADERS) $(HARNESS) Makefile
	@mkdir -p $(@D)
	$(X86_CC) $(CWARN) $(X86_FLAGS) -DFM_SIMD=1 $(KERNELS) $(HARNESS) -o $@

build/x86_64-scalar/fm-cli: $(KERNELS) $(HEADERS) $(HARNESS) Makefile
	@mkdir -p $(@D)
	$(X86_CC) $(CWARN) $(X86_FLAGS) -DFM_SIMD=0 $(KERNELS) $(HARNESS) -o $@

build/aarch64-simd/fm-cli: $(KERNELS) $(HEADERS) $(HARNESS) Makefile
	@mkdir -p $(@D)
	$(ARM_CC) $(CWARN) $(ARM_FLAGS) -DFM_SIMD=1 $(KERNELS) $(HARNESS) -o $@

build/aarch64-scalar/fm-cli: $(KERNELS) $(HEADERS) $(HARNESS) Makefile
	@mkdir -p $(@D)
	$(ARM_CC) $(CWARN) $(ARM_FLAGS) -DFM_SIMD=0 $(KERNELS) $(HARNESS) -o $@

# The native speed harness (x86-64 only: aarch64 under qemu is no speed figure),
# with msgpack-c as the native peer.
BENCH := c/harness/fm_bench.c c/harness/fm_ops.c

build/x86_64-simd/fm-bench: $(KERNELS) $(HEADERS) $(BENCH) Makefile
	@mkdir -p $(@D)
	$(X86_CC) $(CWARN) $(X86_FLAGS) -DFM_SIMD=1 $(KERNELS) $(BENCH) -lmsgpackc -o $@

build/x86_64-scalar/fm-bench: $(KERNELS) $(HEADERS) $(BENCH) Makefile
	@mkdir -p $(@D)
	$(X86_CC) $(CWARN) $(X86_FLAGS) -DFM_SIMD=0 $(KERNELS) $(BENCH) -lmsgpackc -o $@

clean:
	rm -rf dist build
