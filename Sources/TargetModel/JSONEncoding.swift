public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Alamofire 5's `JSONEncoding`: `JSONSerialization` bytes as the body, `application/json` only
/// when no Content-Type is set.
public struct JSONEncoding: ParameterEncoding {
    /// No writing options: unsorted keys, `/` escaped as `\/`.
    public static var `default`: JSONEncoding { JSONEncoding() }
    /// Two-space indented output.
    public static var prettyPrinted: JSONEncoding { JSONEncoding(options: .prettyPrinted) }

    /// The options handed to `JSONSerialization`.
    public let options: JSONSerialization.WritingOptions

    /// Creates an encoding with `JSONSerialization` writing options.
    public init(options: JSONSerialization.WritingOptions = []) {
        self.options = options
    }

    /// Writes the parameters as the JSON body; `nil` leaves the request untouched.
    public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var request = try urlRequest.asURLRequest()
        guard let parameters else { return request }
        guard JSONSerialization.isValidJSONObject(parameters) else {
            throw ParameterEncodingError.invalidJSONObject
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: parameters, options: options)
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            request.httpBody = data
        } catch {
            throw ParameterEncodingError.jsonEncodingFailed(error)
        }
        return request
    }
}
