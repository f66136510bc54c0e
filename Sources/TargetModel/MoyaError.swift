import Foundation

/// Errors raised while turning a target into a request, with Moya's case names.
///
/// Only the request-building cases exist here: response mapping happens in the client, not in a
/// stub server.
public enum MoyaError: Error, CustomStringConvertible {
    /// The endpoint URL string could not be parsed.
    case requestMapping(String)
    /// A `ParameterEncoding` threw.
    case parameterEncoding(any Error)
    /// An `Encodable` body could not be encoded.
    case encodableMapping(any Error)

    /// A sentence that says what to fix.
    public var description: String {
        switch self {
        case .requestMapping(let url):
            return "the URL \"\(url)\" cannot be parsed; check the target's baseURL and path"
        case .parameterEncoding(let error):
            return "the parameters cannot be encoded (\(error)); use JSON-compatible values for JSONEncoding"
        case .encodableMapping(let error):
            return "the Encodable body cannot be encoded (\(error)); check for non-finite numbers or throwing encode(to:)"
        }
    }
}
