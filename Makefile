# recflow: the commands a user and CI run. `make demo` and `make test` need nothing installed first.
PYTHON := /usr/bin/python3
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60

.PHONY: all deps build test demo asan fuzz bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake --preset release -DRECFLOW_BUILD_TESTS=ON -DRECFLOW_BUILD_BENCHMARKS=ON -DRECFLOW_BUILD_PYTHON=ON >/dev/null
	@cmake --build --preset release -j $(JOBS)

test: build
	ctest --preset release
	RECFLOW_REQUIRE_ORACLES=1 $(PYTHON) -m pytest -q tests/python

# Installs and builds only what the demo runs (a first configure leaves tests and benchmarks out;
# `make test` adds them to the same build, reusing every object).
demo:
	@scripts/install-deps --demo
	@if [ -f build/release/CMakeCache.txt ]; then cmake --preset release >/dev/null; \
	else cmake --preset release -DRECFLOW_BUILD_TESTS=OFF -DRECFLOW_BUILD_BENCHMARKS=OFF -DRECFLOW_BUILD_PYTHON=OFF >/dev/null; fi
	@cmake --build --preset release -j $(JOBS) --target recflow recflow-idx-to-tfrecord
	@scripts/demo

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer.
# ctest and pytest run the sanitized binaries with a small quarantine: ASan keeps 256 MiB of freed
# memory by default, which the tests that bound a reader's or a server's peak memory would count
# (serve_test's hostile-clients case peaks at 527 MiB with it, 252 MiB without). The Python module's tests
# load the sanitized extension into /usr/bin/python3, which needs the ASan runtime preloaded, with
# libstdc++ (ASan finds the C++ throw it intercepts there at start), and
# leak checks off (the interpreter keeps its objects to the end).
asan: deps
	@cmake --preset debug >/dev/null
	@cmake --build --preset debug -j $(JOBS)
	ASAN_OPTIONS=quarantine_size_mb=1:thread_local_quarantine_size_kb=64 ctest --preset debug
	ASAN_OPTIONS=quarantine_size_mb=1:thread_local_quarantine_size_kb=64 RECFLOW_BIN=build/debug/bin/recflow \
	  $(PYTHON) -m pytest -q tests/python --ignore-glob='tests/python/test_python_*'
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so)" ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=1 \
	  RECFLOW_BIN=build/debug/bin/recflow $(PYTHON) -m pytest -q tests/python/test_python_*.py

# libFuzzer runs of every fuzz target, FUZZ_SECONDS each (clang-14).
fuzz: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	@scripts/run-fuzzers build/fuzz $(FUZZ_SECONDS)

# Google Benchmark runs next to their peers (see BENCHMARKS.md).
bench: build
	@scripts/run-benchmarks build/release

clean:
	rm -rf build
