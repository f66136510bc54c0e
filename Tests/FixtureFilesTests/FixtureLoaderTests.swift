import Foundation
import Testing
@testable import FixtureFiles
import StubModel
import StubdTestTags

/// A fixtures root in a fresh temporary folder.
struct TemporaryFixtures {
    let root: String

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-fixtures-\(UUID().uuidString)").path
        for (path, content) in files {
            let url = URL(fileURLWithPath: root).appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
    }

    /// The single error loading this root gives, as printed.
    func loadError() -> String? {
        do {
            _ = try FixtureLoader.load(paths: [root])
            return nil
        } catch {
            return error.description.replacingOccurrences(of: root, with: "ROOT")
        }
    }
}

@Suite(.tags(.inMemory))
struct FixtureLoaderTests {
    @Test func loadsRoutesWithBodyFilesAndSkipsTheBodyFolder() throws {
        let fixtures = try TemporaryFixtures([
            "api.json": #"{"routes": [{"name": "a", "request": {"method": "GET", "path": "/a", "query": {"ids[]": ["1", "2"]}}, "response": {"bodyFile": "a.json"}}]}"#,
            "__files/a.json": #"{"not": "a fixture"}"#,
        ])
        let loaded = try FixtureLoader.load(paths: [fixtures.root])
        #expect(loaded.count == 1)
        #expect(loaded[0].request.query.pairs == [NameValue("ids[]", "1"), NameValue("ids[]", "2")])
        // A body file with no Content-Type gets its extension's, and nosniff (`ResponseDefaults`).
        #expect(loaded[0].outcome == .response(StubHTTPResponse(status: 200, headers: [NameValue("Content-Type", "application/json"),
                                                                                       NameValue("X-Content-Type-Options", "nosniff")],
                                                                body: Array(#"{"not": "a fixture"}"#.utf8))))
    }

