import StubModel

/// Decides which names carry secrets and replaces their values with a fixed placeholder, so the
/// journal (admin output, log lines, near-miss reports) — and later recorded fixtures — never
/// show a credential unless the user asked for it (`--journal-secrets`).
///
/// A name is secret when it is one of the well-known credential headers or contains `token`,
/// `secret`, `session`, `password` or `key` (case-insensitive): `Authorization`, `Cookie`,
/// `X-Api-Key`, `?api_key=`, a JSON field `"refreshToken"`.
public struct Redactor: Sendable {
    /// What every secret value becomes.
    public static let placeholder = "[redacted]"

    /// Names redacted whatever they contain (lower-case).
    public static let secretNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    /// Parts of names that make a name secret (lower-case).
    public static let secretFragments = ["token", "secret", "session", "password", "key"]

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
    /// journal keeps, so it compares ASCII bytes in place and allocates nothing.
    public func isSecret(_ name: String) -> Bool {
        guard enabled else { return false }
        if !kept.isEmpty && kept.contains(name.lowercased()) { return false }
        var name = name
        return name.withUTF8 { bytes in
            for secret in Self.secretNameBytes where Self.equalsIgnoringASCIICase(bytes, secret) { return true }
            for fragment in Self.secretFragmentBytes where Self.containsIgnoringASCIICase(bytes, fragment) { return true }
            return false
        }
    }

    private static let secretNameBytes = secretNames.map { Array($0.utf8) }
    private static let secretFragmentBytes = secretFragments.map { Array($0.utf8) }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }

    private static func equalsIgnoringASCIICase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowerCased: [UInt8]) -> Bool {
        guard bytes.count == lowerCased.count else { return false }
        for index in 0..<bytes.count where lower(bytes[index]) != lowerCased[index] { return false }
        return true
    }

    private static func containsIgnoringASCIICase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowerCased: [UInt8]) -> Bool {
        guard bytes.count >= lowerCased.count, let first = lowerCased.first else { return false }
        var start = 0
        while start + lowerCased.count <= bytes.count {
            if lower(bytes[start]) == first {
                var offset = 1
                while offset < lowerCased.count && lower(bytes[start + offset]) == lowerCased[offset] { offset += 1 }
                if offset == lowerCased.count { return true }
            }
            start += 1
        }
        return false
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

    /// A JSON document with the values of secret-named members replaced, at any depth.
    public func json(_ value: JSONValue) -> JSONValue {
        guard enabled else { return value }
        switch value {
        case .object(let members):
            return .object(members.map { member in
                (member.key, isSecret(member.key) ? .string(Self.placeholder) : json(member.value))
            })
        case .array(let items):
            return .array(items.map(json))
        default:
            return value
        }
    }

    /// A body as the journal shows it: JSON and form bodies with secret fields replaced; other
    /// bodies as they are (nothing in them is named).
    public func body(_ body: [UInt8], contentType: String?) -> [UInt8] {
        guard enabled, !body.isEmpty else { return body }
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") || body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") {
            if let parsed = try? JSONParser.parse(body) {
                let redacted = json(parsed)
                return redacted == parsed ? body : Array(JSONWriter.write(redacted, pretty: false).utf8)
            }
        }
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return Array(query(String(decoding: body, as: UTF8.self)).utf8)
        }
        return body
    }
}
