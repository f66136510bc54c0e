import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MyShop
import StubdTesting
import Testing

/// Each test opens its own session on the stubd the kit found or started.
struct ShopTests {
    @Test func theListComesFromItsSampleData() async throws {
        let session = try await Stubd.session()
        try await session.stub(ShopAPI.products(page: 1))
        let urlSession = session.makeURLSession()
        defer { urlSession.finishTasksAndInvalidate() }
        let (data, response) = try await urlSession.data(for: try session.request(for: ShopAPI.products(page: 1)))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"[{"id":7,"name":"milk"}]"#)
        try await session.end()
    }

    @Test func aMissingProductIsA404() async throws {
        let session = try await Stubd.session()
        try await session.stub(ShopAPI.product(id: 9), .response(404, #"{"error":"no such product"}"#))
        let urlSession = session.makeURLSession()
        defer { urlSession.finishTasksAndInvalidate() }
        let (_, response) = try await urlSession.data(for: try session.request(for: ShopAPI.product(id: 9)))
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        try await session.expect(ShopAPI.product(id: 9), count: 1)
        try await session.end()
    }

    /// A timeout stubbed as Moya's `.networkError` fails the request with `NSURLErrorTimedOut`
    /// within the kit's 2 s (URLSession's own default would wait 60).
    @Test func aTimeoutStubFailsWithinTwoSeconds() async throws {
        let session = try await Stubd.session()
        try await session.stub(ShopAPI.products(page: 1), .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)))
        let urlSession = session.makeURLSession()
        defer { urlSession.finishTasksAndInvalidate() }
        let started = Date()
        do {
            _ = try await urlSession.data(for: try session.request(for: ShopAPI.products(page: 1)))
            Issue.record("the request succeeded")
        } catch {
            #expect((error as NSError).code == NSURLErrorTimedOut, "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 3, "waited \(Date().timeIntervalSince(started)) s")
        try await session.end()
    }
}
