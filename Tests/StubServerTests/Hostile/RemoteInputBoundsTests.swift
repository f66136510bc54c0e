import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdEngine
import StubdTestTags

/// Remote input at the edges that killed or held stubd at 065f99a (issue 43), socket-free: every
/// number from outside converts without a trap, every recursive reader stops at its stated depth,
/// readers that were quadratic read the same inputs (their time is `make hostile`'s to print), and
/// template helpers stop at the output bound while they build.
@Suite(.tags(.inMemory)) struct RemoteInputBoundsTests {
    static let text = [("Content-Type", "text/plain")]

    /// A stubd in memory with a `POST` route per (path, text template).
    static func serving(_ routes: [(path: String, template: String)]) throws -> InMemoryStubd {
        let fixtures = routes.map { route in
            let body = String(data: try! JSONSerialization.data(withJSONObject: [route.template]), encoding: .utf8)!.dropFirst().dropLast()
            return #"{"request": {"method": "POST", "path": "\#(route.path)"}, "response": {"template": true, "text": \#(body)}}"#
        }
        return try InMemoryStubd(#"{"routes": ["# + fixtures.joined(separator: ",") + "]}")
    }

    @Test func checkedNumbersNeverTrap() {
        #expect(CheckedNumber.decimalDigits("9223372036854775807") == Int.max)
        #expect(CheckedNumber.decimalDigits("9223372036854775808") == Int.max)
        #expect(CheckedNumber.decimalDigits(String(repeating: "9", count: 1000)) == Int.max)
        #expect(CheckedNumber.decimalDigits("042") == 42)
        for bad in ["", "+1", "-1", " 1", "1 ", "1e3", "٣"] { #expect(CheckedNumber.decimalDigits(bad) == nil, "\(bad)") }
        #expect(CheckedNumber.clamped(.nan, to: 0...10) == 0)
        #expect(CheckedNumber.clamped(.infinity, to: 0...10) == 10)
        #expect(CheckedNumber.clamped(-.infinity, to: 0...10) == 0)
        #expect(CheckedNumber.clamped(1e300, to: Int.min...Int.max) == Int.max)
        #expect(CheckedNumber.clamped(-1e300, to: Int.min...Int.max) == Int.min)
        #expect(CheckedNumber.clamped(9.5, to: 0...100) == 9)
        #expect(CheckedNumber.exactInt(1e300) == nil && CheckedNumber.exactInt(2.5) == nil && CheckedNumber.exactInt(-1001) == -1001)
    }

    /// `substring`, and `date … offset=… format='epoch'`, with positions and offsets from the request.
    @Test func templateNumbersFromTheRequestAreClamped() throws {
        let stubd = try Self.serving([
            ("/sub", "[{{substring 'abcdef' request.headers.a request.headers.b}}]"),
            ("/epoch", "{{date '2020-01-01T00:00:00Z' offset=request.body format='epoch'}}"),
            ("/offset", "{{date '2020-01-01T00:00:00Z' offset=request.body format='yyyy'}}"),
        ])
        defer { stubd.stop() }
        for (a, b, expected) in [("1e30", "2", "[]"), ("1", "9223372036854775807", "[bcdef]"), ("-1e300", "1e300", "[abcdef]"),
                                 ("NaN", "Infinity", "[abcdef]"), ("2", "-5", "[]"), ("9223372036854775807", "9223372036854775807", "[]")] {
            let reply = try #require(stubd.send("POST", "/sub", headers: [("a", a), ("b", b)]))
            #expect(reply.status == 200 && reply.text == expected, "substring \(a) \(b)")
        }
        let epoch = try #require(stubd.send("POST", "/epoch", headers: Self.text, body: "1e300 seconds"))
        #expect(epoch.status == 200 && epoch.text == String(Int.max))
        let offset = try #require(stubd.send("POST", "/offset", headers: Self.text, body: "1e30 years"))
        #expect(offset.status == 200 && !offset.text.isEmpty)
    }

    /// `replace` with the body as its replacement asked for 32 GB; `join` grows the same way: both
    /// stop at the output bound with the route's 500, and never build past it.
    @Test func helpersStopAtTheOutputBoundWhileTheyBuild() throws {
        let stubd = try Self.serving([
            ("/replace", "{{replace request.body 'a' request.body}}"),
            ("/join", "{{join (split request.body ',') request.body}}"),
            ("/small", "{{replace request.body 'ab' 'X'}}"),
        ])
        defer { stubd.stop() }
        let body = String(repeating: "a", count: 200_000)
        for path in ["/replace", "/join"] {
            let reply = try #require(stubd.send("POST", path, headers: Self.text, body: path == "/join" ? String(repeating: "a,", count: 50_000) : body))
            #expect(reply.status == 500 && reply.text.contains("passed its bound"), "\(path): \(reply.status)")
        }
        // Literal, left to right, never overlapping; bytes outside ASCII kept whole.
        #expect(try #require(stubd.send("POST", "/small", headers: Self.text, body: "abab-aab-ébab")).text == "XX-aX-ébX")
        #expect(try #require(stubd.send("POST", "/small", headers: Self.text, body: "")).text == "")
    }

    @Test func graphQLNestingAndExpansionAreBounded() {
        let deep = "query Q " + String(repeating: "{ a ", count: 25_000) + String(repeating: "}", count: 25_000)
        guard case .failure(let problem) = GraphQLDocument.parse(deep) else { Issue.record("a 25,000-deep document was read"); return }
        #expect(problem.message.contains("deeper than \(GraphQLDocument.maxDepth)"))
        let atBound = "query Q " + String(repeating: "{ a ", count: GraphQLDocument.maxDepth) + String(repeating: "}", count: GraphQLDocument.maxDepth)
        #expect((try? GraphQLDocument.parse(atBound).get()) != nil, "exactly at the bound reads")
        // Deep through inline fragments, and through a chain of fragments.
        let inline = "query Q { a " + String(repeating: "{ ... on T ", count: 20_000) + String(repeating: "}", count: 20_001)
        #expect((try? GraphQLDocument.parse(inline).get()) == nil)
        let chain = "query Q { ...F0 }\n" + (0..<20_000).map { "fragment F\($0) on T { f\($0) ...F\($0 + 1) }" }.joined(separator: "\n")
        guard case .failure(let chained) = GraphQLDocument.parse(chain) else { Issue.record("a 20,000-fragment chain was followed"); return }
        #expect(chained.message.contains("fragments spread inside fragments deeper than"))
        // Fragments that spread each other twice over: 2^30 fields, refused at the expansion bound.
        let doubling = "query Q { ...F0 }\n" + (0..<30).map { "fragment F\($0) on T { x { ...F\($0 + 1) } y { ...F\($0 + 1) } }" }.joined(separator: "\n")
            + "\nfragment F30 on T { leaf }"
        guard case .failure(let doubled) = GraphQLDocument.parse(doubling) else { Issue.record("2^30 fields were expanded"); return }
        #expect(doubled.message.contains("more than \(GraphQLDocument.maxFields) fields"))
        // A cycle is not followed again; a spread's fields stand where it stands; one name merges at every depth.
        let merged = try? GraphQLDocument.parse("query Q { a { b } ...F c a { d { e } } a { d { f } } }\nfragment F on T { x ...F }").get()
        let fields = merged?.operations.first?.selections
        #expect(fields?.map(\.responseName) == ["a", "x", "c"])
        #expect(fields?.first?.selections.map(\.responseName) == ["b", "d"])
        #expect(fields?.first?.selections.last?.selections.map(\.responseName) == ["e", "f"])
    }

    /// 100,000 flat fields (quadratic before: 200,000 took 35 s) read whole, more are refused at
    /// the expansion bound; 200,000 distinct JSON keys (no answer in 60 s before) read whole; a
    /// duplicate far in is still found.
    @Test func wideDocumentsRead() throws {
        func flat(_ count: Int) -> String { "query Q { " + (0..<count).map { "f\($0)" }.joined(separator: " ") + " }" }
        #expect((try? GraphQLDocument.parse(flat(GraphQLDocument.maxFields)).get())?.operations.first?.selections.count == GraphQLDocument.maxFields)
        guard case .failure(let wide) = GraphQLDocument.parse(flat(200_000)) else { Issue.record("200,000 fields were read"); return }
        #expect(wide.message.contains("more than \(GraphQLDocument.maxFields) fields"))
        let keys = "{" + (0..<200_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
        guard case .object(let members) = try JSONParser.parse(keys) else { Issue.record("not an object"); return }
        #expect(members.count == 200_000)
        let duplicate = "{" + (0..<100_000).map { "\"k\($0)\": 0" }.joined(separator: ",") + ", \"k99999\": 1}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(duplicate) }
        let lenient = try JSONParser.parse(Array(duplicate.utf8), lenient: true)
        #expect(lenient["k99999"] == .number(1), "the last value wins, in the earlier place")
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    /// A 25,000-deep GraphQL body to a GraphQL route and to any path (the near miss reads GraphQL
    /// too) as text/plain: a miss that names the bound, and the server goes on.
    @Test func aDeepGraphQLBodyIsAMissThatNamesTheBound() throws {
        let stubd = try InMemoryStubd(#"{"routes": [{"request": {"method": "POST", "path": "/graphql", "graphql": "Q"}, "response": {"json": {"data": {}}}}, {"request": {"method": "GET", "path": "/zen"}, "response": {"text": "ok"}}]}"#)
        defer { stubd.stop() }
        let query = "query Q " + String(repeating: "{ a ", count: 25_000) + String(repeating: "}", count: 25_000)
        let body = String(data: try JSONSerialization.data(withJSONObject: ["query": query]), encoding: .utf8)!
        for path in ["/graphql", "/elsewhere"] {
            let reply = try #require(stubd.send("POST", path, headers: Self.text, body: body))
            #expect(reply.status == 404, "\(path)")
            if path == "/graphql" { #expect(reply.text.contains("deeper than \(GraphQLDocument.maxDepth)")) }
        }
        #expect(try #require(stubd.send("GET", "/zen")).text == "ok")
    }

    /// A templated stream's events are one rendering, held to one output bound: a stream echoing
    /// a 60 KB header 700 times (42 MB a client) is refused with the route's 500; the same stream
    /// echoing a short value is sent whole.
    @Test func aTemplatedStreamIsHeldToOneOutputBound() throws {
        let events = (0..<700).map { _ in #"{"data": "{{request.headers.q}}"}"# }.joined(separator: ",")
        let stubd = try InMemoryStubd(#"{"routes": [{"name": "echo", "request": {"method": "GET", "path": "/echo"}, "stream": {"template": true, "events": [\#(events)]}}]}"#)
        defer { stubd.stop() }
        let big = try #require(stubd.send("GET", "/echo", headers: [("q", String(repeating: "q", count: 60_000))]))
        #expect(big.status == 500 && big.text.contains("route echo: the templated output passed its bound"), "\(big.status)")
        let small = try #require(stubd.send("GET", "/echo", headers: [("q", "hello")]))
        #expect(small.status == 200 && small.text.components(separatedBy: "data: hello").count == 701)
    }

    /// Multipart bodies read in time linear in the body: a boundary longer than RFC 2046's 70
    /// bytes is not a multipart body, and a part's head is looked for inside the part only (200,000
    /// parts without one, then one at the end, made each part scan to the end).
    @Test func multipartReadingIsLinear() {
        let long = String(repeating: "b", count: 60_000)
        #expect(MultipartEncoding.parse(Array("--\(long)\r\n\r\n\r\n--\(long)--".utf8), boundary: long) == nil)
        let seventy = String(repeating: "b", count: 70)
        let one = MultipartEncoding.body([MultipartPart(name: "f", body: Array("hi".utf8))], boundary: seventy)
        #expect(MultipartEncoding.parse(one, boundary: seventy)?.first?.body == Array("hi".utf8))
        let headless = String(repeating: "--x\r\nno head\r\n", count: 200_000) + "--x\r\nA: b\r\n\r\nbody\r\n--x--"
        #expect(MultipartEncoding.parse(Array(headless.utf8), boundary: "x") == nil)
    }
}
