# posnorm — make build | test | bench | demo | clean
PORT ?= 8000
NODE ?= node

WASM := build/wasm/posnorm-simd.wasm build/wasm/posnorm-scalar.wasm
NATIVE := build/native/test_kernels
C_SOURCES := $(wildcard src/*.c src/*.h)

.PHONY: all build wasm site test fuzz bench accuracy demo dev posters clean mutate
FUZZ_SECONDS ?= 660

all: build

build: $(WASM) $(NATIVE)

wasm: $(WASM)

$(WASM): $(C_SOURCES) build.sh
	./build.sh wasm

$(NATIVE): $(C_SOURCES) tests/c/test_kernels.c build.sh
	./build.sh native

# All tests: native C under sanitizers, a short libFuzzer run, kernels and
# API in Node, the package, and the browser tests in headless Chromium
# (node --test runs every *.test.mjs).
test: build
	tools/ensure-test-deps.sh
	./build.sh fuzz
	./build.sh simdtest
	$(NODE) tools/build-site.mjs
	$(NODE) --test tests/*.test.mjs

# Deliberate mistakes, one at a time, in a copy of the tree (tools/mutate/):
# each must make a test fail; prints mutation → caught by, exits 1 if any
# survives. Rebuilds the wasm and the native C tests per C mutation (about a
# minute each on an idle machine). MUTATE_ONLY=id,id runs a few.
mutate:
	$(NODE) tools/mutate/run.mjs $(if $(MUTATE_ONLY),--only $(MUTATE_ONLY))

# A longer fuzzing run than the one in make test: FUZZ_SECONDS (11 minutes)
# of one core through every kernel; findings are written as crash-* files.
fuzz:
	tools/ensure-test-deps.sh
	./build.sh fuzz
	mkdir -p build/fuzz-corpus
	build/native/fuzz_kernels -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 build/fuzz-corpus

bench: build
	tools/ensure-test-deps.sh
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

# The unminified sources straight from web/ (no build besides the wasm).
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
