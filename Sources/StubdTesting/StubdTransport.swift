public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the kit's admin calls reach stubd: over HTTP (`URLSessionTransport`, what an app's tests
/// use), or — for the kit's own tests — handed to a stubd served in memory.
public protocol StubdTransport: Sendable {
    /// Sends one admin call; returns the status and body.
    func send(_ call: StubdTransport.Call) async throws -> (status: Int, body: [UInt8])
}

extension StubdTransport {
    /// One admin call as the kit sends it.
    public typealias Call = StubdTransportCall
}

/// One admin call: method, path and query under the server's base URL, headers, body.
public struct StubdTransportCall: Sendable {
    /// `GET`, `POST`, …
    public let method: String
    /// The whole URL (`http://127.0.0.1:8080/__stubd/requests/count?path=/zen`).
    public let url: URL
    /// `X-Stubd-Session`, `Authorization`, `Content-Type`, as set.
    public let headers: [(name: String, value: String)]
    /// The JSON body, if any.
    public let body: [UInt8]?
    /// Seconds the call may take.
    public let timeout: TimeInterval
}

/// The kit's transport over HTTP with an ephemeral `URLSession` per call (no cookies, no cache).
public struct URLSessionTransport: StubdTransport {
    /// The transport.
    public init() {}

    /// Sends `call` with URLSession and returns the status and body.
    public func send(_ call: StubdTransportCall) async throws -> (status: Int, body: [UInt8]) {
        var request = URLRequest(url: call.url)
        request.httpMethod = call.method
        request.timeoutInterval = call.timeout
        for header in call.headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        if let body = call.body { request.httpBody = Data(body) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = call.timeout
        configuration.timeoutIntervalForResource = call.timeout
        let urlSession = URLSession(configuration: configuration)
        defer { urlSession.finishTasksAndInvalidate() }
        let (data, response) = try await urlSession.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, [UInt8](data))
    }
}
