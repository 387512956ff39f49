# Six builds of the same C: two wasm modules (the product) and four native
# builds of the parity harness and the guard-page test; and the libFuzzer
# targets (make fuzz). build.sh installs the toolchain, then runs make.

KERNELS   := $(wildcard c/fm_*.c)
HEADERS   := $(wildcard c/*.h)
HARNESS   := c/harness/fm_cli.c
GUARD     := c/harness/fm_guard.c
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

NATIVE := $(foreach b,x86_64-simd x86_64-scalar aarch64-simd aarch64-scalar,build/$(b)/fm-cli build/$(b)/fm-guard)

.PHONY: all wasm native fuzz clean
all: wasm native fuzz
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

# ---- fuzzing (make fuzz; c/fuzz/run.sh builds and runs it) ---------------------
# libFuzzer targets under ASan + UBSan, natively on x86-64 with clang. The
# kernels are compiled twice (SIMD via SIMDe, and scalar); the scalar set is
# linked into one relocatable object whose fm_* symbols are renamed scalar_fm_*,
# so that the differential target links both sets into one binary.
FUZZ_CC     ?= clang
FUZZ_FLAGS  := -std=c11 -Wall -Wextra -Werror -g -O2 -march=x86-64-v2 -fno-omit-frame-pointer \
               -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_DIR    := build/fuzz
FUZZ_SRC    := $(wildcard c/fuzz/*.c) c/fuzz/fm_fuzz.h
FUZZ_TYPES  := $(TYPES)
FUZZ_KINDS  := bmp ia5 visible
FUZZ_TARGETS := $(addprefix unpack_,$(FUZZ_TYPES)) $(addprefix decode_,$(FUZZ_KINDS)) \
                $(addprefix der_,$(FUZZ_KINDS)) roundtrip diff
FUZZ_SIMD_OBJ   := $(patsubst c/%.c,$(FUZZ_DIR)/obj/simd/%.o,$(KERNELS))
FUZZ_SCALAR_OBJ := $(patsubst c/%.c,$(FUZZ_DIR)/obj/scalar/%.o,$(KERNELS))
upper = $(shell echo $(1) | tr a-z A-Z)

fuzz: $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))

$(FUZZ_DIR)/obj/simd/%.o: c/%.c $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -DFM_SIMD=1 -c $< -o $@

$(FUZZ_DIR)/obj/scalar/%.o: c/%.c $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -DFM_SIMD=0 -c $< -o $@

# One object holding the scalar kernels, every fm_* symbol it defines renamed.
$(FUZZ_DIR)/obj/scalar-kernels.o: $(FUZZ_SCALAR_OBJ)
	ld -r $^ -o $@.tmp
	nm --defined-only -g $@.tmp | awk '$$3 ~ /^fm_/ { print $$3, "scalar_" $$3 }' > $@.syms
	objcopy --redefine-syms=$@.syms $@.tmp $@
	rm -f $@.tmp

$(FUZZ_DIR)/unpack_%: c/fuzz/fuzz_unpack.c $(FUZZ_SIMD_OBJ) $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_TYPE=T_$(call upper,$*) $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/decode_%: c/fuzz/fuzz_strings.c $(FUZZ_SIMD_OBJ) $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_STRING=S_$(call upper,$*) $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/der_%: c/fuzz/fuzz_der.c $(FUZZ_SIMD_OBJ) $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_STRING=S_$(call upper,$*) $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/roundtrip: c/fuzz/fuzz_roundtrip.c $(FUZZ_SIMD_OBJ) $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/diff: c/fuzz/fuzz_diff.c $(FUZZ_SIMD_OBJ) $(FUZZ_DIR)/obj/scalar-kernels.o $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_SIMD_OBJ) $(FUZZ_DIR)/obj/scalar-kernels.o -lm -o $@

# The guard-page test (c/harness/fm_guard.c), for each native build.
build/x86_64-simd/fm-guard: $(KERNELS) $(HEADERS) $(GUARD) Makefile
	@mkdir -p $(@D)
	$(X86_CC) $(CWARN) $(X86_FLAGS) -DFM_SIMD=1 $(KERNELS) $(GUARD) -o $@

build/x86_64-scalar/fm-guard: $(KERNELS) $(HEADERS) $(GUARD) Makefile
	@mkdir -p $(@D)
	$(X86_CC) $(CWARN) $(X86_FLAGS) -DFM_SIMD=0 $(KERNELS) $(GUARD) -o $@

build/aarch64-simd/fm-guard: $(KERNELS) $(HEADERS) $(GUARD) Makefile
	@mkdir -p $(@D)
	$(ARM_CC) $(CWARN) $(ARM_FLAGS) -DFM_SIMD=1 $(KERNELS) $(GUARD) -o $@

build/aarch64-scalar/fm-guard: $(KERNELS) $(HEADERS) $(GUARD) Makefile
	@mkdir -p $(@D)
	$(ARM_CC) $(CWARN) $(ARM_FLAGS) -DFM_SIMD=0 $(KERNELS) $(GUARD) -o $@

clean:
	rm -rf dist build
