#!/usr/bin/env bash
# make image: stubd's OCI image, FROM scratch (packaging/container/Containerfile), with Podman or
# Docker (CONTAINER_ENGINE=podman|docker; the first found otherwise). One recipe everywhere:
#
#   1. a stubd built with Swift's runtime and Foundation linked in (--static-swift-stdlib), in the
#      dist build's folder (IMAGE_CONFIGURATION=release, or debug for make test's quicker image);
#   2. a root file system assembled from it: the binary, each shared library `ldd` names (at the
#      same path, so the loader finds them), the CA bundle, time zones, a passwd/group entry for
#      user 65532 "stubd" with a writable home (the local CA lives in ~/.stubd/ca), /tmp, and the
#      demo fixtures at /fixtures (a mounted folder replaces them);
#   3. `build` of the Containerfile over that folder, tagged IMAGE_TAG (stubd:VERSION) and stubd:latest.
#
# Step 1 needs a Linux Swift toolchain: on macOS (or with IMAGE_BUILD_IN=swift:6.2-bookworm) the
# script runs steps 1–2 inside that Swift image with the engine, then step 3 on the host.
# Prints the image's size. IMAGE_PLATFORM is recorded in the note below: the image is for the
# architecture it was built on (amd64 here; arm64 when run on an arm64 machine or runner).
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
VERSION=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/StubdCommands/Stubd.swift)
CONFIGURATION=${IMAGE_CONFIGURATION:-release}
TAG=${IMAGE_TAG:-stubd:$VERSION}
CONTEXT=.build-image/$CONFIGURATION
SCRATCH=.build-dist
[ "$CONFIGURATION" = release ] || SCRATCH=".build-dist-$CONFIGURATION"

engine() {
    if [ -n "${CONTAINER_ENGINE:-}" ]; then echo "$CONTAINER_ENGINE"; return; fi
    for candidate in podman docker; do command -v "$candidate" >/dev/null && { echo "$candidate"; return; }; done
    echo "image: neither podman nor docker is installed (Debian: apt-get install podman runc; macOS: Docker Desktop or brew install podman)" >&2
    exit 1
}

