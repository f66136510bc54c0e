#!/usr/bin/env bash
# make test-containers: the container image built (a debug build, for time; `make image` is the
# release one) and run as users run it (Tests/container/image_test.py), then the Testcontainers
# module's own tests against it through Podman's Docker-compatible socket. Installs podman and runc
# (Debian) and testcontainers (PyPI) when missing. Podman gets packaging/container/containers.conf
# (runc, no default ulimits) unless CONTAINERS_CONF says otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
    echo "test-containers: installing podman runc"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq podman runc >/dev/null
fi
python3 -c 'import testcontainers' 2>/dev/null || { echo "test-containers: installing Python testcontainers"; \
    python3 -m pip install -q testcontainers 2>/dev/null || python3 -m pip install -q --break-system-packages testcontainers; }
export CONTAINER_ENGINE=podman
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/packaging/container/containers.conf}

IMAGE_CONFIGURATION=debug bash packaging/container/image.sh
python3 Tests/container/image_test.py stubd:latest

SOCKET_DIR=$(mktemp -d)
podman system service --time=0 "unix://$SOCKET_DIR/podman.sock" >"$SOCKET_DIR/service.log" 2>&1 &
SERVICE=$!
trap 'kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null; rm -rf "$SOCKET_DIR"' EXIT
for _ in $(seq 100); do [ -S "$SOCKET_DIR/podman.sock" ] && break; sleep 0.1; done
# Ryuk (Testcontainers' reaper image) cannot be pulled here: the module's stop cleans up (tested).
# This machine is itself a container (/.dockerenv), where Testcontainers would look for a gateway
# address: the published ports are on this host's loopback, so say so.
DOCKER_HOST="unix://$SOCKET_DIR/podman.sock" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CONNECTION_MODE=docker_host \
    IMAGE=stubd:latest timeout 600 python3 -m unittest discover -s packaging/testcontainers-python/tests -v
