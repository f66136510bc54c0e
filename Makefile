# stubd — every command installs what it needs on a fresh Debian 12 machine.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
UNAME := $(shell uname -s)
PREFIX ?= /usr/local
ifeq ($(UNAME),Darwin)
# Homebrew's OpenSSL is keg-only: let pkg-config (and so SwiftPM) find it.
export PKG_CONFIG_PATH := $(shell brew --prefix openssl@3 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
endif
FIXTURES ?= fixtures
PORT ?= 8080
# make test runs the container image's tests where a container engine can run (Linux); CONTAINER_TESTS=no
# leaves them to another job (GitHub's Linux job runs inside a container; its image job runs them).
CONTAINER_TESTS ?= $(if $(filter Linux,$(UNAME)),yes,no)
# stubd-openapi, the program `stubd import openapi` runs: a package of its own, so that serving
# builds never clone or compile OpenAPIKit and Yams.
OPENAPI := Tools/stubd-openapi

.PHONY: deps build run check test test-ui test-containers test-cluster image release openapi install dist bench profile fuzz sanitize soak hostile conformance clean

## deps: install libevent, OpenSSL, nghttp2 and zlib (and pkg-config, curl) when missing: apt on Debian/Ubuntu, Homebrew on macOS.
deps:
	@command -v $(SWIFT) >/dev/null || { echo "make: swift not found. Install Swift 6 from https://www.swift.org/install/ (Linux: the tarball or swiftly; macOS: Xcode 16 or swiftly), put its bin/ on PATH, then run make again."; exit 1; }
ifeq ($(UNAME),Darwin)
	@command -v brew >/dev/null || { echo "make: Homebrew not found; install it from https://brew.sh, then run make again (stubd needs its libevent)."; exit 1; }
	@pkg-config --exists libevent_openssl libnghttp2 2>/dev/null || { echo "make: installing libevent openssl@3 nghttp2 pkg-config with Homebrew"; brew install libevent openssl@3 nghttp2 pkg-config; }
else
	@if ! pkg-config --exists libevent libevent_openssl openssl zlib libnghttp2 2>/dev/null || ! command -v curl >/dev/null; then \
		echo "make: installing libevent-dev libssl-dev libnghttp2-dev zlib1g-dev pkg-config curl"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libevent-dev libssl-dev libnghttp2-dev zlib1g-dev pkg-config curl; \
	fi
endif

## build: debug build of everything.
build: deps
	$(SWIFT) build

## release: optimised stubd at .build/release/stubd.
release: deps
	$(SWIFT) build -c release --product stubd

## openapi: stubd-openapi in release, where `stubd import openapi` finds it (make dist, install and Homebrew include it).
openapi: deps
	$(SWIFT) build -c release --package-path $(OPENAPI) --product stubd-openapi || { rm -rf $(OPENAPI)/.build; \
		$(SWIFT) build -c release --package-path $(OPENAPI) --product stubd-openapi; }

## run: build and serve $(FIXTURES) on 127.0.0.1:$(PORT) until Ctrl-C.
run: release
	.build/release/stubd serve $(FIXTURES) --port $(PORT)

## check: the socket-free Swift suites alone (every suite tagged .inMemory: pure logic and whole servers on the
## in-memory engine), in seconds after the build; make test runs everything.
check: deps
	python3 packaging/check-imports.py
	python3 packaging/js-declarations.py
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter "$$(python3 packaging/check-test-depth.py --filter)"

## test: every unit and end-to-end test, as timed steps (packaging/test-steps.py: each step's seconds and a table of them
## at the end; the real clients' suites run side by side): stubd-openapi's tests first (stubd's import tests run it), the
## Swift suites, the stream, WebSocket, proxy and fault clients (curl, requests, httpx, aiohttp, Node, the openai and
## anthropic SDKs, Java 17, OkHttp), the admin API's OpenAPI document, the JVM and JavaScript kits, Maestro's scripts,
## stubd mcp, hostile clients, the short fuzz pass, the UI-test kit built alone, the packaging checks, the dist archive's
## check, three instances behind nginx and the container image. test-deps installs what they need when missing.
test: deps test-deps
	SWIFT=$(SWIFT) UNAME=$(UNAME) CONTAINER_TESTS=$(CONTAINER_TESTS) python3 packaging/test-steps.py

## test-deps: the Python packages, Node, the JDK and Debian's jars, Chromium, nginx and h2load make test's clients use (each installed when missing).
test-deps: deps
	@python3 -c 'import requests, httpx, h2, aiohttp, openai, anthropic, websockets, websocket, gql, openapi_spec_validator, jsonschema, mcp, graphql, kubernetes_validate' 2>/dev/null || \
		{ echo "make: installing Python requests httpx h2 aiohttp openai anthropic websockets websocket-client gql[websockets] openapi-spec-validator jsonschema mcp graphql-core kubernetes-validate"; \
		python3 -m pip install -q requests httpx h2 aiohttp openai anthropic websockets websocket-client 'gql[websockets]' openapi-spec-validator jsonschema mcp graphql-core kubernetes-validate 2>/dev/null || \
		python3 -m pip install -q --break-system-packages requests httpx h2 aiohttp openai anthropic websockets websocket-client 'gql[websockets]' openapi-spec-validator jsonschema mcp graphql-core kubernetes-validate; }
ifeq ($(UNAME),Darwin)
	@command -v node >/dev/null || { echo "make: installing node with Homebrew"; brew install node; }
	@command -v nginx >/dev/null || { echo "make: installing nginx with Homebrew"; brew install nginx; }
else
	@{ command -v node >/dev/null && command -v javac >/dev/null && command -v chromium >/dev/null && { command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; } && \
		command -v h2load >/dev/null && [ -r /usr/share/java/junit-platform-console-standalone.jar ] && [ -r /usr/share/java/okhttp.jar ]; } || \
		{ echo "make: installing nodejs default-jdk-headless junit5 libokhttp-java chromium nginx nghttp2-client"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nodejs default-jdk-headless junit5 libokhttp-java chromium nginx nghttp2-client >/dev/null; }
endif

## test-cluster: three stubd --sessions-only behind Debian's nginx hashing on X-Stubd-Session (50 parallel sessions,
## an instance lost), and packaging/kubernetes validated offline (kubernetes-validate; installs nginx and it when missing).
test-cluster: deps
ifeq ($(UNAME),Darwin)
	@command -v nginx >/dev/null || { echo "make: installing nginx with Homebrew"; brew install nginx; }
else
	@command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "make: installing nginx"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nginx >/dev/null; }
