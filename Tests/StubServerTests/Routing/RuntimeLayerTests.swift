import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdMatching
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// A runtime layer answers every request as a route table of the same routes would, whatever
/// order they were added and removed in; the newest route answering a request replaces the older.
@Suite(.tags(.inMemory))
struct RuntimeLayerTests {
    static func fixtures() -> [Fixture] {
        var fixtures: [Fixture] = []
        for index in 0..<200 {
            fixtures.append(route("/items/\(index)", outcome: ok("item \(index)")))
        }
        fixtures.append(route("/items/7", query: [NameValue("v", "2")], outcome: ok("item 7 v2")))
        var template = Fixture(name: "by id", source: "test", request: RequestPattern(method: "GET", path: .template(try! PathTemplate.parse("/items/{id}").get())),
                               outcome: .response(StubHTTPResponse(status: 200, body: Array("template".utf8))))
        template.priority = 6
        fixtures.append(template)
        fixtures.append(Fixture(name: "regex", source: "test", request: RequestPattern(method: "GET", path: .regex("/re/[0-9]+")),
                                outcome: .response(StubHTTPResponse(status: 200, body: Array("regex".utf8)))))
        fixtures.append(Fixture(name: "nested", source: "test", request: RequestPattern(method: "POST", path: .template(try! PathTemplate.parse("/a/{x}/b/{y}/").get())),
                                outcome: .response(StubHTTPResponse(status: 201))))
        return fixtures
    }

    static let requests: [IncomingRequest] = (0..<210).map { IncomingRequest(method: "GET", target: "/items/\($0)") } + [
        IncomingRequest(method: "GET", target: "/items/7?v=2"), IncomingRequest(method: "HEAD", target: "/items/3"),
        IncomingRequest(method: "GET", target: "/re/12"), IncomingRequest(method: "GET", target: "/re/x"),
        IncomingRequest(method: "POST", target: "/a/1/b/2/"), IncomingRequest(method: "POST", target: "/a/1/b/2"),
        IncomingRequest(method: "GET", target: "/nothing"),
    ]

    static func answer(_ route: Route?) -> String {
        guard let route else { return "miss" }
        return route.name
    }

    @Test func itAnswersAsARouteTableDoes() throws {
        let fixtures = Self.fixtures()
        let routes = fixtures.enumerated().map { Route(fixture: $0.element, id: RouteID(.runtime, $0.offset + 1), order: $0.offset + 1) }
        let table = try RouteTable(compiled: routes)
        // Added in shuffled batches, with decoys added and removed again.
        var layer = RuntimeLayer.empty
        var shuffled = routes.shuffled()
        while !shuffled.isEmpty {
            let batch = Array(shuffled.prefix(17))
            shuffled.removeFirst(batch.count)
            layer = try layer.adding(batch)
            let decoy = Route(fixture: route("/items/\(batch.count)", headers: [NameValue("X", "1")], outcome: ok("decoy")),
                              id: RouteID(.runtime, 10_000 + shuffled.count), order: 10_000 + shuffled.count)
            let withDecoy = try layer.adding([decoy])
            #expect(withDecoy.count == layer.count + 1)
            layer = withDecoy.removing(decoy)
        }
        #expect(layer.count == routes.count)
        for request in Self.requests {
            let view = RequestView(request)
            #expect(Self.answer(layer.match(view, accept: nil)) == Self.answer(table.match(view, accept: nil)), "\(request.method) \(request.rawPath)")
        }
        #expect(layer.orderedRoutes.map(\.id) == table.routes.map(\.id))
        // Removing every route empties it.
        for route in routes { layer = layer.removing(route) }
        #expect(layer.isEmpty && layer.match(RequestView(IncomingRequest(method: "GET", target: "/items/1")), accept: nil) == nil)
    }

    @Test func theNewestRouteForARequestReplacesTheOlderAndABatchConflictAddsNothing() throws {
        let first = Route(fixture: route("/a", outcome: ok("one")), id: RouteID(.runtime, 1), order: 1)
        let second = Route(fixture: route("/a", outcome: ok("two")), id: RouteID(.runtime, 2), order: 2)
        let layer = try RuntimeLayer.empty.adding([first]).adding([second])
        #expect(layer.count == 1 && layer.routes[second.id] != nil)
        let clash = Route(fixture: route("/b", outcome: ok("x")), id: RouteID(.runtime, 3), order: 3)
        let other = Route(fixture: route("/b", outcome: ok("y")), id: RouteID(.runtime, 4), order: 4)
        #expect(throws: RouteTableError.self) { try layer.adding([clash, other]) }
        #expect(layer.count == 1)
    }

    @Test func aMissInALargeLayerIsExplainedByItsNeighbours() throws {
        let routes = (0..<5_000).map { Route(fixture: route("/users/\($0)/repos", outcome: ok("r")), id: RouteID(.runtime, $0 + 1), order: $0 + 1) }
        let layer = try RuntimeLayer.empty.adding(routes)
        let near = layer.nearMisses(RequestView(IncomingRequest(method: "GET", target: "/users/42/repoz")), limit: 3)
        #expect(near.count == 3)
        #expect(near.allSatisfy { $0.miss.route.pathText.hasPrefix("/users/") })
    }
}
