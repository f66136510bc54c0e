import FixtureFiles
import StubModel

/// Readable, stable names for recorded fixtures: `GET-users-octocat` from the method and path,
/// `GitHubAPI.userProfile` from the target that covers the request; a short hash of the request
/// (`GET-search-3f9a1c`) only when two requests would get the same name.
enum FixtureNaming {
    /// Names are cut to this many characters (before the hash suffix and extension).
    static let maximumLength = 80

    /// `GET-users-octocat` for `GET /users/octocat`; `GET-root` for `/`.
    static func name(method: String, rawPath: String) -> String {
        let segments = PathSegments(raw: rawPath).segments.map(sanitized).filter { !$0.isEmpty }
        return clipped(([sanitized(method)] + (segments.isEmpty ? ["root"] : segments)).joined(separator: "-"))
    }

    /// `GitHubAPI.userProfile` for the compiled target `userProfile(login: "octocat")` of type
    /// `GitHubAPI` (its source reads `swift GitHubAPI`).
    static func name(target fixture: Fixture) -> String {
        let type = fixture.source.hasPrefix("swift ") ? String(fixture.source.dropFirst(6)) : ""
        let caseName = String(fixture.name.prefix { $0 != "(" })
        return clipped(sanitized(type.isEmpty ? caseName : "\(type).\(caseName)"))
    }

    /// Six hex digits identifying `pattern`, the same on every machine and run (FNV-1a over the
    /// fixture's own `request` text).
    static func hashSuffix(_ pattern: RequestPattern) -> String {
        let text = JSONWriter.write(FixtureWriter.request(pattern), pretty: false)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).prefix(6))
    }

    /// Letters, digits, `.`, `_` and `-` kept; every other run of characters becomes one `_`.
    static func sanitized(_ text: String) -> String {
        var out = ""
        var lastWasReplacement = false
        for scalar in text.unicodeScalars {
            let ok = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
            if ok {
                out.unicodeScalars.append(scalar)
                lastWasReplacement = false
            } else if !lastWasReplacement {
                out += "_"
                lastWasReplacement = true
            }
        }
        while out.hasPrefix(".") { out.removeFirst() }
        return out
    }

    private static func clipped(_ name: String) -> String {
        name.count <= maximumLength ? name : String(name.prefix(maximumLength))
    }
}
