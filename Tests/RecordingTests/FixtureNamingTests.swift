import Testing
import StubModel
@testable import Recording
import StubdTestTags

/// Recorded file names: readable, safe on every file system, stable across runs.
@Suite(.tags(.inMemory)) struct FixtureNamingTests {
    @Test func namesComeFromMethodAndPath() {
        #expect(FixtureNaming.name(method: "GET", rawPath: "/users/octocat") == "GET-users-octocat")
        #expect(FixtureNaming.name(method: "GET", rawPath: "/") == "GET-root")
        #expect(FixtureNaming.name(method: "DELETE", rawPath: "/repos/a%20b/../x?") == "DELETE-repos-a_b-x_", "a `..` segment is dropped, never a path step")
        #expect(FixtureNaming.name(method: "GET", rawPath: "/.hidden/é") == "GET-hidden-_")
        #expect(FixtureNaming.name(method: "GET", rawPath: "/" + String(repeating: "a", count: 200)).count == FixtureNaming.maximumLength)
    }

    @Test func theHashSuffixIsStableAndDiffersPerRequest() {
        let a = RequestPattern(method: "GET", path: "/search", query: [NameValue("q", "a")])
        let b = RequestPattern(method: "GET", path: "/search", query: [NameValue("q", "b")])
        #expect(FixtureNaming.hashSuffix(a) == FixtureNaming.hashSuffix(RequestPattern(method: "GET", path: "/search", query: [NameValue("q", "a")])))
        #expect(FixtureNaming.hashSuffix(a) != FixtureNaming.hashSuffix(b))
        #expect(FixtureNaming.hashSuffix(a).count == 6)
    }
}
