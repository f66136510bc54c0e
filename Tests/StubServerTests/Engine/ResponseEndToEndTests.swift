import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import StubdTestSupport
import StubdSystem
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// The demo API served from its Swift targets, hit with URLSession and curl over real sockets.
@Suite(.serialized, .tags(.process)) struct ResponseEndToEndTests {
    /// The request a Moya client would send for `target`, pointed at the test server.
    static func moyaRequest(_ target: GitHubAPI, server: TestServer) throws -> URLRequest {
        var request = try Endpoint(target: target).urlRequest()
        var components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = server.port
        request.url = components.url
        return request
    }

    @Test func everyDemoTargetSentByURLSessionGetsItsSampleResponse() async throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        for target in GitHubAPI.all where target.stubBehavior == .immediate {
            let fetched = await HTTPFetch.send(try Self.moyaRequest(target, server: server))
            switch target.sampleResponse {
            case .networkResponse(let status, let data):
                #expect(fetched.status == status, "\(target)")
                #expect(fetched.body == data, "\(target)")
            case .response(let response, let data):
                #expect(fetched.status == response.statusCode, "\(target)")
                #expect(fetched.body == data, "\(target)")
                for (name, value) in response.allHeaderFields {
                    #expect(fetched.response?.value(forHTTPHeaderField: "\(name)") == "\(value)", "\(target) \(name)")
                }
            case .networkError:
                #expect(fetched.error != nil, "\(target)")
            }
        }
    }

    @Test func networkResponseSendsOnlyTheHeadersHTTPNeeds() throws {
        let server = try TestServer(fixtures: [route("/plain", outcome: ok("hello"))])
        defer { server.stop() }
        let result = try Curl.run(["--include", server.url("/plain")])
        let lines = result.stdout.components(separatedBy: "\r\n")
        #expect(lines.first == "HTTP/1.1 200 OK")
        let names = Set(lines.dropFirst().prefix { !$0.isEmpty }.map { $0.split(separator: ":")[0].lowercased() })
        #expect(names == ["content-length", "date"])
        #expect(result.stdout.hasSuffix("\r\n\r\nhello"))
    }

    @Test func everyReplyCarriesOneDateAndARoutesOwnDateWins() throws {
        let server = try TestServer(fixtures: [
            route("/plain", outcome: ok("hello")),
            route("/dated", outcome: ok("old", headers: [NameValue("date", "Sat, 01 Jan 2000 00:00:00 GMT")])),
        ])
        defer { server.stop() }
        func dates(_ path: String) throws -> [String] {
            let head = try Curl.run(["--include", "--silent", server.url(path)]).stdout.components(separatedBy: "\r\n\r\n")[0]
            return head.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("date:") }
                .map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // Two requests in a row: the cached value is reused, and stays the time of the reply.
        for _ in 0..<2 {
            let sent = try dates("/plain")
            #expect(sent.count == 1)
            let date = try #require(formatter.date(from: sent[0]), "\(sent)")
            #expect(abs(date.timeIntervalSinceNow) < 5)
        }
        #expect(try dates("/dated") == ["Sat, 01 Jan 2000 00:00:00 GMT"])
    }

    /// A large body is lent to libevent, not copied: the reply stays alive until its bytes are
    /// written even when its route is removed mid-download (nothing else holds it here: no
    /// journal), and every byte arrives.
    @Test func aLargeBodyOutlivesItsRouteUntilWritten() throws {
        let server = try TestServer(fixtures: [route("/small", outcome: ok("s"))], journalCapacity: 0)
        defer { server.stop() }
        let size = 8 << 20
        let body = String(repeating: "0123456789abcdef", count: size / 16)
        let id = try #require(try server.server.add([route("/large", outcome: ok(body))]).first)
        let fd = RawHTTP.connectLoopback(port: server.port)
        defer { close(fd) }
        System.sendAll(fd, Array("GET /large HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(20)
        /// Reads what has arrived (waiting up to 0.1 s); false once the peer closed or time is up.
        func receive() -> Bool {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Date() < deadline else { return false }
            guard poll(&entry, 1, 100) > 0 else { return true }
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return false }
            received += buffer[0..<n]
            return true
        }
        // The head and the first bytes, then the route goes (and with it the table's reference).
        while !received.contains(UInt8(ascii: "0")), receive() {}
        try server.server.remove(id: id)
        #expect(try Curl.run(["--max-time", "10", "-w", " %{http_code}", server.url("/large")]).stdout.hasSuffix(" 404"))
        func bodyBytes() -> Int { received.firstRange(of: Array("\r\n\r\n".utf8)).map { received.count - $0.upperBound } ?? 0 }
        while bodyBytes() < size, receive() {}
        let end = try #require(received.firstRange(of: Array("\r\n\r\n".utf8)))
        #expect(received.count - end.upperBound == size)
        #expect(Array(received[end.upperBound...]) == Array(body.utf8))
    }

    @Test func aJSONBodyMatchesWhateverTheKeyOrderAndAChangedFieldGetsTheNearMiss() throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        let url = server.url("/repos/octocat/hello-world/issues")
        let reordered = #"{"labels":["bug"],"body":"I'm having a problem with this.","title":"Found a bug"}"#
        let hit = try Curl.run(["-X", "POST", "-H", "Authorization: token demo-token", "-H", "Content-Type: application/json",
                                "--data", reordered, "-w", "%{http_code}", "-o", "/dev/null", url])
        #expect(hit.stdout == "201")
        let changed = reordered.replacingOccurrences(of: "Found a bug", with: "Found two bugs")
        let miss = try Curl.run(["-X", "POST", "-H", "Authorization: token demo-token", "-H", "Content-Type: application/json",
                                 "--data", changed, url])
        let report = try JSONParser.parse(miss.stdout)
        guard case .array(let closest)? = report["closest"], case .array(let differences)? = closest.first?["differences"] else {
            Issue.record("no closest routes in \(miss.stdout)")
            return
        }
        guard case .string(let name)? = closest.first?["name"] else {
            Issue.record("the closest route has no name in \(miss.stdout)")
            return
        }
        #expect(name.hasPrefix("createIssue(owner: "))
        #expect(differences.count == 1)
        #expect(differences.first == .string(#"body field $.title: expected "Found a bug", got "Found two bugs""#))
    }

    @Test(arguments: ["application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON"])
    func aJSONRouteMatchesOkHttpAndFetchSpellingsOfItsContentType(contentType: String) throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        let body = #"{"labels":["bug"],"title":"Found a bug","body":"I'm having a problem with this."}"#
        let result = try Curl.run(["-X", "POST", "-H", "Authorization: token demo-token", "-H", "Content-Type: \(contentType)",
                                   "--data", body, "-w", "%{http_code}", "-o", "/dev/null", server.url("/repos/octocat/hello-world/issues")])
        #expect(result.stdout == "201")
    }

    @Test func anHTTP10ReplyCarriesItsContentLength() throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        let reply = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array("GET /zen HTTP/1.0\r\n\r\n".utf8)), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(reply.contains("Content-Length: 19\r\n"))
        #expect(reply.hasSuffix("\r\n\r\nDesign for failure."))
    }

    @Test func unknownRoutesGetA404NamingTheRequestAndTheClosestRoutes() async throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        let fetched = await HTTPFetch.get(server.url("/users/octocats?x=1"))
        #expect(fetched.status == 404)
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let report = try JSONParser.parse(Array(fetched.body))
        #expect(report["error"] == .string("no stub matches GET /users/octocats"))
        #expect(report["query"] == .string("x=1"))
        guard case .array(let closest)? = report["closest"] else { Issue.record("no closest"); return }
        #expect(closest.count == 3)
        #expect(closest.first?["path"] == .string("/users/octocat"))
    }

    @Test func headGetsTheContentLengthOfGetAndNoBodyAndKeepsTheConnectionUsable() throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        let request = "HEAD /zen HTTP/1.1\r\nHost: x\r\n\r\nGET /zen HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let reply = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array(request.utf8)), as: UTF8.self)
        let responses = reply.components(separatedBy: "HTTP/1.1 200 OK")
        #expect(responses.count == 3)
        #expect(responses[1].contains("Content-Length: 19\r\n"))
        #expect(responses[1].hasSuffix("\r\n\r\n"))
        #expect(responses[2].hasSuffix("\r\n\r\nDesign for failure."))
    }

    @Test func keepAliveReusesOneConnectionForSeveralRequests() throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        let result = try Curl.run(["--verbose", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null",
                                   server.url("/zen"), server.url("/rate_limit"), server.url("/users/octocat")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("Re-using existing connection"))
        #expect(result.stderr.components(separatedBy: "Connected to").count == 2)
    }

    @Test func statusesWithoutBodiesAreSentWithoutOne() throws {
        let server = try TestServer(targets: GitHubAPI.all)
        defer { server.stop() }
        let result = try Curl.run(["--include", "-X", "PUT", "-H", "Authorization: token demo-token",
                                   server.url("/user/starred/octocat/hello-world")])
        #expect(result.stdout.hasPrefix("HTTP/1.1 204 No Content\r\n"))
        #expect(result.stdout.hasSuffix("\r\n\r\n"))
        #expect(!result.stdout.lowercased().contains("content-length"))
    }
}