    @Test func aSingleRouteObjectIsAFixtureFileToo() throws {
        let fixtures = try TemporaryFixtures(["one.json": #"{"request": {"method": "GET", "path": "/x"}, "fault": "reset", "delay": 0.25}"#])
        let loaded = try FixtureLoader.load(paths: [fixtures.root])
        #expect(loaded.map(\.outcome) == [.fault(.reset)])
        #expect(loaded[0].delay == 0.25)
        #expect(loaded[0].name == "GET /x")
    }

    @Test(arguments: [
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "respnse": {}}]}"#,
         "ROOT/bad.json: routes[0].respnse: unknown field; allowed here: name, request, response, networkError, fault, stream, llm, websocket, responses, collection, save, webhooks, afterLast, delay, priority, scenario, requiredState, newState, dribble, faultSteps"),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"status": "200"}}]}"#,
         #"ROOT/bad.json: routes[0].response.status: expected an integer from 100 to 599, found "200""#),
        (#"{"routes": [{"request": {"method": "get", "path": "/a"}, "response": {}}]}"#,
         #"ROOT/bad.json: routes[0].request.method: "get" is not an HTTP method; use upper case, e.g. "GET" or "POST""#),
        (#"{"routes": [{"request": {"method": "GET", "path": "a"}, "response": {}}]}"#,
         #"ROOT/bad.json: routes[0].request.path: "a" must start with "/""#),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a?x=1"}, "response": {}}]}"#,
         #"ROOT/bad.json: routes[0].request.path: "/a?x=1" contains '?'; put query parameters in "query" (a literal '?' in a Moya path is written %3F)"#),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}}]}"#,
         "ROOT/bad.json: routes[0]: missing an answer; give one of response, networkError, fault, stream, llm, websocket, responses or collection"),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {}, "fault": "reset"}]}"#,
         "ROOT/bad.json: routes[0]: give only one of response, networkError, fault, stream, llm, websocket, responses or collection (found response and fault)"),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "fault": "explode"}]}"#,
         #"ROOT/bad.json: routes[0].fault: unknown fault "explode"; use one of reset, empty, truncated, badChunk, garbage, hang"#),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a", "query": {"n": 1}}, "response": {}}]}"#,
         #"ROOT/bad.json: routes[0].request.query.n: expected a string or an array of strings, found a number (write numbers as text: "30")"#),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"headers": {"Content-Length": "3"}}}]}"#,
         "ROOT/bad.json: routes[0].response.headers.Content-Length: stubd sets Content-Length itself; remove it"),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"text": "x", "trailers": {"Content-Length": "1"}}}]}"#,
         "ROOT/bad.json: routes[0].response.trailers.Content-Length: Content-Length cannot be a trailer (RFC 9110 §6.5.1: it frames, routes or describes the message, so clients ignore it after the body); send it in headers"),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"status": 204, "trailers": {"X-Done": "1"}}}]}"#,
         "ROOT/bad.json: routes[0].response.trailers: a 204 answer has no body, so nothing can follow it; remove the trailers or use a status that carries a body"),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"text": "x", "trailers": {"X Done": "1"}}}]}"#,
         #"ROOT/bad.json: routes[0].response.trailers.X Done: "X Done" is not a valid field name (letters, digits and !#$%&'*+-.^_`|~ only; no spaces or colons)"#),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {}, "delay": -1}]}"#,
         #"ROOT/bad.json: routes[0].delay: expected seconds from 0 to 3600 as a number (0.5) or with a unit ("500ms", "0.5s"), found -1"#),
        ("{\"routes\": [\n  {\"request\": {\"method\": \"GET\" \"path\": \"/a\"}}\n]}",
         "ROOT/bad.json: invalid JSON at line 2, column 32: expected ',' or '}' in object"),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"bodyFile": "../../etc/passwd"}}]}"#,
         #"ROOT/bad.json: routes[0].response.bodyFile: "../../etc/passwd" resolves outside the fixtures root ROOT; keep body files under ROOT/__files/"#),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"bodyFile": "/etc/passwd"}}]}"#,
         #"ROOT/bad.json: routes[0].response.bodyFile: "/etc/passwd" must be a path relative to ROOT/__files/"#),
        (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"bodyFile": "missing.json"}}]}"#,
         #"ROOT/bad.json: routes[0].response.bodyFile: "missing.json" not found; expected it at ROOT/__files/missing.json"#),
    ])
    func badFixturesNameTheFileFieldAndFix(content: String, expected: String) throws {
        let fixtures = try TemporaryFixtures(["bad.json": content])
        #expect(fixtures.loadError() == expected)
    }

    @Test func everyBadFileIsReportedNotOnlyTheFirst() throws {
        let fixtures = try TemporaryFixtures([
            "a.json": "{",
            "b.json": #"{"request": {"method": "GET", "path": "/b"}, "fault": "nope"}"#,
            "c.json": #"{"request": {"method": "GET", "path": "/c"}, "fault": "reset"}"#,
        ])
        let lines = fixtures.loadError()?.split(separator: "\n") ?? []
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("ROOT/a.json: invalid JSON") == true)
        #expect(lines.last?.hasPrefix("ROOT/b.json: fault: unknown fault") == true)
    }

    @Test func aMissingPathIsReported() {
        #expect(throws: FixtureErrors.self) { try FixtureLoader.load(paths: ["/nonexistent/stubd-fixtures"]) }
    }

    /// An empty folder is no error (routes may come at run time): no routes, and a warning naming it.
    @Test func anEmptyFolderServesNothingAndSaysSo() throws {
        let fixtures = try TemporaryFixtures(["__files/only-a-body.txt": "x"])
        #expect(try FixtureLoader.load(paths: [fixtures.root]).isEmpty)
        let warnings = FixtureLoader.unreadFileWarnings(paths: [fixtures.root])
        #expect(warnings == ["\(fixtures.root): no fixture files (*.json) in this folder; no routes from it — add a .json file, or add routes at run time (POST /__stubd/routes, the test kit)"])
    }

    @Test func writerOutputReadsBackEqual() throws {
        var original = [
            Fixture(name: "a", source: "t", request: RequestPattern(method: "POST", path: "/a b/%", query: [NameValue("q", "x y")],
                                                                     headers: [NameValue("X-Key", "1")], body: .form([NameValue("f", "1")])),
                    outcome: .response(StubHTTPResponse(status: 201, headers: [NameValue("Content-Type", "application/json")],
                                                        body: Array(#"{"id":1}"#.utf8))), delay: 0.5),
            Fixture(name: "b", source: "t", request: RequestPattern(method: "PUT", path: "/b", body: .bytes([0xff, 0x00])),
                    outcome: .response(StubHTTPResponse(status: 200, body: [0xfe, 0x01]))),
            Fixture(name: "c", source: "t", request: RequestPattern(method: "GET", path: "/c", body: .json(.array([.number(1)]))),
                    outcome: .networkError(domain: "NSURLErrorDomain", code: -1001)),
            Fixture(name: "d", source: "t", request: RequestPattern(method: "GET", path: "/d"), outcome: .fault(.garbage)),
            Fixture(name: "e", source: "t", request: RequestPattern(
                method: "POST", path: .template(try PathTemplate.parse("/u/{id}/caf%C3%A9").get()),
                body: .multipart([MultipartPart(name: "f", fileName: "x.bin", contentType: "application/octet-stream", body: [0, 0xff]),
                                  MultipartPart(name: "t", body: Array("hi".utf8))])),
                    outcome: .response(StubHTTPResponse(status: 204)), priority: 1),
        ]
        original[1].dribble = Dribble(chunks: 3, seconds: 1.5)
        let fixtures = try TemporaryFixtures(["out.json": FixtureWriter.text(for: original)])
        #expect(try FixtureLoader.load(paths: [fixtures.root]) == original)
    }
}

@Suite(.tags(.inMemory))
struct FixtureTemplateTests {
    @Test func pathTemplatesPriorityAndMultipartLoad() throws {
        let fixtures = try TemporaryFixtures(["t.json": #"""
            {"routes": [{"request": {"method": "POST", "pathTemplate": "/users/{login}/avatar",
                                      "body": {"multipart": [{"name": "avatar", "fileName": "a.png", "contentType": "image/png", "base64": "AQID"}]}},
                         "response": {"status": 204}, "priority": 2}]}
            """#])
        let loaded = try FixtureLoader.load(paths: [fixtures.root])
        #expect(loaded[0].request.path.description == "/users/{login}/avatar")
        #expect(loaded[0].priority == 2)
        #expect(loaded[0].request.body.match == .multipart([MultipartPart(name: "avatar", fileName: "a.png", contentType: "image/png", body: [1, 2, 3])]))
    }

    @Test(arguments: [
        (#"{"request": {"method": "GET", "pathTemplate": "/users/login"}, "fault": "reset"}"#,
         #"ROOT/t.json: request.pathTemplate: "/users/login" has no {name} parameter; use "path" for a fixed path"#),
        (#"{"request": {"method": "GET", "pathTemplate": "/users/v{n}"}, "fault": "reset"}"#,
         #"ROOT/t.json: request.pathTemplate: "/users/v{n}" segment "v{n}" mixes text and braces; a parameter must be a whole segment, e.g. /users/{login}"#),
        (#"{"request": {"method": "GET", "path": "/a", "pathTemplate": "/{a}"}, "fault": "reset"}"#,
         "ROOT/t.json: request.path: give one of path, pathTemplate, pathPattern or urlPattern"),
        (#"{"request": {"method": "GET", "path": "/a"}, "response": {}, "dribble": {"chunks": 0, "seconds": 1}}"#,
         #"ROOT/t.json: dribble.chunks: expected an integer from 1 to 100000, e.g. {"chunks": 10, "seconds": 2}"#),
        (#"{"request": {"method": "GET", "path": "/a"}, "response": {}, "dribble": {"chunks": 1, "seconds": 60}}"#,
         "ROOT/t.json: dribble: one chunk every 60 s is longer than the 20 s a connection may stay silent; use more chunks"),
        (#"{"request": {"method": "GET", "path": "/a"}, "fault": "reset", "priority": 0}"#,
         "ROOT/t.json: priority: expected an integer from 1 (highest) upward, found 0; routes without one have 5"),
    ])
    func badTemplatesAndPrioritiesAreNamed(content: String, expected: String) throws {
        #expect(try TemporaryFixtures(["t.json": content]).loadError() == expected)
    }
}
