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

## deps: install libevent, OpenSSL and zlib (and pkg-config, curl) when missing: apt on Debian/Ubuntu, Homebrew on macOS.
deps:
	@command -v $(SWIFT) >/dev/null || { echo "make: swift not found. Install Swift 6 from https://www.swift.org/install/ (Linux: the tarball or swiftly; macOS: Xcode 16 or swiftly), put its bin/ on PATH, then run make again."; exit 1; }
ifeq ($(UNAME),Darwin)
	@command -v brew >/dev/null || { echo "make: Homebrew not found; install it from https://brew.sh, then run make again (stubd needs its libevent)."; exit 1; }
	@pkg-config --exists libevent_openssl 2>/dev/null || { echo "make: installing libevent openssl@3 pkg-config with Homebrew"; brew install libevent openssl@3 pkg-config; }
else
	@if ! pkg-config --exists libevent libevent_openssl openssl zlib 2>/dev/null || ! command -v curl >/dev/null; then \
		echo "make: installing libevent-dev libssl-dev zlib1g-dev pkg-config curl"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libevent-dev libssl-dev zlib1g-dev pkg-config curl; \
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
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter "$$(python3 packaging/check-test-depth.py --filter)"

## test: every unit and end-to-end test (the real-client ones need Python's requests: installed when missing), the
## stream clients (curl, requests, httpx, Node, the openai and anthropic SDKs: installed when missing), the admin API's
## OpenAPI document, the JVM and JavaScript kits, Maestro's scripts and stubd mcp (JDK, junit5, OkHttp, chromium, mcp) —
## stubd-openapi's first, since stubd's import tests run it — then the UI-test kit built alone, the CI workflow
## and Homebrew formula checks, and the dist archive's check on the test build (unpacked, no Swift on PATH, it
## serves the demo fixtures and imports a spec), packed from a debug build in a folder of its own.
test: deps
	@python3 -c 'import requests' 2>/dev/null || { echo "make: installing Python requests"; \
		python3 -m pip install -q requests 2>/dev/null || python3 -m pip install -q --break-system-packages requests 2>/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3 python3-requests; }; }
	@# The fault-step clients of ConformanceTests (conformance/run.py): httpx, aiohttp, Node.
	@python3 -c 'import httpx, aiohttp' 2>/dev/null || { echo "make: installing Python httpx aiohttp"; \
		python3 -m pip install -q httpx aiohttp 2>/dev/null || python3 -m pip install -q --break-system-packages httpx aiohttp; }
	@command -v node >/dev/null || { echo "make: installing nodejs"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nodejs; }
	bash bench/wiremock-jar.sh
	@# SwiftPM keeps a path dependency's old file list in an existing build folder (a source added to
	@# stubd then "cannot be found"): a failed build is tried once more in a fresh one.
	$(SWIFT) test --package-path $(OPENAPI) || { echo "make: retrying stubd-openapi in a fresh build folder"; \
		rm -rf $(OPENAPI)/.build; $(SWIFT) test --package-path $(OPENAPI); }
	SWIFT=$(SWIFT) STUBD_OPENAPI=$(CURDIR)/$(OPENAPI)/.build/debug/stubd-openapi bash packaging/swift-tests.sh
	@# Streams as the official SDKs and other real clients read them (Tests/streams/clients_test.py).
	@python3 -c 'import openai, anthropic, httpx' 2>/dev/null || { echo "make: installing Python openai anthropic httpx"; \
		python3 -m pip install -q openai anthropic httpx 2>/dev/null || python3 -m pip install -q --break-system-packages openai anthropic httpx; }
	@command -v node >/dev/null || { echo "make: installing nodejs"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nodejs; }
	python3 Tests/streams/clients_test.py .build/debug/stubd
	python3 Tests/clients/round3_test.py .build/debug/stubd
	python3 Tests/clients/node_fetch_test.py .build/debug/stubd
	python3 Tests/clients/tls_fault_steps_test.py .build/debug/stubd
	@# WebSockets with Python websockets, websocket-client and Node's WebSocket, ws:// and wss://.
	@python3 -c 'import websockets, websocket' 2>/dev/null || { echo "make: installing Python websockets websocket-client"; \
		python3 -m pip install -q websockets websocket-client 2>/dev/null || python3 -m pip install -q --break-system-packages websockets websocket-client; }
	python3 Tests/websockets/clients_test.py .build/debug/stubd
	python3 Tests/websockets/record_test.py .build/debug/stubd
	@# GraphQL subscriptions over graphql-transport-ws with gql's WebsocketsTransport (docs/WEBSOCKETS.md's fixture).
	@python3 -c 'import gql' 2>/dev/null || { echo "make: installing Python gql[websockets]"; \
		python3 -m pip install -q 'gql[websockets]' 2>/dev/null || python3 -m pip install -q --break-system-packages 'gql[websockets]'; }
	python3 Tests/websockets/graphql_ws_test.py .build/debug/stubd
	@# docs/ANDROID.md's OkHttp session lines with Java 17 and Debian's OkHttp 3 against a real stubd.
ifeq ($(UNAME),Darwin)
	@echo "make: docs/ANDROID.md's OkHttp test is not run on macOS (it uses Debian's libokhttp-java): Linux make test runs it"
