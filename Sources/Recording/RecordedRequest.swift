import StubModel

/// A proxied request as a recorded fixture matches it: method, exact path, query as a multiset,
/// body by meaning (JSON, form, multipart parts, else bytes) — the rules serving uses — with
/// every secret value redacted. A redacted query parameter becomes `{"present": true}` and a
/// redacted JSON or form field is listed in `anyValueFor`, so the fixture answers the same
/// request with any credential, and two requests that differ only by a token are one fixture.
/// A secret value that also appears elsewhere (`SecretValues`) is scrubbed there too: a path
/// segment holding it becomes a `{redacted}` template parameter, a query value holding it is
/// matched as present.
struct RecordedRequest: Hashable {
    /// What the fixture matches; also the identity of a recorded fixture.
    let pattern: RequestPattern
    /// Names whose values were replaced (never the values).
    let redactedNames: Set<String>
    /// `GET /users/octocat?page=2` with secret values replaced, for log lines.
    let display: String
    /// The path as names and logs may show it (secret values replaced).
    let shownPath: String
    /// The secret values the request carried, for scrubbing its answer.
    let secrets: SecretValues

    static func == (lhs: RecordedRequest, rhs: RecordedRequest) -> Bool { lhs.pattern == rhs.pattern }
    func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    init(_ request: CapturedRequest, redactor: Redactor, known: SecretValues = SecretValues()) {
        var secrets = SecretValues(request: request, redactor: redactor)
        if redactor.enabled { secrets.formUnion(known) }
        var redacted = Set<String>()
        var query: [NameValue] = []
        var present: [String] = []
        for pair in FormCoding.decodePairs(request.rawQuery ?? "") {
            if redactor.isSecret(pair.name) || secrets.occurs(in: pair.value) {
                redacted.insert(pair.name)
                present.append(pair.name)
            } else {
                query.append(pair)
            }
        }
        let (body, anyValueFor) = Self.body(of: request, redactor: redactor, redacted: &redacted)
        let (path, shownPath) = Self.path(request.rawPath, secrets: secrets)
        var pattern = RequestPattern(method: request.method, path: path, query: query)
        pattern.query.present = Array(Set(present)).sorted()
        // A capture's parameters identify the call; others the app adds on a later run
        // (cache-busters, analytics, a timestamp) should not make the replay miss. A route that
        // names more parameters wins over one naming fewer (`Precedence`).
        pattern.query.othersAllowed = true
        pattern.body = BodyRule(body, anyValueFor: anyValueFor)
        if let host = request.host { pattern.host = host }
        self.pattern = pattern
        self.redactedNames = redacted
        self.secrets = secrets
        self.shownPath = shownPath
        let shownQuery = request.rawQuery.map { "?" + secrets.scrub(redactor.query($0)) } ?? ""
        self.display = "\(request.method) \(request.host ?? "")\(shownPath)\(shownQuery)"
    }

    /// The path as matched — a template with a `{redacted}` parameter for each segment holding
    /// a secret value — and as shown.
    static func path(_ raw: String, secrets: SecretValues) -> (PathPattern, String) {
        let literal = PathPattern.literal(PathSegments(raw: raw))
        guard !secrets.isEmpty, secrets.occurs(in: raw) || secrets.occurs(in: PathSegments(raw: raw).description) else { return (literal, raw) }
        var count = 0
        var template: [String] = []
        var shown: [String] = []
        for segment in raw.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if !segment.isEmpty && (secrets.occurs(in: segment) || secrets.occurs(in: FormCoding.decode(Substring(segment)))) {
                count += 1
                template.append("{redacted\(count == 1 ? "" : String(count))}")
                shown.append(Redactor.placeholder)
            } else {
                template.append(segment)
                shown.append(segment)
            }
        }
        guard case .success(let parsed) = PathTemplate.parse(template.joined(separator: "/")) else { return (literal, secrets.scrub(raw)) }
        return (.template(parsed), shown.joined(separator: "/"))
    }

    private static func body(of request: CapturedRequest, redactor: Redactor, redacted: inout Set<String>) -> (BodyPattern, [String]) {
        let bytes = request.body
        guard !bytes.isEmpty else { return (.any, []) }
        let sentType = request.header("Content-Type") ?? ""
        let contentType = sentType.lowercased()
        // The boundary as sent: it is case-sensitive (`----WebKitFormBoundaryAbC`).
        if contentType.hasPrefix("multipart/form-data"), let boundary = MultipartEncoding.boundary(fromContentType: sentType),
           let parts = MultipartEncoding.parse(bytes, boundary: boundary) {
            let secret = parts.map(\.name).filter(redactor.isSecret)
            guard secret.isEmpty else {
                // Part bytes cannot be matched "with any value": keep the shape (the part names).
                redacted.formUnion(secret)
                return (.fields(Array(Set(parts.map(\.name))).sorted()), [])
            }
            return (.multipart(parts), [])
        }
        if contentType.hasPrefix("multipart/") {
            // A multipart body stubd cannot split may hold a password part it cannot find: not
            // stored; the recorded route accepts any body.
            return (.any, [])
        }
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            let pairs = FormCoding.decodePairs(String(decoding: bytes, as: UTF8.self))
            let secret = Set(pairs.map(\.name).filter(redactor.isSecret))
            redacted.formUnion(secret)
            return (.form(redactor.pairs(pairs)), secret.sorted())
        }
        if let json = try? JSONParser.parse(bytes), contentType.contains("json") || json.isContainer {
            let secret = SecretNames.inJSON(json, redactor: redactor)
            redacted.formUnion(secret)
            return (.json(redactor.json(json)), secret.sorted())
        }
        return (.bytes(bytes), [])
    }
}

/// Where secret names occur in a document, so reports and matchers can list them.
enum SecretNames {
    /// The secret member names anywhere in `value`.
    static func inJSON(_ value: JSONValue, redactor: Redactor) -> Set<String> {
        switch value {
        case .object(let members):
            return members.reduce(into: Set<String>()) { found, member in
                if redactor.isSecret(member.key) { found.insert(member.key) } else { found.formUnion(inJSON(member.value, redactor: redactor)) }
            }
        case .array(let items):
            return items.reduce(into: Set<String>()) { $0.formUnion(inJSON($1, redactor: redactor)) }
        default:
            return []
        }
    }
}

extension JSONValue {
    /// An object or an array (a document a body would be), not a bare scalar.
    var isContainer: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }
}
