#!/usr/bin/env bash
# build.sh - takes a fresh Debian machine (root, Node 20) to a full build:
# installs the missing toolchain with apt-get, the JS tools with npm ci, then
# makes the builds (the wasm modules, the native parity harnesses and
# guard-page tests, the libFuzzer targets) and the single-file Node entries.
# Rerunning it when nothing changed does nothing but check, in seconds.
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(
  make gcc                                          # native x86-64 builds
  emscripten                                        # the two wasm builds
  libsimde-dev                                      # SIMD128 intrinsics natively
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross       # aarch64 builds
  qemu-user                                         # ... and running them
  libmsgpack-dev                                    # msgpack-c, the native peer in the benchmark
  python3-msgpack                                   # Python peer in the interop tests
  python3-pyasn1                                    # Python peer of the string tests (DER)
  chromium                                          # the browser test (driven by playwright-core)
  firefox-esr                                       # npm run test:engines (driven by puppeteer-core)
  clang libclang-rt-14-dev binutils                 # libFuzzer + ASan/UBSan targets (make fuzz; ld -r, objcopy)
)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "build.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

make -j2 --no-print-directory
# The Node entries as single files (dist/fastmp-node*.js): import in Node loads one file, not ~50.
node scripts/build-node.js
