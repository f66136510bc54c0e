import Foundation
package import StubServer
package import StubdRuntime
package import AdminAPI
import Dashboard
import AdminContract
package import TargetModel
import TargetServing
package import StubdEngine

/// A stubd server on 127.0.0.1 with an ephemeral port, for one test.
package struct TestServer {
    package let server: StubdServer

    package init(fixtures: [Fixture], cors: CORSPolicy? = nil, journalCapacity: Int = 1000, journalBodyLimit: Int = 4096,
         observers: [any ExchangeObserver] = [], access: AdminAccess? = nil, redactor: Redactor = Redactor(),
         proxy: ProxyUpstream? = nil, recorder: Recorder? = nil, configure: (inout EngineConfiguration) -> Void = { _ in },
         settings configureServer: (inout StubdServer.Configuration) -> Void = { _ in }) throws {
        var settings = StubdServer.Configuration()
        settings.engine.port = 0
        configure(&settings.engine)
        settings.cors = cors
        settings.journalCapacity = journalCapacity
        settings.journalBodyLimit = journalBodyLimit
        settings.logger = nil
        settings.observers = observers
        settings.access = access
        settings.redactor = redactor
        settings.proxy = proxy
        settings.recorder = recorder
        configureServer(&settings)
        server = try StubdServer.start(table: try RouteTable(fixtures: fixtures), settings)
    }

    package init(targets: [any TargetType], redactor: Redactor = Redactor()) throws {
        var configuration = EngineConfiguration()
        configuration.port = 0
        server = try StubdServer.start(table: try RouteTable(targets: targets), configuration: configuration, logger: nil, redactor: redactor)
    }

    package var port: Int { server.port }

    package func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(server.port)\(pathAndQuery)" }

    package func stop() { server.stop() }

    /// Stops the server and returns its port: a port nothing listens on (for "unreachable" tests).
    package func stoppedPort() -> Int {
        let port = server.port
        server.stop()
        return port
    }
}

/// Shorthand for test fixtures.
package func route(_ path: String, method: String = "GET", query: [NameValue] = [], headers: [NameValue] = [],
           body: BodyPattern = .any, name: String? = nil, outcome: StubOutcome, delay: Double? = nil) -> Fixture {
    Fixture(name: name ?? "\(method) \(path)", source: "test", request: RequestPattern(method: method, path: path, query: query,
            headers: headers, body: body), outcome: outcome, delay: delay)
}

package func ok(_ text: String, status: Int = 200, headers: [NameValue] = []) -> StubOutcome {
    .response(StubHTTPResponse(status: status, headers: headers, body: Array(text.utf8)))
}
