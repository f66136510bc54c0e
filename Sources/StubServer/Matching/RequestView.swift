import StubModel

/// A request as the matchers see it: path key and query decoded once per lookup, the decoded
/// path and the parsed body (JSON, form pairs, multipart parts) computed on first use and then
/// shared by every candidate route, so no body is parsed twice for one request.
///
/// Confined to the lookup that made it (one event-loop thread).
final class RequestView {
    let request: IncomingRequest
    /// The canonical path key (see `PathSegments.key`), what exact routes are hashed on.
    let pathKey: String
    /// The decoded query pairs, sorted (compared as a multiset).
    let query: [NameValue]
    /// Hides secret values in explanations (near-miss reports end up in logs and the journal).
    let redactor: Redactor

    init(_ request: IncomingRequest, redactor: Redactor = .off) {
        self.request = request
        self.redactor = redactor
        self.pathKey = PathSegments.key(raw: request.rawPath)
        if let rawQuery = request.rawQuery, !rawQuery.isEmpty {
            self.query = FormCoding.decodePairs(rawQuery).sorted()
        } else {
            self.query = []
        }
    }

    /// The decoded path segments (templates and near misses only).
    lazy var path = PathSegments(raw: request.rawPath)

    /// The body parsed as JSON, or nil when it is not JSON.
    lazy var json: JSONValue? = try? JSONParser.parse(request.body)

    /// The body's form pairs, sorted.
    lazy var form: [NameValue] = FormCoding.decodePairs(String(decoding: request.body, as: UTF8.self)).sorted()

    /// The body split into multipart parts with the boundary its Content-Type names.
    lazy var multipart: MultipartBody = {
        guard let contentType = request.header("Content-Type"),
              let boundary = MultipartEncoding.boundary(fromContentType: contentType) else {
            return .noBoundary(contentType: request.header("Content-Type"))
        }
        guard let parts = MultipartEncoding.parse(request.body, boundary: boundary) else { return .malformed(boundary: boundary) }
        return .parts(parts)
    }()

    /// What a request's multipart body turned out to be.
    enum MultipartBody {
        case parts([MultipartPart])
        case noBoundary(contentType: String?)
        case malformed(boundary: String)
    }
}
