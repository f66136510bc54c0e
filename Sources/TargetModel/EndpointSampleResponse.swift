public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// What a stub answers, Moya's three cases.
public enum EndpointSampleResponse {
    /// A status and body. In-process Moya gives no headers at all; stubd sends only the headers
    /// HTTP needs (Content-Length, Date).
    case networkResponse(Int, Data)
    /// A full response: status and headers from the `HTTPURLResponse`, and the body.
    case response(HTTPURLResponse, Data)
    /// A failure. stubd turns the error code into a wire fault the client will report as a
    /// similar error (see `Fault` and docs/FAULTS.md).
    case networkError(NSError)
}
