#!/usr/bin/env bash
# Builds the JVM kit with the JDK alone and Debian's jars (no Maven Central here): three jars in
# kits/jvm/build/ — stubd-kit (the JDK only), stubd-kit-junit5, stubd-kit-okhttp. `build.sh test`
# then runs the JUnit 5 tests (in parallel) against the stubd at STUBD_BASE_URL; Tests/kits/kits_test.py
# starts the servers. Users with Gradle use build.gradle.kts instead (written for them, not run here).
set -euo pipefail
cd "$(dirname "$0")"
JARS=${JARS:-/usr/share/java}
OUT=build
rm -rf "$OUT" && mkdir -p "$OUT/classes/core" "$OUT/classes/junit" "$OUT/classes/okhttp" "$OUT/classes/test"
JUNIT="$JARS/junit-jupiter-api.jar:$JARS/junit-jupiter-params.jar:$JARS/apiguardian-api.jar:$JARS/opentest4j.jar:$JARS/junit-platform-commons.jar"
OKHTTP="$JARS/okhttp.jar:$JARS/okio.jar"
for jar in junit-jupiter-api.jar junit-platform-console-standalone.jar okhttp.jar okio.jar; do
  [ -r "$JARS/$jar" ] || { echo "kits/jvm/build.sh: $JARS/$jar is missing: apt-get install default-jdk-headless junit5 libokhttp-java"; exit 1; }
done
javac -Xlint:all -Werror --release 17 -d "$OUT/classes/core" $(find src/main -name '*.java')
javac -Xlint:all,-processing -Werror --release 17 -d "$OUT/classes/junit" -cp "$OUT/classes/core:$JUNIT" $(find src/junit -name '*.java')
javac -Xlint:all -Werror --release 17 -d "$OUT/classes/okhttp" -cp "$OUT/classes/core:$OKHTTP" $(find src/okhttp -name '*.java')
jar --create --file "$OUT/stubd-kit.jar" -C "$OUT/classes/core" .
jar --create --file "$OUT/stubd-kit-junit5.jar" -C "$OUT/classes/junit" .
jar --create --file "$OUT/stubd-kit-okhttp.jar" -C "$OUT/classes/okhttp" .
echo "kits/jvm: built $OUT/stubd-kit.jar ($(stat -c %s "$OUT/stubd-kit.jar") bytes), stubd-kit-junit5.jar, stubd-kit-okhttp.jar"
[ "${1:-}" = test ] || exit 0
KIT="$OUT/stubd-kit.jar:$OUT/stubd-kit-junit5.jar:$OUT/stubd-kit-okhttp.jar"
javac --release 17 -d "$OUT/classes/test" -cp "$KIT:$JARS/junit-platform-console-standalone.jar:$OKHTTP" $(find src/test -name '*.java')
# In parallel exactly as docs/KITS.md tells users: src/test/resources/junit-platform.properties (enabled
# and mode.default=concurrent); only the number of threads is this run's own.
java -jar "$JARS/junit-platform-console-standalone.jar" \
  --class-path "$OUT/classes/test:src/test/resources:$KIT:$OKHTTP" --select-package dev.stubd.kit --select-package com.example.shop \
  --config junit.jupiter.execution.parallel.config.strategy=fixed \
  --config junit.jupiter.execution.parallel.config.fixed.parallelism=20 \
  --disable-banner --disable-ansi-colors --details=tree --fail-if-no-tests
