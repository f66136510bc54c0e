# stubd — every command installs what it needs on a fresh Debian 12 machine.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FIXTURES ?= fixtures
PORT ?= 8080

.PHONY: deps build run test release bench profile clean

## deps: install libevent-dev, pkg-config and curl when missing (Debian/Ubuntu).
deps:
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

## test: every unit and end-to-end test.
test: deps
	$(SWIFT) test

## bench: stubd vs a C evhttp baseline, nginx and WireMock; prints a table, writes docs/PERFORMANCE.md.
bench: deps
	bash bench/run.sh

## profile: instructions per request under callgrind (deterministic), with the top functions.
profile: release
	bash bench/profile.sh

clean:
	rm -rf .build bench/out
