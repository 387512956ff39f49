# Nine builds of the same C: six wasm modules (the product: three modules,
# each SIMD and scalar) and four native builds of the parity harness and the
# guard-page test; and the libFuzzer targets (make fuzz). build.sh installs
# the toolchain, then runs make.

KERNELS   := $(wildcard c/fm_*.c)
# The wasm modules, one per kind of call, so that an app fetches only the
# kernels it calls: packing typed arrays (pack() and the message encoder's
# fields), unpacking them (unpack() and shaped decoding), and the ASN.1
# strings. The typed kernels' sources build two modules, each without the
# other's kernels (c/fm_platform.h FM_PACK_ONLY / FM_UNPACK_ONLY). An
# instance's modules share one memory that its JS heap owns: each module
# imports it and lies in a slot of its own (c/fastmp.h FM_SLOT_*).
# c/fm_module.c is in every one. (test/c-interface.test.js reads these lists.)
TYPED_KERNELS   := c/fm_bool.c c/fm_float.c c/fm_int.c c/fm_module.c
STRINGS_KERNELS := c/fm_string.c c/fm_module.c
HEADERS   := $(wildcard c/*.h c/harness/*.h)
CWARN     := -std=c11 -Wall -Wextra -Werror
# The element types (f32 f64 i8 ... bool), read from c/fastmp.h's FM_ELEMENT_TYPES.
TYPES     := $(strip $(shell echo 'FM_ELEMENT_TYPES(NAME)' | \
               cpp -P -imacros c/fastmp.h '-DNAME(name, T, wire)=name' -))

# What the modules export is marked in the C: FM_EXPORT (c/fm_platform.h) on
# the definition of every kernel the JS boundary calls, so that a kernel and
# its export cannot drift apart. No allocator: the JS heap allocates.
# The module's size counts after gzip: binaryen's -O3 runs twice (the extra
# pass renumbers locals and finishes simplifications the first began: the
# same code, which gzip finds more repeats in).
EMCC      ?= emcc
upper      = $(shell echo $(1) | tr a-z A-Z)
WASM_FLAGS := -O3 $(CWARN) --no-entry -sSTANDALONE_WASM -sMALLOC=none -sIMPORTED_MEMORY -sALLOW_MEMORY_GROWTH \
              -sFILESYSTEM=0 -sSUPPORT_ERRNO=0 -sTOTAL_STACK=65536 -sINITIAL_MEMORY=2MB -sMAXIMUM_MEMORY=4GB \
              -sBINARYEN_EXTRA_PASSES=-O3
# Each module's slot in the shared memory (its static data, then its stack),
# read from c/fastmp.h: $(call slot,PACK) is FM_SLOT_PACK.
slot       = $(shell echo 'FM_SLOT_$(1)' | cpp -P -imacros c/fastmp.h - | tr -d 'u \n\t')

# x86-64-v2 (SSSE3, SSE4.2) is what SIMDe needs for byte shuffles; every x86-64
# CI machine has it.
X86_CC    ?= gcc
X86_FLAGS ?= -O3 -march=x86-64-v2
ARM_CC    ?= aarch64-linux-gnu-gcc
ARM_FLAGS ?= -O3 -static

# Four native builds, <arch>-<simd|scalar>, each of the parity harness
# (fm-cli) and the guard-page test (fm-guard); x86-64 also of the speed harness
# (fm-bench: aarch64 under qemu is no speed figure), with msgpack-c as the
# native peer.
ARCHS            := x86_64 aarch64
x86_64_CC         = $(X86_CC)
x86_64_FLAGS      = $(X86_FLAGS)
x86_64_PROGRAMS  := fm-cli fm-guard fm-bench
aarch64_CC        = $(ARM_CC)
aarch64_FLAGS     = $(ARM_FLAGS)
aarch64_PROGRAMS := fm-cli fm-guard
fm-cli_SRC       := c/harness/fm_cli.c c/harness/fm_ops.c
fm-guard_SRC     := c/harness/fm_guard.c c/harness/fm_ops.c
fm-bench_SRC     := c/harness/fm_bench.c c/harness/fm_ops.c
fm-bench_LIBS    := -lmsgpackc
NATIVE := $(foreach a,$(ARCHS),$(foreach s,simd scalar,$(foreach p,$($(a)_PROGRAMS),build/$(a)-$(s)/$(p))))

.PHONY: all wasm native fuzz fuzz-targets families clean
all: wasm native fuzz
MODULES      := pack unpack strings
WASM_MODULES := $(foreach m,$(MODULES),dist/fastmp-$(m)-simd.wasm dist/fastmp-$(m)-scalar.wasm)
wasm: $(WASM_MODULES) $(foreach m,$(MODULES),dist/fastmp-inline-$(m).js)
native: $(NATIVE)

# Emscripten's optimizer runs on Node and needs Debian's node modules.
export NODE_PATH := /usr/share/nodejs

SIMD_FLAGS   := -msimd128 -DFM_SIMD=1
SCALAR_FLAGS := -DFM_SIMD=0

# dist/fastmp-<module>-<build>.wasm: the module's sources and flags, at its slot.
pack_SRC      := $(TYPED_KERNELS)
pack_FLAGS    := -DFM_PACK_ONLY
unpack_SRC    := $(TYPED_KERNELS)
unpack_FLAGS  := -DFM_UNPACK_ONLY
strings_SRC   := $(STRINGS_KERNELS)
strings_FLAGS :=
define wasm_rule
dist/fastmp-$1-$2.wasm: $$($1_SRC) $$(HEADERS) Makefile
	@mkdir -p dist
	$$(EMCC) $$(WASM_FLAGS) $$($(call upper,$2)_FLAGS) $$($1_FLAGS) -sGLOBAL_BASE=$$(call slot,$(call upper,$1)) $$($1_SRC) -o $$@
endef
$(foreach m,$(MODULES),$(foreach b,simd scalar,$(eval $(call wasm_rule,$(m),$(b)))))

# The typed modules' kernels by element family, as a split of each module
# would build them (not the product: bench/size-families.js weighs the pages
# that would fetch them): the floats, and the integers with the booleans.
# `make families` builds build/families/fastmp-{pack,unpack}-{float,int}-simd.wasm.
float_SRC := c/fm_float.c c/fm_module.c
int_SRC   := c/fm_bool.c c/fm_int.c c/fm_module.c
FAMILY_MODULES := $(foreach m,pack unpack,$(foreach f,float int,build/families/fastmp-$(m)-$(f)-simd.wasm))
define family_rule
build/families/fastmp-$1-$2-simd.wasm: $$($2_SRC) $$(HEADERS) Makefile
	@mkdir -p $$(@D)
	$$(EMCC) $$(WASM_FLAGS) $$(SIMD_FLAGS) $$($1_FLAGS) -sGLOBAL_BASE=$$(call slot,$(call upper,$1)) $$($2_SRC) -o $$@
endef
$(foreach m,pack unpack,$(foreach f,float int,$(eval $(call family_rule,$(m),$(f)))))
families: $(FAMILY_MODULES)

# Each wasm module's two builds as hex, for the entry fastmp-wasm/inline
# (js/inline.js): $(call inline,STEM) writes dist/STEM-{simd,scalar}.wasm.
# Hex, not base64: a byte stays two characters at an even offset, so gzip
# still finds the wasm's repeats, which base64's 3-bytes-to-4 shifts hide
# (bench/size.js measures what an app of the inline entry costs).
hex    = $$(od -An -v -tx1 dist/$(1) | tr -d ' \n')
inline = { echo '// Generated by make from dist/*.wasm: both builds as hex, for js/inline.js.'; \
	   echo "export const SIMD = '$(call hex,$(1)simd.wasm)';"; \
	   echo "export const SCALAR = '$(call hex,$(1)scalar.wasm)';"; } > $@.tmp && mv $@.tmp $@
dist/fastmp-inline-%.js: dist/fastmp-%-simd.wasm dist/fastmp-%-scalar.wasm
	@$(call inline,fastmp-$*-)

# One rule for every native program of every build:
# $(call native_rule,ARCH,SIMD,PROGRAM) with SIMD simd or scalar (-DFM_SIMD=1 / 0).
define native_rule
build/$1-$2/$3: $$(KERNELS) $$(HEADERS) $$($3_SRC) Makefile
	@mkdir -p $$(@D)
	$$($1_CC) $$(CWARN) $$($1_FLAGS) -DFM_SIMD=$(if $(filter simd,$2),1,0) $$(KERNELS) $$($3_SRC) $$($3_LIBS) -o $$@
endef
$(foreach a,$(ARCHS),$(foreach s,simd scalar,$(foreach p,$($(a)_PROGRAMS),\
  $(eval $(call native_rule,$(a),$(s),$(p))))))

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
FUZZ_KINDS  := bmp ia5 visible printable numeric
FUZZ_TARGETS := $(addprefix unpack_,$(FUZZ_TYPES)) $(addprefix decode_,$(FUZZ_KINDS)) \
                $(addprefix der_,$(FUZZ_KINDS)) roundtrip diff
FUZZ_SIMD_OBJ   := $(patsubst c/%.c,$(FUZZ_DIR)/obj/simd/%.o,$(KERNELS))
FUZZ_SCALAR_OBJ := $(patsubst c/%.c,$(FUZZ_DIR)/obj/scalar/%.o,$(KERNELS))

fuzz: $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))
# Their names, for c/fuzz/run.sh.
fuzz-targets:
	@echo $(FUZZ_TARGETS)

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
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_TYPE=FM_TYPE_$* $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/decode_%: c/fuzz/fuzz_strings.c $(FUZZ_SIMD_OBJ) $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_STRING=S_$(call upper,$*) $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/der_%: c/fuzz/fuzz_der.c $(FUZZ_SIMD_OBJ) $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_STRING=S_$(call upper,$*) $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/roundtrip: c/fuzz/fuzz_roundtrip.c $(FUZZ_SIMD_OBJ) $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_SIMD_OBJ) -lm -o $@

$(FUZZ_DIR)/diff: c/fuzz/fuzz_diff.c $(FUZZ_SIMD_OBJ) $(FUZZ_DIR)/obj/scalar-kernels.o $(FUZZ_SRC) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_SIMD_OBJ) $(FUZZ_DIR)/obj/scalar-kernels.o -lm -o $@

clean:
	rm -rf dist build
