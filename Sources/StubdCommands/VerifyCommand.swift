import ArgumentParser
import Foundation
import StubModel
import StubServer
import StubdEngine

/// `stubd verify`: drift between the fixtures and the real API — each concrete route's request
/// sent to the upstream, its answer compared with the fixture's: status, media type, and the JSON
/// shape (fields removed, added, retyped, now null) — and, for a Swift target that names its
/// `Decodable` type (`ResponseDecoding`), whether both bodies still decode with the app's decoder.
/// Values are never printed, only paths and kinds, so a live body's secrets stay out of the report.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Send each fixture route's request to the real API and report where its answer drifted from the fixture.",
        discussion: """
              $ stubd verify fixtures --upstream https://api.example.com
              user (fixtures/api.json routes[1]) GET /users/octocat
                $.plan: removed (was object)
                $.id: retyped, number → string
              verify: 6 routes checked against https://api.example.com, 1 drifted, 2 skipped (not concrete or not safe)
            Only routes whose request is concrete (a literal path, exact query and body) and safe (GET,
            HEAD) are sent unless --allow-writes; exit 1 when a kind named by --fail-on drifted. In a
            targets package, a target adopting ResponseDecoding has both bodies decoded as its type:
                decode Profile: fixture decodes; live body fails at $.id: expected Int, got string
            """
    )

    @OptionGroup var fixtureArguments: FixtureArguments

    @Option(help: "The real API's base URL (its path is kept as a prefix).")
    var upstream: String

    @Option(name: .customLong("upstream-ca"), help: "A PEM file of CA certificates to trust for an https --upstream (default: the system's trust store).")
    var upstreamCA: String?

    @Flag(name: .customLong("allow-writes"), help: "Also send routes whose method is not GET or HEAD.")
    var allowWrites = false

    @Option(name: .customLong("fail-on"), help: "Kinds of drift that make the exit status 1: status, type, shape, decode (comma-separated).")
    var failOn: String = "status,type,shape,decode"

    @Option(help: "Seconds to wait for each answer.")
    var timeout: Double = 10

    @Option(help: "Also write the findings as JSON to this file (routes, each with its drift or skipped).")
    var json: String?

    @Option(help: "Also write the findings as JUnit XML to this file (one test case per route), for CI test reports.")
    var junit: String?

    func validate() throws {
        guard let url = URL(string: upstream), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--upstream must be an http(s) URL, e.g. https://api.example.com, got \(upstream)")
        }
        let kinds = failOn.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if let unknown = kinds.first(where: { !["status", "type", "shape", "decode", ""].contains($0) }) {
            throw ValidationError("--fail-on: unknown kind \"\(unknown)\"; use status, type, shape or decode")
        }
    }

    func run() throws {
        let table = try fixtureArguments.loadTable()
        let base = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        let server: ProxyUpstream
        do { server = try ProxyUpstream(url: base, caFile: upstreamCA) } catch { throw ValidationError("--upstream: \(error)") }
        let failing = Set(failOn.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        var checked = 0, skipped = 0, drifted = 0, failed = false
        var report = VerifyReport(upstream: base)
        let decoding = SwiftTargets.catalog?.decoders() ?? [:]
        for route in table.routes {
            let fixture = route.fixture
            guard case .response(let answer) = fixture.outcome, let request = Self.request(for: fixture.request, to: server, allowWrites: allowWrites, timeout: timeout) else {
                skipped += 1
                report.routes.append(VerifyReport.Route(name: fixture.name, source: fixture.source, method: fixture.request.method,
                                                        path: fixture.request.path.description, drift: nil))
                continue
            }
            checked += 1
            let shownPath = String(request.target.prefix { $0 != "?" })
            var lines: [String] = []
            switch Self.send(request) {
            case .failure(let problem):
                lines.append("  no answer: \(problem)")
                if failing.contains("status") { failed = true }
            case .success(let live):
                if live.status != answer.status {
                    lines.append("  status: \(answer.status) → \(live.status)")
                    if failing.contains("status") { failed = true }
                }
                let wanted = Self.mediaType(answer.headers), got = Self.mediaType(live.headers)
                if let wanted, wanted != got {
                    lines.append("  Content-Type: \(wanted) → \(got ?? "none")")
                    if failing.contains("type") { failed = true }
                }
                if let fixtureJSON = try? JSONParser.parse(answer.body), let liveJSON = try? JSONParser.parse(live.body) {
                    let changes = JSONShapeDrift.between(fixture: fixtureJSON, live: liveJSON)
                    lines += changes.map { "  \($0)" }
                    if !changes.isEmpty, failing.contains("shape") { failed = true }
                } else if (try? JSONParser.parse(answer.body)) != nil, !live.body.isEmpty {
                    lines.append("  body: the fixture's is JSON, the live one is not")
                    if failing.contains("shape") { failed = true }
                }
                if let target = decoding[SwiftTargetKey(name: fixture.name, source: fixture.source)],
                   let line = VerifyDecoding.check(target.type, decoder: target.decoder, fixture: answer.body, live: live.body) {
                    lines.append("  \(line)")
                    if failing.contains("decode") { failed = true }
                }
            }
            report.routes.append(VerifyReport.Route(name: fixture.name, source: fixture.source, method: fixture.request.method,
                                                    path: shownPath, drift: lines.map { $0.trimmingCharacters(in: .whitespaces) }))
            if !lines.isEmpty {
                drifted += 1
                print("\(fixture.name) (\(fixture.source)) \(fixture.request.method) \(shownPath)")
                lines.forEach { print($0) }
            }
        }
        print("verify: \(checked) route(s) checked against \(base), \(drifted) drifted, \(skipped) skipped (not concrete, not safe or not a response)")
        if let json { try VerifyReport.write(JSONWriter.write(report.json, pretty: true) + "\n", to: json, flag: "--json") }
        if let junit { try VerifyReport.write(report.junit, to: junit, flag: "--junit") }
        if failed { throw ExitCode(1) }
    }

    /// The request a route stands for, or nil when it is not concrete (a template or pattern path,
    /// a query or body matcher) or not safe to send.
    static func request(for pattern: RequestPattern, to server: ProxyUpstream, allowWrites: Bool, timeout: Double) -> UpstreamRequest? {
        guard allowWrites || ["GET", "HEAD"].contains(pattern.method), case .literal(let path) = pattern.path,
              pattern.query.matches.isEmpty, pattern.query.present.isEmpty else { return nil }
        var target = server.basePath + path.wireForm
        if !pattern.query.pairs.isEmpty {
            var components = URLComponents()
            components.queryItems = pattern.query.pairs.map { URLQueryItem(name: $0.name, value: $0.value) }
            target += "?" + (components.percentEncodedQuery ?? "")
        }
        var body: [UInt8] = []
        switch pattern.body.match {
        case .any: break
        case .json(let value): body = Array(JSONWriter.write(value, pretty: false).utf8)
        case .bytes(let bytes): body = bytes
        default: return nil
        }
        var headers = [NameValue("Host", server.hostHeader), NameValue("Accept", "*/*"),
                       NameValue("User-Agent", "stubd-verify/\(StubdVersion.current)")]
        headers.removeAll { own in pattern.headers.contains { $0.name.equalsIgnoringCase(own.name) } }
        headers += pattern.headers
        var request = UpstreamRequest(host: server.host, port: server.port, method: pattern.method, target: target, headers: headers, body: body,
                                      timeoutSeconds: timeout)
        request.tls = server.tls
        return request
    }

    struct Live {
        let status: Int
        let headers: [NameValue]
        let body: [UInt8]
    }

    /// Sends one request on a loop of the command's own (no redirect is followed: a moved route
    /// is drift too).
    static func send(_ request: UpstreamRequest) -> Result<Live, VerifyProblem> {
        switch CommandRequest.send(request) {
        case .answered(let status, let headers, let body), .relayed(let status, let headers, let body?, _):
            return .success(Live(status: status, headers: headers, body: body))
        case .relayed(let status, _, nil, _):
            return .failure(VerifyProblem(description: "answered \(status) with a body that did not arrive whole"))
        case .failed(let reason):
            return .failure(VerifyProblem(description: reason))
        }
    }

    static func mediaType(_ headers: [NameValue]) -> String? {
        headers.first { $0.name.equalsIgnoringCase("Content-Type") }.flatMap { MediaType($0.value)?.essence }
    }
}

/// Why an upstream gave no answer, for the report.
struct VerifyProblem: Error, CustomStringConvertible {
    let description: String
}
