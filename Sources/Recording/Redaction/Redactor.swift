public import StubModel

/// Decides which names carry secrets and replaces their values with a fixed placeholder, so the
/// journal (admin output, log lines, near-miss reports) — and later recorded fixtures — never
/// show a credential unless the user asked for it (`--journal-secrets`).
///
/// Names are read as words (split at `_`, `-`, `.`, spaces and camelCase humps: `refreshToken`,
/// `X-Api-Key`, `client_secret`). A name is secret when it is a well-known credential header, when
/// any word is a credential noun (`password`, `secret`, …), or when its last word — the thing the
/// name is, skipping a final `id` — is a credential kind (`token`, `key`, `session`, …):
/// `access_token`, `apiKey`, `session_id`, `password_confirmation` are secret; `token_type`,
/// `token_type_hint`, `keys_url`, `key1`, `monkey`, `keyboard`, `expires_in` are not.
public struct Redactor: Sendable {
    /// What every secret value becomes.
    public static let placeholder = "[redacted]"

    /// Names redacted whatever they contain (lower-case).
    public static let secretNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "jsessionid", "phpsessid",
    ]

    /// Protocol headers whose names hold a credential word but whose values are not secrets
    /// (lower-case): `Access-Control-Allow-Credentials: true` and the WebSocket handshake's nonce.
    public static let publicNames: Set<String> = ["access-control-allow-credentials", "sec-websocket-key", "sec-websocket-accept"]

    /// Words that make a name secret wherever they stand (lower-case).
    public static let secretWords = ["password", "passwd", "passphrase", "secret", "credential", "credentials", "pwd"]

    /// Words that make a name secret when they are its last word (before a final `id`): a
    /// `token_type` is a kind of token, not one (lower-case).
    public static let secretKinds = ["token", "tokens", "key", "apikey", "session", "sessionid", "sid", "jwt", "signature", "cookie", "auth"]

    /// False keeps every value (`--journal-secrets`).
    public let enabled: Bool
    /// Names never redacted (lower-case), e.g. `--keep` in recording.
    public let kept: Set<String>

    /// A redactor; `enabled: false` shows everything.
    public init(enabled: Bool = true, keep: [String] = []) {
        self.enabled = enabled
        self.kept = Set(keep.map { $0.lowercased() })
    }

    /// Shows everything (the `--journal-secrets` choice, and matching itself).
    public static let off = Redactor(enabled: false)

    /// Whether values under `name` are hidden. Runs for every header of every request the
    /// journal keeps, so it reads ASCII bytes in place and allocates nothing.
    public func isSecret(_ name: String) -> Bool {
        guard enabled else { return false }
        if !kept.isEmpty && kept.contains(name.lowercased()) { return false }
        var name = name
        return name.withUTF8 { bytes in
            for secret in Self.secretNameBytes where Self.equal(bytes, 0..<bytes.count, secret) { return true }
            for name in Self.publicNameBytes where Self.equal(bytes, 0..<bytes.count, name) { return false }
            var last: Range<Int>?
            var beforeLast: Range<Int>?
            var found = false
            Self.forEachWord(in: bytes) { word in
                if !found, Self.secretWordBytes.contains(where: { Self.equal(bytes, word, $0) }) { found = true }
                beforeLast = last
                last = word
            }
            if found { return true }
            guard var head = last else { return false }
            if Self.equal(bytes, head, Self.idBytes), let previous = beforeLast { head = previous }
            return Self.secretKindBytes.contains { Self.equal(bytes, head, $0) }
        }
    }

    private static let secretNameBytes = secretNames.map { Array($0.utf8) }
    private static let publicNameBytes = publicNames.map { Array($0.utf8) }
    private static let secretWordBytes = secretWords.map { Array($0.utf8) }
    private static let secretKindBytes = secretKinds.map { Array($0.utf8) }
    private static let idBytes = Array("id".utf8)

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }
    @inline(__always)
    private static func isUpper(_ byte: UInt8) -> Bool { byte &- 65 < 26 }
    @inline(__always)
    private static func isLower(_ byte: UInt8) -> Bool { byte &- 97 < 26 }
    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }

    /// Calls `body` with each word's byte range: runs of letters and digits, split where a
    /// lower-case letter or digit meets an upper-case one (`refreshToken`) and before the last
    /// capital of a capital run followed by a lower-case letter (`APIKey` → `API`, `Key`).
    static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
        var start: Int?
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                if let begun = start { body(begun..<index) }
                start = nil
                continue
            }
            if let begun = start, isUpper(byte), index > begun {
                let previous = bytes[index - 1]
                let hump = isLower(previous) || isDigit(previous)
                let capitalRunEnds = isUpper(previous) && index + 1 < bytes.count && isLower(bytes[index + 1])
                if hump || capitalRunEnds {
                    body(begun..<index)
                    start = index
                }
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { body(begun..<bytes.count) }
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowerCased: [UInt8]) -> Bool {
        guard range.count == lowerCased.count else { return false }
        var offset = 0
        for index in range {
            if lower(bytes[index]) != lowerCased[offset] { return false }
            offset += 1
        }
        return true
    }

    /// `value`, or the placeholder when `name` is secret.
    public func value(_ value: String, named name: String) -> String {
        isSecret(name) ? Self.placeholder : value
    }

    /// Pairs (headers, query or form fields) with secret values replaced.
    public func pairs(_ pairs: [NameValue]) -> [NameValue] {
        guard enabled else { return pairs }
        return pairs.map { isSecret($0.name) ? NameValue($0.name, Self.placeholder) : $0 }
    }

    /// A raw query string (`a=1&api_key=s`) with secret values replaced, other bytes kept as sent.
    public func query(_ raw: String) -> String {
        guard enabled, !raw.isEmpty else { return raw }
        return raw.split(separator: "&", omittingEmptySubsequences: false).map { component -> String in
            guard let equals = component.firstIndex(of: "=") else { return String(component) }
            let name = FormCoding.decode(component[..<equals])
            return isSecret(name) ? "\(component[..<equals])=\(Self.placeholder)" : String(component)
        }.joined(separator: "&")
    }

    /// A JSON document with the values of secret-named members replaced, at any depth, by kind:
    /// a string that could be a secret becomes the placeholder; numbers, booleans, null, empty
    /// strings and `"none"` carry none and are kept (so `"token_expires": 3600` or
    /// `"password_set": false` replay as sent); an object or array under a secret name keeps its
    /// shape with its strings replaced.
    public func json(_ value: JSONValue) -> JSONValue {
        guard enabled else { return value }
        switch value {
        case .object(let members):
            return .object(members.map { member in
                (member.key, isSecret(member.key) ? Self.hidden(member.value) : json(member.value))
            })
        case .array(let items):
            return .array(items.map(json))
        default:
            return value
        }
    }

    /// What a JWT becomes: still a JWT (header `{"alg":"none","typ":"JWT"}`, payload
    /// `{"redacted":true}`), so an app that decodes its `id_token` on replay parses it instead
    /// of failing on `[redacted]`.
    public static let jwtPlaceholder = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJyZWRhY3RlZCI6dHJ1ZX0.cmVkYWN0ZWQ"

    /// Three non-empty base64url segments, the first a JSON object's (`eyJ…`): a JWT.
    static func isJWT(_ text: String) -> Bool {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, segments[0].hasPrefix("eyJ") else { return false }
        return segments.allSatisfy { segment in
            !segment.isEmpty && segment.utf8.allSatisfy { byte in
                (byte &- 48 < 10) || (byte &- 65 < 26) || (byte &- 97 < 26) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
        }
    }

    /// Strings that name no secret: kept under a secret name.
    static let innocentValues: Set<String> = ["", "none", "null", "undefined", "n/a"]

    /// `value`, under a secret name: its secret-looking strings replaced, the rest kept.
    static func hidden(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            if innocentValues.contains(text.lowercased()) { return value }
            return .string(isJWT(text) ? jwtPlaceholder : placeholder)
        case .object(let members): return .object(members.map { ($0.key, hidden($0.value)) })
        case .array(let items): return .array(items.map(hidden))
        default: return value
        }
    }

    /// Whether a body is of a kind whose fields have names (JSON, a form, multipart), and so may
    /// carry a secret the redactor would hide.
    public static func mayNameSecrets(_ body: [UInt8], contentType: String?) -> Bool {
        let type = contentType?.lowercased() ?? ""
        return type.contains("json") || type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/")
            || looksLikeJSON(body)
    }

    /// Whether a body starts like a JSON document (`{` or `[`, after a UTF-8 byte order mark).
    public static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        let first = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3).first : body.first
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// A body as the journal shows it: JSON and form bodies with secret fields replaced; other
    /// bodies as they are (nothing in them is named).
    public func body(_ body: [UInt8], contentType: String?) -> [UInt8] {
        guard enabled, !body.isEmpty else { return body }
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") || Self.looksLikeJSON(body) {
            if let parsed = try? JSONParser.parse(body) {
                let redacted = json(parsed)
                return redacted == parsed ? body : Array(JSONWriter.write(redacted, pretty: false).utf8)
            }
        }
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return Array(query(String(decoding: body, as: UTF8.self)).utf8)
        }
        if type.hasPrefix("multipart/form-data") { return multipart(body, contentType: contentType ?? "") }
        return body
    }

    /// A multipart body with the bytes of secret-named parts replaced, rebuilt with the same
    /// boundary — read from the header as sent: boundaries are case-sensitive
    /// (`----WebKitFormBoundaryAbC`, Alamofire's `alamofire.boundary.…`).
    func multipart(_ body: [UInt8], contentType: String) -> [UInt8] {
        guard let boundary = MultipartEncoding.boundary(fromContentType: contentType),
              let parts = MultipartEncoding.parse(body, boundary: boundary), parts.contains(where: { isSecret($0.name) }) else { return body }
        let redacted = parts.map { part -> MultipartPart in
            guard isSecret(part.name) else { return part }
            var hidden = part
            hidden.body = Array(Self.placeholder.utf8)
            return hidden
        }
        return MultipartEncoding.body(redacted, boundary: boundary)
    }
}