endif
	@python3 -c 'import kubernetes_validate' 2>/dev/null || { echo "make: installing Python kubernetes-validate"; \
		python3 -m pip install -q kubernetes-validate 2>/dev/null || python3 -m pip install -q --break-system-packages kubernetes-validate; }
	$(SWIFT) build --product stubd
	python3 Tests/cluster/nginx_test.py .build/debug/stubd
	python3 Tests/cluster/manifests_test.py .build/debug/stubd

## test-containers: the image (debug build) run with mounted and baked fixtures, the token, HTTPS with the exported CA
## and a restart; then the Testcontainers module's tests through Podman's socket (installs podman, runc, testcontainers).
test-containers: deps
	bash Tests/container/run.sh

## image: stubd's container image from the release build, FROM scratch (packaging/container; Podman or Docker).
image: deps
	bash packaging/container/image.sh

## install: stubd and stubd-openapi into $(PREFIX)/bin (the dist build: no Swift runtime needed) with bash, zsh and fish completions.
install: dist
	tar -xzf dist/stubd-*-$$(uname -s | tr A-Z a-z)-$$(uname -m).tar.gz -C /tmp
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share
	install -m 755 /tmp/stubd-*-$$(uname -s | tr A-Z a-z)-$$(uname -m)/bin/stubd $(DESTDIR)$(PREFIX)/bin/stubd
	install -m 755 /tmp/stubd-*-$$(uname -s | tr A-Z a-z)-$$(uname -m)/bin/stubd-openapi $(DESTDIR)$(PREFIX)/bin/stubd-openapi
	cp -R /tmp/stubd-*-$$(uname -s | tr A-Z a-z)-$$(uname -m)/share/. $(DESTDIR)$(PREFIX)/share/
	rm -rf /tmp/stubd-*-$$(uname -s | tr A-Z a-z)-$$(uname -m)
	@echo "make: installed $(DESTDIR)$(PREFIX)/bin/stubd"

