import Foundation
import Testing
import StubdTestTags

/// A WireMock root with what real suites contain and stubd used to refuse — comments, a repeated
/// key, `"body": true`, no method, overlapping mappings, a query inside `urlPattern`, `basicAuth`,
/// `//` in a `urlPathPattern`, `matchesJsonPath` and several body patterns, a proxy stub — served by `stubd serve --wiremock`, with the answers
/// WireMock 2.35.1 gives (measured, and compared live when its jar is at hand).
@Suite(.serialized, .tags(.process)) struct WireMockAgreementTests {
    static let files: [String: String] = [
        "mappings/comments.json": """
            // a comment WireMock's parser accepts
            {
              "request": { "method": "GET", "url": "/commented" }, /* and a block comment */
              "response": { "status": 200, "body": "commented" }
            }
            """,
        "mappings/dup.json": #"{ "request": { "method": "GET", "url": "/dup", "url": "/dup2" }, "response": { "status": 200, "body": "first", "body": "second" } }"#,
        "mappings/booleanbody.json": #"{ "request": { "method": "GET", "url": "/bool" }, "response": { "status": 200, "body": true } }"#,
        "mappings/nomethod.json": #"{ "request": { "url": "/any" }, "response": { "status": 200, "body": "any method" } }"#,
        "mappings/urlpattern.json": #"{ "request": { "method": "GET", "urlPattern": "/search\\?q=[a-z]+&page=\\d" }, "response": { "status": 200, "body": "search" } }"#,
        "mappings/basic.json": #"{ "request": { "method": "GET", "url": "/secure", "basicAuth": {"username": "u", "password": "p"} }, "response": { "status": 200, "body": "secure" } }"#,
        "mappings/inone.json": #"{ "mappings": [ { "request": { "method": "GET", "url": "/inone" }, "response": { "body": "one-first" } }, { "request": { "method": "GET", "url": "/inone" }, "response": { "body": "one-second" } } ] }"#,
        "mappings/slashes.json": #"{ "request": { "method": "GET", "urlPathPattern": "/files//[a-z]+" }, "response": { "body": "double slash" } }"#,
        "mappings/proxy.json": #"{ "request": { "method": "GET", "urlPathPattern": "/proxied/.*" }, "response": { "proxyBaseUrl": "http://127.0.0.1:9" } }"#,
        "mappings/jsonpath.json": #"{ "request": { "method": "POST", "url": "/jp", "bodyPatterns": [ { "matchesJsonPath": "$.items[?(@.id == 7)]" } ] }, "response": { "body": "jp filter" } }"#,
        "mappings/exactslash.json": #"{ "request": { "method": "GET", "url": "/top-authors/" }, "response": { "body": "top authors" } }"#,
        "mappings/jsonpathregex.json": #"{ "request": { "method": "POST", "url": "/jpre", "bodyPatterns": [ { "matchesJsonPath": "$.items[?(@.name =~ /ad.*/i)]" } ] }, "response": { "body": "jp regex" } }"#,
        "mappings/jsonpath2.json": #"{ "request": { "method": "POST", "url": "/jp2", "bodyPatterns": [ { "matchesJsonPath": { "expression": "$.user.name", "equalTo": "ada" } }, { "contains": "admin" } ] }, "response": { "body": "jp and contains" } }"#,
        "mappings/templated.json": #"{ "request": { "method": "GET", "urlPathPattern": "/tpl/.*" }, "response": { "body": "seg={{request.path.[1]}} q={{request.requestLine.query.q}} m={{request.method}} h={{request.headers.X-Client}}", "transformers": ["response-template"] } }"#,
        "mappings/overlap-a.json": #"{ "request": { "method": "GET", "url": "/overlap" }, "response": { "body": "a" } }"#,
        "mappings/overlap-b.json": #"{ "request": { "method": "GET", "url": "/overlap" }, "response": { "body": "b" } }"#,
    ]

    /// curl arguments and what WireMock 2.35.1 answered (status, and the body for a 200).
    static let expected: [(arguments: [String], answer: String)] = [
        (["/commented"], "200 commented"),
        (["/dup"], "404"),
        (["/dup2"], "200 second"),
        (["/bool"], "200 true"),
        (["/any"], "200 any method"),
        (["-X", "POST", "/any"], "200 any method"),
        (["-X", "DELETE", "/any"], "200 any method"),
        (["/search?q=abc&page=1"], "200 search"),
        (["/search?page=1&q=abc"], "404"),
        (["/secure"], "404"),
        (["-u", "u:p", "/secure"], "200 secure"),
        (["-u", "u:wrong", "/secure"], "404"),
        (["/inone"], "200 one-second"),
        (["--path-as-is", "/files//abc"], "200 double slash"),
        (["-H", "Content-Type: application/json", "--data", #"{"items":[{"id":3},{"id":7}]}"#, "/jp"], "200 jp filter"),
        (["-H", "Content-Type: application/json", "--data", #"{"items":[{"id":8}]}"#, "/jp"], "404"),
        (["-H", "Content-Type: application/json", "--data", #"{"user":{"name":"ada","role":"admin"}}"#, "/jp2"], "200 jp and contains"),
        (["-H", "Content-Type: application/json", "--data", #"{"items":[{"name":"bob"},{"name":"Ada"}]}"#, "/jpre"], "200 jp regex"),
        (["/top-authors/"], "200 top authors"),
        (["--path-as-is", "/top-authors//"], "404"),
        (["-H", "Content-Type: application/json", "--data", #"{"items":[{"name":"bob"},{"name":"xada"}]}"#, "/jpre"], "404"),
        (["-H", "Content-Type: application/json", "--data", #"{"user":{"name":"ada","role":"user"}}"#, "/jp2"], "404"),
        (["-H", "Content-Type: application/json", "--data", #"{"user":{"name":"bob","role":"admin"}}"#, "/jp2"], "404"),
        (["-H", "X-Client: ios", "/tpl/abc?q=zz"], "200 seg=abc q=zz m=GET h=ios"),
    ]

    static func root() throws -> String {
        try StubdProcess.temporaryFolder(files)
    }

    static func answer(_ base: String, _ arguments: [String]) -> String {
        var arguments = arguments
        let path = arguments.removeLast()
        let text = StubdProcess.curl(arguments + ["-w", "\n%{http_code}", base + path])
        let status = text.split(separator: "\n").last.map(String.init) ?? ""
        let body = text.components(separatedBy: "\n").dropLast().joined(separator: "\n")
        return status == "200" ? "\(status) \(body)" : status
    }

    @Test func stubdAnswersTheRootAsWireMockDoesAndReportsWhatItCannot() throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stubd = try ServingStubd(["--wiremock", root, "--port", "0", "--quiet"])
        for (arguments, expected) in Self.expected {
            #expect(Self.answer(stubd.baseURL, arguments) == expected, "\(arguments)")
        }
        // Not a fake 200: the proxy stub is skipped and said to be.
        #expect(Self.answer(stubd.baseURL, ["/proxied/x"]) == "404")
        // Across files WireMock's pick follows its file system's order: stubd keeps the first file's and says so.
        #expect(Self.answer(stubd.baseURL, ["/overlap"]) == "200 a")
        let stopped = stubd.stop()
        #expect(stopped.stderr.contains("\(root)/mappings/proxy.json: response.proxyBaseUrl: per-stub proxying is not supported"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("\(root)/mappings/overlap-b.json: GET /overlap answers GET /overlap like \(root)/mappings/overlap-a.json at the same priority"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("\(root)/mappings/inone.json: GET /inone and a later mapping answer GET /inone alike; WireMock answers with the later"), "\(stopped.stderr)")
    }

    /// The jar from the PyPI package `wiremock` (2.7.0 ships WireMock 2.35.1); `make test` puts it
    /// in bench/out, as `make bench` does.
    static let jar = ProcessInfo.processInfo.environment["STUBD_WIREMOCK_JAR"]
        ?? StubdProcess.repositoryRoot.appendingPathComponent("bench/out/wiremock-standalone-2.35.1.jar").path

    @Test(.enabled(if: FileManager.default.fileExists(atPath: jar), "WireMock's jar is fetched by bash bench/wiremock-jar.sh (make test runs it)"))
    func realWireMockGivesTheSameAnswers() throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let wiremock = try RealWireMock(jar: Self.jar, root: root, flags: ["--local-response-templating"])
        defer { wiremock.stop() }
        let base = wiremock.baseURL
        let stubd = try ServingStubd(["--wiremock", root, "--port", "0", "--quiet"])
        defer { _ = stubd.stop() }
        var agreed = 0
        for (arguments, expected) in Self.expected {
            let real = Self.answer(base, arguments)
            let ours = Self.answer(stubd.baseURL, arguments)
            #expect(real == expected, "WireMock itself: \(arguments)")
            #expect(ours == real, "\(arguments)")
            if ours == real { agreed += 1 }
        }
        #expect(agreed == Self.expected.count)
    }

    /// `--global-response-templating`: every mapping's response is a template, as in WireMock
    /// with the same flag; without it the braces are sent as written.
    @Test func globalTemplatingRendersEveryMapping() throws {
        let root = try StubdProcess.temporaryFolder([
            "mappings/plain.json": #"{ "request": { "method": "GET", "urlPathPattern": "/g/.*" }, "response": { "body": "first={{request.path.[0]}} second={{request.pathSegments.[1]}}", "headers": { "X-Seg": "{{request.path.[1]}}" } } }"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let templated = try ServingStubd(["--wiremock", root, "--global-response-templating", "--port", "0", "--quiet"])
        let literal = try ServingStubd(["--wiremock", root, "--port", "0", "--quiet"])
        defer { _ = templated.stop(); _ = literal.stop() }
        #expect(StubdProcess.curl([templated.baseURL + "/g/abc"]) == "first=g second=abc")
        #expect(StubdProcess.curl(["-D", "-", "-o", "/dev/null", templated.baseURL + "/g/abc"]).contains("X-Seg: abc"))
        #expect(StubdProcess.curl([literal.baseURL + "/g/abc"]) == "first={{request.path.[0]}} second={{request.pathSegments.[1]}}")
    }

    /// The same mapping under WireMock itself with the same flag renders the same (skipped,
    /// visibly, without the jar; `make test` fetches it, so CI always runs it).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: jar), "WireMock's jar is fetched by bash bench/wiremock-jar.sh (make test runs it)"))
    func realWireMockRendersGlobalTemplatingTheSame() throws {
        let root = try StubdProcess.temporaryFolder([
            "mappings/plain.json": #"{ "request": { "method": "GET", "urlPathPattern": "/g/.*" }, "response": { "body": "first={{request.path.[0]}} second={{request.pathSegments.[1]}}", "headers": { "X-Seg": "{{request.path.[1]}}" } } }"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let templated = try ServingStubd(["--wiremock", root, "--global-response-templating", "--port", "0", "--quiet"])
        defer { _ = templated.stop() }
        let wiremock = try RealWireMock(jar: Self.jar, root: root, flags: ["--global-response-templating"])
        defer { wiremock.stop() }
        #expect(StubdProcess.curl([wiremock.baseURL + "/g/abc"]) == "first=g second=abc", "WireMock renders it")
        #expect(StubdProcess.curl([wiremock.baseURL + "/g/abc"]) == StubdProcess.curl([templated.baseURL + "/g/abc"]), "WireMock renders it the same")
    }

    /// A suite's own helpers (`{{currentYear}}`, registered in Java): rendered empty as WireMock
    /// renders them, reported with the fix, and rendered once declared in a helpers file.
    @Test func aSuitesOwnHelpersAreDeclaredInAFile() throws {
        let root = try StubdProcess.temporaryFolder([
            "mappings/dates.json": #"{ "request": { "method": "GET", "url": "/dates" }, "response": { "body": "year={{currentYear}} day={{ currentDay }} path={{request.path}}", "transformers": ["response-template"] } }"#,
            "mappings/fnow.json": #"{ "request": { "method": "GET", "url": "/fnow" }, "response": { "body": "{{fnow offset='-1 years' format='yyyy'}}|{{fnow format='yyyy'}}", "transformers": ["response-template"] } }"#,
            "helpers.json": #"{"currentYear": "{{now format='yyyy'}}", "currentDay": "{{now format='dd'}}", "fnow": {"template": "{{now offset=$offset format=$format}}", "arguments": {"offset": "0 days", "format": "yyyy-MM-dd"}}}"#,
            "bad-helpers.json": #"{"currentYear": "{{nope}}"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let without = try ServingStubd(["--wiremock", root, "--port", "0"])
        #expect(StubdProcess.curl([without.baseURL + "/dates"]) == "year= day= path=/dates", "empty, as WireMock renders them")
        let stopped = without.stop()
        #expect(stopped.stderr.contains("{{currentYear}} names no helper or value, so it renders empty")
                && stopped.stderr.contains("{{currentDay}} names no helper") && stopped.stderr.contains("--template-helpers FILE"), "\(stopped.stderr)")
        let with = try ServingStubd(["--wiremock", root, "--template-helpers", root + "/helpers.json", "--port", "0", "--quiet"])
        defer { _ = with.stop() }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy dd"
        let parts = formatter.string(from: Date()).split(separator: " ")
        #expect(StubdProcess.curl([with.baseURL + "/dates"]) == "year=\(parts[0]) day=\(parts[1]) path=/dates")
        // A helper with arguments (WooCommerce's fnow): the use's values, else the declared defaults.
        let year = Int(parts[0]) ?? 0
        #expect(StubdProcess.curl([with.baseURL + "/fnow"]) == "\(year - 1)|\(year)")
        let bad = try StubdProcess.run(["serve", "--wiremock", root, "--template-helpers", root + "/bad-helpers.json", "--port", "0"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains(#"--template-helpers \#(root)/bad-helpers.json: currentYear: template column 1: unknown name "nope""#), "\(bad.stderr)")
    }
}
