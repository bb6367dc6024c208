# posnorm — make build | test | bench | demo | clean
PORT ?= 8000
NODE ?= node

WASM := build/wasm/posnorm-simd.wasm build/wasm/posnorm-scalar.wasm
NATIVE := build/native/test_kernels
C_SOURCES := $(wildcard src/*.c src/*.h)

.PHONY: all build wasm site test fuzz bench accuracy demo dev posters clean mutate
FUZZ_SECONDS ?= 660
FUZZ_TEST_SECONDS ?= 15
# The JS property suite's time budget per build in make fuzz (make test runs a fixed number of runs).
PROPERTY_SECONDS ?= 600

all: build

build: $(WASM) $(NATIVE)

wasm: $(WASM)

$(WASM): $(C_SOURCES) build.sh
	./build.sh wasm

$(NATIVE): $(C_SOURCES) $(wildcard tests/c/*.c tests/c/*.h) build.sh
	./build.sh native

# All tests: native C under sanitizers, a short run of both libFuzzer
# drivers (64-bit and 32-bit, FUZZ_TEST_SECONDS each), kernels and API in
# Node, the package, and the browser tests in headless Chromium (node --test
# runs every *.test.mjs; a test that hangs fails after 10 minutes, naming
# itself, instead of holding the run: the longest takes about 70 s).
test: build
	tools/ensure-test-deps.sh
	./build.sh fuzz
	tests/c/run_fuzz.sh $(FUZZ_TEST_SECONDS)
	./build.sh simdtest
	$(NODE) tools/build-site.mjs
	$(NODE) --test --test-timeout=600000 tests/*.test.mjs

# Deliberate mistakes, one at a time, in a copy of the tree (tools/mutate/):
# each must make a test fail; prints mutation → caught by, exits 1 if any
# survives. Rebuilds the wasm and the native C tests per C mutation (about a
# minute each on an idle machine). MUTATE_ONLY=id,id runs a few.
mutate:
	$(NODE) tools/mutate/run.mjs $(if $(MUTATE_ONLY),--only $(MUTATE_ONLY))

# A longer fuzzing run than the one in make test: both drivers (64-bit, then
# 32-bit) for FUZZ_SECONDS (11 minutes) each on one core, sharing a corpus;
# each prints its execution count, a finding is left in build/fuzz-findings/.
# Then the JS property suite for PROPERTY_SECONDS per build (both builds at
# once) with a new seed, printing the runs per call and the seed.
fuzz:
	tools/ensure-test-deps.sh
	./build.sh fuzz
	mkdir -p build/fuzz-corpus
	tests/c/run_fuzz.sh $(FUZZ_SECONDS) build/fuzz-corpus
	PROPERTY_SECONDS=$(PROPERTY_SECONDS) PROPERTY_SEED=$$(date +%s) PROPERTY_REPORT=1 $(NODE) --test tests/properties.test.mjs

bench: build
	tools/ensure-test-deps.sh
	./build.sh probe
	$(NODE) tools/build-site.mjs
	$(NODE) bench/run.mjs

accuracy: build
	$(NODE) bench/accuracy.mjs

# The demo site: web/ with minified JS/CSS in build/site/, served on PORT
# (also builds build/frame/posnorm-frame.js, figure.html's sandbox bundle).
site: $(WASM)
	tools/ensure-npm-deps.sh
	$(NODE) tools/build-site.mjs

demo: site
	PORT=$(PORT) $(NODE) tools/serve.mjs --dir build/site

# The unminified sources straight from web/ (no build besides the wasm and
# figure.html's sandbox bundle in build/frame/).
dev: $(WASM)
	tools/ensure-npm-deps.sh
	$(NODE) tools/build-frame.mjs
	PORT=$(PORT) $(NODE) tools/serve.mjs

# Still pictures of every figure for readers without JavaScript (web/posters/),
# and the width/height/alt of the poster <img> tags in web/*.html.
posters: site
	tools/ensure-test-deps.sh
	$(NODE) tools/make-posters.mjs

clean:
	rm -rf build test-artifacts
