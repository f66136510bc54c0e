package import Foundation
#if canImport(FoundationNetworking)
package import FoundationNetworking
#endif

/// A URLSession round trip: the response and body, or the error URLSession reported.
package struct Fetched {
    package let response: HTTPURLResponse?
    package let body: Data
    package let error: (any Error)?

    package var status: Int? { response?.statusCode }
    package var text: String { String(decoding: body, as: UTF8.self) }
    package var errorCode: Int? { (error as NSError?)?.code }
}

package enum HTTPFetch {
    /// An ephemeral session (no cookies, no cache) so tests never share state.
    package static func session(timeout: Double = 10) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }

    /// Sends `request` with URLSession and waits for the outcome.
    package static func send(_ request: URLRequest, timeout: Double = 10) async -> Fetched {
        let session = session(timeout: timeout)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            return Fetched(response: response as? HTTPURLResponse, body: data, error: nil)
        } catch {
            return Fetched(response: nil, body: Data(), error: error)
        }
    }

    package static func get(_ url: String, timeout: Double = 10) async -> Fetched {
        await send(URLRequest(url: URL(string: url)!), timeout: timeout)
    }
}
