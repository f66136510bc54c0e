import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdTesting
import TargetModel
import Testing
import StubdTestTags

/// Fifty tests in parallel on one stubd, each stubbing the same target with its own answer, each
/// seeing only its own — what in-process `URLProtocol` stubs cannot do (their registry is global),
/// so teams turn Swift Testing's parallelism off. Each test uses its session's `URLSession` and
/// `request(for:)`, nothing shared.
@Suite(.tags(.socket)) struct ParallelSessionTests {
    static let shared = try! KitServer()

    @Test(arguments: 0..<50) func eachParallelTestSeesOnlyItsOwnStub(number: Int) async throws {
        let session = try await Stubd.session(baseURL: Self.shared.url)
        try await session.stub(UserAPI.profile, .response(200 + number % 3, "test \(number)"))
        let urlSession = session.makeURLSession()
        defer { urlSession.finishTasksAndInvalidate() }
        for _ in 0..<3 {
            let (data, response) = try await urlSession.data(for: try session.request(for: UserAPI.profile))
            #expect(String(decoding: data, as: UTF8.self) == "test \(number)")
            #expect((response as? HTTPURLResponse)?.statusCode == 200 + number % 3)
        }
        try await session.expect(UserAPI.profile, count: 3)
        try await session.verifyStrict()
        try await session.end()
    }

    /// The configuration alone carries the session: a request addressed to stubd by hand belongs to it.
    @Test func theConfigurationCarriesTheSession() async throws {
        let session = try await Stubd.session(baseURL: Self.shared.url)
        try await session.stub(UserAPI.profile, .response(202, "mine"))
        let urlSession = session.makeURLSession()
        defer { urlSession.finishTasksAndInvalidate() }
        var request = URLRequest(url: Self.shared.url.appendingPathComponent("v2/me"))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, _) = try await urlSession.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "mine")
        try await session.end()
    }

    /// A provider's `endpointClosure` with `pointing(_:)` (what a unit test writes with real Moya;
    /// here stubd's own `Endpoint`, whose API is Moya's): the target's request, in this session.
    @Test func anEndpointClosurePointsAProviderAtTheSession() async throws {
        let session = try await Stubd.session(baseURL: Self.shared.url)
        try await session.stub(UserAPI.search(query: "swift", page: 2), .response(200, "found"))
        let endpointClosure = { (target: UserAPI) -> Endpoint in
            let endpoint = Endpoint(target: target)
            let pointed = session.pointing(endpoint.url)
            return Endpoint(url: pointed.url, sampleResponseClosure: endpoint.sampleResponseClosure, method: endpoint.method,
                            task: endpoint.task, httpHeaderFields: endpoint.httpHeaderFields).adding(newHTTPHeaderFields: pointed.headers)
        }
        let request = try endpointClosure(.search(query: "swift", page: 2)).urlRequest()
        #expect(request.url?.path == "/v2/search" && request.url?.host == Self.shared.url.host && request.url?.query?.contains("q=swift") == true)
        #expect(request.value(forHTTPHeaderField: "X-Stubd-Host") == "api.example.com")
        let (data, _) = try await URLSession.shared.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "found")
        try await session.expect(UserAPI.search(query: "swift", page: 2), count: 1)
        try await session.end()
    }
}
