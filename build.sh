#!/usr/bin/env bash
# build.sh — builds posnorm's WebAssembly modules and native test binaries.
#
#   ./build.sh            both wasm builds (SIMD128 and scalar) into build/wasm/
#   ./build.sh wasm       the same
#   ./build.sh native     native C tests under ASan + UBSan
#   ./build.sh fuzz       the libFuzzer driver, 64-bit and 32-bit (clang, compiler-rt)
#   ./build.sh simdtest   the native C tests compiled to wasm SIMD128 with ASan + UBSan
#   ./build.sh probe      the SIMD wasm with the bare loops of bench/row-ahead/loops.c
#                         linked in beside the kernels (build/probe/; never shipped)
#
# Emscripten is required for the wasm builds. On Debian, run as root, this
# script installs Debian's `emscripten` package; elsewhere it explains how to
# get it and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")"

# Kernels on the figures' per-frame paths are built for speed (-O2) — the
# random normals too: <posnorm-depth> draws 96·width² of them at every new
# width (7.8 → 5.2 ms at width 64 with random.c at -O2 and its logs taken
# in pairs, docs/decisions.md); the
# rest — called once per change or for small sizes — for size (-Os), which
# keeps each wasm under 49 KiB, 50,176 bytes (it changes no result: no fast-math, no FMA;
# 45 KiB until the double-double angles, docs/decisions.md).
HOT_SOURCES="src/pe.c src/layernorm.c src/rmsnorm.c src/norm_rows.c src/reduce.c src/copy.c src/random.c"
COLD_SOURCES="src/colormap.c src/depth.c src/batchnorm.c src/rope.c src/alibi.c src/histogram.c
src/pn_math.c src/pn_f64.c src/version.c src/layernorm_steps.c src/attention.c src/pe_props.c src/rope_scaling.c src/pe_float32.c src/depth_grad.c src/block.c src/lowprec.c"
SOURCES="$HOT_SOURCES $COLD_SOURCES"
# The test builds (native, simdtest, fuzz) add the counting pn_malloc/pn_free
# (src/pn_alloc.h): the tests check that no call allocates before it has
# validated its arguments and that every allocation is freed.
TEST_SOURCES="$SOURCES src/alloc_count.c"
TEST_DEFINES="-DPN_COUNT_ALLOC"
# -Wmissing-prototypes: a function a kernel file defines without `static`
# must be declared in a header first, so every entry point the wasm could
# export is one of the public headers' declarations (or an internal
# header's, which is not exported).
CFLAGS_COMMON="-std=c11 -O2 -Wall -Wextra -Werror -Wmissing-prototypes -ffp-contract=off"
# The test builds (native ASan + UBSan, simdtest, the fuzzers) at -O1, the
# level sanitizers are meant for: said here, not substituted into
# CFLAGS_COMMON (the substitution -O3 -> -O1 never matched and left -O2).
CFLAGS_TEST="-std=c11 -O1 -Wall -Wextra -Werror -ffp-contract=off"
# The wasm exports: every function the public headers declare (a line
# `int pn_name(` opens each declaration), and malloc and free for the JS
# wrapper's buffers. tests/c_exports.test.mjs reads the headers its own way
# and holds both builds to exactly this list.
PUBLIC_HEADERS="src/posnorm.h src/posnorm_figures.h"
exports_from_headers() {
  local names
  names=$(sed -n 's/^int \(pn_[a-z0-9_]*\)(.*/_\1/p' $PUBLIC_HEADERS | sort -u | paste -sd, -)
  [ -n "$names" ] || { echo "build.sh: no declarations found in $PUBLIC_HEADERS" >&2; exit 1; }
  echo "_malloc,_free,$names"
}

# Debian's emcc needs Node to find acorn and friends in /usr/share/nodejs.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

ensure_emcc() {
  command -v emcc >/dev/null 2>&1 && return 0
  if [ -r /etc/debian_version ] && [ "$(id -u)" = 0 ]; then
    echo "build.sh: installing Debian's emscripten package" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emscripten >/dev/null
    command -v emcc >/dev/null 2>&1 && return 0
  fi
  cat >&2 <<'MSG'
build.sh: emcc (Emscripten) was not found.
  Debian/Ubuntu:  sudo apt-get install emscripten
  elsewhere:      install the emsdk (emscripten.org/docs/getting_started) and
                  `source emsdk_env.sh`, then run ./build.sh again.
MSG
  exit 1
}

build_wasm() {
  ensure_emcc
  mkdir -p build/wasm
  local exports
  exports=$(exports_from_headers)
  local flavour simd_flag
  for flavour in simd scalar; do
    if [ "$flavour" = simd ]; then simd_flag=-msimd128; else simd_flag=-mno-simd128; fi
    local obj="build/obj/$flavour" src objects=""
    mkdir -p "$obj"
    for src in $HOT_SOURCES $COLD_SOURCES; do
      local level=-O2
      case " $(echo $COLD_SOURCES) " in *" $src "*) level=-Os ;; esac
      # shellcheck disable=SC2086
      emcc ${CFLAGS_COMMON/-O2/$level} $simd_flag -c "$src" -o "$obj/$(basename "$src" .c).o"
      objects="$objects $obj/$(basename "$src" .c).o"
    done
    # shellcheck disable=SC2086
    link_wasm "build/wasm/posnorm-$flavour.wasm" "$exports" $simd_flag $objects
    echo "built build/wasm/posnorm-$flavour.wasm ($(wc -c <"build/wasm/posnorm-$flavour.wasm") bytes)"
  done
}

