#!/usr/bin/env bash
# make dist: one archive with a release stubd that runs without Swift installed, then proves it:
# unpacked into a fresh folder and run with no Swift on PATH, it serves the demo fixtures.
#
# Linux: the Swift runtime and Foundation are linked in (--static-swift-stdlib); the binary needs
# only Debian/Ubuntu's libevent-2.1-7, libevent-pthreads-2.1-7 and libcurl4 (Foundation's
# networking), named in the archive's INSTALL.txt. macOS: the Swift runtime ships with the OS;
# the binary needs Homebrew's libevent.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
VERSION=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/StubdCLI/Stubd.swift)
OS=$(uname -s | tr '[:upper:]' '[:lower:]')
ARCH=$(uname -m)
NAME="stubd-$VERSION-$OS-$ARCH"
SCRATCH=.build-dist

if [ "$OS" = linux ]; then
    # Foundation's static networking library links against libcurl: the linker needs libcurl.so.
    if ! [ -e /usr/lib/"$ARCH"-linux-gnu/libcurl.so ] && ! [ -e /usr/lib/libcurl.so ]; then
        echo "dist: installing libcurl4-openssl-dev (to link Foundation statically)"
        $SUDO apt-get update -qq && $SUDO apt-get install -y -qq libcurl4-openssl-dev
    fi
    swift build -c release --product stubd --static-swift-stdlib --scratch-path "$SCRATCH" 2>&1 | grep -v "use of \`mktemp'" | tail -2
else
    swift build -c release --product stubd --scratch-path "$SCRATCH" | tail -2
fi
BIN="$SCRATCH/release/stubd"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/$NAME/bin" "$STAGE/$NAME/share/bash-completion/completions" \
         "$STAGE/$NAME/share/zsh/site-functions" "$STAGE/$NAME/share/fish/vendor_completions.d"
cp "$BIN" "$STAGE/$NAME/bin/stubd"
strip "$STAGE/$NAME/bin/stubd" 2>/dev/null || true
"$BIN" --generate-completion-script bash > "$STAGE/$NAME/share/bash-completion/completions/stubd"
"$BIN" --generate-completion-script zsh > "$STAGE/$NAME/share/zsh/site-functions/_stubd"
"$BIN" --generate-completion-script fish > "$STAGE/$NAME/share/fish/vendor_completions.d/stubd.fish"
cp -R fixtures "$STAGE/$NAME/demo-fixtures"
if [ "$OS" = linux ]; then
    NEEDS="Debian/Ubuntu: sudo apt-get install -y libevent-2.1-7 libevent-pthreads-2.1-7 libcurl4"
else
    NEEDS="macOS: brew install libevent"
fi
cat > "$STAGE/$NAME/INSTALL.txt" <<TEXT
stubd $VERSION ($OS $ARCH) — a local HTTP stub server for APIs described the Moya way.

Needs: $NEEDS
Install: copy bin/stubd onto your PATH (and share/ into your prefix for shell completions).
Try it: bin/stubd serve demo-fixtures --port 8080, then curl http://127.0.0.1:8080/zen
TEXT
mkdir -p dist
tar -C "$STAGE" -czf "dist/$NAME.tar.gz.tmp" "$NAME"
mv "dist/$NAME.tar.gz.tmp" "dist/$NAME.tar.gz"
echo "dist: wrote dist/$NAME.tar.gz ($(du -h "dist/$NAME.tar.gz" | cut -f1))"

# The proof: a fresh folder, no Swift on PATH, the demo fixtures served.
CHECK=$(mktemp -d)
trap 'rm -rf "$STAGE" "$CHECK"; [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null || true' EXIT
tar -C "$CHECK" -xzf "dist/$NAME.tar.gz"
cd "$CHECK/$NAME"
if [ "$OS" = linux ] && ldd bin/stubd | grep -q libswift; then
    echo "dist: FAILED: bin/stubd still needs the Swift runtime:"; ldd bin/stubd | grep libswift; exit 1
fi
env -i PATH=/usr/bin:/bin HOME="$CHECK" bin/stubd serve demo-fixtures --port 0 > "$CHECK/out" 2> "$CHECK/err" &
PID=$!
for _ in $(seq 50); do grep -q "serving" "$CHECK/out" 2>/dev/null && break; sleep 0.1; done
BASE=$(sed -n 's/.* on \(http:.*\)$/\1/p' "$CHECK/out" | head -1)
ANSWER=$(curl -s --max-time 5 "$BASE/zen" || true)
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
if [ "$ANSWER" != "Design for failure." ]; then
    echo "dist: FAILED: the unpacked binary did not serve /zen (got '$ANSWER')"; cat "$CHECK/out" "$CHECK/err"; exit 1
fi
echo "dist: checked: unpacked in a fresh folder with PATH=/usr/bin:/bin (no Swift), it served the demo fixtures"