## dist: dist/stubd-VERSION-OS-ARCH.tar.gz, a release stubd and stubd-openapi that run without Swift (Linux:
## --static-swift-stdlib), with completions and the demo fixtures; then checks them from a fresh folder with no Swift on PATH.
dist: deps
	bash packaging/dist.sh

## bench: stubd vs a C evhttp baseline, nginx and WireMock; prints a table, writes docs/PERFORMANCE.md.
bench: deps
	bash bench/run.sh

## profile: instructions per request under callgrind (deterministic), with the top functions.
profile: release
	bash bench/profile.sh

## fuzz: libFuzzer + AddressSanitizer on every reader of remote input (Fuzz/run.sh lists the eight targets: the HTTP head
## and Range, GraphQL, JSON, WebSocket frames, a whole server in memory with templates, forms, multipart and regexes, the
## fixture reader, canonicalisation, route lookup), FUZZ_RUNS (1,000,000) executions or FUZZ_SECONDS each; prints
## executions/s and crashes (make test runs 3 s of each, debug, and fails on a crash).
fuzz: deps
	bash Fuzz/run.sh

## sanitize: the whole test suite under ThreadSanitizer and under AddressSanitizer; prints the reports.
sanitize: deps
	bash bench/sanitize.sh

## soak: SOAK_SECONDS (600) of mixed load on a release build with --workers 2; prints RSS and fd growth.
soak: deps
	bash bench/soak.sh

## hostile: figures under hostile clients (bodies, a huge miss, floods under ulimit -n 256, admin batches, store and
## template bounds, a webhook loop, the HTTP/2 attacks); BASELINE=path/to/stubd runs every row against that build too, in the same run.
hostile: release
	python3 bench/hostile.py .build/release/stubd $(BASELINE)

## test-ui: the dashboard's files checked by web tools (packaging/check-web.sh: node --check, the page's HTML
## against its CSP); the dashboard (/__stubd/ui), and faults seen from a cross-origin page, in headless Chromium over its
## DevTools protocol, against debug stubd servers the tests start (installs Debian's chromium and certutil when missing);
## saves Tests/ui/out/dashboard.png.
test-ui: deps
ifeq ($(UNAME),Darwin)
	@command -v chromium >/dev/null || { echo "make: test-ui needs a chromium on PATH (brew install --cask chromium)"; exit 1; }
	@command -v certutil >/dev/null || { echo "make: test-ui needs NSS's certutil on PATH (brew install nss)"; exit 1; }
else
	@command -v chromium >/dev/null || { echo "make: installing chromium"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }
	@command -v certutil >/dev/null || { echo "make: installing libnss3-tools (certutil: stubd's CA in Chromium's NSS store)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libnss3-tools; }
endif
	SUDO=$(SUDO) bash packaging/check-web.sh
	$(SWIFT) build --product stubd
	python3 Tests/ui/dashboard_test.py .build/debug/stubd
	python3 Tests/ui/cors_faults_test.py .build/debug/stubd
	python3 Tests/ui/fault_steps_test.py .build/debug/stubd 5
	python3 Tests/ui/page_attacks_test.py .build/debug/stubd
	python3 Tests/streams/clients_test.py .build/debug/stubd --clients=chromium-eventsource,chromium-fetch
	python3 Tests/websockets/clients_test.py .build/debug/stubd --clients=chromium
	@# Chromium with --proxy-server through stubd's forward proxy, stubd's CA in its NSS store (docs/PROXY.md).
	python3 Tests/proxy/proxy_test.py .build/debug/stubd --clients=chromium

## conformance: URLSession, curl, Python requests, Node fetch, Chromium, Java HttpClient and OkHttp against a
## release stubd (installs the missing ones); prints the per-client fault table, writes docs/CONFORMANCE.md.
conformance: release
	bash conformance/run.sh

clean:
	rm -rf .build .build-image .build-tsan .build-asan .build-dist .build-dist-openapi .build-dist-debug .build-dist-debug-openapi .build-examples .build-kit $(OPENAPI)/.build Fuzz/.build Fuzz/.build-fuzz bench/out conformance/.build dist