# link_wasm OUT EXPORTS FLAGS-AND-OBJECTS...: the one link line of every wasm
link_wasm() {
  local out=$1 exports=$2
  shift 2
  emcc -O2 "$@" -o "$out" \
    --no-entry -sSTANDALONE_WASM -sFILESYSTEM=0 -sMALLOC=emmalloc \
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=1MB -sMAXIMUM_MEMORY=2GB \
    -sTOTAL_STACK=256KB -sEXPORTED_FUNCTIONS="$exports"
}

# The SIMD wasm's objects and link, with bench/row-ahead/loops.c beside them:
# the loops run in the same instance, memory and engine as the kernels they
# are compared with (bench/row-ahead.mjs).
build_probe() {
  build_wasm
  mkdir -p build/probe
  local out=build/probe/posnorm-row-ahead.wasm
  # shellcheck disable=SC2086
  emcc $CFLAGS_COMMON -msimd128 -c bench/row-ahead/loops.c -o build/probe/loops.o
  # shellcheck disable=SC2046
  link_wasm "$out" "$(exports_from_headers),_ahead_layernorm,_ahead_bare,_rows_layernorm,_rows_copy_layernorm,_rows_wholepass_layernorm,_read_only,_ahead_noreread,_rows_scratch_layernorm,_ahead_readtwice,_rows_bare,_rows_readtwice" -msimd128 \
    $(for src in $HOT_SOURCES $COLD_SOURCES; do echo "build/obj/simd/$(basename "$src" .c).o"; done) build/probe/loops.o
  echo "built $out"
}

build_native() {
  mkdir -p build/native
  local cc=${CC:-cc}
  local san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
  # shellcheck disable=SC2086
  $cc $CFLAGS_TEST $san $TEST_DEFINES -Isrc $TEST_SOURCES tests/c/test_kernels.c tests/c/test_safety.c tests/c/test_angles.c -lm \
    -o build/native/test_kernels
  echo "built build/native/test_kernels (ASan + UBSan)"
}

# The libFuzzer driver, twice: 64-bit (build/native/fuzz_kernels) and 32-bit
# (build/native/fuzz_kernels32, clang -m32), whose 32-bit size_t is the word
# size the wasm modules ship with; its doubles in SSE2 (-mfpmath=sse), as
# wasm evaluates them, not in the x87's extended precision. Both with ASan +
# UBSan; the 32-bit one needs Debian's libc6-dev-i386, lib32gcc-12-dev,
# lib32stdc++-12-dev and the i386 runtimes of libclang-rt-14-dev
# (tools/ensure-test-deps.sh), and runs under qemu-i386 where the kernel has
# no 32-bit emulation (tests/c/run_fuzz.sh).
build_fuzz() {
  mkdir -p build/native
  local bits out arch
  for bits in 64 32; do
    out=build/native/fuzz_kernels arch=-m64
    [ "$bits" = 32 ] && out=build/native/fuzz_kernels32 arch="-m32 -msse2 -mfpmath=sse"
    # shellcheck disable=SC2086
    ${CLANG:-clang} $arch $CFLAGS_TEST -g -fsanitize=fuzzer,address,undefined \
      -fno-sanitize-recover=all $TEST_DEFINES -Isrc $TEST_SOURCES tests/c/fuzz_kernels.c -lm -o $out
    echo "built $out (libFuzzer + ASan + UBSan, ${bits}-bit)"
  done
}

# The same C tests on the SIMD128 code path itself: compiled by emcc with
# -msimd128 and AddressSanitizer + UBSan (Debian's Emscripten 3.1.6 has both
# runtimes), run under Node (tests call it with --no-experimental-fetch, as
# this Emscripten's loader would otherwise try fetch() on a file path).
build_simdtest() {
  ensure_emcc
  mkdir -p build/native
  # shellcheck disable=SC2086
  emcc $CFLAGS_TEST -msimd128 -fsanitize=address,undefined $TEST_DEFINES -Isrc $TEST_SOURCES tests/c/test_kernels.c tests/c/test_safety.c tests/c/test_angles.c \
    -o build/native/test_kernels_simd.cjs -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB
  echo "built build/native/test_kernels_simd.cjs (wasm SIMD128 + ASan + UBSan, run with node)"
}

case "${1:-wasm}" in
  wasm) build_wasm ;;
  native) build_native ;;
  fuzz) build_fuzz ;;
  simdtest) build_simdtest ;;
  probe) build_probe ;;
  all) build_wasm; build_native ;;
  *) echo "usage: $0 [wasm|native|fuzz|simdtest|probe|all]" >&2; exit 2 ;;
esac
