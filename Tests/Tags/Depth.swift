public import Testing

/// How deep a suite reaches, so `make check` can run the socket-free ones alone in seconds.
/// `packaging/check-test-depth.py` keeps every suite tagged with exactly one, and the tag true to
/// the helpers the suite's file uses.
extension Tag {
    /// No socket and no process: pure logic, or a whole stubd on the in-memory engine
    /// (`InMemoryStubd`). `make check` runs these.
    @Tag public static var inMemory: Self
    /// Real sockets on loopback: the libevent engine, clients in this process.
    @Tag public static var socket: Self
    /// Other processes: a stubd binary, curl, Python, a JVM, a nested SwiftPM build.
    @Tag public static var process: Self
}
