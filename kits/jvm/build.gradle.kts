// The JVM kit for Gradle users — written for them, NOT RUN HERE (no Gradle and no Maven Central on
// the machine that builds stubd; kits/jvm/build.sh is what make test runs, with Debian's jars).
// The core needs the JDK only; the JUnit 5 extension and the OkHttp interceptor are feature
// variants, so a project depends on what it uses:
//   testImplementation(project(":stubd-kit"))
//   testImplementation(project(":stubd-kit")) { capabilities { requireCapability("dev.stubd:stubd-kit-junit5") } }
plugins {
    `java-library`
}

group = "dev.stubd"
version = "0.12.0"

java {
    toolchain { languageVersion.set(JavaLanguageVersion.of(17)) }
    registerFeature("junit5") { usingSourceSet(sourceSets.create("junit")) }
    registerFeature("okhttp") { usingSourceSet(sourceSets.create("okhttp")) }
}

repositories { mavenCentral() }

dependencies {
    "junitApi"(project(path))
    "junitApi"("org.junit.jupiter:junit-jupiter-api:5.10.2")
    "okhttpApi"(project(path))
    "okhttpApi"("com.squareup.okhttp3:okhttp:4.12.0")
    testImplementation(sourceSets["junit"].output)
    testImplementation(sourceSets["okhttp"].output)
    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2")
    testImplementation("org.junit.platform:junit-platform-launcher:1.10.2")
    testImplementation("com.squareup.okhttp3:okhttp:4.12.0")
}

tasks.test {
    useJUnitPlatform()
    systemProperty("junit.jupiter.execution.parallel.enabled", "true")
    // The tests need a stubd: STUBD_BASE_URL (and STUBD_TEST_UPSTREAM, a second one to record from).
    environment("STUBD_BASE_URL", System.getenv("STUBD_BASE_URL") ?: "http://127.0.0.1:8080")
}
