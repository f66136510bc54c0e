// The JVM kit for Gradle users — written for them, NOT RUN HERE (no Gradle and no Maven Central on
// the machine that builds stubd; kits/jvm/build.sh is what make test runs, with Debian's jars).
// The core (src/main) needs the JDK only; the JUnit 5 extension (src/junit) and the OkHttp
// interceptor (src/okhttp) are feature variants, so a project depends on what it uses:
//   testImplementation(project(":stubd-kit"))
//   testImplementation(project(":stubd-kit")) { capabilities { requireCapability("dev.stubd:stubd-kit-junit5") } }
plugins {
    `java-library`
}

group = "dev.stubd"
version = "0.12.0"

val junit by sourceSets.creating
val okhttp by sourceSets.creating
listOf(junit, okhttp).forEach { set ->
    set.compileClasspath += sourceSets.main.get().output
    set.runtimeClasspath += sourceSets.main.get().output
}

java {
    toolchain { languageVersion.set(JavaLanguageVersion.of(17)) }
    registerFeature("junit5") { usingSourceSet(junit) }
    registerFeature("okhttp") { usingSourceSet(okhttp) }
}

repositories { mavenCentral() }

dependencies {
    "junitApi"("org.junit.jupiter:junit-jupiter-api:5.10.2")
    "okhttpApi"("com.squareup.okhttp3:okhttp:4.12.0")
    testImplementation(junit.output)
    testImplementation(okhttp.output)
    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2")
    testImplementation("org.junit.platform:junit-platform-launcher:1.10.2")
}

tasks.test {
    useJUnitPlatform()
    systemProperty("junit.jupiter.execution.parallel.enabled", "true")
    systemProperty("junit.jupiter.execution.parallel.config.strategy", "fixed")
    systemProperty("junit.jupiter.execution.parallel.config.fixed.parallelism", "20")
    // The tests need a stubd at STUBD_BASE_URL (and STUBD_TEST_UPSTREAM, a second one to record from).
}
