#!/usr/bin/env bash
# Puts WireMock 2.35.1's standalone jar at bench/out/wiremock-standalone-2.35.1.jar (from the PyPI
# wheel wiremock==2.7.0, which ships it) and installs a Java runtime when none is there: for
# `make bench` and for make test's live comparison with real WireMock.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
if ! command -v java >/dev/null; then
    echo "wiremock-jar: installing default-jre-headless"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq default-jre-headless >/dev/null
fi
mkdir -p bench/out
jar=bench/out/wiremock-standalone-2.35.1.jar
if [ ! -s "$jar" ]; then
    echo "wiremock-jar: fetching WireMock 2.35.1 (inside the PyPI wheel wiremock==2.7.0)"
    python3 -m pip download --quiet --no-deps --dest bench/out wiremock==2.7.0
    python3 - <<'PY'
import zipfile, glob
wheel = glob.glob("bench/out/wiremock-2.7.0-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open("bench/out/wiremock-standalone-2.35.1.jar.tmp", "wb") as out:
    out.write(z.read("wiremock/server/wiremock-standalone-2.35.1.jar"))
PY
    mv "$jar.tmp" "$jar"
fi
