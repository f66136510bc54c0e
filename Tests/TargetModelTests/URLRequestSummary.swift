import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The parts of a URLRequest the vectors assert: absolute URL, method, headers, body text.
struct URLRequestSummary {
    let url: String
    let method: String
    let headers: [String: String]
    let body: String?

    init(_ request: URLRequest) {
        url = request.url?.absoluteString ?? ""
        method = request.httpMethod ?? ""
        headers = request.allHTTPHeaderFields ?? [:]
        body = request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }
}
