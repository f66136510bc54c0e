import Foundation
package import StubModel
package import StubdEngine
package import Recording

/// A request as the matchers see it: path key and query decoded once per lookup, the decoded
/// path and the parsed body (JSON, form pairs, multipart parts) computed on first use and then
/// shared by every candidate route, so no body is parsed twice for one request.
///
/// Confined to the lookup that made it (one event-loop thread).
package final class RequestView {
    package let request: IncomingRequest
    /// The canonical path key (see `PathSegments.key`), what exact routes are hashed on.
    package let pathKey: String
    /// The decoded query pairs, sorted (compared as a multiset), `+` read as a space.
    let query: [NameValue]
    /// The same with `+` read as a plus; nil when the query has no `+`.
    let literalQuery: [NameValue]?
    /// Hides secret values in explanations (near-miss reports end up in logs and the journal).
    let redactor: Redactor
    /// The time this request's regular expressions may take, across every candidate route
    /// (made on first use: most requests meet no regex).
    lazy var regexBudget = RegexBudget()

    /// The server the request is for (`IncomingRequest.server`), when it is one some route stands for;
    /// nil otherwise, and then routes' hosts are not compared.
    let knownHost: String?

    package init(_ request: IncomingRequest, redactor: Redactor = .off, knownHosts: Set<String> = []) {
        self.request = request
        self.redactor = redactor
        if knownHosts.isEmpty {
            knownHost = nil
        } else {
            knownHost = request.server.flatMap { knownHosts.contains($0) ? $0 : nil }
        }
        self.pathKey = PathSegments.key(raw: request.rawPath)
        if let rawQuery = request.rawQuery, !rawQuery.isEmpty {
            self.query = FormCoding.decodePairs(rawQuery).sorted()
            self.literalQuery = FormCoding.hasPlus(rawQuery) ? FormCoding.decodePairs(rawQuery, plusIsSpace: false).sorted() : nil
        } else {
            self.query = []
            self.literalQuery = nil
        }
    }

    /// Body bytes a near-miss report compares: past them a route's body pattern is reported as
    /// "not compared", so one large request cannot hold a loop while a 404 explains it.
    static let explainLimit = 64 * 1024

    /// Whether the body is past `explainLimit`.
    var bodyTooLargeToExplain: Bool { body.count > Self.explainLimit }

    /// A request body may decode to at most this many bytes (the request body limit): a
    /// compressed bomb is matched as the bytes it arrived as, and its near miss says why.
    static let decodedBodyLimit = 32 << 20

    /// The body the matchers compare: decoded when it came with `Content-Encoding: gzip` or
    /// `deflate` (OkHttp's gzip interceptor, Alamofire's `DeflateRequestCompressor`, analytics
    /// SDKs), as the app wrote it; else the bytes as sent.
    lazy var body: [UInt8] = {
        guard case .decoded(let bytes, _) = bodyDecoding else { return request.body }
        return bytes
    }()

    /// What `Content-Encoding` did to the body, for matching and near misses.
    enum BodyDecoding {
        /// No coding (or `identity`).
        case none
        /// Decoded from these codings.
        case decoded([UInt8], codings: String)
        /// Not decoded: an unknown coding, bytes that are not valid for it, or more than
        /// `decodedBodyLimit` once decoded.
        case undecodable(codings: String)
    }

    lazy var bodyDecoding: BodyDecoding = {
        guard let header = request.header("Content-Encoding")?.trimmingCharacters(in: .whitespaces), !header.isEmpty,
              header.lowercased() != "identity", !request.body.isEmpty else { return .none }
        var bytes = request.body
        // Codings are listed in the order applied: undone last first.
        for coding in header.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }).reversed() {
            guard let decoded = ContentDecoding.decode(bytes, encoding: coding, limit: Self.decodedBodyLimit) else { return .undecodable(codings: header) }
            bytes = decoded
        }
        return .decoded(bytes, codings: header)
    }()

    /// The body's top-level field names, sorted and unique: a JSON object's keys, else multipart
    /// part names, else form names; nil for a body with none of these.
    lazy var fieldNames: [String]? = {
        if case .object(let members)? = json { return Array(Set(members.map(\.key))).sorted() }
        if case .parts(let parts) = multipart { return Array(Set(parts.map(\.name))).sorted() }
        guard !body.isEmpty, json == nil else { return nil }
        return Array(Set(form.map(\.name))).sorted()
    }()

    /// The cookies of the `Cookie` header(s), in order (cookie matchers only).
    lazy var cookies: [NameValue] = NameValue.cookies(in: request.headers)

    /// The decoded path segments (templates and near misses only).
    package lazy var path = PathSegments(raw: request.rawPath)

    /// The body parsed as JSON, or nil when it is not JSON.
    lazy var json: JSONValue? = try? JSONParser.parse(body)

    /// The GraphQL request it carries (POST JSON or `application/graphql` body, or GET query), read
    /// once; nil when none.
    lazy var graphQL: GraphQLRequest? = GraphQLRequest.read(method: request.method, query: query, contentType: request.header("Content-Type"),
                                                            body: body, json: request.method == "GET" ? nil : json)

    /// The body's form pairs, sorted.
    lazy var form: [NameValue] = FormCoding.decodePairs(String(decoding: body, as: UTF8.self)).sorted()

    /// The form pairs with `+` read as a plus — nil when the body has no `+`: the second reading
    /// a fixture written before `+` meant a space still matches.
    lazy var literalForm: [NameValue]? = body.contains(UInt8(ascii: "+"))
        ? FormCoding.decodePairs(String(decoding: body, as: UTF8.self), plusIsSpace: false).sorted() : nil

    /// What the body is when it is JSON or multipart, not a form (`a JSON body`, `a multipart
    /// body`), or nil when it may be read as form pairs (whose values the redactor hides by name).
    var bodyKindOtherThanForm: String? {
        let type = request.header("Content-Type").flatMap { MediaType($0)?.essence }
        if type == "application/x-www-form-urlencoded" { return nil }
        if type?.hasPrefix("multipart/") == true || body.starts(with: Array("--".utf8)) { return "a multipart body" }
        if type?.contains("json") == true || Redactor.looksLikeJSON(body) { return "a JSON body" }
        return nil
    }

    /// The body split into multipart parts with the boundary its Content-Type names.
    lazy var multipart: MultipartBody = {
        guard let contentType = request.header("Content-Type"),
              let boundary = MultipartEncoding.boundary(fromContentType: contentType) else {
            return .noBoundary(contentType: request.header("Content-Type"))
        }
        guard let parts = MultipartEncoding.parse(body, boundary: boundary) else { return .malformed(boundary: boundary) }
        return .parts(parts)
    }()

    /// What a request's multipart body turned out to be.
    enum MultipartBody {
        case parts([MultipartPart])
        case noBoundary(contentType: String?)
        case malformed(boundary: String)
    }
}
