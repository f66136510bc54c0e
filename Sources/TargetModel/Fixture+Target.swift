public import Foundation
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
    /// and the target's `sampleResponse` (or `sampleStream`) and `stubBehavior`. `.never` targets are answered at
    /// once, or nil when `options` omit them.
    public init?<T: TargetType>(target: T, options: TargetCompileOptions = TargetCompileOptions()) throws(TargetCompileError) {
        let name = TargetValues.name(of: target)
        let delay: Double?
        switch target.stubBehavior {
        case .never:
            guard options.never == .serve else { return nil }
            delay = nil
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
        let pattern = try RequestPattern(request: request, target: target, targetName: name)
        self.init(name: name, source: "swift \(T.self)", request: pattern,
                  outcome: target.sampleStream?.outcome ?? StubOutcome(sample: target.sampleResponse), delay: delay)
    }
}

extension RequestPattern {
    /// The pattern for a request built by Moya. The task decides what the body is: uploads are
    /// read (the file, or the multipart parts, compared with any boundary), and for multipart the
    /// Content-Type is left to the body pattern because Alamofire sets it with a random boundary.
    init<T: TargetType>(request: URLRequest, target: T, targetName: String) throws(TargetCompileError) {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw TargetCompileError(target: targetName, problem: "the request has no parsable URL")
        }
        let path = try RequestPattern.pathPattern(components.percentEncodedPath, target: target, targetName: targetName)
        let query = FormCoding.decodePairs(components.percentEncodedQuery ?? "")
        // Sorted by name: a dictionary's order changes from run to run, and exports must not.
        var headers = (request.allHTTPHeaderFields ?? [:]).map { NameValue($0.key, $0.value) }.sorted { $0.name < $1.name }
        let body: BodyPattern
        switch target.task {
        case .uploadFile(let file):
            do {
                body = .bytes([UInt8](try Data(contentsOf: file)))
            } catch {
                throw TargetCompileError(target: targetName, problem: "uploadFile \(file.path) cannot be read (\(error.localizedDescription))")
            }
        case .uploadMultipart(let parts), .uploadCompositeMultipart(let parts, _):
            do {
                body = .multipart(try MultipartEncoding.parts(parts))
            } catch {
                throw TargetCompileError(target: targetName, problem: "a multipart file cannot be read (\(error.localizedDescription))")
            }
            headers.removeAll { $0.name.lowercased() == "content-type" }
        default:
            body = BodyPattern(body: request.httpBody, contentType: request.value(forHTTPHeaderField: "Content-Type"))
        }
        self.init(method: request.httpMethod ?? "GET", path: path, query: query, headers: headers, body: body)
    }

    /// The literal path Moya built, or the target's `pathTemplate` placed on the same base URL.
    private static func pathPattern<T: TargetType>(_ rawPath: String, target: T, targetName: String) throws(TargetCompileError) -> PathPattern {
        guard let template = target.pathTemplate else { return .literal(PathSegments(raw: rawPath)) }
        let url = template.isEmpty ? target.baseURL : target.baseURL.appendingPathComponent(template)
        let raw = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? template
        switch PathTemplate.parse(raw) {
        case .success(let parsed):
            guard parsed.matches(PathSegments(raw: rawPath)) else {
                throw TargetCompileError(target: targetName, problem: "pathTemplate \"\(template)\" does not match the target's own path \(PathSegments(raw: rawPath)); make the template describe path")
            }
            return .template(parsed)
        case .failure(let problem):
            throw TargetCompileError(target: targetName, problem: "pathTemplate \"\(template)\" \(problem.message)")
        }
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
