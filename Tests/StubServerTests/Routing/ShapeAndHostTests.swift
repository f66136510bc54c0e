import Foundation
import Testing
import FixtureFiles
@testable import TargetModel
import TargetServing
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// The shape policy (any client's request for a target's endpoint) and host-distinguished
/// routes, socket-free: compiled tables and lookups.
@Suite(.tags(.inMemory)) struct ShapeAndHostTests {
    enum SearchAPI: TargetType {
        case search(String)
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { "search" }
        var method: TargetModel.Method { .get }
        var task: Task {
            guard case .search(let query) = self else { return .requestPlain }
            return .requestParameters(parameters: ["q": query], encoding: URLEncoding.default)
        }
        var headers: [String: String]? { ["x-flag": "iOS", "x-api-key": "k1"] }
        var requiredHeaders: Set<String> { ["X-Api-Key"] }
        var sampleData: Data {
            guard case .search(let query) = self else { return Data() }
            return Data(query.utf8)
        }
    }

    static func answer(_ table: RouteTable, _ target: String, headers: [NameValue] = [NameValue("x-api-key", "k1")]) -> String? {
        guard case .hit(let route) = table.lookup(IncomingRequest(method: "GET", target: target, headers: headers)),
              case .prepared(let reply) = route.outcome(forHit: 0) else { return nil }
        return String(decoding: reply.body, as: UTF8.self)
    }

    /// Two targets with one shape: each exact request reaches its own target, any other value
    /// reaches the first (its shape route is one priority lower), and the sharing is reported.
    @Test func theMoreSpecificAnswersFirstWhenTargetsShareAShape() throws {
        let targets: [any TargetType] = [SearchAPI.search("swift"), SearchAPI.search("kotlin")]
        let compiled = try CompiledTargets.compile(targets, options: TargetCompileOptions(match: .shape))
        #expect(compiled.sharedShapes.map(\.target) == [#"SearchAPI.search("kotlin")"#])
        let table = try RouteTable(fixtures: compiled.fixtures)
        #expect(Self.answer(table, "/search?q=swift") == "swift")
        #expect(Self.answer(table, "/search?q=kotlin") == "kotlin")
        #expect(Self.answer(table, "/search?q=rust") == "swift")
        // A required header keeps its value; the platform header is not compared.
        #expect(Self.answer(table, "/search?q=rust", headers: [NameValue("x-api-key", "other")]) == nil)
        #expect(Self.answer(table, "/search?q=rust", headers: [NameValue("x-api-key", "k1"), NameValue("x-flag", "Android")]) == "swift")
        #expect(Self.answer(table, "/search") == nil, "the parameter name is part of the shape")
    }

    @Test func exactStaysTheDefault() throws {
        let table = try RouteTable(targets: [SearchAPI.search("swift")])
        #expect(Self.answer(table, "/search?q=rust") == nil)
        #expect(Self.answer(table, "/search?q=swift", headers: [NameValue("x-api-key", "k1"), NameValue("x-flag", "iOS")]) == "swift")
    }

    /// Shape routes, `present` query values, `fields` bodies and hosts survive a write and a read.
    @Test func theFixtureFormatCarriesShapesAndHosts() throws {
        var pattern = RequestPattern(method: "POST", path: "/items", headers: [NameValue("Content-Type", "application/json")],
                                     body: .fields(["name", "qty"]))
        pattern.query.present = ["page"]
        pattern.host = "api.example.com"
        let fixture = Fixture(name: "items", source: "t", request: pattern, outcome: .response(StubHTTPResponse(status: 201, headers: [], body: [])))
        let text = FixtureWriter.text(for: [fixture])
        #expect(text.contains(#""page": {"#) && text.contains(#""present": true"#) && text.contains(#""fields": ["#))
        let read = try FixtureReader(file: "t") { path throws(FixtureReader.FixtureProblem) in throw .init(path) }.read(Array(text.utf8))
        #expect(read.first?.request == pattern)
        let table = try RouteTable(fixtures: read)
        let request = IncomingRequest(method: "POST", target: "/items?page=3", headers: [NameValue("Content-Type", "application/json; charset=utf-8")],
                                      body: Array(#"{"qty": 1, "name": "x"}"#.utf8))
        if case .hit = table.lookup(request) {} else { Issue.record("the shape route answers any values") }
    }

    @Test func aHostMustBeAHostName() throws {
        let json = #"{"request": {"method": "GET", "path": "/a", "host": "https://api.example.com/v1"}, "response": {}}"#
        #expect(throws: FixtureErrors.self) {
            try FixtureReader(file: "t") { path throws(FixtureReader.FixtureProblem) in throw .init(path) }.read(Array(json.utf8))
        }
    }

    struct NewOrder: Encodable { let itemID: Int; let quantity: Int }
    enum ShopAPI: TargetType {
        case item(id: Int)
        case review(item: Int, id: String)
        case placeOrder(NewOrder)
        var baseURL: URL { URL(string: "https://api.example.com/v2")! }
        var path: String {
            switch self {
            case .item(let id): return "items/\(id)"
            case .review(let item, let id): return "items/\(item)/reviews/\(id)"
            case .placeOrder: return "orders"
            }
        }
        var method: TargetModel.Method {
            if case .placeOrder = self { return .post }
            return .get
        }
        var task: Task {
            if case .placeOrder(let order) = self { return .requestJSONEncodable(order) }
            return .requestPlain
        }
        var headers: [String: String]? { nil }
        var sampleData: Data { Data("{}".utf8) }
    }

    /// Issue 59: under the shape policy (what `export` writes) path segments that are the case's
    /// values become `{label}`, so another platform's request for another id reaches the route;
    /// route names carry the case, not the app's module name.
    @Test func shapesTemplateThePathValuesOfACaseAndNameItWithoutModules() throws {
        let compiled = try CompiledTargets.compile([ShopAPI.item(id: 1), ShopAPI.review(item: 2, id: "r9"), ShopAPI.placeOrder(NewOrder(itemID: 1, quantity: 2))],
                                                   options: TargetCompileOptions(match: .shape))
        #expect(compiled.fixtures.map(\.request.path.description) == ["/v2/items/{id}", "/v2/items/{item}/reviews/{id}", "/v2/orders"])
        #expect(compiled.fixtures.map(\.name) == ["item(id: 1)", #"review(item: 2, id: "r9")"#, "placeOrder(NewOrder(itemID: 1, quantity: 2))"])
        let table = try RouteTable(fixtures: compiled.fixtures)
        #expect(Self.answer(table, "/v2/items/7", headers: []) == "{}")
        #expect(Self.answer(table, "/v2/items/3/reviews/abc", headers: []) == "{}")
        // Exact (the app's own requests, byte for byte) stays literal.
        let exact = try CompiledTargets.compile([ShopAPI.item(id: 1)], options: TargetCompileOptions(match: .exact))
        #expect(exact.fixtures.map(\.request.path.description) == ["/v2/items/1"])
        #expect(TargetValues.unqualified(#"placeOrder(stubd_targets.NewOrder(itemID: 1, note: "a.B"))"#) == #"placeOrder(NewOrder(itemID: 1, note: "a.B"))"#)
    }
}
