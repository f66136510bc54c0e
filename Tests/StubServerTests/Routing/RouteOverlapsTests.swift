import Testing
import FixtureFiles
import StubModel
@testable import StubServer
@testable import RouteChecks
import StubdTestTags

/// Overlap warnings (issue 36, item 2): two routes one request reaches alike — through header,
/// query, template and GraphQL matchers — are named with that request; routes stubd ranks by
/// themselves (a literal path before a template, more constraints first) or that no single request
/// reaches are not.
@Suite(.tags(.inMemory)) struct RouteOverlapsTests {
    static func table(_ routes: String) throws -> RouteTable {
        let fixtures = try FixtureReader(file: "o.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("{\"routes\": [\(routes)]}".utf8))
        return try RouteTable(fixtures: fixtures)
    }

    @Test func overlapsThroughMatchersAreNamedWithTheRequestThatReachesBoth() throws {
        let table = try Self.table(#"""
          {"name": "by-header", "request": {"method": "GET", "path": "/feed", "headers": {"X-Client": "ios"}}, "response": {"text": "ios"}},
          {"name": "by-other-header", "request": {"method": "GET", "path": "/feed", "headers": {"Accept-Language": {"contains": "fr"}}}, "response": {"text": "fr"}},
          {"name": "by-query", "request": {"method": "GET", "pathTemplate": "/users/{id}", "query": {"expand": "1"}}, "response": {"text": "q"}},
          {"name": "template-any", "request": {"method": "GET", "pathTemplate": "/users/{login}", "query": {"debug": {"absent": true}}, "anyOtherQuery": true}, "response": {"text": "any"}},
          {"name": "gql-a", "request": {"method": "POST", "path": "/graphql", "graphql": "Profile"}, "response": {"text": "a"}},
          {"name": "gql-b", "request": {"method": "POST", "path": "/graphql", "graphql": {"variables": {"id": 1}}}, "response": {"text": "b"}}
        """#)
        let warnings = RouteOverlaps.warnings(table)
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("by-other-header") && $0.contains("by-header") && $0.contains("x-client: ios") && $0.contains("accept-language: fr") })
        #expect(warnings.contains { $0.contains("template-any") && $0.contains("GET /users/w1?expand=1") && $0.contains("(by-query answers)") })
        #expect(warnings.contains { $0.contains("gql-a") && $0.contains("gql-b") && $0.contains("priority") })
    }

    /// A route naming more query parameters wins over one naming fewer (precedence rule 4), so the
    /// pair is ranked, not an overlap; naming as many (one each here) is.
    @Test func aRouteNamingMoreQueryParametersIsRankedNotAnOverlap() throws {
        let ranked = try Self.table(#"""
          {"name": "by-query", "request": {"method": "GET", "pathTemplate": "/users/{id}", "query": {"expand": "1"}}, "response": {"text": "q"}},
          {"name": "template-any", "request": {"method": "GET", "pathTemplate": "/users/{login}", "anyOtherQuery": true}, "response": {"text": "any"}}
        """#)
        #expect(RouteOverlaps.warnings(ranked).isEmpty, "\(RouteOverlaps.warnings(ranked))")
    }

    /// Issue 49: a route for an operation's variables beside the route `stubd import graphql` wrote
    /// for the operation (docs/GRAPHQL.md's advice) is ranked — it names more — not an overlap.
    @Test func aVariablesRouteBesideAnImportedOperationIsRanked() throws {
        let ranked = try Self.table(#"""
          {"name": "Profile", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "Profile"}, "anyOtherQuery": true}, "response": {"text": "imported"}},
          {"name": "profile-7", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "Profile", "variables": {"id": 7}}}, "response": {"text": "seven"}}
        """#)
        #expect(RouteOverlaps.warnings(ranked).isEmpty, "\(RouteOverlaps.warnings(ranked))")
    }

    /// Regular-expression paths as WireMock suites write them: two at the same priority that one
    /// request reaches, one of them through its query.
    @Test func regexAndQueryOverlapsAreFound() throws {
        let table = try Self.table(#"""
          {"name": "numbers", "request": {"method": "GET", "pathPattern": "/api/users/[0-9]+", "query": {"debug": {"absent": true}}, "anyOtherQuery": true}, "response": {"text": "n"}},
          {"name": "anything", "request": {"method": "GET", "pathPattern": "/api/users/.*", "query": {"expand": "1"}}, "response": {"text": "a"}},
          {"name": "search", "request": {"method": "GET", "urlPattern": "/search\\?q=[a-z]+"}, "response": {"text": "s"}},
          {"name": "elsewhere", "request": {"method": "GET", "pathPattern": "/other/(a|b)"}, "response": {"text": "o"}}
        """#)
        let warnings = RouteOverlaps.warnings(table)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("numbers") == true && warnings.first?.contains("anything") == true && warnings.first?.contains("expand=1") == true)
        #expect(RouteOverlaps.sample(regex: "^/files/.*\\.json$") == "/files/w1.json")
        #expect(RouteOverlaps.sample(regex: "/v(?:1)?/x/\\d{2}") == "/v/x/1")
        #expect(RouteOverlaps.sample(regex: "/a|/b") == nil)
    }

    @Test func routesStubdRanksOrNoRequestReachesAreNotWarned() throws {
        let table = try Self.table(#"""
          {"name": "me", "request": {"method": "GET", "path": "/users/me"}, "response": {"text": "me"}},
          {"name": "any-user", "request": {"method": "GET", "pathTemplate": "/users/{id}"}, "response": {"text": "any"}},
          {"name": "ios", "request": {"method": "GET", "path": "/feed", "headers": {"X-Client": "ios"}}, "response": {"text": "ios"}},
          {"name": "android", "request": {"method": "GET", "path": "/feed", "headers": {"X-Client": "android"}}, "response": {"text": "android"}},
          {"name": "plain", "request": {"method": "GET", "path": "/feed"}, "response": {"text": "plain"}},
          {"name": "first", "priority": 1, "request": {"method": "GET", "path": "/x", "query": {"a": {"present": true}}}, "response": {"text": "1"}},
          {"name": "second", "priority": 2, "request": {"method": "GET", "path": "/x", "anyOtherQuery": true}, "response": {"text": "2"}}
        """#)
        #expect(RouteOverlaps.warnings(table).isEmpty, "\(RouteOverlaps.warnings(table))")
    }

    /// Issue 58: thousands of routes on one path are checked through `OverlapIndex` (not pair by
    /// pair), and what it prunes is only what cannot overlap: the one route that shares a header
    /// value with a rival (the only header containing v2999) is still named, and a route open on the dimension the others are told
    /// apart by (no host) still meets every one of them (up to the warning limit).
    @Test func thousandsOfRoutesOnOnePathStillShowTheirOverlaps() throws {
        let variants = (0..<3000).map { #"{"name": "v\#($0)", "request": {"method": "GET", "path": "/v1/config", "headers": {"X-Variant": "v\#($0)"}}, "response": {"text": "\#($0)"}}"# }
        let contains = #"{"name": "contains-v2999", "request": {"method": "GET", "path": "/v1/config", "headers": {"X-Variant": {"contains": "v2999"}}}, "response": {"text": "c"}}"#
        let byHeader = try Self.table((variants + [contains]).joined(separator: ",\n"))
        let warnings = RouteOverlaps.warnings(byHeader)
        #expect(warnings.count == 1 && warnings[0].contains("contains-v2999") && warnings[0].contains("x-variant: v2999"), "\(warnings.prefix(3))")

        let hosts = (0..<3000).map { #"{"name": "h\#($0)", "request": {"method": "GET", "path": "/v1/config", "host": "h\#($0).example.com"}, "response": {"text": "\#($0)"}}"# }
        let open = #"{"name": "debug", "request": {"method": "GET", "path": "/v1/config", "headers": {"X-Debug": "1"}}, "response": {"text": "d"}}"#
        let byHost = try Self.table((hosts + [open]).joined(separator: ",\n"))
        let hostWarnings = RouteOverlaps.warnings(byHost)
        #expect(hostWarnings.count == 50 && hostWarnings.allSatisfy { $0.contains("debug") }, "\(hostWarnings.count): \(hostWarnings.prefix(2))")

        let bodies = (0..<3000).map { #"{"name": "b\#($0)", "request": {"method": "POST", "path": "/v1/search", "body": {"json": {"q": "q\#($0)", "page": 1}}}, "response": {"text": "\#($0)"}}"# }
        #expect(RouteOverlaps.warnings(try Self.table(bodies.joined(separator: ",\n"))).isEmpty)
    }
}
