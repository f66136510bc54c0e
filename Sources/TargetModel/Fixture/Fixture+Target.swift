import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a target cannot become a stub.
public struct TargetCompileError: Error, CustomStringConvertible {
    /// The target, as `String(describing:)` prints it.
    public let target: String
    /// What went wrong and what to change.
    public let problem: String

    /// `target: problem`.
    public var description: String { "target \(target): \(problem)" }
}

extension Fixture {
    /// The stub a Moya target describes: the request Moya would send (via `Endpoint.urlRequest()`)
    /// and the target's `sampleResponse` and `stubBehavior`. Returns nil for `.never`.
    public init?<T: TargetType>(target: T) throws(TargetCompileError) {
        let name = String(describing: target)
        let delay: Double?
        switch target.stubBehavior {
        case .never: return nil
        case .immediate: delay = nil
        case .delayed(let seconds):
            guard seconds.isFinite, seconds >= 0 else {
                throw TargetCompileError(target: name, problem: "stubBehavior .delayed(seconds: \(seconds)) needs a finite, non-negative delay")
            }
            delay = seconds
        }
        let request: URLRequest
        do {
            request = try Endpoint(target: target).urlRequest()
        } catch {
            throw TargetCompileError(target: name, problem: "\(error)")
        }
        let pattern = try RequestPattern(request: request, task: target.task, targetName: name)
        self.init(name: name, source: "swift \(T.self)", request: pattern,
                  outcome: StubOutcome(sample: target.sampleResponse), delay: delay)
    }
}

extension RequestPattern {
    /// The pattern for a request built by Moya; the task decides whether the body is compared.
    init(request: URLRequest, task: Task, targetName: String) throws(TargetCompileError) {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw TargetCompileError(target: targetName, problem: "the request has no parsable URL")
        }
        let rawPath = components.percentEncodedPath
        let path = rawPath.isEmpty ? "/" : (rawPath.removingPercentEncoding ?? rawPath)
        let query = FormCoding.decodePairs(components.percentEncodedQuery ?? "")
        let headers = (request.allHTTPHeaderFields ?? [:]).map { NameValue($0.key, $0.value) }
        let body: BodyPattern
        switch task {
        case .uploadFile, .uploadMultipart, .uploadCompositeMultipart:
            body = .any
        default:
            body = BodyPattern(body: request.httpBody, contentType: request.value(forHTTPHeaderField: "Content-Type"))
        }
        self.init(method: request.httpMethod ?? "GET", path: path, query: query, headers: headers, body: body)
    }
}

extension BodyPattern {
    /// How a body the client will send should be compared, judged by its Content-Type: JSON by
    /// meaning, forms as pairs, anything else byte for byte. No body means "not checked".
    public init(body: Data?, contentType: String?) {
        guard let body else { self = .any; return }
        let bytes = [UInt8](body)
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/json") || type.hasSuffix("+json"), let json = try? JSONParser.parse(bytes) {
            self = .json(json)
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            self = .form(FormCoding.decodePairs(String(decoding: bytes, as: UTF8.self)))
        } else {
            self = .bytes(bytes)
        }
    }
}

extension StubOutcome {
    /// Moya's sample response as a stub outcome. `.response` keeps the HTTPURLResponse's headers
    /// (sorted by name, since `allHeaderFields` has no order) minus the framing headers the server
    /// computes itself (Content-Length, Transfer-Encoding, Connection).
    public init(sample: EndpointSampleResponse) {
        switch sample {
        case .networkResponse(let status, let data):
            self = .response(StubHTTPResponse(status: status, headers: [], body: [UInt8](data)))
        case .response(let response, let data):
            let framing: Set<String> = ["content-length", "transfer-encoding", "connection"]
            let headers = response.allHeaderFields.compactMap { key, value -> NameValue? in
                let name = "\(key)"
                return framing.contains(name.lowercased()) ? nil : NameValue(name, "\(value)")
            }.sorted()
            self = .response(StubHTTPResponse(status: response.statusCode, headers: headers, body: [UInt8](data)))
        case .networkError(let error):
            self = .networkError(domain: error.domain, code: error.code)
        }
    }
}