else
	@{ command -v javac >/dev/null && [ -r /usr/share/java/okhttp.jar ]; } || { echo "make: installing default-jdk-headless libokhttp-java"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq default-jdk-headless libokhttp-java >/dev/null; }
	python3 Tests/android/session_test.py .build/debug/stubd
endif
	@# stubd as a forward proxy (serve --proxy-port): curl -x, requests, httpx, websocket-client, Java's HttpClient and OkHttp.
	python3 Tests/proxy/proxy_test.py .build/debug/stubd
	@# Where the proxy may connect, by address: aliases in a private hosts file, the LAN setup in a network namespace (issue 58).
ifeq ($(UNAME),Darwin)
	@echo "make: the proxy's destination test is not run on macOS (it needs Linux mount and network namespaces): Linux make test runs it"
else
	python3 Tests/proxy/destinations_test.py .build/debug/stubd
endif
	@# The admin API's OpenAPI document against stubd's answers and the kits' calls; the JVM kit (JUnit 5 in parallel,
	@# OkHttp) and the JavaScript kit (node --test; its page helper in headless Chromium); Maestro's runScript files;
	@# stubd mcp with PyPI's MCP client (issue 48).
	@python3 -c 'import openapi_spec_validator, jsonschema, mcp' 2>/dev/null || { echo "make: installing Python openapi-spec-validator jsonschema mcp"; \
		python3 -m pip install -q openapi-spec-validator jsonschema mcp 2>/dev/null || \
		python3 -m pip install -q --break-system-packages openapi-spec-validator jsonschema mcp; }
	python3 Tests/admin/spec_test.py .build/debug/stubd
ifeq ($(UNAME),Darwin)
	@echo "make: the JVM kit's tests and the Chromium page check are not run on macOS (Debian's junit5, OkHttp and chromium): Linux make test runs them"
	KITS_JVM=no python3 Tests/kits/kits_test.py .build/debug/stubd
else
	@{ command -v javac >/dev/null && [ -r /usr/share/java/junit-platform-console-standalone.jar ] && [ -r /usr/share/java/okhttp.jar ]; } || \
		{ echo "make: installing default-jdk-headless junit5 libokhttp-java"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq default-jdk-headless junit5 libokhttp-java >/dev/null; }
	python3 Tests/kits/kits_test.py .build/debug/stubd
	@command -v chromium >/dev/null || { echo "make: installing chromium"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }
	python3 Tests/kits/page_session_test.py .build/debug/stubd
endif
	python3 Tests/kits/maestro_test.py .build/debug/stubd
	python3 Tests/mcp/mcp_test.py .build/debug/stubd
	@# Hostile clients: held WebSockets and streams in the connection budget, numbers at their edges (issue 43).
	python3 Tests/hostile/connections_test.py .build/debug/stubd
	@# Issue 58's margins: off-loop rendering, bounded recording and MCP reads, SIGTERM drain, link loops, framing at its edges.
	python3 Tests/hostile/margins_test.py .build/debug/stubd
	@# The short fuzz pass: every reader of remote input under libFuzzer + AddressSanitizer, 3 s each (make fuzz: the long one).
	FUZZ_CONFIGURATION=debug FUZZ_SCRATCH=.build-fuzz FUZZ_SECONDS=3 FUZZ_STRICT=1 bash Fuzz/run.sh
	@# WireMock's Handlebars: the same templates served by real WireMock 2.35.1 and by stubd, compared.
	python3 Tests/wiremock/templating_test.py .build/debug/stubd
	@# GraphQL documents read as graphql-core (the oracle) reads them.
	@python3 -c 'import graphql' 2>/dev/null || { echo "make: installing Python graphql-core"; \
		python3 -m pip install -q graphql-core 2>/dev/null || python3 -m pip install -q --break-system-packages graphql-core; }
	python3 Tests/graphql/oracle_test.py .build/debug/stubd
	@# GraphQL as gql and httpx send it: a query, a batch, application/graphql, a persisted-query GET (issue 49).
	python3 Tests/graphql/clients_test.py .build/debug/stubd
	@# OpenAPI bodies made from schemas, validated with jsonschema; the OpenAI spec's quirks.
	@python3 -c 'import jsonschema' 2>/dev/null || { echo "make: installing Python jsonschema"; \
		python3 -m pip install -q jsonschema 2>/dev/null || python3 -m pip install -q --break-system-packages jsonschema; }
	STUBD_OPENAPI=$(CURDIR)/$(OPENAPI)/.build/debug/stubd-openapi python3 Tests/openapi/schema_bodies_test.py .build/debug/stubd
	bash packaging/check-kit.sh
	python3 packaging/check-docs.py
	@# Every code block of README.md and docs/: Swift compiled (Tests/DocsSnippets, built above), transcripts run, fixtures checked.
	python3 Tests/docs/snippets_test.py .build/debug/stubd
	python3 packaging/check-imports.py
	bash packaging/check-packaging.sh .build/debug/stubd
	DIST_CONFIGURATION=debug bash packaging/dist.sh
	$(MAKE) test-cluster
ifeq ($(CONTAINER_TESTS),yes)
	$(MAKE) test-containers
else
	@echo "make: the container image's tests are not run here (CONTAINER_TESTS=$(CONTAINER_TESTS)): make test-containers runs them on Linux"
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
## template bounds, a webhook loop); BASELINE=path/to/stubd runs every row against that build too, in the same run.
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
