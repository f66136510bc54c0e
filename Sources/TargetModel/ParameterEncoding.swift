// URLRequest is Foundation's on Darwin and FoundationNetworking's on Linux: the public import is
// the module that declares it.
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A dictionary of request parameters, as Alamofire spells it.
public typealias Parameters = [String: Any]

/// Anything that can become a `URLRequest`; lets custom encodings written for Alamofire compile.
public protocol URLRequestConvertible {
    /// The request, or an error saying why it cannot be built.
    func asURLRequest() throws -> URLRequest
}

extension URLRequest: URLRequestConvertible {
    /// A request is already a request.
    public func asURLRequest() throws -> URLRequest { self }
}

/// Applies parameters to a request (query, body or both), Alamofire's `ParameterEncoding`.
///
/// Implement it for a custom encoding; stubd matches whatever request it produces.
public protocol ParameterEncoding {
    /// Returns `urlRequest` with `parameters` applied.
    func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest
}

/// Why an encoding could not apply its parameters.
public enum ParameterEncodingError: Error, CustomStringConvertible {
    /// The request had no URL to put a query on.
    case missingURL
    /// `JSONSerialization` refused the parameters (a value that is not JSON: a Date, a struct…).
    case invalidJSONObject
    /// `JSONSerialization` threw.
    case jsonEncodingFailed(any Error)
    /// `requestCompositeParameters` was given a URLEncoding that does not write the body.
    case compositeBodyEncodingNotHTTPBody

    /// A sentence that says what to fix.
    public var description: String {
        switch self {
        case .missingURL: return "the request has no URL to add query parameters to"
        case .invalidJSONObject: return "the parameters are not a valid JSON object; use strings, numbers, bools, arrays, dictionaries and NSNull"
        case .jsonEncodingFailed(let error): return "JSON serialisation failed: \(error)"
        case .compositeBodyEncodingNotHTTPBody:
            return "requestCompositeParameters needs bodyEncoding URLEncoding.httpBody (Moya crashes on any other URLEncoding)"
        }
    }
}