stage() {
    if ! [ -e /etc/ssl/certs/ca-certificates.crt ] || ! [ -d /usr/share/zoneinfo ]; then
        $SUDO apt-get update -qq && $SUDO apt-get install -y -qq ca-certificates tzdata
    fi
    swift build -c "$CONFIGURATION" --static-swift-stdlib --product stubd --scratch-path "$SCRATCH" 2>&1 | grep -v "use of \`mktemp'" | tail -2
    local bin="$SCRATCH/$CONFIGURATION/stubd" root="$CONTEXT/rootfs"
    rm -rf "$CONTEXT" && mkdir -p "$root/usr/bin" "$root/etc/ssl/certs" "$root/usr/share" "$root/tmp" "$CONTEXT/home/stubd/.stubd"
    cp "$bin" "$root/usr/bin/stubd" && strip "$root/usr/bin/stubd"
    # The ICU data Foundation links in, measured before strip (the symbol's size).
    local icu_hex
    icu_hex=$(nm -S "$bin" 2>/dev/null | awk '$4 ~ /^icudt[0-9]+_dat$/ { found = $2 } END { print found }')
    [ -n "$icu_hex" ] && ICU_BYTES=$((16#$icu_hex))
    # Every library the binary loads, and the loader itself, at the path the build machine has them.
    ldd "$bin" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }' | while read -r lib; do
        mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib"
    done
    cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
    cp -R /usr/share/zoneinfo "$root/usr/share/zoneinfo"
    printf 'root:x:0:0:root:/root:/nonexistent\nstubd:x:65532:65532:stubd:/home/stubd:/nonexistent\n' > "$root/etc/passwd"
    printf 'root:x:0:\nstubd:x:65532:\n' > "$root/etc/group"
    chmod 1777 "$root/tmp"
    cp -R fixtures "$root/fixtures"
    cp packaging/container/Containerfile "$CONTEXT/Containerfile"
}

# What the image is made of, in MB: the binary (and the ICU data inside it), the libraries (and,
# should Foundation's networking come back into the binary, the ones only its libcurl needs —
# packaging/check-imports.py keeps it out), and the time zones.
parts() {
    local root="$CONTEXT/rootfs" libs="" mb='{ printf "%.1f", $1 / 1000000 }'
    libs=$(find "$root/lib" "$root/lib64" "$root/usr/lib" -type f 2>/dev/null || true)
    local binary total_libs curl_only zones
    binary=$(stat -c %s "$root/usr/bin/stubd")
    total_libs=$(echo "$libs" | xargs -r stat -c %s | awk '{ s += $1 } END { print s + 0 }')
    # Libraries libcurl pulls in that nothing else the binary needs does.
    local others curl_deps
    others=$(readelf -d "$root/usr/bin/stubd" | awk -F'[][]' '/NEEDED/ { print $2 }' | grep -v '^libcurl' | while read -r name; do
        path=$(echo "$libs" | grep "/$name\$" | head -1); [ -n "$path" ] && { echo "$name"; ldd "$path" 2>/dev/null | awk '{ print $1 }'; }
    done | sort -u)
    curl_deps=$( { echo libcurl.so.4; ldd "$(echo "$libs" | grep '/libcurl.so.4$' | head -1)" 2>/dev/null | awk '{ print $1 }'; } | sort -u)
    curl_only=$(comm -23 <(echo "$curl_deps") <(echo "$others") | while read -r name; do
        echo "$libs" | grep "/$name\$" | head -1; done | xargs -r stat -c %s | awk '{ s += $1 } END { print s + 0 }')
    zones=$(du -sb "$root/usr/share/zoneinfo" | cut -f1)
    local icu="not measured: built elsewhere"
    [ -n "${ICU_BYTES:-}" ] && icu="$(echo "$ICU_BYTES" | awk "$mb") MB of it"
    local curl="no libcurl"
    echo "$libs" | grep -q '/libcurl.so.4$' && curl="$(echo "$curl_only" | awk "$mb") MB only for libcurl"
    echo "image: parts: stubd $(echo "$binary" | awk "$mb") MB (Foundation's ICU data: $icu)," \
        "libraries $(echo "$total_libs" | awk "$mb") MB ($curl)," \
        "time zones $(echo "$zones" | awk "$mb") MB"
}

if [ "$(uname -s)" != Linux ] || [ -n "${IMAGE_BUILD_IN:-}" ]; then
    ENGINE=$(engine)
    BUILDER=${IMAGE_BUILD_IN:-swift:6.2-bookworm}
    echo "image: building the Linux binary and root file system in $BUILDER"
    "$ENGINE" run --rm -v "$PWD:/src" -w /src -e IMAGE_CONFIGURATION="$CONFIGURATION" -e IMAGE_STAGE_ONLY=1 \
        "$BUILDER" bash -c 'apt-get update -qq && apt-get install -y -qq libevent-dev libssl-dev libnghttp2-dev zlib1g-dev pkg-config >/dev/null && bash packaging/container/image.sh'
else
    stage
fi
[ -n "${IMAGE_STAGE_ONLY:-}" ] && exit 0

ENGINE=$(engine)
FORMAT=()
if [ "$(basename "$ENGINE")" = podman ]; then
    # Docker's image format: OCI's has no HEALTHCHECK.
    FORMAT=(--format docker)
    if [ -z "${CONTAINERS_CONF:-}" ]; then export CONTAINERS_CONF=$PWD/packaging/container/containers.conf; fi
fi
"$ENGINE" build -q "${FORMAT[@]}" -t "$TAG" -t stubd:latest "$CONTEXT" >/dev/null
SIZE=$("$ENGINE" image inspect "$TAG" --format '{{.Size}}')
echo "image: $TAG ($CONFIGURATION build, $(uname -m)): $((SIZE / 1000000)) MB ($SIZE bytes)"
parts || echo "image: parts: not measured (readelf, ldd or stat failed)"
# The release image's budget (IMAGE_BUDGET_MB, 80 by default): over it, the build fails with its parts shown.
BUDGET=${IMAGE_BUDGET_MB:-80}
if [ "$CONFIGURATION" = release ] && [ "$SIZE" -ge $((BUDGET * 1000000)) ]; then
    echo "image: $((SIZE / 1000000)) MB is over the ${BUDGET} MB budget: see the parts above (IMAGE_BUDGET_MB raises it)" >&2
    exit 1
fi

