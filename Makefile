# stubd — every command installs what it needs on a fresh Debian 12 machine.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FIXTURES ?= fixtures
PORT ?= 8080

.PHONY: deps build run test release bench profile fuzz sanitize soak conformance clean

## deps: install libevent-dev, pkg-config and curl when missing (Debian/Ubuntu).
deps:
	@command -v $(SWIFT) >/dev/null || { echo "make: swift not found. Install Swift 6 from https://www.swift.org/install/ (Linux: the tarball or swiftly; macOS: Xcode 16 or swiftly), put its bin/ on PATH, then run make again."; exit 1; }
	@if ! pkg-config --exists libevent 2>/dev/null || ! command -v curl >/dev/null; then \
		echo "make: installing libevent-dev pkg-config curl"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libevent-dev pkg-config curl; \
	fi

## build: debug build of everything.
build: deps
	$(SWIFT) build

## release: optimised stubd at .build/release/stubd.
release: deps
	$(SWIFT) build -c release --product stubd

## run: build and serve $(FIXTURES) on 127.0.0.1:$(PORT) until Ctrl-C.
run: release
	.build/release/stubd serve $(FIXTURES) --port $(PORT)

## test: every unit and end-to-end test (the real-client ones need Python's requests: installed when missing).
test: deps
	@python3 -c 'import requests' 2>/dev/null || { echo "make: installing Python requests"; \
		python3 -m pip install -q requests 2>/dev/null || python3 -m pip install -q --break-system-packages requests 2>/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3 python3-requests; }; }
	$(SWIFT) test

## bench: stubd vs a C evhttp baseline, nginx and WireMock; prints a table, writes docs/PERFORMANCE.md.
bench: deps
	bash bench/run.sh

## profile: instructions per request under callgrind (deterministic), with the top functions.
profile: release
	bash bench/profile.sh

## fuzz: libFuzzer + AddressSanitizer on the fixture reader/JSON parser, path/query/form canonicalisation
## and route lookup, FUZZ_RUNS (1,000,000) executions each; prints executions/s and crashes.
fuzz: deps
	bash Fuzz/run.sh

## sanitize: the whole test suite under ThreadSanitizer and under AddressSanitizer; prints the reports.
sanitize: deps
	bash bench/sanitize.sh

## soak: SOAK_SECONDS (600) of mixed load on a release build with --workers 2; prints RSS and fd growth.
soak: deps
	bash bench/soak.sh

## conformance: URLSession, curl, Python requests, Node fetch, Chromium, Java HttpClient and OkHttp against a
## release stubd (installs the missing ones); prints the per-client fault table, writes docs/CONFORMANCE.md.
conformance: release
	bash conformance/run.sh

clean:
	rm -rf .build .build-tsan .build-asan Fuzz/.build bench/out conformance/.build
