import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

@Suite(.tags(.inMemory))
struct ExchangeLogLineTests {
    @Test func oneLinePerExchangeWithStatusOrFaultRouteAndLatency() {
        let hit = Exchange(request: IncomingRequest(method: "GET", target: "/zen?x=1"),
                           resolution: .route(compiledRoute("zen", id: RouteID(.fixture, 0))), outcome: .status(200), latencySeconds: 0.00028)
        #expect(ExchangeLogLine.line(for: hit) == "GET /zen?x=1 200 zen 0.28ms")
        let miss = Exchange(request: IncomingRequest(method: "GET", target: "/zenn"),
                            resolution: .miss(closest: "closest: zen (path: expected /zen, got /zenn)"), outcome: .status(404),
                            latencySeconds: 0.001)
        #expect(ExchangeLogLine.line(for: miss) == "GET /zenn 404 MISS closest: zen (path: expected /zen, got /zenn) 1.0ms")
        let fault = Exchange(request: IncomingRequest(method: "GET", target: "/events"),
                             resolution: .route(compiledRoute("events", id: RouteID(.fixture, 1))), outcome: .fault(.reset), latencySeconds: 0)
        #expect(ExchangeLogLine.line(for: fault) == "GET /events fault:reset events 0.0ms")
    }
}
