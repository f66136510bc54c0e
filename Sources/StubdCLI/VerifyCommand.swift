import ArgumentParser
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubModel
import StubServer
import TargetModel

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
        let failing = Set(failOn.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        var checked = 0, skipped = 0, drifted = 0, failed = false
        var report = VerifyReport(upstream: base)
        let decoding = Self.decodedTargets()
        for route in table.routes {
            let fixture = route.fixture
            guard case .response(let answer) = fixture.outcome, let request = Self.request(for: fixture.request, base: base, allowWrites: allowWrites) else {
                skipped += 1
                report.routes.append(VerifyReport.Route(name: fixture.name, source: fixture.source, method: fixture.request.method,
                                                        path: fixture.request.path.description, drift: nil))
                continue
            }
            checked += 1
            var lines: [String] = []
            switch Self.send(request, timeout: timeout) {
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
                if let target = decoding[TargetKey(name: fixture.name, source: fixture.source)],
                   let line = VerifyDecoding.check(target.type, decoder: target.decoder, fixture: answer.body, live: live.body) {
                    lines.append("  \(line)")
                    if failing.contains("decode") { failed = true }
                }
            }
            report.routes.append(VerifyReport.Route(name: fixture.name, source: fixture.source, method: fixture.request.method,
                                                    path: request.url?.path ?? "", drift: lines.map { $0.trimmingCharacters(in: .whitespaces) }))
            if !lines.isEmpty {
                drifted += 1
                print("\(fixture.name) (\(fixture.source)) \(fixture.request.method) \(request.url?.path ?? "")")
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
    static func request(for pattern: RequestPattern, base: String, allowWrites: Bool) -> URLRequest? {
        guard allowWrites || ["GET", "HEAD"].contains(pattern.method), case .literal(let path) = pattern.path,
              pattern.query.matches.isEmpty, pattern.query.present.isEmpty else { return nil }
        var target = base + path.wireForm
        if !pattern.query.pairs.isEmpty {
            var components = URLComponents()
            components.queryItems = pattern.query.pairs.map { URLQueryItem(name: $0.name, value: $0.value) }
            target += "?" + (components.percentEncodedQuery ?? "")
        }
        guard let url = URL(string: target) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = pattern.method
        for header in pattern.headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        switch pattern.body.match {
        case .any: break
        case .json(let value): request.httpBody = Data(JSONWriter.write(value, pretty: false).utf8)
        case .bytes(let bytes): request.httpBody = Data(bytes)
        default: return nil
        }
        return request
    }

    struct Live {
        let status: Int
        let headers: [NameValue]
        let body: [UInt8]
    }

    struct TargetKey: Hashable {
        let name: String
        let source: String
    }

    /// The Swift targets that name their `Decodable` type, by the fixture each compiles to (its
    /// name and source, as `Fixture(target:)` makes them).
    static func decodedTargets() -> [TargetKey: (type: any Decodable.Type, decoder: JSONDecoder)] {
        var found: [TargetKey: (type: any Decodable.Type, decoder: JSONDecoder)] = [:]
        for target in SwiftTargets.all {
            guard let decoding = target as? any ResponseDecoding, let type = decoding.responseType else { continue }
            found[TargetKey(name: String(describing: target), source: "swift \(Swift.type(of: target))")] = (type, decoding.responseDecoder)
        }
        return found
    }

    static func send(_ request: URLRequest, timeout: Double) -> Result<Live, VerifyProblem> {
        var request = request
        request.timeoutInterval = timeout
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<Live, VerifyProblem> = .failure(VerifyProblem(description: "timed out"))
        let session = URLSession(configuration: .ephemeral)
        session.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                let headers = http.allHeaderFields.map { NameValue("\($0.key)", "\($0.value)") }
                outcome = .success(Live(status: http.statusCode, headers: headers, body: [UInt8](data ?? Data())))
            } else {
                outcome = .failure(VerifyProblem(description: error.map { "\($0.localizedDescription)" } ?? "no HTTP answer"))
            }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + timeout + 5)
        session.finishTasksAndInvalidate()
        return outcome
    }

    static func mediaType(_ headers: [NameValue]) -> String? {
        headers.first { $0.name.equalsIgnoringCase("Content-Type") }.flatMap { MediaType($0.value)?.essence }
    }
}

/// Why an upstream gave no answer, for the report.
struct VerifyProblem: Error, CustomStringConvertible {
    let description: String
}
