public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// How a target's request is built: every case of Moya 15's `Task`, with the same labels, so a
/// Moya target compiles unchanged.
public enum Task {
    /// No body, no extra query.
    case requestPlain
    /// The body is these bytes verbatim; Moya sets no Content-Type.
    case requestData(Data)
    /// The body is the value encoded with a default `JSONEncoder`; Content-Type `application/json`.
    case requestJSONEncodable(any Encodable)
    /// Like `requestJSONEncodable`, with the caller's encoder (key strategy, dates, formatting).
    case requestCustomJSONEncodable(any Encodable, encoder: JSONEncoder)
    /// Parameters applied by the given encoding (query or body, see `URLEncoding`/`JSONEncoding`).
    case requestParameters(parameters: [String: Any], encoding: any ParameterEncoding)
    /// Raw body plus URL-encoded query parameters.
    case requestCompositeData(bodyData: Data, urlParameters: [String: Any])
    /// Body parameters with `bodyEncoding` plus URL-encoded query parameters.
    case requestCompositeParameters(
        bodyParameters: [String: Any], bodyEncoding: any ParameterEncoding, urlParameters: [String: Any])
    /// Streams a file as the body (Alamofire `upload(file, with:)`).
    case uploadFile(URL)
    /// A multipart/form-data upload with a random boundary (Moya 15.0.x signature).
    case uploadMultipart([MultipartFormData])
    /// A multipart upload plus URL-encoded query parameters.
    case uploadCompositeMultipart([MultipartFormData], urlParameters: [String: Any])
    /// A download; nothing about the request changes.
    case downloadDestination(DownloadDestination)
    /// A download whose request carries parameters exactly as `requestParameters` would.
    case downloadParameters(parameters: [String: Any], encoding: any ParameterEncoding, destination: DownloadDestination)
}

/// Where a download is written, mirroring Alamofire's `DownloadRequest.Destination` shape.
///
/// stubd never downloads anything, so only the type matters: targets that declare a destination
/// keep compiling.
public typealias DownloadDestination =
    @Sendable (_ temporaryURL: URL, _ response: HTTPURLResponse) -> (destinationURL: URL, options: DownloadOptions)

/// Download destination options, mirroring Alamofire's `DownloadRequest.Options`.
public struct DownloadOptions: OptionSet, Sendable {
    /// Create intermediate directories for the destination URL.
    public static let createIntermediateDirectories = DownloadOptions(rawValue: 1 << 0)
    /// Remove a previous file at the destination URL.
    public static let removePreviousFile = DownloadOptions(rawValue: 1 << 1)
    /// The option bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
}
