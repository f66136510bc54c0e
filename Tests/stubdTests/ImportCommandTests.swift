import Foundation
@testable import StubdCommands
import Testing
import StubdTestTags

/// `stubd import wiremock` and `serve --wiremock`: a WireMock root written here that uses every
/// supported field, converted, served and checked mapping by mapping with curl; the report of
/// unsupported fields; refusals for bad input.
@Suite(.tags(.process)) struct ImportWireMockTests {
    static let mappings: [String: String] = [
        "mappings/exact.json": #"{"request": {"method": "GET", "url": "/exact?x=1"}, "response": {"status": 200, "body": "exact"}}"#,
        "mappings/query.json": #"""
            {"request": {"method": "GET", "urlPath": "/search", "queryParameters": {
               "q": {"contains": "swift"}, "page": {"matches": "[0-9]+"}, "lang": {"equalTo": "EN", "caseInsensitive": true}, "debug": {"absent": true}}},
             "response": {"status": 200, "body": "query"}}
            """#,
        "mappings/patterns.json": #"""
            {"mappings": [
              {"request": {"method": "GET", "urlPattern": "/regex/[0-9]+"}, "response": {"body": "regex"}},
              {"request": {"method": "GET", "urlPathPattern": "/pp/[a-z]+"}, "response": {"body": "pathpattern"}},
              {"request": {"method": "GET", "urlPathTemplate": "/users/{id}"}, "response": {"jsonBody": {"id": 1, "name": "Mona"}, "headers": {"Content-Type": "application/json"}}},
              {"request": {"method": "ANY", "url": "/any"}, "response": {"body": "any"}}
            ]}
            """#,
        "mappings/headers.json": #"""
            {"request": {"method": "GET", "url": "/h", "headers": {"X-Client": {"equalTo": "android", "caseInsensitive": true}, "X-Trace": {"absent": true}},
              "cookies": {"session": {"matches": "[a-f0-9]{8}"}}}, "response": {"body": "headers"}}
            """#,
        "mappings/bodies.json": #"""
            {"mappings": [
              {"request": {"method": "POST", "url": "/orders", "bodyPatterns": [{"equalToJson": {"items": [{"sku": "b"}, {"sku": "a"}]}, "ignoreExtraElements": true, "ignoreArrayOrder": true}]},
               "response": {"status": 201, "body": "json"}},
              {"request": {"method": "POST", "url": "/log", "bodyPatterns": [{"contains": "ERROR"}]}, "response": {"body": "contains"}},
              {"request": {"method": "POST", "url": "/match", "bodyPatterns": [{"matches": "id=[0-9]+"}]}, "response": {"body": "matches"}},
              {"request": {"method": "POST", "url": "/equal", "bodyPatterns": [{"equalTo": "exactly this"}]}, "response": {"body": "equal"}}
            ]}
            """#,
        "mappings/responses.json": #"""
            {"mappings": [
              {"request": {"method": "GET", "url": "/b64"}, "response": {"base64Body": "AAEC/w=="}},
              {"request": {"method": "GET", "url": "/file"}, "response": {"bodyFileName": "hello.txt", "headers": {"Content-Type": "text/plain"}}},
              {"request": {"method": "GET", "url": "/fixed"}, "response": {"body": "fixed", "fixedDelayMilliseconds": 200}},
              {"request": {"method": "GET", "url": "/uniform"}, "response": {"body": "uniform", "delayDistribution": {"type": "uniform", "lower": 100, "upper": 150}}},
              {"request": {"method": "GET", "url": "/dribble"}, "response": {"body": "0123456789", "chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 300}}},
              {"request": {"method": "GET", "url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}},
              {"request": {"method": "GET", "url": "/prio"}, "response": {"body": "low"}, "priority": 9},
              {"request": {"method": "GET", "url": "/prio", "headers": {"X-Any": {"absent": true}}}, "response": {"body": "high"}, "priority": 1}
            ]}
            """#,
        "mappings/scenario.json": #"""
            {"mappings": [
              {"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "added",
               "request": {"method": "POST", "url": "/cart"}, "response": {"status": 201, "body": "added"}},
              {"scenarioName": "cart", "requiredScenarioState": "added", "request": {"method": "GET", "url": "/cart"}, "response": {"body": "1 item"}},
              {"scenarioName": "cart", "requiredScenarioState": "Started", "request": {"method": "GET", "url": "/cart"}, "response": {"body": "empty"}}
            ]}
            """#,
        "mappings/templated.json": #"""
            {"request": {"method": "POST", "url": "/templated", "bodyPatterns": [{"equalToXml": "<a/>"}]},
             "response": {"body": "{{request.path}}", "transformers": ["response-template"]}}
            """#,
        "__files/hello.txt": "hello from a body file",
    ]

    static func root(_ files: [String: String] = mappings) throws -> String {
        try StubdProcess.temporaryFolder(files)
    }

    static func checkEveryMapping(_ base: String) {
        func get(_ arguments: [String]) -> String { StubdProcess.curl(Array(arguments.dropLast()) + [base + arguments.last!]) }
        #expect(get(["/exact?x=1"]) == "exact")
        #expect(get(["-w", "%{http_code}", "/exact?x=2"]).hasSuffix("404"))
        #expect(get(["/search?q=learn%20swift&page=3&lang=en&other=1"]) == "query")
        #expect(get(["-w", "%{http_code}", "/search?q=swift&page=3&lang=en&debug=1"]).hasSuffix("404"), "absent")
        #expect(get(["/regex/42"]) == "regex")
        #expect(get(["/pp/abc"]) == "pathpattern")
        #expect(get(["/users/7"]) == #"{"id":1,"name":"Mona"}"#)
        #expect(get(["-X", "DELETE", "/any"]) == "any" && get(["-X", "PUT", "/any"]) == "any")
        #expect(get(["-H", "X-Client: Android", "-b", "session=deadbeef", "/h"]) == "headers")
        #expect(get(["-w", "%{http_code}", "-H", "X-Client: Android", "-H", "X-Trace: 1", "-b", "session=deadbeef", "/h"]).hasSuffix("404"))
        #expect(get(["-H", "Content-Type: application/json", "--data", #"{"id": 1, "items": [{"sku": "a", "n": 1}, {"sku": "b"}]}"#, "/orders"]) == "json")
        #expect(get(["--data-binary", "x ERROR y", "/log"]) == "contains")
        #expect(get(["--data-binary", "id=123", "/match"]) == "matches")
        #expect(get(["--data-binary", "exactly this", "/equal"]) == "equal")
        #expect(StubdProcess.curl(["-o", "/dev/null", "-w", "%{size_download}", base + "/b64"]) == "4")
        #expect(get(["/file"]) == "hello from a body file")
        let fixed = get(["-w", " %{time_total}", "/fixed"]).split(separator: " ")
        #expect(fixed.first == "fixed" && (Double(fixed.last ?? "") ?? 0) >= 0.2)
        let uniform = get(["-w", " %{time_total}", "/uniform"]).split(separator: " ")
        #expect(uniform.first == "uniform" && (Double(uniform.last ?? "") ?? 0) >= 0.1)
        let dribble = get(["-w", " %{time_total}", "/dribble"]).split(separator: " ")
        #expect(dribble.first == "0123456789" && (Double(dribble.last ?? "") ?? 0) >= 0.2)
        #expect(get(["-w", "%{http_code}", "/reset"]) == "000", "reset: no answer")
        #expect(get(["/prio"]) == "high")
        #expect(get(["/cart"]) == "empty")
        #expect(get(["-X", "POST", "/cart"]) == "added")
        #expect(get(["/cart"]) == "1 item")
    }

    @Test func importedMappingsServeAsWireMockWould() throws {
        let root = try Self.root()
        let out = try StubdProcess.temporaryFolder([:]) + "/imported"
        let imported = try StubdProcess.run(["import", "wiremock", root, "--out", out])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("stubd: imported 29 route(s) into 8 file(s) in \(out)"), "\(imported.stdout)")
        #expect(imported.stderr.contains("\(root)/mappings/templated.json: request.bodyPatterns[0].equalToXml: not supported"), "\(imported.stderr)")
        let check = try StubdProcess.run(["check", out])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let stubd = try ServingStubd([out, "--port", "0", "--quiet"])
        defer { _ = stubd.stop() }
        Self.checkEveryMapping(stubd.baseURL)
    }

    @Test func serveWireMockConvertsInMemory() throws {
        let root = try Self.root()
        let stubd = try ServingStubd(["--wiremock", root, "--port", "0", "--quiet"])
        defer { _ = stubd.stop() }
        #expect(stubd.banner.contains("WireMock \(root)"), "\(stubd.banner)")
        Self.checkEveryMapping(stubd.baseURL)
    }

    @Test func strictAndBadInputRefuseTheFileAndWriteNothingForIt() throws {
        let root = try Self.root()
        let out = try StubdProcess.temporaryFolder([:]) + "/strict"
        let strict = try StubdProcess.run(["import", "wiremock", root, "--out", out, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("\(root)/mappings/templated.json: not written (--strict and 1 unsupported field(s))"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/templated.json"))
        #expect(FileManager.default.fileExists(atPath: out + "/exact.json"))
        let bad = try Self.root([
            "mappings/regex.json": #"{"request": {"method": "GET", "urlPathPattern": "/x/[0-9"}, "response": {"body": "x"}}"#,
            "mappings/escape.json": #"{"request": {"method": "GET", "url": "/e"}, "response": {"bodyFileName": "../../etc/passwd"}}"#,
            "mappings/broken.json": #"{"request": {"method": "GET", "url": "/b""#,
            "mappings/good.json": #"{"request": {"method": "GET", "url": "/good"}, "response": {"body": "good"}}"#,
        ])
        // A file or mapping stubd cannot use is skipped with its reason; the rest is imported.
        let badOut = try StubdProcess.temporaryFolder([:]) + "/bad"
        let skipped = try StubdProcess.run(["import", "wiremock", bad, "--out", badOut])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.contains(#"\#(bad)/mappings/regex.json: request.urlPathPattern: "/x/[0-9" is not a valid regular expression; this mapping is skipped"#), "\(skipped.stderr)")
        #expect(skipped.stderr.contains("\(bad)/mappings/escape.json: response.bodyFileName: \"../../etc/passwd\" resolves outside"), "\(skipped.stderr)")
        #expect(skipped.stderr.contains("\(bad)/mappings/broken.json: invalid JSON at"), "\(skipped.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: badOut) == ["good.json"])
        // --strict keeps the refusal: exit 1, nothing written for those files.
        let strictOut = try StubdProcess.temporaryFolder([:]) + "/bad-strict"
        let refused = try StubdProcess.run(["import", "wiremock", bad, "--out", strictOut, "--strict"])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("3 file(s) refused, nothing written for them"), "\(refused.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: strictOut) == ["good.json"])
    }
}

/// `stubd import har`: captures in the shapes Chrome and Charles write, imported and replayed.
@Suite(.tags(.process)) struct ImportHARTests {
    /// Chrome DevTools: HTTP/2 pseudo-headers, a gzip response whose text HAR stores decoded,
    /// a base64 image, a redirect, a request carrying a cookie, a failed entry, another host.
    static let chrome = #"""
    {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [
      {"request": {"method": "GET", "url": "https://api.example.com/v1/users/octocat?fields=login", "httpVersion": "http/2.0",
                   "headers": [{"name": ":authority", "value": "api.example.com"}, {"name": "cookie", "value": "sid=COOKIE-SECRET-H1"},
                               {"name": "accept-encoding", "value": "gzip"}], "queryString": [{"name": "fields", "value": "login"}]},
       "response": {"status": 200, "statusText": "", "httpVersion": "http/2.0",
                    "headers": [{"name": "content-type", "value": "application/json"}, {"name": "content-encoding", "value": "gzip"},
                                {"name": "content-length", "value": "40"}, {"name": "set-cookie", "value": "sid=COOKIE-SECRET-H2; HttpOnly"}],
                    "content": {"size": 19, "mimeType": "application/json", "text": "{\"login\":\"octocat\"}"}}},
      {"request": {"method": "GET", "url": "https://api.example.com/v1/avatar.png", "headers": []},
       "response": {"status": 200, "headers": [{"name": "content-type", "value": "image/png"}],
                    "content": {"size": 4, "mimeType": "image/png", "text": "iVBORw==", "encoding": "base64"}}},
      {"request": {"method": "GET", "url": "https://api.example.com/v1/old", "headers": []},
       "response": {"status": 302, "headers": [{"name": "location", "value": "/v1/new"}], "redirectURL": "/v1/new", "content": {"size": 0}}},
      {"request": {"method": "POST", "url": "https://api.example.com/v1/login", "headers": [{"name": "content-type", "value": "application/json"}],
                   "postData": {"mimeType": "application/json", "text": "{\"user\":\"u\",\"password\":\"PASSWORD-H3\"}"}},
       "response": {"status": 200, "headers": [{"name": "content-type", "value": "application/json"}],
                    "content": {"size": 30, "text": "{\"token\":\"TOKEN-H4\",\"user\":\"u\"}"}}},
      {"request": {"method": "GET", "url": "https://api.example.com/v1/blocked", "headers": []},
       "response": {"status": 0, "headers": [], "content": {"size": 0}}},
      {"request": {"method": "GET", "url": "https://cdn.other.com/lib.js", "headers": []},
       "response": {"status": 200, "headers": [], "content": {"size": 2, "text": "//"}}}
    ]}}
    """#

    /// Charles: HTTP/1.1 names, a 404, a text body, a 500, and (as some tools save it) a gzip
    /// body kept compressed as base64 with its Content-Encoding.
    static let charles = #"""
    {"log": {"version": "1.2", "creator": {"name": "Charles Proxy", "version": "4.6.4"}, "entries": [
      {"startedDateTime": "2026-11-23T06:00:00.000Z", "time": 12,
       "request": {"method": "GET", "url": "http://api.example.com/v1/missing", "httpVersion": "HTTP/1.1", "headers": [{"name": "Host", "value": "api.example.com"}],
                   "queryString": [], "cookies": [], "headersSize": 50, "bodySize": 0},
       "response": {"status": 404, "statusText": "Not Found", "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Content-Length", "value": "21"}],
                    "content": {"size": 21, "mimeType": "application/json", "text": "{\"message\":\"missing\"}"}, "redirectURL": ""}},
      {"request": {"method": "GET", "url": "http://api.example.com/v1/motd", "headers": []},
       "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/plain"}], "content": {"size": 5, "text": "hello"}}},
      {"request": {"method": "GET", "url": "http://api.example.com/v1/boom", "headers": []},
       "response": {"status": 500, "headers": [{"name": "Content-Type", "value": "text/plain"}], "content": {"size": 4, "text": "boom"}}},
      {"request": {"method": "GET", "url": "http://api.example.com/v1/zipped", "headers": []},
       "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/plain"}, {"name": "Content-Encoding", "value": "gzip"}],
                    "content": {"size": 30, "encoding": "base64", "text": "H4sIAAAAAAACA8tIzcnJV0ivyiwAABlq0t8KAAAA"}}}
    ]}}
    """#

    @Test func chromeAndCharlesCapturesAreImportedAndReplayed() throws {
        let folder = try StubdProcess.temporaryFolder(["chrome.har": Self.chrome, "charles.har": Self.charles])
        let out = folder + "/fixtures"
        let chrome = try StubdProcess.run(["import", "har", folder + "/chrome.har", "--out", out, "--include", "https://api.example.com/v1"])
        #expect(chrome.status == 0, "\(chrome.stderr)")
        #expect(chrome.stdout.contains("4 fixture file(s) written"), "\(chrome.stdout)")
        #expect(chrome.stdout.contains("log.entries[4] GET https://api.example.com/v1/blocked: no response in the capture"), "\(chrome.stdout)")
        #expect(chrome.stdout.contains("log.entries[5] GET https://cdn.other.com/lib.js: outside --include"))
        let charles = try StubdProcess.run(["import", "har", folder + "/charles.har", "--out", out])
        #expect(charles.status == 0 && charles.stdout.contains("4 fixture file(s) written"), "\(charles.stdout)\(charles.stderr)")
        // Nothing secret was written, and no transfer header survived.
        var written = ""
        for file in try FileManager.default.subpathsOfDirectory(atPath: out) where file.hasSuffix(".json") {
            written += try String(contentsOfFile: out + "/" + file, encoding: .utf8)
        }
        for secret in ["COOKIE-SECRET-H1", "COOKIE-SECRET-H2", "PASSWORD-H3", "TOKEN-H4"] { #expect(!written.contains(secret), "\(secret)") }
        #expect(!written.lowercased().contains("content-encoding") && !written.contains(":authority"))
        #expect(try StubdProcess.run(["check", out]).status == 0)
        let stubd = try ServingStubd([out, "--port", "0", "--quiet"])
        defer { _ = stubd.stop() }
        let base = stubd.baseURL
        #expect(StubdProcess.curl([base + "/v1/users/octocat?fields=login"]) == #"{"login":"octocat"}"#)
        #expect(StubdProcess.curl(["-o", "/dev/null", "-w", "%{size_download} %{content_type}", base + "/v1/avatar.png"]) == "4 image/png")
        let avatar = try #require(FileManager.default.contents(atPath: out + "/__files/GET-v1-avatar.png.png"))
        #expect(avatar == Data(base64Encoded: "iVBORw=="), "the base64 content is stored decoded, byte for byte")
        #expect(StubdProcess.curl(["-w", " %{http_code} %{redirect_url}", base + "/v1/old"]).hasSuffix(" 302 \(base)/v1/new"))
        #expect(StubdProcess.curl(["-H", "Content-Type: application/json", "--data", #"{"user":"u","password":"other"}"#, base + "/v1/login"])
                == #"{"token":"[redacted]","user":"u"}"#)
        #expect(StubdProcess.curl(["-w", " %{http_code}", base + "/v1/missing"]) == #"{"message":"missing"} 404"#)
        #expect(StubdProcess.curl([base + "/v1/motd"]) == "hello")
        #expect(StubdProcess.curl(["-w", " %{http_code}", base + "/v1/boom"]) == "boom 500")
        #expect(StubdProcess.curl([base + "/v1/zipped"]) == "hello gzip", "gzip bytes saved as base64 are stored decoded")
    }

    /// A session id set by one answer (`Set-Cookie`, and the HAR's `cookies` list) and sent by a
    /// later request in its path and in another query value: scrubbed everywhere (issue 36).
    @Test func aCookieValueIsScrubbedWhereverItTravels() throws {
        let har = #"""
        {"log": {"version": "1.2", "creator": {"name": "Chrome", "version": "131"}, "entries": [
          {"request": {"method": "POST", "url": "https://api.example.com/login", "headers": [], "cookies": []},
           "response": {"status": 200, "headers": [{"name": "Set-Cookie", "value": "sid=s3ss10nV4lu3xyz; Path=/; HttpOnly"}],
                        "cookies": [{"name": "sid", "value": "s3ss10nV4lu3xyz"}], "content": {"mimeType": "application/json", "text": "{\"ok\":true}"}}},
          {"request": {"method": "GET", "url": "https://api.example.com/sessions/s3ss10nV4lu3xyz/profile?ref=s3ss10nV4lu3xyz&page=2",
                       "headers": [], "cookies": [{"name": "other", "value": "an0therCookieV4lue"}]},
           "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "text": "{\"session\":\"s3ss10nV4lu3xyz\",\"tag\":\"an0therCookieV4lue\"}"}}}
        ]}}
        """#
        let folder = try StubdProcess.temporaryFolder(["cookies.har": har])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try StubdProcess.run(["import", "har", folder + "/cookies.har", "--out", folder + "/out"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        var written = ""
        for file in (FileManager.default.enumerator(atPath: folder + "/out")?.compactMap { $0 as? String } ?? []) {
            written += (try? String(contentsOfFile: folder + "/out/" + file, encoding: .utf8)) ?? ""
        }
        #expect(!written.isEmpty)
        #expect(!written.contains("s3ss10nV4lu3xyz") && !written.contains("an0therCookieV4lue"), "\(written)")
        #expect(written.contains("page"), "the innocent query pair stays: \(written)")
    }

    @Test func aMalformedCaptureWritesNothing() throws {
        let folder = try StubdProcess.temporaryFolder(["bad.har": #"{"log": {"entries": [{"request": {"method": "GET"}}]}}"#, "worse.har": "{"])
        for (file, message) in [("bad.har", "log.entries[0].request: expected method and url"), ("worse.har", "invalid JSON at")] {
            let result = try StubdProcess.run(["import", "har", folder + "/" + file, "--out", folder + "/out-" + file])
            #expect(result.status == 1)
            #expect(result.stderr.contains("\(folder)/\(file): \(message)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out-" + file))
        }
    }
}

/// `stubd import openapi`: a 3.0 YAML and a 3.1 JSON spec, imported and served.
@Suite(.tags(.process)) struct ImportOpenAPITests {
    static let yaml30 = """
    openapi: 3.0.3
    info: {title: Pets, version: "1"}
    servers:
      - url: https://api.example.com/v1
    paths:
      /pets:
        get:
          operationId: listPets
          responses:
            "200":
              description: pets
              content:
                application/json:
                  examples:
                    two:
                      value: [{id: 1, name: Rex}, {id: 2, name: Tom}]
                    empty:
                      $ref: '#/components/examples/Empty'
        post:
          operationId: createPet
          responses:
            "201":
              description: created
              content:
                application/json:
                  example: {id: 3, name: New}
      /pets/{petId}:
        get:
          operationId: showPet
          parameters:
            - {name: petId, in: path, required: true, schema: {type: integer}}
          responses:
            "200":
              description: one pet
              content:
                application/json:
                  schema:
                    type: object
                    example: {id: 1, name: Rex}
            "404":
              description: not found
              content:
                application/json:
                  example: {message: no such pet}
            default:
              description: error
    components:
      examples:
        Empty:
          value: []
    """

    static let json31 = #"""
    {"openapi": "3.1.0", "info": {"title": "Motd", "version": "1"},
     "paths": {"/motd": {"get": {"responses": {"200": {"description": "text",
        "content": {"text/plain": {"example": "hello from 3.1"}}}}}}}}
    """#

    @Test func aYAML30AndAJSON31SpecAreImportedAndServed() throws {
        let folder = try StubdProcess.temporaryFolder(["pets.yaml": Self.yaml30, "motd.json": Self.json31])
        let out = folder + "/fixtures"
        let pets = try StubdProcess.run(["import", "openapi", folder + "/pets.yaml", "--out", out])
        #expect(pets.status == 0, "\(pets.stderr)")
        #expect(pets.stdout.contains("stubd: imported 7 route(s) into 1 file(s)"), "\(pets.stdout)")
        #expect(pets.stderr.contains("paths./pets/{petId}.get.responses.default: no example; answered with status 500 and an empty body"), "\(pets.stderr)")
        let motd = try StubdProcess.run(["import", "openapi", folder + "/motd.json", "--out", out])
        #expect(motd.status == 0, "\(motd.stderr)")
        #expect(try StubdProcess.run(["check", out]).status == 0)
        let stubd = try ServingStubd([out, "--port", "0", "--quiet"])
        defer { _ = stubd.stop() }
        let base = stubd.baseURL
        #expect(StubdProcess.curl([base + "/v1/pets"]) == #"[{"id":1,"name":"Rex"},{"id":2,"name":"Tom"}]"#)
        #expect(StubdProcess.curl(["-H", "X-Stubd-Example: 200/empty", base + "/v1/pets"]) == "[]")
        #expect(StubdProcess.curl(["-X", "POST", "-w", " %{http_code}", base + "/v1/pets"]) == #"{"id":3,"name":"New"} 201"#)
        #expect(StubdProcess.curl(["-w", " %{content_type}", base + "/v1/pets/42?verbose=1"]) == #"{"id":1,"name":"Rex"} application/json"#)
        #expect(StubdProcess.curl(["-H", "X-Stubd-Example: 404", "-w", " %{http_code}", base + "/v1/pets/42"]) == #"{"message":"no such pet"} 404"#)
        #expect(StubdProcess.curl(["-H", "X-Stubd-Example: 500", "-w", "%{http_code}", base + "/v1/pets/42"]) == "500")
        #expect(StubdProcess.curl([base + "/motd"]) == "hello from 3.1")
    }

    @Test func aBrokenSpecIsRefusedAndNothingIsWritten() throws {
        let folder = try StubdProcess.temporaryFolder(["bad.yaml": "openapi: 3.0.0\npaths: [not, a, map\n", "swagger.json": #"{"swagger": "2.0"}"#,
                                                        "wrong.yaml": "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses: 12\n"])
        for (file, message) in [("bad.yaml", "not valid YAML or JSON"), ("swagger.json", "swagger: Swagger 2.0 is not supported"),
                                ("wrong.yaml", "")] {
            let result = try StubdProcess.run(["import", "openapi", folder + "/" + file, "--out", folder + "/out"])
            #expect(result.status == 1, "\(file): \(result.stdout)")
            #expect(result.stderr.hasPrefix("\(folder)/\(file): \(message)"), "\(result.stderr)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder + "/out")) ?? []).isEmpty)
    }
}

/// Without the stubd-openapi program, `stubd import openapi` says what adds it.
@Suite(.tags(.process)) struct OpenAPIProgramTests {
    @Test func aBuildWithoutTheProgramNamesTheCommandThatAddsIt() {
        guard case .failure(let problem) = OpenAPIProgram.locate(environment: [:], candidates: ["/nonexistent/stubd-openapi"]) else {
            Issue.record("nothing is there to find")
            return
        }
        let message = "\(problem)"
        #expect(message.contains("import openapi runs the separate program stubd-openapi, which this stubd does not have"), "\(message)")
        #expect(message.contains("make -C \(StubdProcess.repositoryRoot.path) openapi"), "\(message)")
        #expect(message.contains("make dist`, `make install` and Homebrew build includes it"), "\(message)")
    }

    @Test func theProgramBesideStubdIsFoundFirst() throws {
        let folder = try StubdProcess.temporaryFolder(["stubd-openapi": "#!/bin/sh\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/stubd-openapi")
        let candidates = OpenAPIProgram.candidates(environment: ["PATH": folder])
        #expect(candidates.last == folder + "/stubd-openapi", "PATH is looked at last: \(candidates)")
        let beside = candidates.firstIndex { $0.hasPrefix(StubdProcess.executable.deletingLastPathComponent().path + "/") }
        let checkout = candidates.firstIndex { $0.contains("/Tools/stubd-openapi/.build/") }
        #expect(beside != nil && checkout != nil && beside! < checkout!, "beside the running program, then the checkout: \(candidates)")
    }

    @Test func aStubdOpenAPIVariableThatIsNoProgramIsNamed() throws {
        let result = try StubdProcess.run(["STUBD_OPENAPI=/nonexistent/stubd-openapi", StubdProcess.executable.path, "import", "openapi", "spec.yaml", "--out", "/tmp/never"],
                                          program: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("stubd: error: STUBD_OPENAPI=/nonexistent/stubd-openapi is not an executable file"), "\(result.stderr)")
    }
}

/// `stubd import graphql` as docs/GRAPHQL.md writes it: the page's two commands run as written
/// (`stubd` on `PATH` is this build) in a folder with an app's `.graphql` files and an Apollo
/// persisted-query manifest; each writes fixtures that `stubd check` accepts, one route per
/// named operation.
@Suite(.tags(.process)) struct ImportGraphQLCommandTests {
    @Test func theGraphQLPageCommandsRunAsWritten() throws {
        let page = try String(contentsOf: StubdProcess.repositoryRoot.appendingPathComponent("docs/GRAPHQL.md"), encoding: .utf8)
        let section = try #require(page.range(of: "## Importing an app's operations"))
        let block = try #require(page[section.upperBound...].components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-graphql-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App/GraphQL"), withIntermediateDirectories: true)
        try Data("query ProfileQuery($id: ID!) { user(id: $id) { id name } }\n".utf8)
            .write(to: root.appendingPathComponent("App/GraphQL/Profile.graphql"))
        try Data(#"{"format": "apollo-persisted-query-manifest", "version": 1, "operations": [{"id": "2f1a", "name": "SaveSettings", "type": "mutation", "body": "mutation SaveSettings($theme: String) { saveSettings(theme: $theme) { ok } }"}]}"#.utf8)
            .write(to: root.appendingPathComponent("persisted-query-manifest.json"))
        let path = StubdProcess.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let ran = try StubdProcess.run(["bash", "-c", "set -e\nexport PATH='\(path)'\n" + block], timeout: 60,
                                       program: URL(fileURLWithPath: "/usr/bin/env"), directory: root)
        #expect(ran.status == 0, "\(block)\n\(ran.stdout)\n\(ran.stderr)")
        for folder in ["fixtures/graphql", "fixtures"] {
            let checked = try StubdProcess.run(["check", folder], directory: root)
            #expect(checked.status == 0, "\(folder): \(checked.stdout) \(checked.stderr)")
        }
        let routes = try StubdProcess.run(["routes", "fixtures"], directory: root)
        #expect(routes.stdout.contains("ProfileQuery") && routes.stdout.contains("SaveSettings"), "\(routes.stdout)")
    }
}
