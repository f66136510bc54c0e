import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// docs/MOYA.md's "point the app at stubd" recipe: the endpoint mapping lines a Moya app adds,
/// run on this package's Endpoint (Moya 15's API), then sent with URLSession to a real stubd.
@Suite(.tags(.socket)) struct PointingTests {
    struct Profile: TargetType {
        var server = "api.myserver.example"
        var baseURL: URL { URL(string: "https://\(server)/v1")! }
        var path: String { "me" }
        var method: TargetModel.Method { .get }
        var task: Task { .requestParameters(parameters: ["fields": "name"], encoding: URLEncoding.default) }
        var headers: [String: String]? { ["x-flag": "iOS"] }
        var sampleData: Data { Data(#"{"name":"\#(server)"}"#.utf8) }
    }

    /// The recipe's lines, with `defaultEndpointMapping(for:)` (MoyaProvider's) spelled as this
    /// package's `Endpoint(target:)`, which builds the same endpoint.
    static func pointed(_ target: Profile, environment: [String: String]) -> Endpoint {
        let endpoint = Endpoint(target: target)
        guard let stubd = environment["STUBD_BASE_URL"].flatMap(URL.init(string:)),
              var url = URLComponents(string: endpoint.url) else { return endpoint }
        let server = url.host ?? ""
        (url.scheme, url.host, url.port) = (stubd.scheme, stubd.host, stubd.port)
        return Endpoint(url: url.string!, sampleResponseClosure: endpoint.sampleResponseClosure,
                        method: endpoint.method, task: endpoint.task, httpHeaderFields: endpoint.httpHeaderFields)
            .adding(newHTTPHeaderFields: ["X-Stubd-Host": server].merging(environment["STUBD_SESSION"].map { ["X-Stubd-Session": $0] } ?? [:]) { $1 })
    }

    @Test func theRecipeKeepsTheBasePathAndQueryAndReachesTheStub() async throws {
        let legacy = Profile(server: "legacy.myserver.example")
        let server = try TestServer(targets: [Profile(), legacy])
        defer { server.stop() }
        let endpoint = Self.pointed(Profile(), environment: ["STUBD_BASE_URL": server.url(""), "STUBD_SESSION": "ui-test-1"])
        let request = try endpoint.urlRequest()
        #expect(request.url?.absoluteString == server.url("/v1/me?fields=name"))
        #expect(request.value(forHTTPHeaderField: "X-Stubd-Session") == "ui-test-1")
        let fetched = await HTTPFetch.send(request)
        #expect(fetched.status == 200)
        #expect(fetched.text == #"{"name":"api.myserver.example"}"#)
        // The same path on the other server: the header the recipe adds tells them apart.
        let other = await HTTPFetch.send(try Self.pointed(legacy, environment: ["STUBD_BASE_URL": server.url("")]).urlRequest())
        #expect(other.text == #"{"name":"legacy.myserver.example"}"#)
    }

    @Test func withoutTheVariableTheAppTalksToItsRealServer() throws {
        let endpoint = Self.pointed(Profile(), environment: [:])
        #expect(endpoint.url == "https://api.myserver.example/v1/me")
    }
}
