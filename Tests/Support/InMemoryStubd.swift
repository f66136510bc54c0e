import Foundation
import FixtureFiles
package import StubModel
import StubServer
package import StubdEngine
package import StubdRuntime

/// A whole stubd — fixtures, admin API, dashboard, journal, observers — served by the in-memory
/// engine: requests are values handed in, replies values handed back, calls stubd makes itself
/// (forwarded misses, webhooks) go to `upstream`. For tests of what stubd decides; what goes on
/// the wire is tested over sockets.
package struct InMemoryStubd {
    package let server: StubdServer
    package let network: InMemoryNetwork

    /// Serves `documents` (fixture files' JSON text, read as `test0.json`, `test1.json`, …) with
    /// `settings` applied; `upstream` answers the calls stubd makes.
    package init(_ documents: String..., upstream: @escaping @Sendable (UpstreamRequest) -> UpstreamResponse = { _ in .failed("connection refused (in memory)") },
                 settings: (inout StubdServer.Configuration) -> Void = { _ in }) throws {
        var fixtures: [Fixture] = []
        for (number, document) in documents.enumerated() {
            fixtures += try FixtureReader(file: "test\(number).json", loadBodyFile: { path throws(FixtureReader.FixtureProblem) in
                throw FixtureReader.FixtureProblem("no body files in memory: \(path)")
            }).read(Array(document.utf8))
        }
        try self.init(fixtures: fixtures, upstream: upstream, settings: settings)
    }

    /// Serves `fixtures`.
    package init(fixtures: [Fixture], upstream: @escaping @Sendable (UpstreamRequest) -> UpstreamResponse = { _ in .failed("connection refused (in memory)") },
                 settings: (inout StubdServer.Configuration) -> Void = { _ in }) throws {
        network = InMemoryNetwork(upstream: upstream)
        var configuration = StubdServer.Configuration()
        configuration.logger = nil
        configuration.makeEngine = network.factory
        settings(&configuration)
        server = try StubdServer.start(table: try RouteTable(fixtures: fixtures), configuration)
    }

    /// Sends a request (`target` is path and query) and returns the reply; a missing reply is
    /// recorded by the caller's `#require`. `connectionRequest` says which request of its
    /// connection it is, as the engine would (nil: not known, as in memory by default).
    package func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "",
                      connectionRequest: Int? = nil, timeout: Double = 10) -> InMemoryReply? {
        var all = headers.map { NameValue($0.0, $0.1) }
        if !all.contains(where: { $0.name.lowercased() == "host" }) { all.append(NameValue("Host", "127.0.0.1:8080")) }
        if !body.isEmpty, !all.contains(where: { $0.name.lowercased() == "content-length" }) {
            all.append(NameValue("Content-Length", String(body.utf8.count)))
        }
        var request = IncomingRequest(method: method, target: target, headers: all, body: Array(body.utf8))
        request.connection = connectionRequest.map { ConnectionUse(number: 1, request: $0) }
        return network.send(request, timeout: timeout)
    }

    /// `GET target`.
    package func get(_ target: String, headers: [(String, String)] = []) -> InMemoryReply? {
        send("GET", target, headers: headers)
    }

    /// Stops the server.
    package func stop() { server.stop() }
}
