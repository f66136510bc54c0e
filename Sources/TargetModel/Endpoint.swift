// URLRequest is Foundation's on Darwin and FoundationNetworking's on Linux: the public import is
// the module that declares it.
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A target resolved to a URL string, headers and task, as Moya's `Endpoint`; `urlRequest()`
/// builds the exact request a Moya client sends (before the session adds its own headers).
open class Endpoint {
    /// Produces the stub answer lazily, as Moya does.
    public typealias SampleResponseClosure = () -> EndpointSampleResponse

    /// The absolute URL string (`URL(target:).absoluteString` by default).
    public let url: String
    /// The stub answer.
    public let sampleResponseClosure: SampleResponseClosure
    /// The HTTP method.
    public let method: Method
    /// How the request is built.
    public let task: Task
    /// The request headers.
    public let httpHeaderFields: [String: String]?

    /// Creates an endpoint; the labels are Moya's.
    public init(url: String, sampleResponseClosure: @escaping SampleResponseClosure, method: Method,
                task: Task, httpHeaderFields: [String: String]?) {
        self.url = url
        self.sampleResponseClosure = sampleResponseClosure
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
    }

    /// Moya's `defaultEndpointMapping(for:)`, except that the answer is the target's
    /// `sampleResponse` (which defaults to `.networkResponse(200, sampleData)`).
    public convenience init<T: TargetType>(target: T) {
        self.init(url: URL(target: target).absoluteString,
                  sampleResponseClosure: { target.sampleResponse },
                  method: target.method, task: target.task, httpHeaderFields: target.headers)
    }

    /// A copy with headers merged in; new values win for the same (exact-case) name.
    open func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
        Endpoint(url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
                 httpHeaderFields: add(httpHeaderFields: newHTTPHeaderFields))
    }

    /// A copy with another task.
    open func replacing(task: Task) -> Endpoint {
        Endpoint(url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
                 httpHeaderFields: httpHeaderFields)
    }

    fileprivate func add(httpHeaderFields headers: [String: String]?) -> [String: String]? {
        guard let unwrappedHeaders = headers, !unwrappedHeaders.isEmpty else { return self.httpHeaderFields }
        var newHTTPHeaderFields = self.httpHeaderFields ?? [:]
        unwrappedHeaders.forEach { key, value in newHTTPHeaderFields[key] = value }
        return newHTTPHeaderFields
    }

    /// The request Moya would send: URL, method, headers and body per task.
    ///
    /// Deviation: where Moya calls `fatalError` (`requestCompositeParameters` with a URLEncoding
    /// that is not `.httpBody`) this throws `MoyaError.parameterEncoding`, so a server can say
    /// which target is wrong instead of crashing.
    public func urlRequest() throws -> URLRequest {
        guard let requestURL = Foundation.URL(string: url) else {
            throw MoyaError.requestMapping(url)
        }
        var request = URLRequest(url: requestURL)
        request.httpMethod = method.rawValue
        request.allHTTPHeaderFields = httpHeaderFields

        switch task {
        case .requestPlain, .uploadFile, .uploadMultipart, .downloadDestination:
            return request
        case .requestData(let data):
            request.httpBody = data
            return request
        case .requestJSONEncodable(let encodable):
            return try request.encoded(encodable: encodable)
        case .requestCustomJSONEncodable(let encodable, let encoder):
            return try request.encoded(encodable: encodable, encoder: encoder)
        case .requestParameters(let parameters, let encoding):
            return try request.encoded(parameters: parameters, parameterEncoding: encoding)
        case .uploadCompositeMultipart(_, let urlParameters):
            return try request.encoded(parameters: urlParameters, parameterEncoding: URLEncoding(destination: .queryString))
        case .downloadParameters(let parameters, let encoding, _):
            return try request.encoded(parameters: parameters, parameterEncoding: encoding)
        case .requestCompositeData(let bodyData, let urlParameters):
            request.httpBody = bodyData
            return try request.encoded(parameters: urlParameters, parameterEncoding: URLEncoding(destination: .queryString))
        case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            if let urlEncoding = bodyEncoding as? URLEncoding, urlEncoding.destination != .httpBody {
                throw MoyaError.parameterEncoding(ParameterEncodingError.compositeBodyEncodingNotHTTPBody)
            }
            let withBody = try request.encoded(parameters: bodyParameters, parameterEncoding: bodyEncoding)
            return try withBody.encoded(parameters: urlParameters, parameterEncoding: URLEncoding(destination: .queryString))
        }
    }
}

extension URLRequest {
    fileprivate func encoded(encodable: any Encodable, encoder: JSONEncoder = JSONEncoder()) throws -> URLRequest {
        do {
            var request = self
            request.httpBody = try encoder.encode(encodable)
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            return request
        } catch {
            throw MoyaError.encodableMapping(error)
        }
    }

    fileprivate func encoded(parameters: [String: Any], parameterEncoding: any ParameterEncoding) throws -> URLRequest {
        do {
            return try parameterEncoding.encode(self, with: parameters)
        } catch {
            throw MoyaError.parameterEncoding(error)
        }
    }
}
