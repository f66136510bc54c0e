#!/usr/bin/env bash
# make dist: one archive with a release stubd (and stubd-openapi, the program `stubd import openapi`
# runs) that runs without Swift installed, then proves it: unpacked into a fresh folder and run with
# no Swift on PATH, it serves the demo fixtures and imports an OpenAPI spec.
#
# DIST_CONFIGURATION=debug (what `make test` passes) packs a debug build instead: the same archive
# and checks for a third of a release build's time. It has its own build folder: SwiftPM compiles
# for --static-swift-stdlib against the static runtime's modules, and a later plain build in the
# same folder reuses those objects and fails to link, so the tests' folder is never used for it.
#
# Linux: the Swift runtime and Foundation are linked in (--static-swift-stdlib); the binary needs
# only Debian/Ubuntu's libevent-2.1-7, libevent-pthreads-2.1-7 and libnghttp2-14 (no libcurl: the
# commands use the engine's own client, not Foundation's networking), named in the archive's
# INSTALL.txt. macOS: the Swift runtime ships with the OS; the binary needs Homebrew's libevent and nghttp2.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/StubdCommands/Stubd.swift)
OS=$(uname -s | tr '[:upper:]' '[:lower:]')
ARCH=$(uname -m)
NAME="stubd-$VERSION-$OS-$ARCH"
CONFIGURATION=${DIST_CONFIGURATION:-release}
SCRATCH=.build-dist
[ "$CONFIGURATION" = release ] || SCRATCH=".build-dist-$CONFIGURATION"
OPENAPI_SCRATCH="$SCRATCH-openapi"

if [ "$OS" = linux ]; then
    STATIC=--static-swift-stdlib
else
    STATIC=
fi
build() { swift build -c "$CONFIGURATION" $STATIC "$@" 2>&1 | grep -v "use of \`mktemp'" | tail -2; }
build --product stubd --scratch-path "$SCRATCH"
# SwiftPM keeps a path dependency's old file list in an existing folder: retry once in a fresh one.
build --package-path Tools/stubd-openapi --product stubd-openapi --scratch-path "$OPENAPI_SCRATCH" \
    || { rm -rf "$OPENAPI_SCRATCH"; build --package-path Tools/stubd-openapi --product stubd-openapi --scratch-path "$OPENAPI_SCRATCH"; }
BIN="$SCRATCH/$CONFIGURATION/stubd"
OPENAPI_BIN="$OPENAPI_SCRATCH/$CONFIGURATION/stubd-openapi"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/$NAME/bin" "$STAGE/$NAME/share/bash-completion/completions" \
         "$STAGE/$NAME/share/zsh/site-functions" "$STAGE/$NAME/share/fish/vendor_completions.d"
cp "$BIN" "$STAGE/$NAME/bin/stubd"
cp "$OPENAPI_BIN" "$STAGE/$NAME/bin/stubd-openapi"
strip "$STAGE/$NAME/bin/stubd" "$STAGE/$NAME/bin/stubd-openapi" 2>/dev/null || true
"$BIN" --generate-completion-script bash > "$STAGE/$NAME/share/bash-completion/completions/stubd"
"$BIN" --generate-completion-script zsh > "$STAGE/$NAME/share/zsh/site-functions/_stubd"
"$BIN" --generate-completion-script fish > "$STAGE/$NAME/share/fish/vendor_completions.d/stubd.fish"
cp -R fixtures "$STAGE/$NAME/demo-fixtures"
if [ "$OS" = linux ]; then
    NEEDS="Debian/Ubuntu: sudo apt-get install -y libevent-2.1-7 libevent-pthreads-2.1-7 libnghttp2-14"
else
    NEEDS="macOS: brew install libevent nghttp2"
fi
cat > "$STAGE/$NAME/INSTALL.txt" <<TEXT
stubd $VERSION ($OS $ARCH) — a local HTTP stub server for APIs described the Moya way.

Needs: $NEEDS
Install: copy bin/stubd and bin/stubd-openapi (stubd import openapi runs it) onto your PATH, side by
side (and share/ into your prefix for shell completions).
Try it: bin/stubd serve demo-fixtures --port 8080, then curl http://127.0.0.1:8080/zen
TEXT
# A debug archive (make test's check) never lands in dist/, where make install would take it.
OUT=dist
[ "$CONFIGURATION" = release ] || OUT="$STAGE/out"
mkdir -p "$OUT"
tar -C "$STAGE" -czf "$OUT/$NAME.tar.gz.tmp" "$NAME"
mv "$OUT/$NAME.tar.gz.tmp" "$OUT/$NAME.tar.gz"
echo "dist: wrote $OUT/$NAME.tar.gz ($(du -h "$OUT/$NAME.tar.gz" | cut -f1))"

# The proof: a fresh folder, no Swift on PATH, the demo fixtures served.
CHECK=$(mktemp -d)
trap 'rm -rf "$STAGE" "$CHECK"; [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null || true' EXIT
tar -C "$CHECK" -xzf "$OUT/$NAME.tar.gz"
cd "$CHECK/$NAME"
for program in bin/stubd bin/stubd-openapi; do
    if [ "$OS" = linux ] && ldd "$program" | grep -q libswift; then
        echo "dist: FAILED: $program still needs the Swift runtime:"; ldd "$program" | grep libswift; exit 1
    fi
done
env -i PATH=/usr/bin:/bin HOME="$CHECK" bin/stubd serve demo-fixtures --port 0 > "$CHECK/out" 2> "$CHECK/err" &
PID=$!
for _ in $(seq 50); do grep -q "serving" "$CHECK/out" 2>/dev/null && break; sleep 0.1; done
BASE=$(sed -n 's/.* on \(http:.*\)$/\1/p' "$CHECK/out" | head -1)
ANSWER=$(curl -s --max-time 5 "$BASE/zen" || true)
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
if [ "$ANSWER" != "Design for failure." ]; then
    echo "dist: FAILED: the unpacked binary did not serve /zen (got '$ANSWER')"; cat "$CHECK/out" "$CHECK/err"; exit 1
fi
printf '%s\n' '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},' \
    ' "paths": {"/motd": {"get": {"responses": {"200": {"description": "d", "content": {"text/plain": {"example": "hi"}}}}}}}}' > "$CHECK/spec.json"
if ! env -i PATH=/usr/bin:/bin HOME="$CHECK" bin/stubd import openapi "$CHECK/spec.json" --out "$CHECK/imported" > "$CHECK/out" 2> "$CHECK/err" \
    || ! grep -q '/motd' "$CHECK/imported/spec.json" 2>/dev/null; then
    echo "dist: FAILED: the unpacked stubd did not import an OpenAPI spec through bin/stubd-openapi"; cat "$CHECK/out" "$CHECK/err"; exit 1
fi
echo "dist: checked: unpacked in a fresh folder with PATH=/usr/bin:/bin (no Swift), it served the demo fixtures and imported an OpenAPI spec ($CONFIGURATION build)"
